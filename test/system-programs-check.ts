// The pure half of the system-programs helper (system-programs.ts): finding the programs some tests
// drive for real, the reasons one cannot serve, what the tests do then, and the end-of-run lines.
// It does not import vitest, so vitest's globalSetup (system-programs-note.ts) can use it too.
// Programs are found as the speech backends find them (spawn without a shell): on PATH.

import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const PROGRAMS = ['chromium', 'espeak-ng', 'festival'] as const;
export type Program = (typeof PROGRAMS)[number];

/** The Debian packages for all of them (festival only recommends its voice, so it is named). */
export const INSTALL = 'sudo apt-get install chromium espeak-ng festival festvox-kallpc16k';

type Env = Readonly<Record<string, string | undefined>>;

/** Under CI the programs are required: CI set to anything but empty, 0 or false. */
export function isCI(env: Env = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false';
}

/** The executable file `name` on PATH, as spawn would run it, or null. */
export function findOnPath(name: string, env: Env = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there, or not executable: the next folder
    }
  }
  return null;
}

/**
 * Why `program` cannot serve the tests (null: it can), and where it is. festival is asked for its
 * voices: without one (its voice package is only recommended) it runs but writes no audio.
 */
export function checkProgram(program: Program, env: Env = process.env): { path: string | null; reason: string | null } {
  const path = findOnPath(program, env);
  if (!path) return { path, reason: `${program} is not installed` };
  if (program === 'festival') {
    const r = spawnSync(path, ['--pipe'], {
      input: '(print (voice.list))\n',
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...env },
    });
    // It prints a list such as (kal_diphone), or nil without any voice.
    if (r.status !== 0 || !/\(\s*[\w-]/.test(r.stdout ?? ''))
      return { path, reason: 'festival has no voice (festvox-kallpc16k is not installed)' };
  }
  return { path, reason: null };
}

/** The skip note of a test that needs the programs missing for these reasons. */
export const skipNote = (reasons: readonly string[]): string => reasons.join('; ');

/**
 * The tests on a real ROS 2 graph (test/ros2/, their helper ros2-graph.ts) skip the same way; their
 * reasons start with this, and are enabled by sourcing ROS 2 rather than by an install line.
 */
export const ROS2_REASON = 'ROS 2 ';
export const ROS2_ENABLE = 'source launch/ros2/env.sh (docs/development.md, "The tests on ROS 2")';

/** The reasons in a skip note that are this helper's (the other notes are someone else's). */
export const reasonsIn = (note: string | undefined): string[] =>
  (note ?? '').split('; ').filter((r) => r.startsWith(ROS2_REASON) || PROGRAMS.some((p) => r.startsWith(`${p} `)));

/** The end-of-run lines: one per reason, with how many tests it skipped. */
export function summary(notes: readonly (string | undefined)[]): string[] {
  const counts = new Map<string, number>();
  for (const note of notes) for (const r of reasonsIn(note)) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(
    ([reason, n]) =>
      `skipped ${n} test${n === 1 ? '' : 's'}: ${reason}; enable with: ${reason.startsWith(ROS2_REASON) ? ROS2_ENABLE : INSTALL}`,
  );
}

/** The error under CI, naming what is missing (vitest names the test file it fails). */
export const requiredMessage = (reasons: readonly string[]): string =>
  `${reasons.join('; ')}: under CI (CI=true) the tests that need it must run, not skip; install with: ${INSTALL}`;

/** What the tests that need programs do, given why they cannot run (no reasons: they run). */
export function verdict(
  reasons: readonly string[],
  env: Env = process.env,
): { run: true } | { skip: string } | { fail: string } {
  if (reasons.length === 0) return { run: true };
  return isCI(env) ? { fail: requiredMessage(reasons) } : { skip: skipNote(reasons) };
}

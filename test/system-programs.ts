// The system programs some tests drive for real: Debian's chromium (the dashboard in a browser),
// espeak-ng and festival with its voice (speech). A test that needs one calls `requirePrograms` in
// its describe block (or at the top of its file), and nothing else checks for programs:
//
//   - installed: the tests run;
//   - missing, on a developer's machine: every test of the block is skipped with the reason as its
//     note, and the run ends with one line per missing program on stderr saying how many tests it
//     skipped and how to install it (system-programs-note.ts, vitest's globalSetup);
//   - missing under CI (CI=true, as .ci/run sets it): the test file fails at once, naming the program
//     and the install line. CI never skips.
//
// Programs are found as the speech backends find them (spawn without a shell): on PATH. The pure part
// (finding, reasons, the summary) is system-programs-check.ts, tested in system-programs.test.ts.

import { beforeEach } from 'vitest';
import type { Program } from './system-programs-check.js';
import { checkProgram, verdict } from './system-programs-check.js';

export { INSTALL, PROGRAMS } from './system-programs-check.js';
export type { Program } from './system-programs-check.js';

/** Checked once per test file (festival's check runs a program). */
const checked = new Map<Program, { path: string | null; reason: string | null }>();

/**
 * The tests of the enclosing describe block (or file) need these programs: returns their paths
 * (null when missing). When one is missing they are skipped (hooks that start a program must check
 * its path), or under CI the file fails here.
 */
export function requirePrograms<P extends Program>(...programs: P[]): Record<P, string | null> {
  const paths = {} as Record<P, string | null>;
  const reasons: string[] = [];
  for (const p of programs) {
    if (!checked.has(p)) checked.set(p, checkProgram(p));
    const { path, reason } = checked.get(p)!;
    paths[p] = reason ? null : path;
    if (reason) reasons.push(reason);
  }
  const v = verdict(reasons);
  if ('fail' in v) throw new Error(v.fail);
  if ('skip' in v) beforeEach((ctx) => ctx.skip(v.skip));
  return paths;
}

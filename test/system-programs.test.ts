// The helper that finds the system programs some tests need (system-programs.ts): found as spawn
// finds them, on PATH; festival without a voice does not count; missing means skipped with a note,
// except under CI, where it is an error; the end of the run counts the skipped tests per program.

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  INSTALL,
  ROS2_ENABLE,
  checkProgram,
  findOnPath,
  isCI,
  reasonsIn,
  summary,
  verdict,
} from './system-programs-check.js';
import { tempDir } from './behaviours/helpers.js';

/** A folder of stand-in programs: name to shell script body (null: a file that is not executable). */
function bin(files: Record<string, string | null>): string {
  const dir = tempDir('parceiro-bin-');
  for (const [name, body] of Object.entries(files)) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body ?? ''}\n`);
    chmodSync(file, body === null ? 0o644 : 0o755);
  }
  return dir;
}

describe('system programs for the tests', () => {
  it('is under CI when CI is set to anything but empty, 0 or false', () => {
    for (const ci of ['true', '1', 'yes', 'TRUE']) expect(isCI({ CI: ci }), ci).toBe(true);
    for (const ci of [undefined, '', '0', 'false', 'False']) expect(isCI({ CI: ci }), String(ci)).toBe(false);
  });

  it('finds a program on PATH as spawn would: the first executable file of that name', () => {
    const a = bin({ 'espeak-ng': null, chromium: 'exit 0' });
    const b = bin({ 'espeak-ng': 'exit 0' });
    mkdirSync(join(a, 'festival'));
    const PATH = ['', join(a, 'nowhere'), a, b].join(delimiter);
    expect(findOnPath('chromium', { PATH })).toBe(join(a, 'chromium'));
    // Not executable in a, so b's.
    expect(findOnPath('espeak-ng', { PATH })).toBe(join(b, 'espeak-ng'));
    // A folder is not a program.
    expect(findOnPath('festival', { PATH })).toBeNull();
    expect(findOnPath('chromium', {})).toBeNull();
  });

  it('says why a program cannot serve: not installed, or festival without a voice', () => {
    expect(checkProgram('chromium', { PATH: bin({}) })).toEqual({ path: null, reason: 'chromium is not installed' });
    const voiced = bin({ festival: "echo '(kal_diphone)'" });
    expect(checkProgram('festival', { PATH: voiced })).toEqual({ path: join(voiced, 'festival'), reason: null });
    const mute = bin({ festival: 'echo nil' });
    expect(checkProgram('festival', { PATH: mute }).reason).toBe(
      'festival has no voice (festvox-kallpc16k is not installed)',
    );
  });

  it('skips with the reasons as the note, or under CI fails naming them and the install line', () => {
    expect(verdict([], { CI: 'true' })).toEqual({ run: true });
    expect(verdict(['festival is not installed', 'espeak-ng is not installed'], {})).toEqual({
      skip: 'festival is not installed; espeak-ng is not installed',
    });
    const ci = verdict(['chromium is not installed'], { CI: 'true' });
    expect(ci).toEqual({
      fail: `chromium is not installed: under CI (CI=true) the tests that need it must run, not skip; install with: ${INSTALL}`,
    });
    expect(INSTALL).toBe('sudo apt-get install chromium espeak-ng festival festvox-kallpc16k');
  });

  it('counts the skipped tests once per missing program, ignoring other skips', () => {
    expect(reasonsIn('festival is not installed; espeak-ng is not installed')).toEqual([
      'festival is not installed',
      'espeak-ng is not installed',
    ]);
    expect(reasonsIn('flaky on Tuesdays')).toEqual([]);
    const notes = [
      'chromium is not installed',
      'chromium is not installed',
      'espeak-ng is not installed',
      'festival is not installed; espeak-ng is not installed',
      undefined,
      'todo',
    ];
    expect(summary(notes)).toEqual([
      `skipped 2 tests: chromium is not installed; enable with: ${INSTALL}`,
      `skipped 2 tests: espeak-ng is not installed; enable with: ${INSTALL}`,
      `skipped 1 test: festival is not installed; enable with: ${INSTALL}`,
    ]);
    expect(summary([undefined, 'todo'])).toEqual([]);
  });

  it('says how to enable the tests on ROS 2, which need a sourced ROS 2 rather than a program', () => {
    expect(
      summary(['ROS 2 is not sourced (ROS_DISTRO is not set)', 'ROS 2 is not sourced (ROS_DISTRO is not set)']),
    ).toEqual([`skipped 2 tests: ROS 2 is not sourced (ROS_DISTRO is not set); enable with: ${ROS2_ENABLE}`]);
  });
});

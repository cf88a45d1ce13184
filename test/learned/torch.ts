// Tests that train a network need python3 with torch (Debian's python3-torch). Like the system programs
// (test/system-programs.ts): installed, they run; missing on a developer's machine, they are skipped with
// the reason; missing under CI (CI=true, .ci/run installs python3-torch), the file fails. CI never skips.

import { beforeEach } from 'vitest';
import { verdict } from '../system-programs-check.js';
import { findTorchPython } from '../../launch/commands/train.js';

export const TORCH_INSTALL = 'sudo apt-get install python3-torch';

/** The python3 that imports torch (null when missing: the enclosing block's tests are skipped, or under CI the file fails). */
export function requireTorch(): string | null {
  const py = findTorchPython();
  const v = verdict(py ? [] : ['python3 cannot import torch']);
  if ('fail' in v) throw new Error(v.fail.replace(/install with: .*$/, `install with: ${TORCH_INSTALL}`));
  if ('skip' in v) beforeEach((ctx) => ctx.skip(`${v.skip}; enable with: ${TORCH_INSTALL}`));
  return py;
}

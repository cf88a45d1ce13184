// `--level NAME` on the commands that run the robot node (simulate, live, play): an unknown level is a
// one-line mistake naming the flag and the known levels, exit code 2, before anything opens.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const cwd = mkdtempSync(join(tmpdir(), 'parceiro-level-flag-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('--level', () => {
  for (const command of ['simulate', 'live', 'play']) {
    it(`${command}: an unknown level is one line naming --level and the levels, exit code 2`, async () => {
      const { code, out, err } = await runCli([command, '--level', 'novice', '--recordings', join(cwd, 'rec')], cwd);
      expect(code, err).toBe(2);
      expect(out).toBe('');
      expect(err.trim().split('\n')).toEqual([
        'parceiro: error: --level expects one of beginner, casual, club, expert, full, got "novice"',
      ]);
      // Nothing was opened or recorded.
      expect(readdirSync(cwd)).toEqual([]);
    });
  }

  it('is documented in the help of each command', async () => {
    for (const command of ['simulate', 'live', 'play']) {
      const { code, out } = await runCli([command, '--help'], cwd);
      expect(code).toBe(0);
      expect(out.replace(/\s+/g, ' ')).toMatch(
        /--level <name> the robot's level of play: beginner, casual, club, expert or full/,
      );
    }
  });
});

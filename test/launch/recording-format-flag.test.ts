// `--recording-format json|ros2` on the commands that record (simulate, live, play): anything else is a
// one-line mistake naming the flag and the formats, exit code 2, before anything opens.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const cwd = mkdtempSync(join(tmpdir(), 'parceiro-format-flag-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('--recording-format', () => {
  for (const command of ['simulate', 'live', 'play']) {
    it(`${command}: an unknown format is one line naming --recording-format and the formats, exit code 2`, async () => {
      const { code, out, err } = await runCli(
        [command, '--recording-format', 'rosbag', '--recordings', join(cwd, 'rec')],
        cwd,
      );
      expect(code, err).toBe(2);
      expect(out).toBe('');
      expect(err.trim().split('\n')).toEqual([
        'parceiro: error: --recording-format expects json or ros2, got "rosbag"',
      ]);
      // Nothing was opened or recorded.
      expect(readdirSync(cwd)).toEqual([]);
    });
  }

  it('is documented in the help of each command', async () => {
    for (const command of ['simulate', 'live', 'play']) {
      const { code, out } = await runCli([command, '--help'], cwd);
      expect(code).toBe(0);
      expect(out.replace(/\s+/g, ' ')).toMatch(/--recording-format <format> json or ros2, the rosbag2 MCAP profile/);
    }
  });
});

// `parceiro replay` given something that is not a recording
// stops at once with one line and exit code 2: /dev/zero (read without limit before: 1.5 GB in
// 5.6 s), a FIFO (blocked for ever with no writer), a directory, a file that is not MCAP.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-not-a-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parceiro replay of what is not a recording', () => {
  const fifo = join(dir, 'pipe.mcap');
  execFileSync('mkfifo', [fifo]);
  mkdirSync(join(dir, 'folder.mcap'));
  writeFileSync(join(dir, 'text.mcap'), 'not a recording at all\n'.repeat(1000));
  const cases: [string, string, RegExp][] = [
    ['/dev/zero', '/dev/zero', /^parceiro: error: \/dev\/zero: is a character device, not a recording file\n$/],
    ['a FIFO', fifo, /^parceiro: error: .*pipe\.mcap: is a named pipe \(FIFO\), not a recording file\n$/],
    [
      'a directory',
      join(dir, 'folder.mcap'),
      /^parceiro: error: .*folder\.mcap: is a directory, not a recording file\n$/,
    ],
    [
      'a file that is not MCAP',
      join(dir, 'text.mcap'),
      /^parceiro: error: .*text\.mcap: not an MCAP recording \(no MCAP header\)\n$/,
    ],
  ];
  for (const [name, path, line] of cases) {
    it(`${name}: one line, exit 2`, async () => {
      const r = await runCli(['replay', path], dir);
      expect(r.err).toMatch(line);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
    }, 60_000);
  }
});

// parceiro live, started as the ROS 2 launch file starts it when no token is set (`--token ''`):
// it makes a token and prints it, rather than failing. Stopped with SIGINT once it is waiting.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parceiro live', () => {
  it("makes a token when given an empty one (the launch file's default), and stops cleanly on SIGINT", async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'live', '--token', '', '--port', '0', '--dashboard-port', '0', '--no-record'],
      { cwd: dir },
    );
    let out = '';
    let err = '';
    let stopped = false;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!stopped && /^Not recording\.$/m.test(out)) {
        stopped = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(err).not.toMatch(/non-empty token|\n\s+at /);
    expect(out).toMatch(/^Token: [0-9a-f]{24}$/m);
    expect(out).toMatch(/^Stopped \(interrupted\)/m);
    expect(code).toBe(0);
  });
});

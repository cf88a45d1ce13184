// `parceiro play --host 0.0.0.0` (a phone at the table): the links it prints name an address of this
// machine, which another computer can open, never "every interface" (0.0.0.0), which it cannot.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from './run-cli.js';

const cwd = mkdtempSync(join(tmpdir(), 'parceiro-play-host-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('parceiro play --host 0.0.0.0', () => {
  it('prints links another computer can open', async () => {
    const run = startCli(['play', '--host', '0.0.0.0', '--no-record', '--games', '1', '--seed', '3'], cwd);
    try {
      const until = Date.now() + 90_000;
      while (!/Table server: /.test(run.out()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      const out = run.out();
      expect(out).toMatch(/Open the virtual table \(it takes your seat\): http:\/\/[^/\s]+:\d+\/table#pass=/);
      expect(out).toMatch(/Operator dashboard: http:\/\/[^/\s]+:\d+\/#pass=/);
      expect(out).toMatch(/\/table#pass=/);
      expect(out).toMatch(/Table server: http:\/\//);
      expect(out).not.toMatch(/0\.0\.0\.0|\[::\]/);
    } finally {
      run.child.kill('SIGINT');
      await run.done;
    }
  }, 120_000);
});

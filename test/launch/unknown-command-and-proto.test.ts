// Two small mistakes said in one line: a word that is no command (simulate is the default command, so
// commander took it for simulate's argument), and a "__proto__" key in a config file (dropped in
// silence when the file became an object, where "constructor" was refused).

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type * as TableBridge from '../../table-bridge/index.js';
import { runCli } from './run-cli.js';

const bridge = (await import(new URL('../../dist/table-bridge/index.js', import.meta.url).href)) as typeof TableBridge;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-unknown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parceiro with a word that is no command', () => {
  it('says "unknown command" in one line, exit 2', async () => {
    const r = await runCli(['frobnicate'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^parceiro: error: unknown command 'frobnicate' \(the commands: simulate, live, .*\)\n$/);
    expect(r.out).toBe('');
  });
});

describe('a "__proto__" key in a config file', () => {
  it('is refused with its file and line, as "constructor" is', () => {
    const shipped = new URL('../../config/table/fiducials.yaml', import.meta.url);
    for (const key of ['__proto__', 'constructor']) {
      const file = join(dir, `fiducials-${key}.yaml`);
      copyFileSync(shipped, file);
      const lines = readFileSync(file, 'utf8').split('\n');
      const at = lines.indexOf('  9: AS');
      lines[at] = `  ${key}: AS`;
      writeFileSync(file, lines.join('\n'));
      expect(() => bridge.loadFiducials(file), key).toThrow(new RegExp(`^${file}:${at + 1}(:\\d+)?: .*${key}`));
    }
  });
});

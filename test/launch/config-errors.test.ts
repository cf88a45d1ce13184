// A mistake in a config file stops the program with one line that names the file, the line and the
// key, and exit code 2, never a stack trace, whichever command reads it (simulate, and simulate
// --resume, which reads the character only once it has the recording). The built program is copied
// with its config so that a file can be broken without touching the repository's.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'parceiro-config-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

beforeAll(() => {
  for (const d of ['dist', 'config']) cpSync(join(root, d), join(copy, d), { recursive: true });
  cpSync(join(root, 'package.json'), join(copy, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  mkdirSync(join(copy, 'work'));
});

function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(copy, 'dist/launch/cli.js'), ...args], { cwd: join(copy, 'work') });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

/** Replaces `from` by `to` in a config file of the copy, and gives the line it is on. */
function breakConfig(file: string, from: string, to: string): number {
  const path = join(copy, 'config', file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
  return text.slice(0, text.indexOf(from)).split('\n').length;
}

describe('a broken config file', () => {
  it('stops simulate with one line naming the file, line and key, exit code 2', async () => {
    const line = breakConfig('appraisal/neutral.yaml', 'rules:', 'rules:\n  - nonsense: 1');
    const r = await run(['simulate', '--games', '1', '--no-record']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(new RegExp(`^parceiro: error: .*config/appraisal/neutral\\.yaml:${line + 1}: rules\\[0\\]`));
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

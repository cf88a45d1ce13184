// Fault suite: every command that reads a file or standard input reads within a bound and says so in
// one line. /dev/zero (as a file and as standard input), a file just over a command's bound, and every
// other file a command reads from its options (a character, levels, a camera table's settings, a
// model, a dataset) set to /dev/zero: one line `parceiro: error:` naming the bound, exit 2, never a
// process that grows until it dies. Each run's memory is capped by prlimit where there is one, so a
// build without the bounds dies quickly (an abort) instead of taking the machine's memory.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, Tally, oneLineError } from './fault-kit.js';

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p));
const HANG_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-input-bounds-'));
const scenario = fileURLToPath(new URL('../fixtures/appraisal/ace-captured.jsonl', import.meta.url));
const record = fileURLToPath(new URL('../fixtures/records/complete.json', import.meta.url));
const tally = new Tally('input-bounds');

interface Ran {
  code: number;
  signal: string | null;
  out: string;
  err: string;
}

/** `parceiro args...` with `stdin` (a file) on its standard input, its address space capped at 3 GB. */
function cli(args: string[], stdin = '/dev/null'): Promise<Ran> {
  const [cmd, ...rest] = PRLIMIT
    ? [PRLIMIT, '--as=3000000000', process.execPath, CLI, ...args]
    : [process.execPath, CLI, ...args];
  return new Promise((resolve) => {
    const fd = openSync(stdin, 'r');
    const child = spawn(cmd!, rest, { cwd: dir, stdio: [fd, 'pipe', 'pipe'] });
    closeSync(fd);
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, out, err });
    });
  });
}

afterAll(() => {
  tally.write();
  rmSync(dir, { recursive: true, force: true });
});

/** One line, exit 2, and the line says the bound (or that the file is not one to read). */
async function refused(args: string[], stdin?: string): Promise<void> {
  const r = await cli(args, stdin);
  const what = `parceiro ${args.join(' ')}${stdin ? ` < ${stdin}` : ''}`;
  let problem = oneLineError(r);
  if (!problem && !/more than \d|longer than \d|is a character device/.test(r.err))
    problem = `the line does not say the bound: ${r.err.trim()}`;
  tally.note(args[0]!, problem && `${what}: ${problem}`);
  expect(problem, what).toBeNull();
}

describe('commands read files and standard input within a bound', () => {
  it('score, solve and appraise refuse /dev/zero, as a file and as standard input, in one line', async () => {
    await refused(['score', '/dev/zero']);
    await refused(['score', '-'], '/dev/zero');
    await refused(['solve', '/dev/zero']);
    await refused(['solve', '-'], '/dev/zero');
    await refused(['appraise', '/dev/zero', '--json']);
    await refused(['appraise', '-', '--json'], '/dev/zero');
  }, 600_000);

  it('a file over the bound is refused by its size; one under it is read', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, `{"dealer": 0${' '.repeat(2 << 20)}}`);
    await refused(['score', big]);
    const r = await cli(['score', '-'], record);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toHaveProperty('points');
  }, 120_000);

  it('game records, characters, levels, models and datasets named /dev/zero are refused in one line', async () => {
    await refused(['predict-eval', '--records', '/dev/zero']);
    await refused(['predict-eval', '--records', '-'], '/dev/zero');
    await refused(['dataset', '--out', join(dir, 'd.jsonl'), '--records', '/dev/zero']);
    await refused(['appraise', scenario, '--character', '/dev/zero', '--json']);
    await refused(['match', '--team-a', 'level:name=beginner,rule', '--levels', '/dev/zero', '--games', '1']);
    await refused(['predict-eval', '--models', 'learned', '--model', '/dev/zero', '--games', '1']);
    await refused(['train', '--data', '/dev/zero', '--out', join(dir, 'm.onnx')]);
    await refused(['simulate', '--character', '/dev/zero', '--no-record', '--games', '1']);
  }, 600_000);
});

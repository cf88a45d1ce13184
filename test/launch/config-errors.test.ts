// A mistake in a config file stops the program with one line that names the file, the line and the
// key, and exit code 2, never a stack trace, whichever command reads it (simulate, and simulate
// --resume, which reads the character only once it has the recording). The built program is copied
// with its config so that a file can be broken without touching the repository's. Then every
// start-up mistake a person can make (weak tokens, a bad address, a port in use, a recordings folder that
// cannot be, a session id that is a path, a language or character that does not exist): one line
// `parceiro: error: ...` naming the option and value, exit code 2, and no recording left behind.

import { rm } from 'node:fs/promises';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'parceiro-config-'));
// Four copies of the program: on a loaded CI machine their removal alone outlasted the default 10 s.
afterAll(() => rm(copy, { recursive: true, force: true }), 120_000);

/** The compiled tests and source maps are not the program: left out of the copies. */
const notProgram = (src: string): boolean => src.endsWith('.map') || src === join(root, 'dist/test');

/** A copy of the built program with its config, at `at`. */
function makeCopy(at: string): void {
  for (const d of ['dist', 'config'])
    cpSync(join(root, d), join(at, d), { recursive: true, filter: (src) => !notProgram(src) });
  cpSync(join(root, 'package.json'), join(at, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(at, 'node_modules'));
  mkdirSync(join(at, 'work'));
}

/**
 * The cases of "each config file broken" run three at a time (each program is short, and the cases
 * are most of this file's time), each on a copy of its own, since each breaks a file of its copy.
 */
const LANES = 3;
const lanes: string[] = [];
const waitingForLane: ((at: string) => void)[] = [];
async function withCopy(work: (at: string) => Promise<void>): Promise<void> {
  const at = lanes.pop() ?? (await new Promise<string>((resolve) => waitingForLane.push(resolve)));
  try {
    await work(at);
  } finally {
    const next = waitingForLane.shift();
    if (next) next(at);
    else lanes.push(at);
  }
}

beforeAll(() => {
  makeCopy(copy);
  for (let i = 1; i <= LANES; i++) {
    const at = join(copy, `lane-${i}`);
    makeCopy(at);
    lanes.push(at);
  }
}, 120_000);

/** Runs the program of the copy at `at` in its work/; one that has not ended after 90 s (it should have failed at once) is killed. */
function run(args: string[], at = copy): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(at, 'dist/launch/cli.js'), ...args], { cwd: join(at, 'work') });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const safety = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(safety);
      resolve({ code: code ?? -1, out, err });
    });
  });
}

/**
 * One line `parceiro: error: ...` containing `fragment`, exit code 2, no stack trace. (live's JSON log
 * lines, e.g. the table server listening before the dashboard's port turns out to be in use, are the
 * log, not the error, and are left aside.)
 */
function expectOneLine(r: { code: number; out: string; err: string }, fragment: string | RegExp, what: string): void {
  const lines = r.err
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('{"level":'));
  const shown = `${what}: exit ${r.code}\n${r.err}`;
  expect(r.code, shown).toBe(2);
  expect(lines, shown).toHaveLength(1);
  expect(lines[0], shown).toMatch(/^parceiro: error: /);
  if (typeof fragment === 'string') expect(lines[0], shown).toContain(fragment);
  else expect(lines[0], shown).toMatch(fragment);
  expect(r.err, shown).not.toMatch(/\n\s+at /);
}

/** The copy's config files as they were, put back after each test. */
const originals = new Map<string, string>();
afterEach(() => {
  for (const [path, text] of originals) writeFileSync(path, text);
  originals.clear();
});

/** Replaces `from` by `to` in a config file of the copy (until the test ends), and gives the line it is on. */
function breakConfig(file: string, from: string, to: string): number {
  const path = join(copy, 'config', file);
  const text = readFileSync(path, 'utf8');
  if (!originals.has(path)) originals.set(path, text);
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

// Each config file, broken in three ways, with a command that reads it: the one line names the file.
const SIMULATE = ['simulate', '--games', '1', '--no-record', '--bot-think', '0', '--budget', '1', '--min-think', '0'];
const READERS: [file: string, args: string[]][] = [
  ['node.yaml', SIMULATE],
  ['session.yaml', SIMULATE],
  ['behaviours.yaml', SIMULATE],
  ['postures.yaml', SIMULATE],
  ['table-geometry.yaml', SIMULATE],
  ['utterances/pt.yaml', SIMULATE],
  ['utterances/en.yaml', SIMULATE],
  ['appraisal/appraisal.yaml', SIMULATE],
  ['appraisal/warm.yaml', SIMULATE],
  ['appraisal/competitive.yaml', [...SIMULATE, '--character', 'competitive']],
  ['appraisal/neutral.yaml', [...SIMULATE, '--character', 'neutral']],
  ['table/fiducials.yaml', SIMULATE],
  ['table/tuio.yaml', ['live', '--tuio', '0', '--no-record', '--port', '0', '--dashboard-port', '0']],
];
// Nine levels of nine aliases: 9^9 (387 million) strings if expanded, a few hundred bytes of text.
const ALIAS_BOMB =
  [
    'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
    ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
  ].join('\n') + '\n';
const BREAKAGES: [how: string, to: (text: string) => string, says: RegExp][] = [
  ['a syntax error', (t) => `${t}\n  : : [\n`, /not valid YAML|YAML|flow|Nested|indent|map|collection/i],
  ['a number for the whole file', () => '42\n', /expected|object|map|Invalid/i],
  ['a YAML alias bomb', () => ALIAS_BOMB, /alias/i],
  // An empty character preset was taken as a character of no rules (found by the fault suite).
  ['an empty file', () => '# nothing but a comment\n', /empty|expected|missing|Invalid/i],
];

describe('two config files broken', () => {
  it('are told one line each, each marked as an error', async () => {
    for (const file of ['postures.yaml', 'table-geometry.yaml']) {
      const path = join(copy, 'config', file);
      originals.set(path, readFileSync(path, 'utf8'));
      writeFileSync(path, '42\n');
    }
    const r = await run(SIMULATE);
    expect(r.code).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines.length, r.err).toBe(2);
    for (const [i, file] of ['postures.yaml', 'table-geometry.yaml'].entries())
      expect(lines[i]).toMatch(new RegExp(`^parceiro: error: config/${file.replace('.', '\\.')}`));
  });
});

describe.concurrent('each config file broken', () => {
  for (const [file, args] of READERS) {
    it(
      `${file}: one line naming the file, exit code 2, for a syntax error, a wrong shape, an alias bomb and an empty file`,
      () =>
        withCopy(async (at) => {
          const path = join(at, 'config', file);
          const text = readFileSync(path, 'utf8');
          try {
            for (const [how, to, says] of BREAKAGES) {
              writeFileSync(path, to(text));
              const r = await run(args, at);
              expectOneLine(r, `config/${file}`, `${file} with ${how}`);
              expect(r.err, `${file} with ${how}`).toMatch(says);
            }
          } finally {
            writeFileSync(path, text);
          }
        }),
      300_000,
    );
  }
});

describe('a character', () => {
  it('without appraisal rules (a description only) is refused in one line naming its file', async () => {
    const path = join(copy, 'config', 'appraisal', 'warm.yaml');
    const text = readFileSync(path, 'utf8');
    try {
      writeFileSync(path, 'description: a character that feels nothing\n');
      expectOneLine(
        await run(SIMULATE),
        /config\/appraisal\/warm\.yaml(:\d+)?: a character needs appraisal rules: this file has none/,
        'no rules',
      );
    } finally {
      writeFileSync(path, text);
    }
  });
});

describe('a start-up mistake', () => {
  let busy: Server;
  let port = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('is told in one line naming the option and value, exit code 2, and leaves no recording', async () => {
    const aFile = join(copy, 'work', 'a-file');
    writeFileSync(aFile, 'not a folder\n');
    const live = ['live', '--port', '0', '--dashboard-port', '0'];
    const play = ['play', '--port', '0', '--dashboard-port', '0'];
    const cases: [args: string[], says: string][] = [
      [[...live, '--token', 'abc'], '--token: a token needs at least 16 characters, got 3'],
      [[...live, '--token', 'x'], '--token: a token needs at least 16 characters, got 1'],
      [[...live, '--token', 'sixteen chars ok'], '--token: a token is printable ASCII without spaces'],
      [[...live, '--dashboard-token', 'abc'], '--dashboard-token: a token needs at least 16 characters'],
      [[...play, '--dashboard-token', 'abc'], '--dashboard-token: a token needs at least 16 characters'],
      [[...live, '--character', 'nosuch'], 'unknown character "nosuch"'],
      [[...live, '--language', 'xx'], 'language "xx": no utterances in that language (there are: en, pt)'],
      [[...SIMULATE, '--language', 'xx'], 'language "xx": no utterances in that language'],
      [[...live, '--host', '999.1.1.1'], '--host "999.1.1.1": no such address or host name'],
      [[...live, '--host', '192.0.2.1'], '--host "192.0.2.1": not an address of this machine'],
      [[...play, '--host', '999.1.1.1'], '--host "999.1.1.1": no such address or host name'],
      [['live', '--port', String(port), '--dashboard-port', '0'], `--port ${port}: the port is in use`],
      [['live', '--port', '0', '--dashboard-port', String(port)], `--dashboard-port ${port}: the port is in use`],
      [['play', '--port', String(port), '--dashboard-port', '0'], `--port ${port}: the port is in use`],
      [['play', '--port', '0', '--dashboard-port', String(port)], `--dashboard-port ${port}: the port is in use`],
      // Node's recursive mkdir never returns under /proc: refused at once instead.
      [
        ['simulate', '--games', '1', '--recordings', '/proc/parceiro-x'],
        '--recordings "/proc/parceiro-x": cannot keep recordings there',
      ],
      [[...live, '--recordings', '/proc/parceiro-x'], '--recordings "/proc/parceiro-x": cannot keep recordings there'],
      [
        ['simulate', '--games', '1', '--recordings', aFile],
        'cannot keep recordings there (it is a file, not a folder)',
      ],
      [
        [...play, '--recordings', join(aFile, 'x')],
        'cannot keep recordings there (a part of the path is a file, not a folder)',
      ],
      [
        ['simulate', '--resume', '../../../outside'],
        '--resume expects a session id (letters, digits, dot, dash or underscore), got "../../../outside"',
      ],
      [
        [...live, '--resume', '../../../outside'],
        '--resume expects a session id (letters, digits, dot, dash or underscore), got "../../../outside"',
      ],
      [['simulate', '--session', '../outside'], '--session expects a session id'],
      [['simulate', '--session', '..'], '--session expects a session id'],
    ];
    // Three at a time: each is a short-lived program.
    const queue = [...cases];
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c; c = queue.shift()) expectOneLine(await run(c[0]), c[1], c[0].join(' '));
    };
    await Promise.all([worker(), worker(), worker()]);
    // Every one failed before or while starting: none left a recording (the default folder is work/recordings).
    const left = existsSync(join(copy, 'work', 'recordings')) ? readdirSync(join(copy, 'work', 'recordings')) : [];
    expect(left).toEqual([]);
    expect(existsSync(join(copy, 'outside.mcap')) || existsSync(join(copy, 'outside'))).toBe(false);
  }, 600_000);
});

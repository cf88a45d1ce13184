// The README's command examples, run as printed against the built program, in the README's order.
//
// - A code block fenced `sh` holds commands, one a line; a block fenced `console` is a transcript:
//   `$ ` before each command, then what it prints on standard output, where `<...>` stands for what
//   changes from run to run (the same name, the same text). A transcript may show only the first
//   lines; output laid out as JSON over several lines is compared as JSON.
// - `npx parceiro` and `parceiro` run `node dist/launch/cli.js`; `npm start` runs its package.json
//   script after the build (npm test has just built); `npm install`/`npm ci` and `npm test` are not
//   run (the checkout is installed, and this test is part of npm test). Any other command fails the
//   test, unless its block is preceded by `<!-- readme-test: not run: REASON -->`, which shows here
//   as a skipped test with the reason.
// - Every command ends with exit code 0. The commands that serve until stopped (`live`, `play`, and
//   `simulate` or `npm start` without `--games`) are started, and stopped with SIGINT once they have
//   printed the line that says they are ready (and the lines the README shows). `live` runs on free
//   ports, since another session on the machine may hold 7410 and 7420: its expected output reads
//   those two ports as any port.
// - Commands run in a scratch folder (recordings go there) that links to the checkout's folders,
//   so relative paths such as docs/examples/game.json work. Nothing is timed: the test waits for
//   output and for ends; the test timeout is only a backstop.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(root, 'dist/launch/cli.js');
const BACKSTOP_MS = 10 * 60_000;

export interface Example {
  /** Line of the command in the README, from 1. */
  line: number;
  fence: 'sh' | 'console';
  command: string;
  /** The output the README shows (console blocks), or null. */
  expected: string[] | null;
}

export interface NotRun {
  line: number;
  reason: string;
  commands: string[];
}

const NOT_RUN = /^<!--\s*readme-test:\s*not run:\s*(.+?)\s*-->$/;

/** The command examples of a Markdown text: `sh` and `console` blocks, and the blocks marked not run. */
export function readmeExamples(markdown: string): { examples: Example[]; notRun: NotRun[]; problems: string[] } {
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  const notRun: NotRun[] = [];
  const problems: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = /^```\s*([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) {
      i++;
      continue;
    }
    const fence = open[1]!;
    const start = i;
    const body: { text: string; line: number }[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push({ text: lines[i]!, line: i + 1 });
    i++;
    if (['bash', 'shell', 'zsh', 'shell-session'].includes(fence)) {
      problems.push(
        `line ${start + 1}: a \`${fence}\` block: fence commands as sh, transcripts as console, so this test runs them`,
      );
      continue;
    }
    if (fence !== 'sh' && fence !== 'console') continue;
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const mark = before >= 0 ? NOT_RUN.exec(lines[before]!.trim()) : null;
    const found: Example[] = [];
    if (fence === 'sh') {
      for (let k = 0; k < body.length; k++) {
        let { text } = body[k]!;
        const { line } = body[k]!;
        while (text.endsWith('\\') && k + 1 < body.length)
          text = `${text.slice(0, -1).trimEnd()} ${body[++k]!.text.trim()}`;
        if (text.trim() === '' || text.trim().startsWith('#')) continue;
        if (text.startsWith('$ '))
          problems.push(
            `line ${line}: a \`$ \` prompt in an sh block: sh blocks hold commands only, transcripts go in console blocks`,
          );
        found.push({ line, fence, command: text.trim(), expected: null });
      }
    } else {
      let current: Example | null = null;
      for (const { text, line } of body) {
        if (text.startsWith('$ ')) {
          current = { line, fence, command: text.slice(2).trim(), expected: [] };
          found.push(current);
        } else if (current) current.expected!.push(text.trimEnd());
        else if (text.trim() !== '') problems.push(`line ${line}: output before any \`$ \` command in a console block`);
      }
      for (const e of found) {
        while (e.expected!.length && e.expected!.at(-1) === '') e.expected!.pop();
        if (e.expected!.length === 0) e.expected = null;
      }
    }
    if (mark) notRun.push({ line: start + 1, reason: mark[1]!, commands: found.map((e) => e.command) });
    else examples.push(...found);
  }
  return { examples, notRun, problems };
}

export interface Prepared {
  /** What sh runs, or null when nothing of the line is run here. */
  script: string | null;
  /** Parts of the line that are not run, with why. */
  skipped: string[];
  /** The parceiro command run, e.g. 'score' (simulate when none is named). */
  command: string | null;
  /** Serves until stopped: started, then stopped once `ready` shows in its output. */
  server: { ready: RegExp; stoppedCleanly: (code: number | null, signal: NodeJS.Signals | null) => boolean } | null;
  /** Ports set by the test instead of the README's (live): their numbers in the expected output mean any port. */
  anyPorts: string[];
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const stripComment = (s: string): string => s.replace(/\s+#\s.*$/, '').trim();

/** Turns a README command into what this test runs; throws for a command it does not know. */
export function prepare(command: string, startScript: string): Prepared {
  const skipped: string[] = [];
  const run: string[] = [];
  const cli: { args: string[] | null } = { args: null };
  const node = `node ${quote(CLI)}`;
  for (const raw of stripComment(command).split(/\s+&&\s+/)) {
    const part = raw.trim();
    if (/^npm (install|ci)\b/.test(part)) {
      skipped.push(`${part}: the checkout under test is installed already`);
      continue;
    }
    if (/^npm test\b/.test(part)) {
      skipped.push(`${part}: this test is part of npm test`);
      continue;
    }
    const segments = part.split(/\s+\|\s+/).map((segment) => {
      const start = /^npm start(?:\s+--\s+(.*))?$/.exec(segment);
      if (start) {
        const built = /^npm run build --silent && node dist\/launch\/cli\.js(.*)$/.exec(startScript);
        if (!built)
          throw new Error(
            `package.json's start script is "${startScript}": teach this test what npm start runs after the build`,
          );
        const args = `${built[1]!}${start[1] ? ` ${start[1]}` : ''}`.trim();
        cli.args = args.split(/\s+/).filter(Boolean);
        return `${node} ${args}`.trim();
      }
      const named = /^(?:npx parceiro|parceiro|node dist\/launch\/cli\.js)(?:\s+(.*))?$/.exec(segment);
      if (named) {
        cli.args = (named[1] ?? '').split(/\s+/).filter(Boolean);
        return `${node} ${named[1] ?? ''}`.trim();
      }
      if (/^(echo|cat) /.test(segment)) return segment;
      throw new Error(
        `\`${segment}\` is not a command this test knows how to run; if it cannot run here, mark its block <!-- readme-test: not run: REASON -->`,
      );
    });
    run.push(segments.join(' | '));
  }
  if (run.length === 0) return { script: null, skipped, command: null, server: null, anyPorts: [] };
  const args: string[] = cli.args ?? [];
  const sub = cli.args === null ? null : (args.find((a) => !a.startsWith('-')) ?? 'simulate');
  let script = run.join(' && ');
  let server: Prepared['server'] = null;
  const anyPorts: string[] = [];
  const clean = (code: number | null): boolean => code === 0;
  if (sub === 'live') {
    server = { ready: /^Token: /m, stoppedCleanly: clean };
    if (!args.includes('--port')) {
      script += ' --port 0';
      anyPorts.push('7410');
    }
    if (!args.includes('--dashboard-port')) {
      script += ' --dashboard-port 0';
      anyPorts.push('7420');
    }
  } else if (sub === 'play') server = { ready: /^Press "New game"/m, stoppedCleanly: clean };
  // simulate closes its recording on SIGINT and exits with 130, as a program stopped at a terminal.
  else if (sub === 'simulate' && !args.includes('--games'))
    server = { ready: /^Operator dashboard: /m, stoppedCleanly: (code, signal) => signal === 'SIGINT' || code === 130 };
  if (server) {
    if (run.length > 1 || /\|/.test(script))
      throw new Error(`\`${command}\` serves until stopped: give it a line of its own`);
    script = `exec ${script}`;
  }
  return { script, skipped, command: sub, server, anyPorts };
}

/** Null when `actual` (standard output) shows `expected` (the README's lines), else what differs. */
export function compareOutput(expected: string[], actual: string, anyPorts: string[] = []): string | null {
  const text = expected.join('\n');
  if (expected.length > 1) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      let got: unknown;
      try {
        got = JSON.parse(actual);
      } catch {
        return `expected JSON, got:\n${actual}`;
      }
      return isDeepStrictEqual(got, json)
        ? null
        : `expected the JSON the README shows:\n${JSON.stringify(json)}\ngot:\n${JSON.stringify(got)}`;
    }
  }
  const names = new Map<string, string>();
  const pattern = expected
    .map((line) => {
      let l = line;
      for (const port of anyPorts) l = l.replaceAll(`:${port}`, `:<port ${port}>`);
      return l
        .split(/(<[^<>\n]+>)/)
        .map((piece, k) => {
          if (k % 2 === 0) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          const seen = names.get(piece);
          if (seen) return `\\k<${seen}>`;
          const group = `p${names.size}`;
          names.set(piece, group);
          return `(?<${group}>.+?)`;
        })
        .join('');
    })
    .join('\n');
  const got = actual
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
  if (new RegExp(`^${pattern}(?:\\n|$)`).test(got)) return null;
  return `expected the output to begin with:\n${text}\ngot:\n${got
    .split('\n')
    .slice(0, expected.length + 3)
    .join('\n')}`;
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  stopped: boolean;
}

const children = new Set<ChildProcess>();

function execute(p: Prepared, expected: string[] | null, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', p.script!], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    let stopped = false;
    const readyToStop = (): boolean =>
      p.server !== null && p.server.ready.test(out) && out.split('\n').length > (expected?.length ?? 0);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!stopped && readyToStop()) {
        stopped = true;
        child.kill('SIGINT');
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, out, err, stopped });
    });
  });
}

/** Errors the program logged (pino level 50 and up), or said as a user error. */
const errorsIn = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => /^parceiro: error:/.test(line) || /"level":(5|6)\d\b/.test(line));

describe('the README test itself', () => {
  it('finds the examples of a README, and the blocks that are not run, with their reasons', () => {
    const md = [
      'text',
      '```sh',
      'npm install && npm start   # go',
      '# a comment',
      'npx parceiro match \\',
      '  --games 1',
      '```',
      '<!-- readme-test: not run: needs a robot -->',
      '```sh',
      'ros2 launch x',
      '```',
      '```console',
      '$ npx parceiro score a.json',
      '{"a": 1,',
      ' "b": 2}',
      '',
      '$ npx parceiro solve b.json',
      '```',
      '```json',
      '{"not": "a command"}',
      '```',
    ].join('\n');
    const { examples, notRun, problems } = readmeExamples(md);
    expect(problems).toEqual([]);
    expect(examples.map((e) => [e.line, e.command, e.expected])).toEqual([
      [3, 'npm install && npm start   # go', null],
      [5, 'npx parceiro match --games 1', null],
      [13, 'npx parceiro score a.json', ['{"a": 1,', ' "b": 2}']],
      [17, 'npx parceiro solve b.json', null],
    ]);
    expect(notRun).toEqual([{ line: 9, reason: 'needs a robot', commands: ['ros2 launch x'] }]);
    expect(readmeExamples('```bash\nls\n```').problems).toHaveLength(1);
  });

  it('knows what each command runs, and refuses a command it does not know', () => {
    const start = 'npm run build --silent && node dist/launch/cli.js simulate';
    const quick = prepare('npm install && npm start     # a session', start);
    expect(quick.script).toBe(`exec node ${quote(CLI)} simulate`);
    expect(quick.skipped).toHaveLength(1);
    expect(quick.server?.ready.test('Operator dashboard: http://x')).toBe(true);
    expect(prepare('npx parceiro simulate --games 1', start).server).toBeNull();
    expect(prepare('npm test', start).script).toBeNull();
    const live = prepare('npx parceiro live --host 0.0.0.0', start);
    expect(live.script).toBe(`exec node ${quote(CLI)} live --host 0.0.0.0 --port 0 --dashboard-port 0`);
    expect(live.anyPorts).toEqual(['7410', '7420']);
    expect(prepare(`echo '{"a":1}' | npx parceiro solve -`, start).script).toBe(
      `echo '{"a":1}' | node ${quote(CLI)} solve -`,
    );
    expect(() => prepare('rm -rf recordings', start)).toThrow(/not a command this test knows/);
    expect(() => prepare('npm start', 'node dist/launch/cli.js simulate')).toThrow(/teach this test/);
  });

  it('tells a wrong output from a right one', () => {
    expect(compareOutput(['Token: <token>', 'again <token>'], 'Token: abc\nagain abc\nmore\n')).toBeNull();
    expect(compareOutput(['Token: <token>', 'again <token>'], 'Token: abc\nagain abd\n')).not.toBeNull();
    expect(compareOutput(['Game 1: seat 0 deals'], 'Game 1: seat 1 deals\n')).not.toBeNull();
    expect(compareOutput(['one', 'two'], 'one\n')).not.toBeNull();
    expect(compareOutput(['{"a": [1,', '2]}'], '{"a":[1,2]}\n')).toBeNull();
    expect(compareOutput(['{"a": [1,', '2]}'], '{"a":[1,3]}\n')).not.toBeNull();
    expect(compareOutput(['at http://127.0.0.1:7410 now'], 'at http://127.0.0.1:40123 now\n', ['7410'])).toBeNull();
    expect(compareOutput(['at http://127.0.0.1:7410 now'], 'at http://127.0.0.1:40123 now\n')).not.toBeNull();
  });
});

describe('README.md', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const startScript = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  const { examples, notRun, problems } = readmeExamples(readme);
  const cwd = mkdtempSync(join(tmpdir(), 'parceiro-readme-'));
  for (const entry of readdirSync(root))
    if (!entry.startsWith('.') && !['node_modules', 'recordings', 'dist'].includes(entry))
      symlinkSync(join(root, entry), join(cwd, entry));
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  });

  it('fences its examples so that this test finds them, and shows the examples a newcomer needs', () => {
    expect(problems).toEqual([]);
    const commands = examples.map((e) => e.command);
    for (const needed of [
      /^npm install && npm start\b/,
      /^npm test\b/,
      /^npx parceiro play\b/,
      /^npx parceiro live\b/,
      /^npx parceiro score docs\/examples\//,
      /^npx parceiro replay\b/,
    ]) {
      expect(
        commands.some((c) => needed.test(c)),
        `an example matching ${needed}`,
      ).toBe(true);
    }
    expect(examples.filter((e) => e.expected).length).toBeGreaterThanOrEqual(4);
    for (const n of notRun) expect(n.reason.length).toBeGreaterThan(3);
  });

  for (const n of notRun)
    it.skip(`line ${n.line}, not run (${n.reason}): ${n.commands.map(stripComment).join('; ')}`, () => {});

  // The examples run at once (each its own program on free ports, most waiting on a session's pace),
  // except that one reading a recording first waits for the examples before it: the README's
  // `replay` reads the session its `simulate` example recorded.
  const finished: Promise<void>[] = [];
  for (const e of examples) {
    const before = [...finished];
    let done = (): void => {};
    finished.push(new Promise<void>((resolve) => (done = resolve)));
    it.concurrent(
      `line ${e.line}: ${e.command}`,
      async () => {
        try {
          if (/\brecordings\//.test(e.command)) await Promise.all(before);
          await example(e);
        } finally {
          done();
        }
      },
      BACKSTOP_MS,
    );
  }

  async function example(e: Example): Promise<void> {
    const p = prepare(e.command, startScript);
    for (const s of p.skipped) console.info(`README line ${e.line}: not run: ${s}`);
    if (p.script === null) return;
    const r = await execute(p, e.expected, cwd);
    const report = `\n--- stdout\n${r.out}\n--- stderr\n${r.err}`;
    expect(errorsIn(r.err), `errors on standard error${report}`).toEqual([]);
    if (p.server) {
      expect(r.stopped, `it ended before it said it was ready${report}`).toBe(true);
      expect(
        p.server.stoppedCleanly(r.code, r.signal),
        `stopped with SIGINT: exit code ${r.code}, signal ${r.signal}${report}`,
      ).toBe(true);
    } else expect(r.code, `exit code${report}`).toBe(0);
    if (e.expected) {
      const difference = compareOutput(e.expected, r.out, p.anyPorts);
      expect(difference, `README line ${e.line}: the output differs from what the README shows`).toBeNull();
    }
  }
});

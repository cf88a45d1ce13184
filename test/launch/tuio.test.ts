// The TUIO commands as a user runs them (the built CLI): `live --tuio` with `tuio-sim` playing a whole
// game against it over UDP, and the mistakes that end with one line and exit code 2 (a bad flag, a
// broken settings line, a port in use, no runtime where tuio-sim looks). Waits are for the programs'
// own output, never for a time.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TUIO_FILE } from '../../table-bridge/tuio/index.js';
import { CLI, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-tuio-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Killed once the file is done (not after each case: the cases run at once, and one's end must not
// stop another's programs).
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Starts `parceiro args...`; `lines` grows with its output, `waitFor` resolves with the first match. */
function start(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of [...waiters]) {
      const m = w.re.exec(out);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    out: () => out,
    err: () => err,
    closed,
    waitFor: (re: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const m = re.exec(out);
        if (m) return resolve(m);
        waiters.push({ re, resolve });
        void closed.then(() => reject(new Error(`the program ended without printing ${re}:\n${out}\n${err}`)));
      }),
  };
}

/** The program's error line (live also logs JSON lines to stderr), checking there is no stack trace. */
const oneLine = (err: string) => {
  expect(err).not.toMatch(/\n\s+at /);
  const lines = err.split('\n').filter((l) => l.startsWith('parceiro: error:') || l.startsWith('error:'));
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

// The whole game and the refusals are independent programs on free ports: the cases run at once.
describe.concurrent('parceiro live --tuio and parceiro tuio-sim', () => {
  it(
    'tuio-sim plays a whole physically dealt game against live --tuio over TUIO 2.0, and both end cleanly',
    { timeout: 300_000 },
    async () => {
      const live = start([
        'live',
        '--sessions',
        '1',
        '--answer-for',
        '0',
        '--port',
        '0',
        '--dashboard-port',
        '0',
        '--no-record',
        '--games',
        '1',
        '--budget',
        '50',
        '--min-think',
        '100',
        '--speech',
        'log',
        '--token',
        'tuio-cli-token-0001',
        '--tuio',
        '0',
      ]);
      const runtime = await live.waitFor(/waiting for a table at http:\/\/127\.0\.0\.1:(\d+)/);
      const tuio = await live.waitFor(/^Listening for TUIO \(reacTIVision\) on 127\.0\.0\.1:(\d+)/m);
      const sim = start([
        'tuio-sim',
        '--port',
        runtime[1]!,
        '--token',
        'tuio-cli-token-0001',
        '--tuio-port',
        tuio[1]!,
        '--tuio-version',
        '2',
        '--think',
        '0',
        '--fps',
        '60',
        '--seed',
        '5',
      ]);
      expect(await sim.closed).toBe(0);
      expect(sim.out()).toMatch(/^Played 1 game: victories A \d - B \d; points by game \(A-B\) \d+-\d+\.$/m);
      expect(sim.out()).toMatch(
        /^People played 30 cards \(\d+ slid from a hand area\), put 10 of the robot's on its spot and gathered 10 tricks\.$/m,
      );
      expect(await live.closed).toBe(0);
      expect(live.out()).toMatch(/^table: Seat 1 deals; the trump card is \w\w\.$/m);
      expect(live.out()).toMatch(/^Stopped \(the session is over\)/m);
      expect(live.out()).not.toMatch(/refused/);
    },
  );

  it(
    'a bad --tuio port, a broken settings line and a port in use end with one line and exit code 2',
    { timeout: 120_000 },
    async () => {
      const bad = await runCli(['live', '--tuio', 'x3333'], dir);
      expect(bad.code).toBe(2);
      expect(oneLine(bad.err)).toMatch(/--tuio expects a whole number from 0 to 65535, got "x3333"/);

      const broken = join(dir, 'broken.yaml');
      writeFileSync(broken, readFileSync(DEFAULT_TUIO_FILE(), 'utf8').replace('flickerMs: 200', 'flickerMs: soon'));
      const line =
        readFileSync(broken, 'utf8')
          .split('\n')
          .findIndex((l) => l.startsWith('flickerMs')) + 1;
      const config = await runCli(
        ['live', '--sessions', '1', '--port', '0', '--dashboard-port', '0', '--no-record', '--tuio-config', broken],
        dir,
      );
      expect(config.code).toBe(2);
      // Config files are named as people find them: here relative to the working directory.
      expect(oneLine(config.err)).toBe(`parceiro: error: broken.yaml:${line}: flickerMs: expected number, got "soon"`);

      const taken = createSocket('udp4');
      const port = await new Promise<number>((resolve) =>
        taken.bind(0, '127.0.0.1', () => resolve(taken.address().port)),
      );
      try {
        const inUse = await runCli(
          ['live', '--sessions', '1', '--port', '0', '--dashboard-port', '0', '--no-record', '--tuio', String(port)],
          dir,
        );
        expect(inUse.code).toBe(2);
        expect(oneLine(inUse.err)).toBe(
          `parceiro: error: --tuio: cannot listen for TUIO on 127.0.0.1:${port} (EADDRINUSE)`,
        );
      } finally {
        taken.close();
      }
    },
  );

  it(
    'tuio-sim: bad flags, and no runtime where it looks, end with one line and exit code 2',
    { timeout: 120_000 },
    async () => {
      const version = await runCli(['tuio-sim', '--token', 't', '--tuio-version', '3'], dir);
      expect(version.code).toBe(2);
      expect(oneLine(version.err)).toBe('parceiro: error: --tuio-version expects 1 or 2, got "3"');
      const flicker = await runCli(['tuio-sim', '--token', 't', '--flicker', 'often'], dir);
      expect(flicker.code).toBe(2);
      expect(oneLine(flicker.err)).toMatch(/--flicker expects a number from 0 to 1, got "often"/);
      const token = await runCli(['tuio-sim'], dir);
      expect(token.code).toBe(2);
      expect(token.err).toMatch(/--token/);
      // A port where nothing listens: an ephemeral one just freed.
      const probe = createSocket('udp4');
      const free = await new Promise<number>((resolve) =>
        probe.bind(0, '127.0.0.1', () => resolve(probe.address().port)),
      );
      probe.close();
      const none = await runCli(
        ['tuio-sim', '--token', 't', '--port', String(free), '--tuio-port', String(free), '--wait', '2'],
        dir,
      );
      expect(none.code).toBe(2);
      expect(oneLine(none.err)).toMatch(
        /^parceiro: error: no runtime answered at http:\/\/127\.0\.0\.1:\d+ within 2 s: is `parceiro live --tuio` running there/,
      );
    },
  );
});

// SIGINT and SIGTERM at any moment of a command that records: the recording is
// closed properly (its summary written: the reader finds it complete, not "the session was not
// closed") and the program exits, on the first signal cleanly and on a second one at once. The
// moments are found from the program's output and files, never from the clock: during start-up (the
// recording has just appeared), waiting for a table, during a game, and right after the session ended.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../robot/recording/index.js';
import { DayTable } from '../robot/day-table.js';
import { CLI } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'parceiro-signals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;
/** Only a safety net: every wait is on the program's output or files (a loaded machine is slow, not wrong). */
const SAFETY_MS = 300_000;

/** A running `parceiro ...` whose output can be waited on, in a folder of its own with its recordings in `recordings`. */
function start(args: string[]) {
  const cwd = join(root, `run-${++runs}`);
  const recordings = join(cwd, 'recordings');
  mkdirSync(recordings, { recursive: true });
  const child = spawn(process.execPath, [CLI, ...args, '--recordings', recordings], { cwd });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const check = (): void => waiters.forEach((w) => w());
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), check()));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((err += d), check()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => (resolve({ code, signal }), check())),
  );
  const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    recordings,
    out: () => out,
    err: () => err,
    done,
    signal: (s: NodeJS.Signals) => child.kill(s),
    kill: () => ended() || child.kill('SIGKILL'),
    /** Resolves once the output (or with `stderr`, the error output) matches, on the output event itself; rejects when the program ends first. */
    output(pattern: RegExp, stderr = false): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const w = (): void => {
          const m = pattern.exec(stderr ? err : out);
          if (m) return void (waiters.delete(w), resolve(m));
          if (ended())
            return void (waiters.delete(w), reject(new Error(`the program ended before ${pattern}:\n${out}\n${err}`)));
        };
        waiters.add(w);
        w();
      });
    },
    /** Resolves once a recording exists (its file created, on the folder's change event). */
    recordingAppears(): Promise<void> {
      return new Promise((resolve, reject) => {
        const watcher = watch(recordings);
        const w = (): void => {
          if (readdirSync(recordings).some((f) => f.endsWith('.mcap')))
            return void (watcher.close(), waiters.delete(w), resolve());
          if (ended())
            return void (
              watcher.close(),
              waiters.delete(w),
              reject(new Error(`the program ended before recording:\n${out}\n${err}`))
            );
        };
        watcher.on('change', w);
        waiters.add(w);
        w();
      });
    },
  };
}

/** Every recording of the run, read back: each must be complete (closed with its summary). */
function recordingsOf(dir: string): { file: string; complete: boolean; problems: string[]; games: number }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mcap'))
    .map((file) => {
      const r = readRecording(join(dir, file));
      const games = r.messages.filter(
        (m) => m.topic.name === '/parceiro/game/events' && (m.message as { type?: string }).type === 'end',
      ).length;
      return { file, complete: r.complete, problems: r.problems, games };
    });
}

function expectClosed(dir: string, what: string): { games: number }[] {
  const recs = recordingsOf(dir);
  expect(recs.length, `${what}: one recording`).toBe(1);
  for (const r of recs) {
    expect(r.problems.join('; '), `${what}: ${r.file}`).not.toMatch(/not closed/);
    expect(r.complete, `${what}: ${r.file} complete`).toBe(true);
  }
  return recs;
}

// Every case starts its own program in its own folder, on free ports, and mostly waits on it: the
// cases run at once (describe.concurrent).
const SIMULATE = [
  'simulate',
  '--games',
  '2',
  '--seed',
  '3',
  '--budget',
  '50',
  '--min-think',
  '0',
  '--bot-think',
  '0',
  '--speech',
  'log',
];

describe.concurrent('simulate stopped by a signal', () => {
  it(
    'during start-up (as its recording appears): closed, --json says stopped, exit code 130',
    async () => {
      const p = start([...SIMULATE, '--json']);
      try {
        await p.recordingAppears();
        p.signal('SIGINT');
        expect(await p.done).toEqual({ code: 130, signal: null });
      } finally {
        p.kill();
      }
      expectClosed(p.recordings, 'start-up');
      expect(p.err()).not.toMatch(/\n\s+at /);
      expect(JSON.parse(p.out())).toMatchObject({ games: 0, stopped: 'interrupted' });
    },
    SAFETY_MS,
  );

  it(
    'during a game: closed with what was played, the summary printed, exit code 130 (SIGTERM: 143)',
    async () => {
      const signals = [
        ['SIGINT', 130],
        ['SIGTERM', 143],
      ] as const;
      // Both at once, each its own program.
      await Promise.all(
        signals.map(async ([signal, code]) => {
          const p = start(SIMULATE);
          try {
            await p.output(/-> .* takes \d+/);
            p.signal(signal);
            expect(await p.done).toEqual({ code, signal: null });
          } finally {
            p.kill();
          }
          expectClosed(p.recordings, `${signal} during a game`);
          expect(p.out()).toMatch(/^Stopped \((interrupted|terminated)\) after [01] games?: /m);
          expect(p.out()).toMatch(/^Recording: .*\.mcap \(\d+ messages\)$/m);
          expect(p.err()).toMatch(/parceiro: (interrupted|terminated): closing the session and its recording/);
        }),
      );
    },
    SAFETY_MS,
  );

  it(
    'right after the session ended: closed with both games; the session is over, not stopped (exit code 0)',
    async () => {
      const p = start(SIMULATE);
      try {
        // The last game's end: the session ends with it, and the node closes.
        await p.output(/game over: .*\n(.|\n)*game over: /);
        p.signal('SIGINT');
        expect(await p.done).toEqual({ code: 0, signal: null });
      } finally {
        p.kill();
      }
      expect(expectClosed(p.recordings, 'after the session')[0]!.games).toBe(2);
      expect(p.out()).toMatch(/^Session over after 2 games/m);
    },
    SAFETY_MS,
  );

  it(
    'twice in a row during a game: the recording is still closed, and the program exits at once',
    async () => {
      const p = start(SIMULATE);
      try {
        await p.output(/-> .* takes \d+/);
        p.signal('SIGINT');
        // The second as soon as the first is heard.
        await p.output(/parceiro: interrupted: /, true);
        p.signal('SIGINT');
        expect(await p.done).toEqual({ code: 130, signal: null });
      } finally {
        p.kill();
      }
      expectClosed(p.recordings, 'two signals');
    },
    SAFETY_MS,
  );
});

const LIVE = [
  'live',
  '--port',
  '0',
  '--dashboard-port',
  '0',
  '--token',
  'signals-test-token',
  '--games',
  '1',
  '--seed',
  '5',
  '--budget',
  '50',
  '--min-think',
  '0',
  '--speech',
  'log',
];

describe.concurrent('live stopped by a signal', () => {
  it(
    'during start-up, waiting for a table, during a game and right after the session: closed each time, exit code 0',
    async () => {
      type Reach = (p: ReturnType<typeof start>, closers: (() => void)[]) => Promise<unknown>;
      const moments: [string, Reach][] = [
        ['during start-up', (p) => p.recordingAppears()],
        ['waiting for a table', (p) => p.output(/^Token: /m)],
        [
          'during a game',
          async (p, closers) => {
            const url = (await p.output(/waiting for a table at (\S+) /))[1]!;
            const table = new DayTable({ url, token: 'signals-test-token' });
            closers.push(() => table.close());
            await table.start();
            await table.waitFor((s) => (s.game?.trick ?? 0) >= 2);
          },
        ],
        [
          'right after the session',
          async (p, closers) => {
            const url = (await p.output(/waiting for a table at (\S+) /))[1]!;
            const table = new DayTable({ url, token: 'signals-test-token' });
            closers.push(() => table.close());
            await table.start();
            await p.output(/^Session \S+ is over after 1 game/m);
          },
        ],
      ];
      // All four at once, each its own program (and table).
      await Promise.all(
        moments.map(async ([moment, reach]) => {
          const closers: (() => void)[] = [];
          const p = start(LIVE);
          try {
            await reach(p, closers);
            p.signal('SIGINT');
            expect(await p.done, moment).toEqual({ code: 0, signal: null });
          } finally {
            closers.splice(0).forEach((c) => c());
            p.kill();
          }
          expect(p.out(), moment).toMatch(/^Stopped \(interrupted\)/m);
          expectClosed(p.recordings, moment);
        }),
      );
    },
    SAFETY_MS,
  );

  it(
    'twice in a row during a game: the recording is still closed',
    async () => {
      const p = start(LIVE);
      let table: DayTable | null = null;
      try {
        const url = (await p.output(/waiting for a table at (\S+) /))[1]!;
        table = new DayTable({ url, token: 'signals-test-token' });
        await table.start();
        await table.waitFor((s) => (s.game?.trick ?? 0) >= 2);
        p.signal('SIGINT');
        // The second as soon as the first is heard: the recording is closed at once (exit code 130), unless
        // the first had already closed everything (exit code 0); closed either way.
        await p.output(/parceiro: interrupted: /, true);
        p.signal('SIGINT');
        const end = await p.done;
        expect(end.signal).toBeNull();
        expect([0, 130]).toContain(end.code);
      } finally {
        table?.close();
        p.kill();
      }
      expectClosed(p.recordings, 'two signals');
    },
    SAFETY_MS,
  );
});

describe.concurrent('play stopped by a signal', () => {
  it(
    'during start-up and while waiting for the person: closed, exit code 0',
    async () => {
      const moments: [string, (p: ReturnType<typeof start>) => Promise<unknown>][] = [
        ['during start-up', (p) => p.recordingAppears()],
        ['waiting for the person', (p) => p.output(/^Press "New game"/m)],
      ];
      // Both at once, each its own program.
      await Promise.all(
        moments.map(async ([moment, reach]) => {
          const p = start([
            'play',
            '--games',
            '1',
            '--seed',
            '2',
            '--bot-think',
            '0',
            '--budget',
            '50',
            '--speech',
            'log',
          ]);
          try {
            await reach(p);
            p.signal('SIGINT');
            expect(await p.done, moment).toEqual({ code: 0, signal: null });
          } finally {
            p.kill();
          }
          expect(p.out(), moment).toMatch(/^Stopped \(interrupted\)/m);
          expectClosed(p.recordings, moment);
        }),
      );
    },
    SAFETY_MS,
  );

  it(
    'after the last game: stays up and says so, still answers the table, and stops on Ctrl-C',
    async () => {
      // The robot at once too (--min-think 0): the game only leads to the moment after it.
      const p = start([
        'play',
        '--games',
        '1',
        '--seed',
        '2',
        '--bot-think',
        '0',
        '--budget',
        '50',
        '--min-think',
        '0',
        '--speech',
        'log',
      ]);
      let table: DayTable | undefined;
      try {
        // The person's seat (2), played by a test table from the link the command prints.
        // Its one-time pass traded as the page does (POST /pass), for the table server and its token.
        const printed = new URL((await p.output(/^Open the virtual table[^:]*: (\S+)$/m))[1]!);
        const pass = new URLSearchParams(printed.hash.slice(1)).get('pass');
        const grant = (await (
          await fetch(`${printed.origin}/pass`, { method: 'POST', body: JSON.stringify({ pass }) })
        ).json()) as { server: string; token: string };
        table = new DayTable({ url: grant.server, token: grant.token, seats: [2] });
        await table.start();
        await p.output(
          /^The session is over: victories A \d+ - B \d+ after 1 game; your team (wins|loses|draws)\. The table stays open.*Ctrl-C stops\.$/m,
        );
        // Still there: the last game's review and "why" can be asked for.
        expect(await table.send('game:control', { action: 'review' })).toMatchObject({ ok: true });
        expect(await table.send('game:control', { action: 'why' })).toMatchObject({ ok: true });
        expect(p.out()).not.toMatch(/^Stopped/m);
        p.signal('SIGINT');
        expect(await p.done).toEqual({ code: 0, signal: null });
      } finally {
        table?.close();
        p.kill();
      }
      expect(p.out()).toMatch(/^Stopped \(interrupted\): victories A \d+ - B \d+ after 1 game/m);
      expect(expectClosed(p.recordings, 'after the last game')[0]!.games).toBe(1);
    },
    SAFETY_MS,
  );
});

// parceiro live as a lab runs it for a day: one process, one token and table address, serving one
// session after another. A table (code following PROTOCOL.md) plays a one-game session, then its
// new-game starts the next one on the same connection; after the second the process is stopped with
// SIGINT and prints the day's summary. Each session's recording replays to itself with parceiro
// replay. Nothing waits on time: the test waits for the program's output and the table's states.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameEventMessage } from '../../robot/bus/index.js';
import { DayTable } from '../robot/day-table.js';
import { recording } from '../robot/replay-harness.js';
import { CLI, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-live-day-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `parceiro live args...` in the test's folder: its output so far, and its end. */
function live(args: string[]): {
  out: () => string;
  err: () => string;
  kill: (s: NodeJS.Signals) => void;
  done: Promise<number | null>;
  until: (test: () => boolean, what: string) => Promise<void>;
} {
  const child = spawn(process.execPath, [CLI, 'live', ...args], { cwd: dir });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return {
    out: () => out,
    err: () => err,
    kill: (s) => child.kill(s),
    done,
    until: async (test, what) => {
      while (!test()) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`parceiro live ended before ${what}:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

// The cases are independent (each its own token, seed, ports and tables) and mostly wait on their
// programs: they run at once.
describe.concurrent('parceiro live, session after session', () => {
  it('serves two sessions on one token and address, each with its own id, seed and recording, and stops on SIGINT with the day', async () => {
    const token = 'live-day-token-01';
    const child = spawn(
      process.execPath,
      [
        CLI,
        'live',
        '--port',
        '0',
        '--dashboard-port',
        '0',
        '--token',
        token,
        '--games',
        '1',
        '--seed',
        '40',
        '--budget',
        '50',
        '--min-think',
        '100',
        '--speech',
        'log',
      ],
      { cwd: dir },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    const until = async (test: () => boolean, what: string): Promise<void> => {
      while (!test()) {
        if (child.exitCode !== null) throw new Error(`parceiro live ended before ${what}:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    let table: DayTable | null = null;
    try {
      await until(() => /waiting for a table at (\S+) /.test(out), 'it listened');
      const url = /waiting for a table at (\S+) /.exec(out)![1]!;
      table = new DayTable({ url, token, nextSessions: 1 });
      await table.start();
      await until(() => (out.match(/^Session \S+ is over after /gm) ?? []).length >= 2, 'two sessions were over');
      child.kill('SIGINT');
      expect(await done).toBe(0);
    } finally {
      table?.close();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(err).not.toMatch(/"level":50|\n\s+at /);

    const ids = [...out.matchAll(/^Session (\d) of the day: (\S+) \(seed (\d+), 1 game\)\.$/gm)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    expect(ids.map(([k, , seed]) => [k, seed])).toEqual([
      ['1', '40'],
      ['2', '41'],
    ]);
    const [first, second] = ids.map(([, id]) => id!);
    expect(first).not.toBe(second);
    // One connection through both sessions.
    expect(table!.connects).toBe(1);
    expect(table!.sessions).toEqual([first, second]);
    expect(table!.wentBack).toEqual([]);
    // What each session prints: its recording and how to resume it, the day's settings carried on.
    const recordings = [...out.matchAll(/^Recording to (\S+)$/gm)].map((m) => m[1]!);
    expect(recordings).toEqual([join(dir, 'recordings', `${first}.mcap`), join(dir, 'recordings', `${second}.mcap`)]);
    expect(out).toContain(
      `\`parceiro live --resume ${second} --token ${token} --port 0 --games 1 --budget 50 --min-think 100 --speech log --seed 41\` continues it.`,
    );
    expect(out).toMatch(
      new RegExp(
        `^Session ${first} is over after 1 game: victories A \\d+ - B \\d+; recording \\S+\\.mcap\\. A new game at a table starts the next session\\.$`,
        'm',
      ),
    );
    // Stopped: the last session's score as before, then the day.
    expect(out).toMatch(
      new RegExp(
        `^Stopped \\(interrupted\\): victories A \\d+ - B \\d+; recording ${recordings[1]!.replace(/[.]/g, '\\.')}\\.$`,
        'm',
      ),
    );
    expect(out).toMatch(/^The day: 2 sessions\.$/m);
    expect(out).toMatch(new RegExp(`^ {2}1\\. ${first}: finished, 1 of 1 game, victories A \\d+ - B \\d+; \\S+$`, 'm'));
    expect(out).toMatch(
      new RegExp(`^ {2}2\\. ${second}: finished, 1 of 1 game, victories A \\d+ - B \\d+; \\S+$`, 'm'),
    );

    // Any session of the day replays to itself.
    for (const file of recordings) {
      const r = await runCli(['replay', file], dir);
      expect(r.out).toMatch(/The replay matches the recording: \d+ messages/);
      expect(r.code).toBe(0);
    }
  }, 400_000);

  it("the day's second session killed and resumed: the tables' versions go on from where they were and their first-session seqs are still known", async () => {
    const token = 'live-day-versions';
    const common = [
      '--port',
      '0',
      '--dashboard-port',
      '0',
      '--token',
      token,
      '--budget',
      '50',
      '--min-think',
      '100',
      '--speech',
      'log',
      '--games',
      '1',
    ];
    const killed = live([...common, '--seed', '80']);
    await killed.until(() => /waiting for a table at (\S+) /.test(killed.out()), 'it listened');
    const url = /waiting for a table at (\S+) /.exec(killed.out())![1]!;
    // Until the runtime has seen the panel go: a watching table (no seat) sees every seat but the robot's free.
    const seatsFree = async (u: string): Promise<void> => {
      const watcher = io(`${u}/table`, { transports: ['websocket'], forceNew: true, reconnection: false });
      const free = (st: { seats?: { holder: string }[] }): boolean =>
        (st.seats ?? []).every((x) => x.holder !== 'table');
      try {
        await new Promise<void>((resolve) => {
          watcher.on('state', (st: { seats?: { holder: string }[] }) => free(st) && resolve());
          watcher.emit(
            'hello',
            { protocol: 1, token, table: { id: 'watcher', name: 'watcher', kind: 'virtual' }, seats: [] },
            (a: { ok: boolean; state?: { seats?: { holder: string }[] } }) =>
              a.ok && a.state && free(a.state) && resolve(),
          );
        });
      } finally {
        watcher.disconnect();
      }
    };
    // A table that acts in the first session only, before the day's table sits down (it hosts the same
    // seats): its seqs must outlive the second session's crash.
    const panel = async (u: string): Promise<{ socket: Socket; lastSeq: number }> => {
      const socket = io(`${u}/table`, { transports: ['websocket'], forceNew: true, reconnection: false });
      const ack = (await socket.timeout(20_000).emitWithAck('hello', {
        protocol: 1,
        token,
        table: { id: 'panel', name: 'panel', kind: 'touch' },
        seats: [1, 2, 3],
      })) as { lastSeq: number };
      return { socket, lastSeq: ack.lastSeq };
    };
    const { socket: first } = await panel(url);
    expect(await first.timeout(20_000).emitWithAck('game:control', { seq: 1, action: 'pause' })).toMatchObject({
      ok: true,
    });
    expect(await first.timeout(20_000).emitWithAck('game:control', { seq: 2, action: 'resume' })).toMatchObject({
      ok: true,
    });
    first.disconnect();
    await seatsFree(url);
    const table = new DayTable({ url, token, nextSessions: 1 });
    await table.start();
    await killed.until(() => /^Session 2 of the day: (\S+) /m.test(killed.out()), 'the second session began');
    const id = /^Session 2 of the day: (\S+) /m.exec(killed.out())![1]!;
    await table.waitFor((s) => s.session.id === id && (s.game?.trick ?? 0) >= 2);
    killed.kill('SIGKILL');
    await killed.done;
    table.close();
    const seen = Math.max(...table.states.map((s) => s.version ?? 0));

    const resumed = live(['--resume', id, ...common, '--sessions', '1', '--answer-for', '0']);
    let again: DayTable | null = null;
    try {
      await resumed.until(() => /waiting for a table at (\S+) /.test(resumed.out()), 'it listened again');
      const url2 = /waiting for a table at (\S+) /.exec(resumed.out())![1]!;
      // The panel's first-session seqs and answers are still known: its resume sent again is a duplicate, not applied.
      const back = await panel(url2);
      expect(back.lastSeq).toBe(2);
      expect(await back.socket.timeout(20_000).emitWithAck('game:control', { seq: 2, action: 'resume' })).toEqual({
        ok: true,
        seq: 2,
        duplicate: true,
      });
      back.socket.disconnect();
      await seatsFree(url2);
      again = new DayTable({ url: url2, token });
      await again.start();
      expect(await resumed.done).toBe(0);
    } finally {
      again?.close();
    }
    // The hello's answer already carries a version at or above the last one the table had.
    expect(again!.states[0]!.session.id).toBe(id);
    expect(again!.states[0]!.version!).toBeGreaterThanOrEqual(seen);
    expect(again!.wentBack).toEqual([]);
  }, 400_000);

  it('live --resume continues the crashed session, then the day goes on with a new one (seed + 1), and --sessions ends it', async () => {
    const token = 'live-day-resume-01';
    const common = [
      '--port',
      '0',
      '--dashboard-port',
      '0',
      '--token',
      token,
      '--budget',
      '50',
      '--min-think',
      '100',
      '--speech',
      'log',
      '--games',
      '1',
    ];
    const killed = live([...common, '--seed', '60']);
    await killed.until(
      () => /waiting for a table at (\S+) /.test(killed.out()) && /--resume (\S+)/.test(killed.out()),
      'it listened',
    );
    const id = /--resume (\S+)/.exec(killed.out())![1]!;
    const first = join(dir, 'recordings', `${id}.mcap`);
    const table = new DayTable({ url: /waiting for a table at (\S+) /.exec(killed.out())![1]!, token });
    await table.start();
    const tricks = (): number =>
      existsSync(first)
        ? recording
            .readRecording(first)
            .messages.filter(
              (m) => m.topic.name === '/parceiro/game/events' && (m.message as GameEventMessage).type === 'trick',
            ).length
        : 0;
    await table.waitFor((s) => (s.game?.trick ?? 0) >= 3);
    await killed.until(() => tricks() >= 2, 'the recording held two tricks');
    killed.kill('SIGKILL');
    await killed.done;
    table.close();

    // The printed command, with the day's settings and seed carried on, and a limit of two sessions.
    const resumed = live(['--resume', id, ...common, '--seed', '60', '--sessions', '2', '--answer-for', '1']);
    let again: DayTable | null = null;
    try {
      await resumed.until(() => /waiting for a table at (\S+) /.test(resumed.out()), 'it listened again');
      again = new DayTable({ url: /waiting for a table at (\S+) /.exec(resumed.out())![1]!, token, nextSessions: 1 });
      await again.start();
      expect(await resumed.done).toBe(0);
    } finally {
      again?.close();
    }
    const out = resumed.out();
    expect(resumed.err()).not.toMatch(/"level":50|\n\s+at /);
    expect(out).toMatch(new RegExp(`^Session 1 of the day: ${id} \\(seed 60, 1 game, resumed\\)\\.$`, 'm'));
    expect(out).toMatch(/^Session 2 of the day: session-61-\S+ \(seed 61, 1 game\)\.$/m);
    expect(out).toMatch(/^Stopped \(the day's 2 sessions are over\): victories A \d+ - B \d+; recording \S+\.$/m);
    expect(out).toMatch(new RegExp(`^ {2}1\\. ${id}: finished, 1 of 1 game, .*${id}\\.2\\.mcap$`, 'm'));
    expect(out).toMatch(/^ {2}2\. session-61-\S+: finished, 1 of 1 game, /m);
    expect(again!.connects).toBe(1);
    expect(again!.sessions).toEqual([id, again!.sessions[1]]);
    // The new session after the resumed one replays to itself.
    const next = /^Recording to (\S+session-61-\S+\.mcap)$/m.exec(out)![1]!;
    const r = await runCli(['replay', next], dir);
    expect(r.out).toMatch(/The replay matches the recording: \d+ messages/);
    expect(r.code).toBe(0);
  }, 400_000);
});

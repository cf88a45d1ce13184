// External players in tournaments (a stop or a hung program must not lose finished games nor leave
// programs running): games at once with a copy of each program per game, a stop that leaves no program
// running and loses no finished game, the `timeout` message that lets a program that was late once be
// on time again, and PROTOCOL.md checked against the code.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import type { TournamentSpec, TournamentStats } from '../../game/index.js';
import { BUILTIN_PLAYERS } from '../../game/index.js';
import type { AsyncTournamentOptions, ExternalCommand, GameRecord } from '../../robot/index.js';
import { ExternalPlayer, parsePlayerLine, playTournamentAsync } from '../../robot/index.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const root = here('../../');
const bot = (name: string, ...args: string[]): ExternalCommand => ({
  command: process.execPath,
  args: [here(`../fixtures/bots/${name}.mjs`), ...args],
});
/** Waits no machine reaches: answers that come by themselves are never turned into timeouts. */
const GENEROUS_MS = 60_000;
const clock = (): number => performance.now();
const spec = (teamA: [string, string], games: number, teamB: [string, string] = ['rule', 'rule']): TournamentSpec => ({
  teamA,
  teamB,
  games,
  seed: 5,
  duplicate: true,
  sessionGames: 1,
});
const withoutTimes = (s: TournamentStats): TournamentStats => ({ ...s, decisionMs: {} });
const exited = (p: ExternalPlayer): boolean => {
  const c = p.childProcess;
  return c === null || c.exitCode !== null || c.signalCode !== null;
};

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'parceiro-ext-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function run(
  s: TournamentSpec,
  external: Record<string, ExternalCommand>,
  more: Partial<AsyncTournamentOptions> = {},
) {
  const started: ExternalPlayer[] = [];
  const records: GameRecord[] = [];
  const log: string[] = [];
  const result = await playTournamentAsync(s, {
    builtins: BUILTIN_PLAYERS,
    external,
    moveTimeoutMs: GENEROUS_MS,
    helloTimeoutMs: GENEROUS_MS,
    clock,
    onExternalPlayer: (p) => started.push(p),
    onGame: (r) => records.push(r),
    log: (line) => log.push(line),
    ...more,
  });
  return { ...result, started, records, log };
}

describe('external players, games at once', () => {
  test('--workers 2 plays two games at once, each with its own copy of the program', async () => {
    // Each copy answers its first turn only when the other copy has reached its own: one game at a
    // time, the first turn would be late (and the test would wait for the generous deadline).
    const dir = tempDir();
    const r = await run(spec(['meet', 'rule'], 4), { meet: bot('rendezvous', dir, '2') }, { workers: 2 });
    expect(r.stats.games).toBe(4);
    expect(r.stats.faults).toEqual({});
    expect(r.started).toHaveLength(2);
    expect(new Set(r.started.map((p) => p.childProcess?.pid)).size).toBe(2);
    expect(r.started.every(exited)).toBe(true);
  });

  test('the results and the records are the same for any number of workers', async () => {
    const s = spec(['bot', 'rule'], 12, ['rule', 'bot']);
    const one = await run(s, { bot: bot('first-legal') }, { workers: 1 });
    const three = await run(s, { bot: bot('first-legal') }, { workers: 3 });
    expect(three.started).toHaveLength(6); // two positions, three copies each
    expect(withoutTimes(three.stats)).toEqual(withoutTimes(one.stats));
    expect(three.records).toEqual(one.records);
    expect(one.records.map((g) => g.seq)).toEqual([...Array(12).keys()]);
    const g = one.records[0]!;
    expect(g.plays).toHaveLength(40);
    expect(g.points.A + g.points.B).toBe(120);
    expect(new Set(g.plays).size).toBe(40);
  });

  test('the fallback that plays for a faulty program plays the same cards for any number of workers', async () => {
    const s = spec(['bad', 'rule'], 8);
    const one = await run(s, { bad: bot('illegal') }, { workers: 1 });
    const two = await run(s, { bad: bot('illegal') }, { workers: 2 });
    expect(one.stats.faults).toEqual({ bad: { illegal: 80 } });
    expect(two.started).toHaveLength(2);
    expect(one.records).toHaveLength(8);
    expect(two.records).toEqual(one.records);
  });
});

describe('stopping a tournament', () => {
  test('a program busy-looping and ignoring SIGTERM is killed (SIGTERM, then SIGKILL), and the run resolves stopped', async () => {
    const stop = new AbortController();
    const pids: number[] = [];
    const r = await run(
      spec(['rule', 'rule'], 4, ['busy', 'rule']),
      { busy: bot('busy-stubborn') },
      {
        workers: 2,
        signal: stop.signal,
        killGraceMs: 300,
        log: (line) => {
          const m = /looping \(pid (\d+)\)/.exec(line);
          if (m) pids.push(Number(m[1]));
          // Both copies are looping: stop now.
          if (pids.length === 2) stop.abort();
        },
      },
    );
    expect(r.stopped).toBe(true);
    expect(r.stats.games).toBe(0);
    expect(r.records).toEqual([]);
    expect(r.started).toHaveLength(2);
    for (const p of r.started) expect(p.childProcess?.signalCode).toBe('SIGKILL');
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  test('a stop keeps every finished game and counts the finished boards', async () => {
    const stop = new AbortController();
    const records: GameRecord[] = [];
    // The program answers its third game's first turn never: stop once two games are recorded.
    const r = await run(
      spec(['bot', 'rule'], 8),
      { bot: bot('first-legal') },
      {
        workers: 1,
        signal: stop.signal,
        onGame: (g) => {
          records.push(g);
          if (records.length === 3) stop.abort();
        },
      },
    );
    expect(r.stopped).toBe(true);
    expect(records.map((g) => g.seq)).toEqual([0, 1, 2]);
    // Boards 0 (games 0 and 1) is whole; game 2 is half of board 1, recorded but not in the statistics.
    expect(r.stats.boards).toBe(1);
    expect(r.stats.games).toBe(2);
    expect(r.gamesFinished).toBe(3);
    expect(r.started.every(exited)).toBe(true);
  });

  test('parceiro tournament on SIGINT: the programs stopped, a JSON summary marked stopped, the records kept', async () => {
    const dir = tempDir();
    const records = join(dir, 'games.jsonl');
    // vite-node runs the sources (dist may be older); SIGINT because vite's server answers SIGTERM itself.
    const child = spawn(
      join(root, 'node_modules/.bin/vite-node'),
      [
        'launch/cli.ts',
        '--',
        'tournament',
        '--json',
        '--no-progress',
        '--workers',
        '2',
        '--records',
        records,
        '--external',
        `busy=${process.execPath} test/fixtures/bots/busy-stubborn.mjs`,
        '--external',
        `mine=${process.execPath} robot/arena/external-player/examples/first-legal-bot.mjs`,
        '--team-a',
        'mine,rule',
        '--team-b',
        'busy,rule',
        '--games',
        '8',
        '--move-timeout',
        String(GENEROUS_MS),
      ],
      { cwd: root },
    );
    let out = '';
    let err = '';
    const pids: number[] = [];
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      for (const m of d.matchAll(/looping \(pid (\d+)\)/g)) pids.push(Number(m[1]));
      if (pids.length === 2) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code, err).toBe(130);
    expect(err).toMatch(/parceiro: SIGINT: stopping the tournament/);
    expect(err).not.toMatch(/\n\s+at /);
    const summary = JSON.parse(out);
    expect(summary.stopped).toBe('SIGINT');
    expect(summary.boardsTotal).toBe(4);
    const lines = readFileSync(records, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ type: 'summary', ...summary });
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  }, 120_000);
});

test('parceiro tournament --hello-timeout: a silent program fails the start in one line, exit 2', async () => {
  const child = spawn(
    join(root, 'node_modules/.bin/vite-node'),
    [
      'launch/cli.ts',
      '--',
      'tournament',
      '--external',
      `mute=${process.execPath} test/fixtures/bots/no-hello.mjs`,
      '--team-a',
      'mute,rule',
      '--games',
      '2',
      '--hello-timeout',
      '300',
    ],
    { cwd: root },
  );
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect(code, err).toBe(2);
  expect(err.trim()).toMatch(/^parceiro: error: external player 'mute' \(.*no-hello\.mjs\): no ready within 300 ms$/);
}, 120_000);

describe('a program late once', () => {
  test('is told its turn timed out, drops it, and is on time for the next', async () => {
    // It would think 8 s on its second turn; the deadline is 2 s. Told of the timeout, it stops thinking
    // and answers the next turn at once. (Before the timeout message, the next turn was late too.)
    const r = await run(spec(['slow', 'rule'], 2), { slow: bot('slow-once', '2', '8000') }, { moveTimeoutMs: 2000 });
    expect(r.stats.games).toBe(2);
    expect(r.stats.faults).toEqual({ slow: { late: 1 } });
    expect(r.records[0]!.faults).toEqual([{ seat: 0, player: 'slow', trick: 1, kind: 'late' }]);
    const told = r.log.find((l) => l.includes('told turn'));
    expect(told).toMatch(/slow-once: told turn 2 timed out \((\w\w) played\), dropping it/);
    // The card it was told is the one played for that turn.
    const card = /\((\w\w) played\)/.exec(told!)![1];
    // Seat 0's one card in the second trick.
    const g = r.records[0]!;
    expect(g.plays.slice(4, 8).filter((c) => g.hands[0]!.includes(c))).toEqual([card]);
    expect(r.log.some((l) => l.includes('ignored a late answer'))).toBe(false);
  });
});

describe('PROTOCOL.md against the code', () => {
  const page = readFileSync(here('../../robot/arena/external-player/PROTOCOL.md'), 'utf8');

  test('its tables list exactly the messages the runtime sends and reads', () => {
    const section = (title: string): string => page.split(`## ${title}`)[1]!.split('\n## ')[0]!;
    const types = (text: string): string[] => [...text.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!);
    expect(types(section('Runtime -> player')).sort()).toEqual([
      'bye',
      'deal',
      'end',
      'hello',
      'play',
      'timeout',
      'trick',
      'turn',
    ]);
    expect(types(section('Player -> runtime')).sort()).toEqual(['move', 'ready']);
  });

  test('the example exchange is answered as shown by the example bot, and its player lines parse', async () => {
    const block = page.split('## Example exchange')[1]!.split('```')[1]!;
    const toPlayer = [...block.matchAll(/^> (\{.*\})$/gm)].map((m) => m[1]!).filter((l) => !l.includes('...'));
    const fromPlayer = [...block.matchAll(/^< (\{.*\})$/gm)].map((m) => m[1]!);
    for (const l of fromPlayer) expect(parsePlayerLine(l).type).not.toBe('invalid');
    // The hello is shortened on the page: send the real one first.
    const child = spawn(process.execPath, [here('../../robot/arena/external-player/examples/first-legal-bot.mjs')]);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.stdin.write(`${JSON.stringify({ type: 'hello', protocol: 1, name: 'bot', rules: {} })}\n`);
    for (const l of toPlayer.filter((l) => !l.includes('"hello"'))) child.stdin.write(`${l}\n`);
    child.stdin.end(`${JSON.stringify({ type: 'bye' })}\n`);
    await closed;
    expect(out.trim().split('\n')).toEqual(fromPlayer);
    // The first trick is led by the seat after the dealer, as the page says.
    const deal = JSON.parse(toPlayer.find((l) => l.includes('"deal"'))!);
    const firstPlay = JSON.parse(toPlayer.find((l) => l.includes('"play"'))!);
    expect(firstPlay.seat).toBe((deal.dealer + 1) % 4);
    expect(page).toMatch(/seat after the dealer/);
    expect(page).toMatch(/by table side/);
    expect(page).toMatch(/--hello-timeout/);
  });
});

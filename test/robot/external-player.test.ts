import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { describe, expect, test } from 'vitest';
import type { Card, GameEvent, Player, PlayerFactory, TournamentSpec, TournamentStats } from '../../game/index.js';
import { BUILTIN_PLAYERS, boardCount, createRng, dealCards, runBoards } from '../../game/index.js';
import type { ExternalCommand, PlayerFault } from '../../robot/index.js';
import {
  ExternalPlayer,
  ExternalPlayerError,
  parsePlayerLine,
  playGameAsync,
  runTournamentAsync,
} from '../../robot/index.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const bot = (name: string, ...args: string[]): ExternalCommand => ({
  command: process.execPath,
  args: [here(`../fixtures/bots/${name}.mjs`), ...args],
});
const exampleBot: ExternalCommand = {
  command: process.execPath,
  args: [here('../../robot/arena/external-player/examples/first-legal-bot.mjs')],
};
/** A CommonJS bot given inline: says ready, answers each turn `m` with the expression `answer`. */
const inlineBot = (answer: string): ExternalCommand => ({
  command: process.execPath,
  args: [
    '-e',
    `const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
     require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
       const m = JSON.parse(l);
       if (m.type === 'hello') send({ type: 'ready', name: 'inline' });
       else if (m.type === 'turn') send(${answer});
     });`,
  ],
});

const clock = (): number => performance.now();
/**
 * For a bot that answers (or fails) by itself: a wait it never reaches on any machine, so a loaded
 * one cannot turn its answer into a timeout. Timeouts are tested with bots that never answer.
 */
const GENEROUS_MS = 60_000;
const firstLegal: PlayerFactory = () =>
  ({ kind: 'first-legal', choose: (view) => view.legalCards()[0]! }) satisfies Player;

const spec = (teamA: [string, string], games: number, seed = 11): TournamentSpec => ({
  teamA,
  teamB: ['rule', 'rule'],
  games,
  seed,
  duplicate: true,
  sessionGames: 1,
});

/** Runs a tournament and returns its stats and the external players it started. */
async function tournament(
  s: TournamentSpec,
  external: Record<string, ExternalCommand>,
  moveTimeoutMs: number,
  log?: string[],
) {
  const started: ExternalPlayer[] = [];
  const stats = await runTournamentAsync(s, {
    builtins: BUILTIN_PLAYERS,
    external,
    moveTimeoutMs,
    helloTimeoutMs: GENEROUS_MS,
    clock,
    onExternalPlayer: (p) => started.push(p),
    ...(log ? { log: (line: string) => log.push(line) } : {}),
  });
  return { stats, started };
}

const exited = (p: ExternalPlayer): boolean => {
  const c = p.childProcess;
  return c === null || c.exitCode !== null || c.signalCode !== null;
};

const withoutTimes = (s: TournamentStats): TournamentStats => ({ ...s, decisionMs: {} });

describe('external players in tournaments', () => {
  test('first-legal bots against rule players: no faults, reproducible, same as the synchronous engine', async () => {
    const s = spec(['bot', 'bot'], 8);
    const first = await tournament(s, { bot: exampleBot }, GENEROUS_MS);
    const again = await tournament(s, { bot: bot('first-legal') }, GENEROUS_MS);

    expect(first.stats.games).toBe(8);
    expect(first.stats.boards).toBe(boardCount(s));
    expect(first.stats.faults).toEqual({});
    expect(first.stats.decisionMs.bot?.count).toBe(8 * 20);
    expect(withoutTimes(again.stats)).toEqual(withoutTimes(first.stats));
    const reference = runBoards(s, 0, boardCount(s), { players: { ...BUILTIN_PLAYERS, bot: firstLegal } });
    expect(withoutTimes(first.stats)).toEqual(withoutTimes(reference));

    // One process per table position, reused for every game, all gone after the tournament.
    for (const { started } of [first, again]) {
      expect(started).toHaveLength(2);
      for (const p of started) {
        expect(exited(p)).toBe(true);
        expect(p.childProcess?.exitCode).toBe(0);
      }
    }
  });

  test.each([
    ['illegal', 'illegal', bot('illegal'), GENEROUS_MS],
    ['garbage', 'unreadable', bot('garbage'), GENEROUS_MS],
    // It answers 400 ms after each turn reaches it: always after the 150 ms deadline.
    ['slow', 'late', bot('slow', '400'), 150],
  ] as const)(
    'a %s bot is a fault of kind %s on each of its turns; the games complete',
    async (name, kind, command, timeout) => {
      const log: string[] = [];
      const { stats, started } = await tournament(spec([name, 'rule'], 2), { [name]: command }, timeout, log);
      expect(stats.games).toBe(2);
      // 10 turns per game; late answers to earlier turns were ignored, not counted again.
      expect(stats.faults).toEqual({ [name]: { [kind]: 20 } });
      if (kind === 'late') expect(log.some((l) => l.includes('ignored a late answer to turn'))).toBe(true);
      expect(started.every(exited)).toBe(true);
    },
  );

  test('a bot that dies is reported once and its seat is played at once by the fallback', async () => {
    const log: string[] = [];
    // A move timeout longer than the test may run: had the fallback waited for it after the death, the
    // tournament would not finish. (No stopwatch: a loaded machine is slow, not wrong.)
    const { stats, started } = await tournament(spec(['dies', 'rule'], 4), { dies: bot('dies') }, 600_000, log);
    expect(stats.games).toBe(4);
    expect(stats.faults).toEqual({ dies: { died: 1 } });
    expect(log.some((l) => l.includes('exited with code 3') && l.includes('giving up'))).toBe(true);
    expect(started.every(exited)).toBe(true);
  });

  test('a bot that never says ready fails the tournament with a clear error, and nothing is left running', async () => {
    const started: ExternalPlayer[] = [];
    // The silent bot first: were the good one also not ready in time (a loaded machine), the error
    // reported is still the first position's, the silent one's.
    const run = runTournamentAsync(spec(['silent', 'bot'], 2), {
      builtins: BUILTIN_PLAYERS,
      external: { bot: exampleBot, silent: bot('no-hello') },
      moveTimeoutMs: 300,
      // The silent one fails by this timeout.
      helloTimeoutMs: 1500,
      clock,
      onExternalPlayer: (p) => started.push(p),
    });
    await expect(run).rejects.toThrow(ExternalPlayerError);
    await expect(run).rejects.toThrow(/external player 'silent' \(.*no-hello\.mjs\): no ready within 1500 ms/);
    expect(started).toHaveLength(2);
    expect(started.every(exited)).toBe(true);
  });

  test('an unknown player name is an error before anything starts', async () => {
    await expect(
      runTournamentAsync(spec(['nobody', 'rule'], 2), {
        builtins: BUILTIN_PLAYERS,
        external: {},
        moveTimeoutMs: 100,
        clock,
      }),
    ).rejects.toThrow(/unknown player 'nobody'/);
  });
});

describe('ExternalPlayer', () => {
  const deal = dealCards(createRng(7), 0);

  async function playOne(command: ExternalCommand, timeoutMs = GENEROUS_MS) {
    const player = await ExternalPlayer.start({ name: 'ext', ...command, seed: 5, helloTimeoutMs: GENEROUS_MS });
    const rule = BUILTIN_PLAYERS.rule!;
    const faults: PlayerFault[] = [];
    const plays: Card[] = [];
    try {
      const game = await playGameAsync(
        deal,
        [player, rule({ seat: 1, seed: 1 }), rule({ seat: 2, seed: 2 }), rule({ seat: 3, seed: 3 })],
        {
          moveTimeoutMs: timeoutMs,
          onFault: (seat, name, fault) => {
            expect([seat, name]).toEqual([0, 'ext']);
            faults.push(fault);
          },
          onEvent: (e: GameEvent) => {
            if (e.type === 'play') plays.push(e.card);
          },
        },
      );
      return { game, faults, plays, player };
    } finally {
      await player.close();
    }
  }

  test.each([
    ['answers another id', `{ type: 'move', id: m.id + 1000, card: m.legal[0] }`, /answered with id/],
    ['leaves out the card', `{ type: 'move', id: m.id }`, /card undefined is not a string/],
    ['names no card', `{ type: 'move', id: m.id, card: 'ZZ' }`, /unknown card "ZZ"/],
    ['sends another type', `{ type: 'pass', id: m.id }`, /unknown message type "pass"/],
  ])('a bot that %s is unreadable, and the fallback plays a legal card', async (_what, answer, detail) => {
    const { game, faults, plays, player } = await playOne(inlineBot(answer));
    expect(game.isOver).toBe(true);
    expect(plays.length).toBe(game.plays);
    expect(faults.length).toBeGreaterThan(0);
    expect(faults.every((f) => f.kind === 'unreadable' && detail.test(f.detail))).toBe(true);
    expect(exited(player)).toBe(true);
  });

  test('a dying bot: one died fault with its exit code and stderr, then the fallback', async () => {
    const { game, faults, player } = await playOne(bot('dies'), 10_000);
    expect(game.isOver).toBe(true);
    expect(faults).toHaveLength(1);
    expect(faults[0]!.kind).toBe('died');
    expect(faults[0]!.detail).toMatch(/exited with code 3; stderr: dies\.mjs: giving up on turn 3/);
    expect(player.childProcess?.exitCode).toBe(3);
  });

  const readyThen = (onTurn: string): ExternalCommand => ({
    command: process.execPath,
    args: [
      '-e',
      `require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
         const m = JSON.parse(l);
         if (m.type === 'hello') console.log('{"type":"ready"}');
         else if (m.type === 'turn') { ${onTurn} }
       });
       setInterval(() => {}, 1000);`,
    ],
  });

  test('a bot that closes its stdout but keeps running is reported died and killed', async () => {
    const { game, faults, player } = await playOne(readyThen(`require('fs').closeSync(1);`), 10_000);
    expect(game.isOver).toBe(true);
    expect(faults).toEqual([{ kind: 'died', detail: 'closed its stdout' }]);
    expect(player.childProcess?.signalCode).toBe('SIGKILL');
  });

  test('a bot that closes its stdin: its turn is late, the next write fails (EPIPE) and it is reported died', async () => {
    const { game, faults, player } = await playOne(readyThen(`require('fs').closeSync(0);`), 300);
    expect(game.isOver).toBe(true);
    expect(faults.map((f) => f.kind)).toEqual(['late', 'died']);
    expect(faults[1]!.detail).toMatch(/could not be written to \(EPIPE\)/);
    expect(exited(player)).toBe(true);
  });

  test('a bot that floods its stderr: 64 kB of it reach the log, then one line says the rest is not shown', async () => {
    // A line of 1 kB, 20,000 times (20 MB), then it plays as the inline bot does.
    const flood: ExternalCommand = {
      command: process.execPath,
      args: [
        '-e',
        `const line = 'x'.repeat(1023) + '\\n';
         for (let i = 0; i < 20000; i++) process.stderr.write(line);
         const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
         require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
           const m = JSON.parse(l);
           if (m.type === 'hello') send({ type: 'ready', name: 'flood' });
           else if (m.type === 'turn') send({ type: 'move', id: m.id, card: m.legal[0] });
         });`,
      ],
    };
    const log: string[] = [];
    const { stats } = await tournament(spec(['flood', 'flood'], 2), { flood }, GENEROUS_MS, log);
    expect(stats.games).toBe(2);
    const shown = log.filter((l) => l.includes('stderr]'));
    const bytes = shown.reduce((n, l) => n + l.length, 0);
    expect(bytes).toBeLessThan(2 * 70 * 1024);
    expect(shown.filter((l) => /more than 64 kB: the rest of its stderr is not shown/.test(l)).length).toBeGreaterThan(
      0,
    );
  }, 120_000);

  test('start errors name the program and what happened', async () => {
    // Generous timeouts where the program fails by itself, so a loaded machine does not turn them into timeouts.
    const cases: [ExternalCommand, number, RegExp][] = [
      [
        { command: '/nonexistent/bot', args: [] },
        GENEROUS_MS,
        /'x' \(\/nonexistent\/bot\): did not start \(spawn \/nonexistent\/bot ENOENT\)/,
      ],
      [
        { command: process.execPath, args: ['-e', `process.stderr.write('boom\\n'); process.exit(5)`] },
        GENEROUS_MS,
        /exited with code 5 before saying ready; stderr: boom/,
      ],
      [
        { command: process.execPath, args: ['-e', `console.log('hi'); setTimeout(() => {}, 5000)`] },
        GENEROUS_MS,
        /sent unreadable line "hi" \(not JSON\) instead of ready/,
      ],
      [bot('no-hello'), 200, /no-hello\.mjs\): no ready within 200 ms/],
    ];
    for (const [command, helloTimeoutMs, message] of cases) {
      const player = new ExternalPlayer({ name: 'x', ...command, seed: 1, helloTimeoutMs });
      await expect(player.start()).rejects.toThrow(message);
      expect(exited(player)).toBe(true);
    }
  });

  test('close() stops a bot that ignores bye and its closed stdin', async () => {
    const stubborn: ExternalCommand = {
      command: process.execPath,
      args: [
        '-e',
        `process.stdin.on('data', (d) => { if (String(d).includes('hello')) console.log('{"type":"ready"}'); }); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);`,
      ],
    };
    const player = await ExternalPlayer.start({
      name: 'stubborn',
      ...stubborn,
      seed: 1,
      helloTimeoutMs: GENEROUS_MS,
      closeTimeoutMs: 100,
    });
    expect(player.alive).toBe(true);
    await player.close();
    // SIGTERM ends it; one that ignores SIGTERM too is killed: test/robot/external-player-tournament.test.ts.
    expect(player.childProcess?.signalCode).toBe('SIGTERM');
    expect(player.alive).toBe(false);
  });

  test('the parser of player lines', () => {
    expect(parsePlayerLine('{"type":"ready","name":"me"}')).toEqual({ type: 'ready', name: 'me' });
    expect(parsePlayerLine('{"type":"move","id":3,"card":"7H"}')).toMatchObject({ type: 'move', id: 3 });
    expect(parsePlayerLine('nope')).toEqual({ type: 'invalid', reason: 'not JSON', id: null });
    expect(parsePlayerLine('[1]')).toMatchObject({ type: 'invalid', reason: 'not a JSON object' });
    expect(parsePlayerLine('{"type":"move","id":"3","card":"7H"}')).toMatchObject({ type: 'invalid', id: null });
    expect(parsePlayerLine('{"type":"move","id":4,"card":"1H"}')).toMatchObject({ type: 'invalid', id: 4 });
  });
});

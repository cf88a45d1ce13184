// The command line, driven as a user drives it: the built program in a child process.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliRun } from './run-cli.js';
import { runCli } from './run-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string): string => `${root}test/fixtures/records/${name}`;

const run = (args: string[], input?: string): Promise<CliRun> => runCli(args, root, input);

// Every case is a program of its own that reads the checkout and writes nothing there: the cases run at
// once (describe.concurrent, at most vitest's maxConcurrency, 5, at a time).

const short = JSON.parse(readFileSync(fixture('short.json'), 'utf8')) as {
  dealer: number;
  trump: string;
  hands: string[][];
  plays: string[];
};
const withRecord = (change: (r: typeof short) => void): string => {
  const r = structuredClone(short);
  change(r);
  return JSON.stringify(r);
};

describe.concurrent('parceiro score', () => {
  it('scores a record cut short, as far as it goes', async () => {
    const { code, out, err } = await run(['score', fixture('short.json')]);
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toEqual({
      tricks: [
        { leader: 1, cards: ['AD', '5D', '7D', '4D'], winner: 1, points: 21 },
        { leader: 1, cards: ['AS', '4S'], winner: null, points: null },
      ],
      points: [0, 21],
      complete: false,
      result: null,
      renounce: null,
    });
  });

  it('reads standard input with -', async () => {
    const { code, out, err } = await run(['score', '-'], readFileSync(fixture('short.json'), 'utf8'));
    expect(code, err).toBe(0);
    expect(JSON.parse(out).points).toEqual([0, 21]);
  });

  it('scores a complete game to a result', async () => {
    const { code, out, err } = await run(['score', fixture('complete.json')]);
    expect(code, err).toBe(0);
    const report = JSON.parse(out);
    expect(report.complete).toBe(true);
    expect(report.tricks).toHaveLength(10);
    expect(report.points[0] + report.points[1]).toBe(120);
    expect(report.result).toEqual({ winner: report.points[0] > 60 ? 'A' : 'B', victories: expect.any(Number) });
  });

  it('ends the game at a renounce and gives the other team 4 victories', async () => {
    // Seat 2 still holds 4S, so answering the spade lead with KD is a renounce.
    const { code, out, err } = await run(
      ['score', '-'],
      withRecord((r) => (r.plays = ['AD', '5D', '7D', '4D', 'AS', 'KD'])),
    );
    expect(code, err).toBe(0);
    const report = JSON.parse(out);
    expect(report.renounce).toEqual({ seat: 2, trick: 1, card: 'KD' });
    expect(report.result).toEqual({ winner: 'B', victories: 4 });
    expect(report.complete).toBe(true);
  });

  const bad: [string, string, RegExp][] = [
    ['an unknown card', withRecord((r) => (r.hands[1]![3] = '1X')), /hands\[1\]\[3\]: unknown card "1X"/],
    ['a card dealt twice', withRecord((r) => (r.hands[2]![0] = 'AS')), /hands\[2\]\[0\]: AS was dealt twice/],
    ['a hand of the wrong size', withRecord((r) => r.hands[3]!.pop()), /hands\[3\]: expected 10 cards, got 9/],
    [
      "a trump card not in the dealer's hand",
      withRecord((r) => (r.trump = 'AS')),
      /trump: AS is not in the dealer's hand/,
    ],
    [
      'a card not in the hand of the seat to move',
      withRecord((r) => (r.plays = ['AD', 'AH'])),
      /plays\[1\]: AH is not in the hand of seat 2, whose turn it is/,
    ],
    [
      'a card played twice',
      withRecord((r) => (r.plays = ['AD', '5D', '7D', '4D', 'AD'])),
      /plays\[4\]: AD was already played/,
    ],
    ['a dealer that is not a seat', withRecord((r) => (r.dealer = 4)), /dealer: expected a seat 0-3, got 4/],
    ['broken JSON', '{"dealer": 0,', /not valid JSON at line 1/],
    [
      'plays after the game is over',
      (() => {
        const r = JSON.parse(readFileSync(fixture('complete.json'), 'utf8'));
        r.plays.push('AS');
        return JSON.stringify(r);
      })(),
      /plays\[40\]: the game is over after 40 cards/,
    ],
  ];
  for (const [what, input, message] of bad) {
    it(`rejects ${what} with exit code 2 and one line naming the place`, async () => {
      const { code, out, err } = await run(['score', '-'], input);
      expect(code, err).toBe(2);
      expect(out).toBe('');
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(message);
      expect(err).not.toMatch(/\n\s+at /); // no stack trace
    });
  }

  it('names a missing file', async () => {
    const { code, err } = await run(['score', 'no-such-record.json']);
    expect(code, err).toBe(2);
    expect(err).toMatch(/no-such-record\.json: no such file/);
  });
});

describe.concurrent('parceiro --version', () => {
  it("prints the package's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { code, out, err } = await run([flag]);
      expect(code, err).toBe(0);
      expect(out.trim()).toBe(version);
    }
  });
});

describe.concurrent('parceiro tournament', () => {
  it('documents its options', async () => {
    const { code, out, err } = await run(['tournament', '--help']);
    expect(code, err).toBe(0);
    for (const opt of [
      '--team-a',
      '--team-b',
      '--games',
      '--seed',
      '--session',
      '--no-duplicate',
      '--workers',
      '--json',
      '--external',
      '--move-timeout',
      '--budget',
    ]) {
      expect(out).toContain(opt);
    }
  });

  const summary = async (args: string[]): Promise<Record<string, unknown>> => {
    const { code, out, err } = await run(['tournament', '--json', ...args]);
    expect(err).toBe('');
    expect(code, err).toBe(0);
    const s = JSON.parse(out);
    delete s.decisionMs; // timing is the only thing a seed does not fix
    return s;
  };

  it('gives the same result for the same seed, however the work is split over workers', async () => {
    const args = ['--team-a', 'rule,random', '--team-b', 'random,random', '--games', '400', '--seed', '7'];
    const one = await summary([...args, '--workers', '1']);
    const two = await summary([...args, '--workers', '2']);
    expect(two).toEqual(one);
    const other = await summary([
      '--team-a',
      'rule,random',
      '--team-b',
      'random,random',
      '--games',
      '400',
      '--seed',
      '8',
      '--workers',
      '2',
    ]);
    expect(other).not.toEqual(one);
  });

  it('reports the stable fields', async () => {
    const s = (await summary(['--games', '200', '--seed', '3'])) as {
      games: number;
      teamA: {
        wins: number;
        draws: number;
        losses: number;
        winRate: number;
        ci95: [number, number];
        meanPoints: number;
      };
    };
    expect(s.games).toBe(200);
    expect(s.teamA.wins + s.teamA.draws + s.teamA.losses).toBe(200);
    expect(s.teamA.winRate).toBeCloseTo(s.teamA.wins / 200, 4);
    expect(s.teamA.ci95[0]).toBeLessThanOrEqual(s.teamA.winRate);
    expect(s.teamA.ci95[1]).toBeGreaterThanOrEqual(s.teamA.winRate);
    expect(s.teamA.meanPoints).toBeGreaterThan(0);
  });

  it('--cpu-clock budgets CPU time, one game at a time, built-in players only', async () => {
    const args = ['tournament', '--team-a', 'mix:n=4,rule', '--team-b', 'rule,rule', '--games', '2', '--cpu-clock'];
    const refused = await run([...args, '--no-progress']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--cpu-clock .* add --workers 1/);
    const s = (await summary([...args.slice(1), '--workers', '1', '--budget', '100'])) as { games: number };
    expect(s.games).toBe(2);
  });

  it('reports the victory and point margins paired by deal, in JSON and in the table', async () => {
    const args = ['--team-a', 'rule,rule', '--team-b', 'random,random', '--games', '200', '--seed', '3'];
    const s = (await summary(args)) as {
      teamA: { victories: number; meanPoints: number };
      teamB: { victories: number; meanPoints: number };
      pairedVictoryMargin: { mean: number; ci95: [number, number]; pairs: number };
      pairedPointMargin: { mean: number; ci95: [number, number]; pairs: number };
    };
    const v = s.pairedVictoryMargin;
    expect(v.pairs).toBe(100);
    expect(v.mean).toBeCloseTo((s.teamA.victories - s.teamB.victories) / 200, 4);
    expect(v.ci95[0]).toBeGreaterThan(0); // rule beats random clearly
    expect(v.ci95[1]).toBeGreaterThan(v.mean);
    expect(s.pairedPointMargin.mean).toBeCloseTo(s.teamA.meanPoints - s.teamB.meanPoints, 2);
    const { code, out, err } = await run(['tournament', ...args, '--no-progress']);
    expect(code, err).toBe(0);
    expect(out).toMatch(/A minus B a game, paired by deal \(100 pairs\): victories \+0\.\d{3} \(95% CI \+/);
  });

  it('plays search players named with parameters, reproducibly', async () => {
    const args = ['--team-a', 'hybrid:n=2:m=1:t=7,rule', '--team-b', 'rule,rule', '--games', '4', '--seed', '4'];
    const a = await summary(args);
    expect(a.games).toBe(4);
    expect(await summary([...args, '--workers', '1'])).toEqual(a);
  });

  it('plays sessions and reports them', async () => {
    const s = (await summary(['--games', '40', '--session', '5', '--seed', '2'])) as {
      sessions: { played: number; teamAWins: number; draws: number; teamBWins: number };
    };
    expect(s.sessions.played).toBe(8); // 4 deal sets of 5 games, each played twice
    expect(s.sessions.teamAWins + s.sessions.draws + s.sessions.teamBWins).toBe(8);
  });

  it('prints a readable table by default', async () => {
    const { code, out, err } = await run(['tournament', '--games', '100', '--no-progress']);
    expect(code, err).toBe(0);
    expect(out).toMatch(/Tournament: 100 games \(50 deals, each played twice with the seats swapped\), seed 1/);
    expect(out).toMatch(/win rate/);
    expect(out).toMatch(/Decision time \(ms\)/);
  });

  it('lets an external program play through --external, with no faults', async () => {
    const bot = `mine=${process.execPath} ${root}robot/arena/external-player/examples/first-legal-bot.mjs`;
    const { code, out, err } = await run([
      'tournament',
      '--json',
      '--external',
      bot,
      '--team-a',
      'mine,rule',
      '--team-b',
      'rule,rule',
      '--games',
      '8',
    ]);
    expect(code, err).toBe(0);
    const s = JSON.parse(out);
    expect(s.games).toBe(8);
    expect(s.faults.mine ?? {}).toEqual({});
    expect(s.decisionMs.mine.decisions).toBe(80);
  });

  it('says in one line when an external program cannot start', async () => {
    const { code, err } = await run([
      'tournament',
      '--external',
      'ghost=no-such-program-here',
      '--team-a',
      'ghost,rule',
      '--games',
      '2',
    ]);
    expect(code, err).toBe(2);
    expect(err).toMatch(/parceiro: error: external player 'ghost' \(no-such-program-here\): did not start/);
    expect(err).not.toMatch(/\n\s+at /);
  });

  const mistakes: [string, string[], RegExp][] = [
    ['an odd number of duplicate games', ['--games', '201'], /--games must be a multiple of 2/],
    ['an unknown player', ['--team-a', 'rule,genius'], /--team-a: unknown player 'genius'/],
    [
      'a bad player parameter',
      ['--team-a', 'hybrid:n=0,rule'],
      /--team-a: hybrid:n=0: n expects a whole number from 1/,
    ],
    ['a team of one', ['--team-b', 'rule'], /--team-b expects two players/],
    ['a bad number', ['--games', 'many'], /--games expects a whole number/],
    ['a malformed external player', ['--external', 'nobody'], /--external expects NAME=COMMAND/],
  ];
  for (const [what, args, message] of mistakes) {
    it(`rejects ${what} with one clear line`, async () => {
      const { code, err } = await run(['tournament', ...args]);
      expect(code, err).toBe(2);
      expect(err).toMatch(message);
      expect(err).not.toMatch(/\n\s+at /);
    });
  }
});

describe.concurrent('parceiro solve', () => {
  const position = {
    trump: 'H',
    hands: [
      ['AH', '4D'],
      ['4S', '3D'],
      ['2H', 'AD'],
      ['5S', 'JH', '7H'],
    ],
    leader: 0,
    trick: ['7C', '5C', '5H'],
    points: [61, 14],
  };

  it("values every legal move in final points of the mover's team", async () => {
    // Worked out by hand: after 5S seat 2 wins the trick and team B can still take 21 more points.
    const { code, out, err } = await run(['solve', '-'], JSON.stringify(position));
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toEqual({ toMove: 3, moves: { '5S': 35, JH: 27, '7H': 34 } });
  });

  it('names what is wrong with an impossible position', async () => {
    const { code, err } = await run(
      ['solve', '-'],
      JSON.stringify({
        ...position,
        hands: [
          ['AH', '4D'],
          ['4S', '3D'],
          ['2H', 'AD'],
          ['5S', 'JH'],
        ],
      }),
    );
    expect(code, err).toBe(2);
    expect(err).toMatch(/hands\[0\]: holds 2 cards, expected 1/);
    const dup = await run(['solve', '-'], JSON.stringify({ ...position, trick: ['7C', '5C', 'AH'] }));
    expect(dup.code).toBe(2);
    expect(dup.err).toMatch(/AH appears twice/);
  });
});

describe.concurrent('parceiro match (npm start)', () => {
  it('plays and narrates a short match', async () => {
    const { code, out, err } = await run(['match', '--games', '2', '--seed', '5']);
    expect(code, err).toBe(0);
    expect(out).toMatch(/Game 1: seat 0 deals and turns up \w\w: trumps are/);
    expect(out).toMatch(/Game 2: seat 1 deals/);
    expect(out.match(/trick\s+\d+:/g)?.length).toBe(20);
    expect(out).toMatch(/Session over: team A \d+ victories, team B \d+/);
  });

  it('is reproducible from its seed', async () => {
    expect((await run(['match', '--seed', '9'])).out).toBe((await run(['match', '--seed', '9'])).out);
  });
});

describe.concurrent('parceiro play', () => {
  const mistakes: [string, string[], string][] = [
    [
      "the robot's seat",
      ['--seat', '0'],
      "parceiro: error: --seat: seat 0 is the robot's; take 2 (its partner), or 1 or 3 (its opponents)",
    ],
    [
      'a seat that is none',
      ['--seat', 'left'],
      'parceiro: error: --seat expects 1, 2 or 3 (or partner, opponent), got "left"',
    ],
    [
      'an unknown kind of simulated player',
      ['--bots', 'clever'],
      'parceiro: error: --bots expects rule or random, got "clever"',
    ],
    [
      'a negative think time',
      ['--bot-think', '-5'],
      'parceiro: error: --bot-think expects a whole number from 0 to 60000, got "-5"',
    ],
    [
      'an unknown speech backend',
      ['--speech', 'loud'],
      'parceiro: error: --speech expects log, espeak-ng, say or publish, got "loud"',
    ],
    ['an unknown character', ['--character', 'grumpy'], 'unknown character "grumpy"'],
  ];
  for (const [what, args, message] of mistakes) {
    it(`rejects ${what} with one clear line`, async () => {
      const { code, err } = await run(['play', '--no-record', ...args]);
      expect(code, err).toBe(2);
      expect(err).toContain(message);
      expect(err.trim().split('\n')).toHaveLength(1);
    });
  }

  it('documents its options', async () => {
    const { code, out, err } = await run(['play', '--help']);
    expect(code, err).toBe(0);
    for (const option of ['--seat', '--bots', '--bot-think', '--games', '--port', '--dashboard-port'])
      expect(out).toContain(option);
  });
});

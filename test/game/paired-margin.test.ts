// The victory and point margins paired by deal (team A minus team B a game, the two games of a
// duplicate deal as one pair): zero for identical teams, signed the way the teams play.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlayerFactory, TournamentSpec, TournamentSummary } from '../../game/index.js';
import { BUILTIN_PLAYERS, boardCount, runBoards, summarize } from '../../game/index.js';

/** Players made with one fixed seed whatever their seat: the same team plays the same cards. */
const sameSeed = (kind: string, seed: number): PlayerFactory => {
  const make = BUILTIN_PLAYERS[kind]!;
  return (o) => make({ ...o, seed });
};

const play = (teamA: [string, string], teamB: [string, string], games: number, seed: number): TournamentSummary => {
  const s: TournamentSpec = { teamA, teamB, games, seed, duplicate: true, sessionGames: 1 };
  const players = {
    'rule@5': sameSeed('rule', 5),
    'random@9': sameSeed('random', 9),
    'expert@1': sameSeed('expert', 1),
  };
  return summarize(s, runBoards(s, 0, boardCount(s), { players }));
};

describe('paired margins', () => {
  it('are exactly 0 for identical teams of same-seed players over duplicate deals', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('rule@5', 'random@9', 'expert@1'),
        fc.constantFrom('rule@5', 'random@9', 'expert@1'),
        fc.integer({ min: 0, max: 1_000_000 }),
        (p, q, seed) => {
          const s = play([p, q], [p, q], 20, seed);
          for (const m of [s.pairedVictoryMargin, s.pairedPointMargin]) {
            expect(m.mean).toBe(0);
            expect(m.ci95).toEqual([0, 0]);
            expect(m.pairs).toBe(10);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('are positive for the stronger team, and change sign, exactly, when the teams swap', () => {
    const ab = play(['rule@5', 'rule@5'], ['random@9', 'random@9'], 200, 11);
    const ba = play(['random@9', 'random@9'], ['rule@5', 'rule@5'], 200, 11);
    expect(ab.pairedVictoryMargin.ci95[0]).toBeGreaterThan(0);
    expect(ab.pairedPointMargin.ci95[0]).toBeGreaterThan(0);
    expect(ba.pairedVictoryMargin.mean).toBe(-ab.pairedVictoryMargin.mean);
    expect(ba.pairedPointMargin.mean).toBe(-ab.pairedPointMargin.mean);
    expect(ba.pairedVictoryMargin.ci95[1]).toBeLessThan(0);
    // The margins are the games' own sums, a game.
    expect(ab.pairedVictoryMargin.mean).toBeCloseTo((ab.teamA.victories - ab.teamB.victories) / 200, 4);
    expect(ab.pairedPointMargin.mean).toBeCloseTo(ab.teamA.meanPoints - ab.teamB.meanPoints, 3);
  });

  it('interval narrower than the unpaired one: duplicate deals cancel the luck of the cards', () => {
    const s = play(['expert@1', 'expert@1'], ['rule@5', 'rule@5'], 200, 3);
    const half = (s.pairedPointMargin.ci95[1] - s.pairedPointMargin.ci95[0]) / 2;
    // Unpaired: the points of A a game spread by their own sd over 200 games (A minus B = 2A - 120).
    const unpaired = (1.96 * 2 * s.teamA.pointsSd) / Math.sqrt(200);
    expect(half).toBeLessThan(unpaired);
  });
});

// Why one card rather than another: for each reason kind, a position where it is the true
// reason, built from a deal and the plays before it; the reason finder must name it, with the numbers
// the worlds bear out. Deterministic: a seeded generator.

import { describe, expect, it } from 'vitest';
import {
  createRng,
  formatCard,
  infoSetOf,
  parseCard,
  reasonFor,
  winGainSupport,
  withReason,
} from '../../game/index.js';
import type { Decision, Seat } from '../../game/index.js';
import type { BuiltDeal } from './built-deal.js';
import { builtGame } from './built-deal.js';

/** The position of `seat` (default the seat to move) in a built deal (built-deal.ts). */
function position(o: BuiltDeal & { seat?: Seat }) {
  const game = builtGame(o);
  const seat = o.seat ?? game.toMove;
  expect(game.toMove).toBe(seat);
  return infoSetOf(game, seat, game.hand(seat));
}

const why = (info: ReturnType<typeof position>, chosen: string, other: string) =>
  reasonFor(info, parseCard(chosen), parseCard(other), { rng: createRng(7), seed: 7, worlds: 48 });

describe('the reason that separates two cards', () => {
  it("points on a trick the partner is sure to take: the robot plays last behind its partner's ace", () => {
    // Trumps hearts; seat 1 leads 3S, the partner (2) plays AS, seat 3 4S; the robot (0) plays last.
    const info = position({
      dealer: 0,
      trumpCard: '2H',
      hands: { 0: '7S 2S', 1: '3S', 2: 'AS', 3: '4S' },
      plays: '3S AS 4S',
    });
    const r = why(info, '7S', '2S');
    expect(r).toMatchObject({ kind: 'points-to-partner', points: 10 });
    expect(r.chosen.partnerTakesTrick).toBe(1);
    expect(r.chosen.trickPoints).toBe(21);
  });

  it("takes the trick: the ace beats the opponent's king, a small card would not", () => {
    const info = position({
      dealer: 0,
      trumpCard: '2H',
      hands: { 0: 'AS 3S', 1: 'KS', 2: '2S', 3: '5S' },
      plays: 'KS 2S 5S',
    });
    const r = why(info, 'AS', '3S');
    expect(r).toMatchObject({ kind: 'takes-trick', points: 15 });
    expect([r.chosen.teamTakesTrick, r.other.teamTakesTrick]).toEqual([1, 0]);
  });

  it("saves points when the trick is lost either way: the opponent's ace holds", () => {
    const info = position({
      dealer: 0,
      trumpCard: '2H',
      hands: { 0: 'KS 4S', 1: 'AS', 2: '2S', 3: '3S' },
      plays: 'AS 2S 3S',
    });
    const r = why(info, '4S', 'KS');
    expect(r).toMatchObject({ kind: 'saves-points', points: 4 });
    expect([r.chosen.teamTakesTrick, r.other.teamTakesTrick]).toEqual([0, 0]);
  });

  it("keeps the ace of trumps for later: the partner's ace of clubs already holds the trick", () => {
    // The robot has no clubs: it may ruff with the ace of trumps or throw a small diamond.
    const info = position({
      dealer: 0,
      trumpCard: '2H',
      hands: { 0: 'AH 2D 3D 4D 5D 6D QD JD KD', 1: '3C', 2: 'AC', 3: '4C' },
      plays: '3C AC 4C',
    });
    expect(info.hand.some((c) => formatCard(c).endsWith('C'))).toBe(false);
    const r = why(info, '2D', 'AH');
    expect(r).toMatchObject({ kind: 'keeps-master-trump', kept: parseCard('AH') });
  });

  it("draws the opponents' trumps: a trump lead leaves them fewer than a side card", () => {
    // Seat 3 dealt, so the robot leads the first trick, holding the three best trumps.
    const info = position({ dealer: 3, trumpCard: '2H', hands: { 0: 'AH 7H KH 2D 3D 4D 5D 6D 2C 3C' } });
    const r = why(info, 'AH', '2D');
    expect(r.kind).toBe('draws-trumps');
    expect(r.other.opponentTrumpsAfter - r.chosen.opponentTrumpsAfter).toBeGreaterThanOrEqual(0.5);
  });

  it('leads the suit the partner has shown it lacks, so the partner ruffs', () => {
    // Trick 1: the robot's AD wins; the partner discarded a spade (no diamonds) and still may hold trumps.
    const info = position({
      dealer: 3,
      trumpCard: '3H',
      hands: {
        0: 'AD 2D 2C 4C 5C 6C QC 2S 3S 4S',
        1: '3D 4D 5D',
        2: '5S AH 7H KH JH QH 2H 4H 5H 6H',
        3: '6D 7D KD JD QD',
      },
      plays: 'AD 3D 5S 6D',
    });
    expect(info.voids[2]).toContain(2); // diamonds
    const r = why(info, '2D', '2C');
    expect(r).toMatchObject({ kind: 'partner-ruffs', suit: 2 });
    expect(r.chosen.partnerTakesTrick).toBeGreaterThan(r.other.partnerTakesTrick);
  });

  it('otherwise, that the card wins more often over the worlds', () => {
    const info = position({ dealer: 3, trumpCard: '2H', hands: { 0: 'AS 3S 4S KD 3D 4D 2C 3C 4C 5H' } });
    const r = why(info, 'KD', '3D');
    expect(r.kind).toBe('better-odds');
    expect(r.chosen.winShare).toBeGreaterThan(r.other.winShare);
    expect(r.worlds).toBe(48);
  });

  it('as often won, that it ends with more points; and a close call is called one, not better odds', () => {
    // A hand with no trump and no point card leading: the 2S and the 2C win the same games.
    const info = position({ dealer: 3, trumpCard: '2H', hands: { 0: '2S 3S 4S 2D 3D 4D 2C 3C 4C 5C' } });
    const r = why(info, '2S', '2C');
    expect(r).toMatchObject({ kind: 'more-points', points: 3 });
    expect(r.chosen.winShare).toBe(r.other.winShare);
    // Two clubs of one run: nothing tells them apart.
    const c = why(info, '2C', '3C');
    expect(c.kind).toBe('close-call');
    expect([c.chosen.winShare, c.chosen.finalPoints]).toEqual([c.other.winShare, c.other.finalPoints]);
  });

  it('plays both cards in the same worlds: the same seed gives the same reason and numbers', () => {
    const info = position({ dealer: 3, trumpCard: '2H', hands: { 0: 'AH 7H KH 2D 3D 4D 5D 6D 2C 3C' } });
    expect(why(info, 'AH', '2D')).toEqual(why(info, 'AH', '2D'));
  });
});

describe("the reason said beside the search's own numbers (withReason)", () => {
  // The rollouts of the reason (48 worlds, expert players) can see the two cards win as often where
  // the search that chose the card (its own worlds, shown in the dashboard's table) did not: the
  // outcome the reason names comes from the search's numbers. Playthrough 3: 2C 88% to win, 74.4
  // points, 1.02 victories; 7H 81%, 71.6, 0.79; the rollouts said "as often, 4 points more".
  const info = position({ dealer: 3, trumpCard: '2H', hands: { 0: '2S 3S 4S 2D 3D 4D 2C 3C 4C 5C' } });
  const decided = (other: { mean: number; win: number; victories: number }): Decision => ({
    card: parseCard('2S'),
    beliefs: {
      moves: [
        { card: parseCard('2S'), mean: 74.379, sd: 12.9, winProbability: 0.882, victories: 1.018 },
        { card: parseCard('2C'), mean: other.mean, sd: 14.5, winProbability: other.win, victories: other.victories },
        { card: parseCard('3S'), mean: 66.1, sd: 16.8, winProbability: 0.581, victories: 0.326 },
      ],
      worlds: 2000,
      nodes: 60210,
      timeMs: 66,
      winProbability: 0.882,
      exactFromTrick: 0,
      objective: 'victories',
    },
  });
  const reasonOf = (d: Decision) => withReason(d, info, 19).beliefs!.reason!;

  it('the rollouts alone (seed 19, as withReason draws them) see the two cards win as often, 2 points more', () => {
    const r = reasonFor(info, parseCard('2S'), parseCard('2C'), { rng: createRng(19, 0x3a50), seed: 19, worlds: 48 });
    expect(r).toMatchObject({ kind: 'more-points', points: 2 });
    expect(r.chosen.winShare).toBe(r.other.winShare);
  });

  it('wins more often when the search says so, with the support of that margin, not "as often"', () => {
    const r = reasonOf(decided({ mean: 71.628, win: 0.813, victories: 0.79 }));
    expect(r).toEqual({
      kind: 'better-odds',
      card: parseCard('2S'),
      other: parseCard('2C'),
      support: Math.round(winGainSupport(0.882 - 0.813) * 1000) / 1000, // 0.638
    });
  });

  it('as often (within two points of percent), then the points the search found', () => {
    const r = reasonOf(decided({ mean: 71.628, win: 0.87, victories: 0.99 }));
    expect(r).toMatchObject({ kind: 'more-points', points: 3, support: 1 });
  });

  it('neither, or the other card winning more often: a close call, never "as often"', () => {
    expect(reasonOf(decided({ mean: 74.1, win: 0.875, victories: 1 })).kind).toBe('close-call');
    // Ranked first by victories (more doubles) while the other card wins more often.
    const r = reasonOf(decided({ mean: 70.2, win: 0.91, victories: 0.95 }));
    expect(r.kind).toBe('close-call');
    expect(r.points).toBeUndefined();
  });
});

// Victory classes: the solver's class queries (moveClasses, classOf, testAfter) against exact values,
// the reference's (plain minimax / alpha-beta, test/solver/reference.ts) up to 4 tricks left and the
// solver's own exact values (checked against the reference in solver.test.ts) deeper, up to full deals.
// A class is the victories of the mover's team for its final points: -4, -2, -1, 0, 1, 2 or 4.

import { describe, expect, it } from 'vitest';
import { CLASS_THRESHOLDS, Solver, createRng, dealCards, suitOf, victoriesFor } from '../../game/index.js';
import type { Position, Seat } from '../../game/index.js';
import { mulberry32, randomPositions } from './positions.js';
import type { SolverPosition } from './reference.js';
import { cardName, describePosition, referenceMoveValues } from './reference.js';

/** Every legal move's class and bounds agree with its exact value; null or the first disagreement. */
function classProblem(solver: Solver, p: SolverPosition, exact: Map<number, number>): string | null {
  const { moves } = solver.moveClasses(p as Position);
  if (moves.length !== exact.size) return `moveClasses lists ${moves.length} moves, expected ${exact.size}`;
  for (const m of moves) {
    const v = exact.get(m.card);
    if (v === undefined) return `${cardName(m.card)} is not a legal move`;
    if (m.victories !== victoriesFor(v))
      return `${cardName(m.card)}: class ${m.victories}, exact value ${v} is class ${victoriesFor(v)}`;
    if (!(m.lower <= v && v <= m.upper))
      return `${cardName(m.card)}: bounds [${m.lower}, ${m.upper}] miss the exact value ${v}`;
    if (victoriesFor(m.lower) !== victoriesFor(m.upper))
      return `${cardName(m.card)}: bounds [${m.lower}, ${m.upper}] span two classes`;
  }
  return null;
}

const fromReference = (p: SolverPosition): Map<number, number> => {
  const ref = referenceMoveValues(p, 'alphabeta');
  const byCard = new Map<number, number>();
  for (const m of new Solver().moveValues(p as Position).moves) {
    // The reference is keyed by card names: take its value for each card id.
    byCard.set(m.card, ref.moves[cardName(m.card)]!);
  }
  return byCard;
};

const fromSolver = (p: SolverPosition): Map<number, number> =>
  new Map(new Solver().moveValues(p as Position).moves.map((m) => [m.card, m.value]));

describe('solver: victory classes', () => {
  it('the classes split final points at 1, 30, 60, 61, 91 and 120', () => {
    expect(CLASS_THRESHOLDS).toEqual([1, 30, 60, 61, 91, 120]);
    const classes = Array.from({ length: 121 }, (_, p) => victoriesFor(p));
    expect(classes[0]).toBe(-4);
    expect(classes.slice(1, 30).every((v) => v === -2)).toBe(true);
    expect(classes.slice(30, 60).every((v) => v === -1)).toBe(true);
    expect(classes[60]).toBe(0);
    expect(classes.slice(61, 91).every((v) => v === 1)).toBe(true);
    expect(classes.slice(91, 120).every((v) => v === 2)).toBe(true);
    expect(classes[120]).toBe(4);
  });

  it('every move of 2,400 seeded positions with 1-4 tricks left has the class of its exact value (reference: plain alpha-beta)', () => {
    const solver = new Solver();
    for (const p of randomPositions(20_261_126, 2400, { tricks: [1, 4] })) {
      const problem = classProblem(solver, p, fromReference(p));
      if (problem) throw new Error(`${problem}\n  position: ${describePosition(p)}`);
    }
  }, 120_000);

  it('every move of 240 seeded positions with 5-7 tricks left has the class of its exact value', () => {
    const solver = new Solver({ ttBits: 16 });
    for (const p of randomPositions(7, 240, { tricks: [5, 7] })) {
      const problem = classProblem(solver, p, fromSolver(p));
      if (problem) throw new Error(`${problem}\n  position: ${describePosition(p)}`);
    }
  }, 120_000);

  it('every first lead of four full deals has the class of its exact value', () => {
    const solver = new Solver();
    for (const i of [0, 8, 9, 18]) {
      const deal = dealCards(createRng(4242, i), (i & 3) as Seat);
      const p: Position = {
        trump: suitOf(deal.trumpCard),
        hands: deal.hands,
        leader: ((deal.dealer + 1) & 3) as Seat,
        trick: [],
        points: [0, 0],
      };
      const problem = classProblem(solver, p, fromSolver(p));
      if (problem) throw new Error(`full deal ${i}: ${problem}`);
    }
  }, 120_000);

  it('a table that grows over a full deal gives what a fixed one gives, and starts afresh when cleared', () => {
    // Deal 1 of the bench stores more entries than a quarter of the 64 K slots a cleared table starts
    // with, so the default table doubles; one of 64 K entries (ttBits 16) never grows.
    const deal = dealCards(createRng(4242, 1), 1 as Seat);
    const p: Position = {
      trump: suitOf(deal.trumpCard),
      hands: deal.hands,
      leader: ((deal.dealer + 1) & 3) as Seat,
      trick: [],
      points: [0, 0],
    };
    const growing = new Solver();
    const first = growing.moveClasses(p);
    const fixed = new Solver({ ttBits: 16 }).moveClasses(p);
    expect(first.moves.map((m) => [m.card, m.victories])).toEqual(fixed.moves.map((m) => [m.card, m.victories]));
    // After clearTable nothing of the first query is left: the same search, node for node (an entry
    // left behind where the table grew would cut some of it short).
    growing.clearTable();
    const again = growing.moveClasses(p);
    expect(again.nodes).toBe(first.nodes);
    expect(again.moves).toEqual(first.moves);
  }, 120_000);

  it('classOf a position and each zero-window test agree with the exact value (600 positions, 1-5 tricks left)', () => {
    const solver = new Solver({ ttBits: 16 });
    const rand = mulberry32(99);
    for (const p of randomPositions(98, 600, { tricks: [1, 5] })) {
      const exact = new Solver().solve(p as Position);
      solver.classOf(p as Position);
      expect(victoriesFor(solver.classLower)).toBe(victoriesFor(exact.value));
      expect(solver.classLower).toBeLessThanOrEqual(exact.value);
      expect(solver.classUpper).toBeGreaterThanOrEqual(exact.value);
      // One test per legal card at a random threshold, against the card's exact value.
      const values = fromSolver(p);
      solver.load(p as Position);
      const seat = (p.leader + p.trick.length) & 3;
      for (const [card, v] of values) {
        const t = Math.floor(rand() * 122);
        const got = solver.testAfter(seat, card as never, p.points[seat & 1]!, t);
        if (got !== v >= t)
          throw new Error(
            `testAfter ${cardName(card)} >= ${t}: ${got}, exact value ${v}\n  position: ${describePosition(p)}`,
          );
        expect(got ? solver.classLower : solver.classUpper).toSatisfy((b: number) =>
          got ? b >= t && b <= v : b < t && b >= v,
        );
      }
    }
  }, 120_000);
});

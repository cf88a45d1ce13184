// Focused checks of the solver's shortcuts, each against the independent reference (reference.ts):
// - the sure-point bounds at trick boundaries never cross the true value, on random positions where a
//   lead to the partner's master is possible (the rule the bounds rely on most loosely), including
//   positions where an opponent could ruff that master;
// - mid-trick, a trick no later seat can win is worth at least its sure points to the winning team;
// - the solver equals plain alpha-beta with 5 tricks left (deeper than the property test);
// - a search aborted at its deadline leaves the solver ready: the next searches are exact.

import { describe, expect, it } from 'vitest';
import { SearchAborted, Solver } from '../../game/index.js';
import type { SolverPosition } from './reference.js';
import {
  cardName,
  describePosition,
  fromStrPosition,
  referenceMoveValues,
  sumPoints,
  trickWinnerIndex as winnerIndex,
} from './reference.js';
import { randomPositions } from './positions.js';
import { pos } from './scripted.js';

/** The solver's sure-point bounds on team A's points from the remaining cards (private: read through a cast). */
function sureBounds(solver: Solver, p: SolverPosition): [number, number] {
  const s = solver as unknown as {
    load(p: SolverPosition): void;
    sureBounds(): void;
    sureLower: number;
    sureUpper: number;
  };
  s.load(p);
  s.sureBounds();
  return [s.sureLower, s.sureUpper];
}

/** Team A's points from the remaining cards under best play, by the reference (boundary positions). */
function referencePointsA(p: SolverPosition): number {
  const cards = p.hands.flat().length;
  const r = referenceMoveValues(p, cards <= 12 ? 'minimax' : 'alphabeta');
  const remaining = sumPoints(p.hands.flat().map(cardName));
  return r.toMove % 2 === 0 ? r.value - p.points[0] : remaining - (r.value - p.points[1]);
}

/** A side suit where the leader holds a card and the partner the top live card (the partner-master lead). */
function partnerMasterSuit(p: SolverPosition): number {
  const partner = (p.leader + 2) % 4;
  for (let s = 0; s < 4; s++) {
    if (s === p.trump) continue;
    const live = p.hands.flat().filter((c) => Math.floor(c / 10) === s);
    if (!live.length || !p.hands[p.leader]!.some((c) => Math.floor(c / 10) === s)) continue;
    if (p.hands[partner]!.includes(Math.max(...live) as never)) return s;
  }
  return -1;
}

describe('solver: sure-point bounds', () => {
  it('never cross the true value, on 600 boundary positions with a lead to the partner master, 2-5 tricks left', () => {
    const solver = new Solver({ ttBits: 10 });
    let tested = 0;
    let ruffable = 0;
    for (const [k, seed] of [
      [2, 501],
      [3, 502],
      [4, 503],
      [5, 504],
    ] as const) {
      let n = 0;
      for (const p of randomPositions(seed, 4000, { tricks: k, onTable: 0 })) {
        if (n >= 150) break;
        const s = partnerMasterSuit(p);
        if (s < 0) continue;
        n++;
        // Does an opponent lack the suit but hold a trump (so that it could ruff the master)?
        for (const o of [(p.leader + 1) % 4, (p.leader + 3) % 4]) {
          const h = p.hands[o]!;
          if (!h.some((c) => Math.floor(c / 10) === s) && h.some((c) => Math.floor(c / 10) === p.trump)) ruffable++;
        }
        const [lower, upper] = sureBounds(solver, p);
        const v = referencePointsA(p);
        if (lower > v || upper < v)
          throw new Error(`sure bounds [${lower}, ${upper}] exclude the value ${v}: ${describePosition(p)}`);
      }
      tested += n;
    }
    expect(tested).toBe(600);
    expect(ruffable).toBeGreaterThan(50);
  }, 60_000);

  it('do not count a partner master that an opponent can ruff', () => {
    // Trump H, seat 0 leads. Seat 2 holds AS, the top spade, and seat 0 a low spade to lead to it; but
    // seat 1 has no spade and holds a trump: on 2S it ruffs with 2H and B takes the ace's 11. Leading 3D
    // first does not help (6D wins, and seat 3 then leads spades into the same ruff): A takes nothing,
    // so a bound counting the lead to the partner's master (11) would be wrong.
    const p = fromStrPosition(pos('H', 0, '', ['2S 3D', '2H 4D', 'AS 5D', '3S 6D'], [50, 70 - 11]));
    const [lower] = sureBounds(new Solver({ ttBits: 10 }), p);
    const v = referencePointsA(p);
    expect(lower).toBeLessThanOrEqual(v);
    expect(v).toBe(0);
  });

  it('count a partner master no opponent can ruff', () => {
    // The same, but seat 1 holds a spade: 2S, 4S, AS, 3S wins 11 for A whatever B does.
    const p = fromStrPosition(pos('H', 0, '', ['2S 3D', '4S 2H', 'AS 5D', '3S 6D'], [50, 59]));
    const [lower, upper] = sureBounds(new Solver({ ttBits: 10 }), p);
    expect(lower).toBeGreaterThanOrEqual(11);
    expect(referencePointsA(p)).toBeGreaterThanOrEqual(lower);
    expect(upper).toBeGreaterThanOrEqual(referencePointsA(p));
  });
});

describe('solver: a decided trick', () => {
  it('is worth at least its sure points to the winning team, on 600 mid-trick positions, 1-5 tricks left', () => {
    const solver = new Solver({ ttBits: 10 }) as unknown as { load(p: SolverPosition): void; trickDecided(): number };
    let decided = 0;
    for (const [k, seed] of [
      [1, 511],
      [2, 512],
      [3, 513],
      [4, 514],
      [5, 515],
    ] as const) {
      for (const p of randomPositions(seed, 120, { tricks: k, onTable: [1, 3] })) {
        solver.load(p);
        const sure = solver.trickDecided();
        if (sure < 0) continue;
        decided++;
        // The team of the seat to move: the reference values its best move in that team's final points.
        const ref = referenceMoveValues(p, k <= 3 ? 'minimax' : 'alphabeta');
        const inPlay = sumPoints([...p.hands.flat(), ...p.trick].map(cardName));
        const team = ref.toMove % 2;
        const valueTeam = ref.value - p.points[team]!;
        const trick = p.trick.map(cardName);
        // The winner so far (the solver's own notion is checked by the property test; here, by the reference).
        const winnerTeam = (p.leader + winnerIndex(trick, 'SHDC'[p.trump]!)) % 2;
        const pointsOfWinner = winnerTeam === team ? valueTeam : inPlay - valueTeam;
        if (pointsOfWinner < sure)
          throw new Error(
            `decided trick worth ${sure} but the winning team takes ${pointsOfWinner}: ${describePosition(p)}`,
          );
      }
    }
    expect(decided).toBeGreaterThan(100);
  }, 60_000);
});

describe('solver: deeper positions', () => {
  it('equals plain alpha-beta on 150 seeded positions with 5 tricks left (0-3 cards on the table)', () => {
    const solver = new Solver();
    for (const p of randomPositions(505, 150, { tricks: 5 })) {
      const ref = referenceMoveValues(p, 'alphabeta');
      const got = solver.moveValues(p);
      const moves: Record<string, number> = {};
      for (const m of got.moves) moves[cardName(m.card)] = m.value;
      expect(moves, describePosition(p)).toEqual(ref.moves);
      expect(solver.solve(p).value, describePosition(p)).toBe(ref.value);
    }
  }, 60_000);
});

describe('solver: deadlines', () => {
  it('aborts promptly and stays exact for the searches after an abort', () => {
    const solver = new Solver();
    // Full deals: searches far longer than the abort point (8-trick positions became too easy to be sure).
    const deep = randomPositions(506, 3, { tricks: 10 });
    const after = randomPositions(507, 40, { tricks: [2, 4] });
    for (const p of deep) {
      // A clock that passes the deadline after 5 readings: the search must stop within a few thousand nodes.
      let reads = 0;
      solver.clearTable();
      solver.setDeadline(5, () => ++reads);
      const n0 = solver.nodes;
      expect(() => solver.moveValues(p)).toThrow(SearchAborted);
      expect(solver.nodes - n0).toBeLessThan(6 * 1024 + 1024);
      // The same, through load + valueAfter as the players call it (on a cold table).
      solver.clearTable();
      reads = 0;
      solver.load(p);
      const legal = solver.legalCards((p.leader + p.trick.length) % 4);
      expect(() => solver.valueAfter((p.leader + p.trick.length) % 4, legal[0]!, 60)).toThrow(SearchAborted);
      solver.clearDeadline();
    }
    for (const p of after) {
      const ref = referenceMoveValues(p, 'alphabeta');
      expect(solver.solve(p).value, describePosition(p)).toBe(ref.value);
    }
    // And the position loaded before the abort can be searched again once reloaded.
    const p = after[0]!;
    solver.load(p);
    const seat = (p.leader + p.trick.length) % 4;
    const card = solver.legalCards(seat)[0]!;
    const a = solver.valueAfter(seat, card, 30);
    const fresh = new Solver();
    fresh.load(p);
    expect(a).toBe(fresh.valueAfter(seat, card, 30));
  }, 60_000);
});

// The double-dummy solver against the independent reference (test/solver/reference.ts).
//
// - Property (fast-check): on 12,000 random positions with 1 to 4 tricks left, 0 to 3 cards on the table,
//   random trump, leader and points so far, `moveValues` gives exactly the legal cards of the seat to
//   move, each valued as the reference values it, `solve` gives the best of them, both name the right
//   seat to move, and neither changes its input. Plain minimax is the reference for 1-3 tricks, plain
//   alpha-beta (checked equal to minimax in reference.test.ts) for 4. One Solver serves every position
//   of a block, so stale transposition-table entries would show.
// - The same with a small transposition table, and with a fresh Solver per position.
// - Hand-worked scripted positions (trump cut, over-cut, last tricks, ducking, K/7 neighbours, points
//   that do not add up to 120).
// - The regression corpus test/solver/corpus.json (200 positions, 1 to 6 tricks left).
//
// A failure message names the position in card strings with the solver's and the reference's answers;
// fast-check shrinks a failing property case towards fewer tricks and fewer cards on the table.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Solver } from '../../game/index.js';
import { SCRIPTED } from './scripted.js';
import type { CorpusFile, PositionParams } from './positions.js';
import { mulberry32, paramsArb, buildPosition, randomPositions } from './positions.js';
import type { RefAlgorithm, RefResult, SolverPosition } from './reference.js';
import { cardName, describePosition, fromStrPosition, referenceMoveValues } from './reference.js';

/** What the tests need of the solver (game/solver's API). */
interface SolverApi {
  solve(p: SolverPosition): { toMove: number; value: number; nodes: number };
  moveValues(p: SolverPosition): { toMove: number; moves: { card: number; value: number }[]; nodes: number };
}

const newSolver = (options?: { ttBits?: number }): SolverApi =>
  (options ? new Solver(options) : new Solver()) as SolverApi;

const fmt = (moves: Record<string, number>): string =>
  Object.entries(moves)
    .map(([c, v]) => `${c}=${v}`)
    .join(' ');

/** null when the solver agrees with the reference on `p`, else a description of the disagreement. */
function disagreement(
  solver: SolverApi,
  p: SolverPosition,
  ref: Pick<RefResult, 'toMove' | 'value' | 'moves'>,
  solveFirst = false,
): string | null {
  const before = JSON.stringify(p);
  let mv: ReturnType<SolverApi['moveValues']>;
  let sv: ReturnType<SolverApi['solve']>;
  if (solveFirst) {
    sv = solver.solve(p);
    mv = solver.moveValues(p);
  } else {
    mv = solver.moveValues(p);
    sv = solver.solve(p);
  }
  const problems: string[] = [];
  if (JSON.stringify(p) !== before) problems.push('the solver changed the position it was given');
  const got: Record<string, number> = {};
  for (const m of mv.moves) {
    const name = Number.isInteger(m.card) && m.card >= 0 && m.card < 40 ? cardName(m.card) : `#${m.card}`;
    if (name in got) problems.push(`moveValues lists ${name} twice`);
    got[name] = m.value;
  }
  if (mv.toMove !== ref.toMove) problems.push(`moveValues.toMove ${mv.toMove}, expected ${ref.toMove}`);
  if (sv.toMove !== ref.toMove) problems.push(`solve.toMove ${sv.toMove}, expected ${ref.toMove}`);
  for (const c of Object.keys(ref.moves)) {
    if (!(c in got)) problems.push(`legal ${c} missing`);
    else if (got[c] !== ref.moves[c]) problems.push(`${c}: solver ${got[c]}, reference ${ref.moves[c]}`);
  }
  for (const c of Object.keys(got)) if (!(c in ref.moves)) problems.push(`${c} is not a legal move`);
  if (sv.value !== ref.value) problems.push(`solve.value ${sv.value}, reference ${ref.value}`);
  for (const n of [mv.nodes, sv.nodes]) if (!Number.isInteger(n) || n < 0) problems.push(`nodes ${n} is not a count`);
  if (!problems.length) return null;
  return (
    `${problems.join('; ')}\n` +
    `  position: ${describePosition(p)}\n` +
    `  solver:    seat ${mv.toMove} moves ${fmt(got)}, solve ${sv.value}\n` +
    `  reference: seat ${ref.toMove} moves ${fmt(ref.moves)}, value ${ref.value}`
  );
}

function check(solver: SolverApi, p: SolverPosition, algorithm: RefAlgorithm, solveFirst = false): void {
  const d = disagreement(solver, p, referenceMoveValues(p, algorithm), solveFirst);
  if (d) throw new Error(d);
}

// Runs per number of tricks left: 1,500 + 2,500 + 3,500 + 4,500 = 12,000 positions.
const PROPERTY_RUNS: readonly (readonly [number, number, RefAlgorithm])[] = [
  [1, 1500, 'minimax'],
  [2, 2500, 'minimax'],
  [3, 3500, 'minimax'],
  [4, 4500, 'alphabeta'],
];

describe('solver = reference on random positions (property)', () => {
  for (const [k, numRuns, algorithm] of PROPERTY_RUNS) {
    it(`${numRuns} positions with ${k} trick${k > 1 ? 's' : ''} left, 0-3 cards on the table (reference: plain ${algorithm})`, () => {
      const solver = newSolver();
      fc.assert(
        fc.property(paramsArb({ minTricks: k, maxTricks: k }), fc.boolean(), (params, solveFirst) =>
          check(solver, buildPosition(params), algorithm, solveFirst),
        ),
        // Seeded, so every run checks the same positions: an unseeded run found the position below
        // once in three full runs, and a suite must not pass or fail by chance.
        { numRuns, seed: 20_261_125 + k },
      );
    }, 120_000);
  }

  // Found by an unseeded run of the property above (seed -1705387198): the solver valued 3C at 118
  // where plain alpha-beta finds 116, with 4 tricks left. Its sure bounds let the leader cash 7H and
  // KH while the partner, with trumps alone, had to ruff the first and lead into the opponents' QS.
  it('a position where the sure bounds counted cashes the partner could not let through', () => {
    const params: PositionParams = {
      tricks: 4,
      onTable: 0,
      trump: 0,
      leader: 0,
      swaps: [0, 0, 29, 0, 6, 0, 26, 37, 25, 8, 38, 7, 36, 8, ...new Array<number>(26).fill(0)],
      picks: [0, 0, 0],
      pointsMode: 'tricks',
      trickWinners: new Array<boolean>(10).fill(false),
      slack: [0, 0],
    };
    check(newSolver(), buildPosition(params), 'alphabeta', false);
  });

  it('with a small transposition table (ttBits 10), 1,000 seeded positions with 3-4 tricks left', () => {
    const solver = newSolver({ ttBits: 10 });
    for (const p of randomPositions(41, 1000, { tricks: [3, 4] })) check(solver, p, 'alphabeta');
  }, 60_000);

  it('with a fresh solver per position, 300 seeded positions with 1-4 tricks left', () => {
    const rand = mulberry32(42);
    for (const p of randomPositions(43, 300, { tricks: [1, 4] })) check(newSolver(), p, 'alphabeta', rand() < 0.5);
  }, 60_000);
});

describe('solver: hand-worked positions', () => {
  for (const s of SCRIPTED) {
    it(s.name, () => {
      const d = disagreement(newSolver(), fromStrPosition(s.position), {
        toMove: s.toMove,
        moves: s.moves,
        value: Math.max(...Object.values(s.moves)),
      });
      if (d) throw new Error(`${d}\n  by hand: ${s.why}`);
    });
  }
});

describe('solver: regression corpus', () => {
  it('reproduces every entry of test/solver/corpus.json', () => {
    const corpus = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as CorpusFile;
    expect(corpus.entries.length).toBeGreaterThanOrEqual(200);
    const solver = newSolver();
    const failures: { name: string; size: number; text: string }[] = [];
    for (const e of corpus.entries) {
      const p = fromStrPosition(e);
      let text: string | null;
      try {
        text = disagreement(solver, p, e);
      } catch (err) {
        text = `threw ${String(err)}\n  position: ${describePosition(p)}`;
      }
      if (text) failures.push({ name: e.name, size: e.hands.flat().length + e.trick.length, text });
    }
    if (failures.length) {
      failures.sort((a, b) => a.size - b.size);
      const first = failures[0]!;
      throw new Error(
        `${failures.length} of ${corpus.entries.length} corpus entries differ (${failures.map((f) => f.name).join(', ')}); smallest, ${first.name}:\n${first.text}`,
      );
    }
  }, 120_000);
});

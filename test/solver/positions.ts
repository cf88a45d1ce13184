// Random valid positions for the solver's tests, benchmarks and fixtures.
//
// A position is built from plain parameters (`PositionParams`) by `buildPosition`, so the seeded
// generator (`randomPosition`, `randomPositions`) and the fast-check arbitrary (`positionArb`) make the
// same kind of positions, and fast-check shrinks towards fewer tricks, fewer cards on the table and the
// identity shuffle.
//
// What a position looks like:
// - k tricks left (k = 1..10): 4k cards are dealt, k to each seat, from a shuffled deck;
// - 0..3 cards already on the table: the leader and the seats after it each play a legal card (they
//   follow the led suit if they can), so the trick never shows a renounce;
// - trump and leader uniformly random;
// - points so far: either "tricks" (the 40 - 4k cards out of play are dealt into 10 - k completed tricks,
//   each given to a random team, so points A + points B + points still in play = 120, as in a real game)
//   or "slack" (random points with points A + points B + points still in play <= 120). The solver's
//   values are final points of the mover's team, which are defined either way.

import fc from 'fast-check';
import type { Card, Seat, Suit } from '../../game/index.js';
import type { SolverPosition, StrPosition } from './reference.js';
import { cardName, legalCards, referenceMoveValues, sumPoints, toStrPosition } from './reference.js';

export type PointsMode = 'tricks' | 'slack';

export interface PositionParams {
  /** Tricks left, counting the one on the table: 1..10. */
  tricks: number;
  /** Cards already played to the current trick: 0..3. */
  onTable: number;
  trump: number;
  leader: number;
  /** 40 non-negative integers: step i of a Fisher-Yates shuffle swaps i with i + swaps[i] % (40 - i). */
  swaps: readonly number[];
  /** 3 non-negative integers: the table seats' choice among their legal cards (modulo their count). */
  picks: readonly number[];
  pointsMode: PointsMode;
  /** 10 booleans: team B won out-of-play trick i (mode "tricks"). */
  trickWinners: readonly boolean[];
  /** Two non-negative integers for mode "slack". */
  slack: readonly [number, number];
}

export function buildPosition(q: PositionParams): SolverPosition {
  const k = q.tricks;
  if (!Number.isInteger(k) || k < 1 || k > 10) throw new Error(`positions: tricks must be 1..10, got ${k}`);
  if (!Number.isInteger(q.onTable) || q.onTable < 0 || q.onTable > 3)
    throw new Error('positions: onTable must be 0..3');
  const deck = Array.from({ length: 40 }, (_, i) => i);
  for (let i = 0; i < 39; i++) {
    const j = i + ((q.swaps[i] ?? 0) % (40 - i));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  const hands: number[][] = [0, 1, 2, 3].map((s) => deck.slice(s * k, s * k + k).sort((a, b) => a - b));
  const leader = (q.leader & 3) as Seat;
  const trick: number[] = [];
  for (let i = 0; i < q.onTable; i++) {
    const seat = (leader + i) % 4;
    const hand = hands[seat]!;
    const legal = legalCards(hand.map(cardName), trick.map(cardName));
    const card = legal[(q.picks[i] ?? 0) % legal.length]!;
    const id = hand.findIndex((c) => cardName(c) === card);
    trick.push(hand[id]!);
    hand.splice(id, 1);
  }
  const inPlay = sumPoints(deck.slice(0, 4 * k).map(cardName));
  const points: [number, number] = [0, 0];
  if (q.pointsMode === 'tricks') {
    for (let t = 0; t < 10 - k; t++) {
      const cards = deck.slice(4 * k + 4 * t, 4 * k + 4 * t + 4).map(cardName);
      points[q.trickWinners[t] ? 1 : 0] += sumPoints(cards);
    }
  } else {
    const room = 120 - inPlay;
    points[0] = q.slack[0] % (room + 1);
    points[1] = q.slack[1] % (room - points[0] + 1);
  }
  return { trump: (q.trump & 3) as Suit, hands: hands as Card[][], leader, trick: trick as Card[], points };
}

// ---- seeded ----------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG of our own, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomPositionOptions {
  /** Tricks left: a number or an inclusive range; default 1..4. */
  tricks?: number | readonly [number, number];
  /** Cards on the table: a number or an inclusive range; default 0..3. */
  onTable?: number | readonly [number, number];
  /** Probability of mode "slack" for the points so far; default 0.25. */
  slackShare?: number;
}

const range = (
  r: number | readonly [number, number] | undefined,
  dflt: readonly [number, number],
): readonly [number, number] => (r === undefined ? dflt : typeof r === 'number' ? [r, r] : r);

export function randomParams(rand: () => number, options: RandomPositionOptions = {}): PositionParams {
  const int = (n: number): number => Math.floor(rand() * n);
  const [kLo, kHi] = range(options.tricks, [1, 4]);
  const [tLo, tHi] = range(options.onTable, [0, 3]);
  return {
    tricks: kLo + int(kHi - kLo + 1),
    onTable: tLo + int(tHi - tLo + 1),
    trump: int(4),
    leader: int(4),
    swaps: Array.from({ length: 40 }, () => int(40)),
    picks: [int(10), int(10), int(10)],
    pointsMode: rand() < (options.slackShare ?? 0.25) ? 'slack' : 'tricks',
    trickWinners: Array.from({ length: 10 }, () => rand() < 0.5),
    slack: [int(121), int(121)],
  };
}

/** One random position from a generator function (e.g. `mulberry32(seed)`). */
export const randomPosition = (rand: () => number, options: RandomPositionOptions = {}): SolverPosition =>
  buildPosition(randomParams(rand, options));

/** `count` random positions from a fixed seed: the same seed always gives the same positions. */
export function randomPositions(seed: number, count: number, options: RandomPositionOptions = {}): SolverPosition[] {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, () => randomPosition(rand, options));
}

// ---- fast-check ------------------------------------------------------------------------------------

export interface PositionArbOptions {
  minTricks?: number;
  maxTricks?: number;
  minOnTable?: number;
  maxOnTable?: number;
}

export function paramsArb(o: PositionArbOptions = {}): fc.Arbitrary<PositionParams> {
  return fc.record({
    tricks: fc.integer({ min: o.minTricks ?? 1, max: o.maxTricks ?? 4 }),
    onTable: fc.integer({ min: o.minOnTable ?? 0, max: o.maxOnTable ?? 3 }),
    trump: fc.integer({ min: 0, max: 3 }),
    leader: fc.integer({ min: 0, max: 3 }),
    swaps: fc.array(fc.nat({ max: 39 }), { minLength: 40, maxLength: 40 }),
    picks: fc.array(fc.nat({ max: 9 }), { minLength: 3, maxLength: 3 }),
    pointsMode: fc.constantFrom<PointsMode>('tricks', 'tricks', 'tricks', 'slack'),
    trickWinners: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    slack: fc.tuple(fc.nat({ max: 120 }), fc.nat({ max: 120 })),
  });
}

/** Random valid positions as a fast-check Arbitrary (default 1..4 tricks left, 0..3 cards on the table). */
export const positionArb = (o: PositionArbOptions = {}): fc.Arbitrary<SolverPosition> =>
  paramsArb(o).map(buildPosition);

// ---- regression corpus -----------------------------------------------------------------------------

/** One corpus entry: a position in card strings and the reference's values. */
export interface CorpusEntry extends StrPosition {
  name: string;
  toMove: number;
  value: number;
  /** Final points of the mover's team after each legal card. */
  moves: Record<string, number>;
}

export interface CorpusFile {
  about: string;
  seed: number;
  entries: CorpusEntry[];
}

export const CORPUS_SEED = 20240917;
/** How many positions of each number of tricks left the corpus holds (k = 1..6). */
export const CORPUS_MIX: readonly (readonly [number, number])[] = [
  [1, 16],
  [2, 24],
  [3, 36],
  [4, 56],
  [5, 40],
  [6, 28],
];

/** The corpus positions (without values), named `k<tricks>-t<cards on table>-<index>`. */
export function corpusPositions(
  seed = CORPUS_SEED,
  mix: readonly (readonly [number, number])[] = CORPUS_MIX,
): { name: string; position: SolverPosition }[] {
  const rand = mulberry32(seed);
  const out: { name: string; position: SolverPosition }[] = [];
  for (const [k, count] of mix) {
    for (let i = 0; i < count; i++) {
      const position = randomPosition(rand, { tricks: k, onTable: i % 4 });
      out.push({ name: `k${k}-t${position.trick.length}-${String(i).padStart(3, '0')}`, position });
    }
  }
  return out;
}

/** The regression corpus, valued by the reference (minimax up to 3 tricks, alpha-beta beyond). Deterministic for a given seed. */
export function makeCorpus(seed = CORPUS_SEED, mix: readonly (readonly [number, number])[] = CORPUS_MIX): CorpusFile {
  const entries: CorpusEntry[] = corpusPositions(seed, mix).map(({ name, position }) => {
    const r = referenceMoveValues(
      position,
      position.hands.flat().length + position.trick.length <= 12 ? 'minimax' : 'alphabeta',
    );
    return { name, ...toStrPosition(position), toMove: r.toMove, value: r.value, moves: r.moves };
  });
  return {
    about:
      'Sueca double-dummy regression corpus: positions (cards as strings, trump a suit letter, seats 0..3, points [A, B] so far) ' +
      'and, for the seat to move, the final points of its team after each legal card under best play, computed by ' +
      'test/solver/reference.ts (plain minimax up to 3 tricks, plain alpha-beta beyond). Regenerate with ' +
      'MAKE_CORPUS=1 npx vitest run test/solver/make-corpus.test.ts',
    seed,
    entries,
  };
}

/** The corpus as JSON text, one entry per line so that diffs stay readable. */
export function corpusJson(c: CorpusFile): string {
  return `{\n"about": ${JSON.stringify(c.about)},\n"seed": ${c.seed},\n"entries": [\n${c.entries.map((e) => JSON.stringify(e)).join(',\n')}\n]\n}\n`;
}

// The deal sampler: exact counts against brute-force enumeration, uniformity by a chi-square
// goodness-of-fit test, consistency of every sample with information sets taken from real games,
// and determinism by seed.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, InfoSet, Player, Seat, SeatView, Suit } from '../../game/index.js';
import {
  NoConsistentDealError,
  RandomPlayer,
  RulePlayer,
  consistencyProblems,
  countConsistentDeals,
  createDealSampler,
  createRng,
  dealCards,
  parseCard,
  playGame,
  sampleDeal,
} from '../../game/index.js';
import { mulberry32, toCards } from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const SUIT = (letter: string): Suit => 'SHDC'.indexOf(letter) as Suit;

/** A hand-built information set; only the fields the sampler reads need to be meaningful. */
function info(spec: {
  seat: Seat;
  dealer: Seat;
  trumpCard: string;
  trumpCardInDealerHand: boolean;
  hand: string[];
  unseen: string[];
  voids: string[][];
  handSizes: [number, number, number, number];
}): InfoSet {
  const trumpCard = parseCard(spec.trumpCard);
  return {
    seat: spec.seat,
    dealer: spec.dealer,
    trump: SUIT(spec.trumpCard.slice(-1)),
    trumpCard,
    trumpCardInDealerHand: spec.trumpCardInDealerHand,
    hand: toCards(spec.hand).sort((a, b) => a - b),
    unseen: toCards(spec.unseen).sort((a, b) => a - b),
    voids: spec.voids.map((v) => v.map(SUIT)),
    handSizes: spec.handSizes,
    points: [0, 0],
    trick: 10 - Math.max(...spec.handSizes),
    leader: ((spec.dealer + 1) & 3) as Seat,
    table: [],
    plays: [],
  };
}

/** Every consistent deal, by trying each seat for each unseen card and keeping what the engine's checker accepts. */
function bruteForce(inf: InfoSet): Card[][][] {
  const others = ([0, 1, 2, 3] as Seat[]).filter((s) => s !== inf.seat);
  const hands: Card[][] = [[], [], [], []];
  hands[inf.seat] = [...inf.hand];
  const found: Card[][][] = [];
  const go = (i: number): void => {
    if (i === inf.unseen.length) {
      if (consistencyProblems(inf, hands).length === 0) found.push(hands.map((h) => [...h]));
      return;
    }
    const c = inf.unseen[i]!;
    for (const s of others) {
      if (hands[s]!.length >= inf.handSizes[s]) continue;
      hands[s]!.push(c);
      go(i + 1);
      hands[s]!.pop();
    }
  };
  go(0);
  return found;
}

/** A deal as a string: the seat holding each unseen card, in the order of info.unseen. */
function keyOf(inf: InfoSet, hands: readonly (readonly Card[])[]): string {
  const holder = new Map<Card, number>();
  hands.forEach((h, s) => {
    for (const c of h) holder.set(c, s);
  });
  return inf.unseen.map((c) => holder.get(c) ?? '?').join('');
}

/** Upper p-quantile of chi-square with k degrees of freedom (Wilson-Hilferty), z = the normal quantile. */
function chiSquareCritical(k: number, z: number): number {
  const a = 2 / (9 * k);
  return k * (1 - a + z * Math.sqrt(a)) ** 3;
}
const Z_0_001 = 3.090232; // P(N(0,1) > z) = 0.001

// Late in a game (trick 7, every seat holds 3): seat 0 looks; seat 3 dealt and still holds KH (trump).
const LATE = info({
  seat: 0,
  dealer: 3,
  trumpCard: 'KH',
  trumpCardInDealerHand: true,
  hand: ['AS', '2C', '5D'],
  unseen: ['KH', '3H', '7H', '4S', 'JS', 'QD', '6D', '3C', 'AC'],
  voids: [[], ['H'], ['S'], ['C']],
  handSizes: [3, 3, 3, 3],
});

// Mid-trick: seats 0 and 1 have played to trick 8; seat 2 (the dealer, so no pin) looks.
const MID_TRICK = info({
  seat: 2,
  dealer: 2,
  trumpCard: '2D',
  trumpCardInDealerHand: true,
  hand: ['2D', 'QS', '4C'],
  unseen: ['AS', '6S', '3H', 'JH', '7D', 'KC', '5C'],
  voids: [['D'], [], [], ['S']],
  handSizes: [2, 2, 3, 3],
});

// The trump card is played: nothing is pinned. Seat 1 looks; dealer 0.
const PLAYED_TRUMP = info({
  seat: 1,
  dealer: 0,
  trumpCard: '7S',
  trumpCardInDealerHand: false,
  hand: ['AH', '5S', '6S', 'JD'],
  unseen: ['2S', '3S', 'KH', 'QH', '2D', '3D', 'AD', '2C', 'QC', 'JC', '7C', 'AC'],
  voids: [['S'], [], ['C'], []],
  handSizes: [4, 4, 4, 4],
});

// Mid-trick with a five-card suit: seat 1 looks, dealer 3 still holds 7S (trump); seat 2 has played.
const FIVE_CLUBS = info({
  seat: 1,
  dealer: 3,
  trumpCard: '7S',
  trumpCardInDealerHand: true,
  hand: ['AH', '5S', '6S', 'JD'],
  unseen: ['7S', '3S', 'KH', 'QH', '2D', '3D', 'AD', '2C', 'QC', 'JC', '4C'],
  voids: [['D'], [], ['C'], ['H']],
  handSizes: [4, 4, 3, 4],
});

// Seats 1 and 2 showed no spade but two spades are unseen and seat 3 has room for one (mid-trick).
const IMPOSSIBLE = info({
  seat: 0,
  dealer: 1,
  trumpCard: '7H',
  trumpCardInDealerHand: false,
  hand: ['AD', '2D'],
  unseen: ['4S', '5S', 'KD', '6C', '7C', '2H'],
  voids: [[], ['S'], ['S'], []],
  handSizes: [2, 3, 2, 1],
});

// The dealer showed no trump, yet the unplayed trump card must be in its hand.
const DEALER_VOID_IN_TRUMP = info({
  seat: 0,
  dealer: 2,
  trumpCard: 'QH',
  trumpCardInDealerHand: true,
  hand: ['AD', '2D'],
  unseen: ['QH', '5S', 'KD', '6C', '7C', '2H'],
  voids: [[], [], ['H'], []],
  handSizes: [2, 2, 2, 2],
});

describe('countConsistentDeals', () => {
  it('equals the brute-force count on hand-built information sets', () => {
    for (const inf of [LATE, MID_TRICK, PLAYED_TRUMP, FIVE_CLUBS, IMPOSSIBLE, DEALER_VOID_IN_TRUMP]) {
      expect(countConsistentDeals(inf)).toBe(bruteForce(inf).length);
    }
    expect(countConsistentDeals(LATE)).toBeGreaterThan(20);
    expect(countConsistentDeals(IMPOSSIBLE)).toBe(0);
  });

  it('is the multinomial with no constraints: 30! / (10!)^3 at the deal, 29! / (9! 10! 10!) with the trump card pinned', () => {
    const deal = dealCards(createRng(5), 3);
    const base = {
      seat: 0 as Seat,
      dealer: 3 as Seat,
      trump: SUIT('S'),
      trumpCard: deal.trumpCard,
      hand: deal.hands[0]!,
      unseen: deal.hands.slice(1).flat(),
      voids: [[], [], [], []],
      handSizes: [10, 10, 10, 10] as [number, number, number, number],
      points: [0, 0] as [number, number],
      trick: 0,
      leader: 0 as Seat,
      table: [],
      plays: [],
    };
    expect(countConsistentDeals({ ...base, trumpCardInDealerHand: false })).toBe(5550996791340);
    expect(countConsistentDeals({ ...base, trumpCardInDealerHand: true })).toBe(1850332263780);
  });

  it('throws NoConsistentDealError naming the seat and the cause when no deal fits', () => {
    expect(() => sampleDeal(IMPOSSIBLE, createRng(1))).toThrow(NoConsistentDealError);
    expect(() => sampleDeal(IMPOSSIBLE, createRng(1))).toThrow(/seat 0 has seen/);
    expect(() => sampleDeal(IMPOSSIBLE, createRng(1))).toThrow(
      /2 unseen cards of S can only go to seat 3, with room for 1 \(seats 1 and 2 showed void\)/,
    );
    expect(() => sampleDeal(IMPOSSIBLE, createRng(1))).toThrow(/renounce/);
    expect(() => createDealSampler(DEALER_VOID_IN_TRUMP).sample(createRng(1))).toThrow(
      /dealer \(seat 2\) showed it has no H but should still hold the trump card QH/,
    );
    const wrongSizes = { ...LATE, handSizes: [3, 3, 3, 2] as [number, number, number, number] };
    expect(countConsistentDeals(wrongSizes)).toBe(0);
    expect(() => sampleDeal(wrongSizes, createRng(1))).toThrow(/hold 3 \+ 3 \+ 2 cards but 9 are unseen/);
    try {
      sampleDeal(IMPOSSIBLE, createRng(1));
    } catch (e) {
      expect(e).toBeInstanceOf(NoConsistentDealError);
      expect((e as NoConsistentDealError).seat).toBe(0);
    }
  });
});

describe('sampleDeal', () => {
  it('is uniform over the consistent deals (chi-square goodness of fit, p = 0.001)', () => {
    for (const [name, inf, seed] of [
      ['late, trump card pinned', LATE, 11],
      ['mid-trick, observer is the dealer', MID_TRICK, 12],
      ['mid-trick, five-card suit, trump card pinned', FIVE_CLUBS, 13],
      ['trump card played, 12 unseen', PLAYED_TRUMP, 14],
    ] as const) {
      const all = bruteForce(inf);
      const observed = new Map(all.map((h) => [keyOf(inf, h), 0]));
      const sampler = createDealSampler(inf);
      expect(sampler.count).toBe(all.length);
      const rng = createRng(seed);
      const n = 40000;
      const out: Card[][] = [];
      for (let i = 0; i < n; i++) {
        const key = keyOf(inf, sampler.sample(rng, out));
        const o = observed.get(key);
        if (o === undefined) throw new Error(`${name}: sampled a deal that is not consistent: ${key}`);
        observed.set(key, o + 1);
      }
      const expected = n / all.length;
      let stat = 0;
      for (const o of observed.values()) stat += (o - expected) ** 2 / expected;
      const dof = all.length - 1;
      const critical = chiSquareCritical(dof, Z_0_001);
      // Printed so the figures can be quoted; the assertion is the test.
      console.log(
        `sampler chi-square (${name}): ${all.length} deals, ${n} samples, statistic ${stat.toFixed(1)}, dof ${dof}, critical(p=0.001) ${critical.toFixed(1)}`,
      );
      expect(stat).toBeLessThan(critical);
    }
  });

  it('keeps the observer hand and gives every card of a fully constrained suit where it must go', () => {
    const hands = sampleDeal(LATE, createRng(3));
    expect(hands[0]).toEqual(LATE.hand);
    expect(hands[3]).toContain(parseCard('KH'));
    // Seat 1 has no heart and seat 3 no club: the other hearts are seat 2's or 3's, the clubs 1's or 2's.
    for (const c of toCards(['3H', '7H'])) expect(hands[1]).not.toContain(c);
    for (const c of toCards(['3C', 'AC'])) expect(hands[3]).not.toContain(c);
  });

  it('is deterministic by seed, with or without an output buffer, whatever was sampled before', () => {
    const a = sampleDeal(PLAYED_TRUMP, createRng(42, 7));
    const b = sampleDeal(PLAYED_TRUMP, createRng(42, 7));
    expect(b).toEqual(a);
    const sampler = createDealSampler(PLAYED_TRUMP);
    const warm = createRng(99);
    for (let i = 0; i < 50; i++) sampler.sample(warm);
    const out: Card[][] = [[99 as Card], [], [], []];
    expect(sampler.sample(createRng(42, 7), out)).toBe(out);
    expect(out).toEqual(a);
    const distinct = new Set(
      Array.from({ length: 20 }, (_, i) => JSON.stringify(sampleDeal(PLAYED_TRUMP, createRng(i)))),
    );
    expect(distinct.size).toBeGreaterThan(10);
  });
});

/** Plays like `inner` and keeps a snapshot of its view at random moments. */
class Snooper implements Player {
  readonly kind: string;
  constructor(
    private readonly inner: Player,
    private readonly rand: () => number,
    private readonly sink: InfoSet[],
  ) {
    this.kind = inner.kind;
  }
  choose(view: SeatView): Card {
    if (this.rand() < 0.4) this.sink.push(view.snapshot());
    return this.inner.choose(view);
  }
}

describe('sampler on information sets from real games', () => {
  it('every sample is consistent, the observer hand is kept, the true deal is counted, and small counts match brute force', () => {
    let bruteChecked = 0;
    fc.assert(
      fc.property(
        seedArb,
        fc.constantFrom<Seat>(0, 1, 2, 3),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        (seed, dealer, rule) => {
          const deal = dealCards(createRng(seed, 1), dealer);
          const rand = mulberry32(seed);
          const infos: InfoSet[] = [];
          const players = ([0, 1, 2, 3] as Seat[]).map((seat) => {
            const options = { seat, seed: seed + seat };
            return new Snooper(rule[seat] ? new RulePlayer(options) : new RandomPlayer(options), rand, infos);
          });
          playGame(deal, players);
          const out: Card[][] = [];
          infos.forEach((inf, k) => {
            const played = new Set(inf.plays);
            const truth = deal.hands.map((h) => h.filter((c) => !played.has(c)));
            expect(consistencyProblems(inf, truth)).toEqual([]);
            const sampler = createDealSampler(inf);
            expect(sampler.count).toBeGreaterThanOrEqual(1);
            expect(Number.isInteger(sampler.count)).toBe(true);
            if (inf.unseen.length <= 8) {
              expect(sampler.count).toBe(bruteForce(inf).length);
              bruteChecked++;
            }
            const rng = createRng(seed, 2, k);
            for (let i = 0; i < 8; i++) {
              const hands = sampler.sample(rng, out);
              const problems = consistencyProblems(inf, hands);
              if (problems.length) expect(problems).toEqual([]);
              expect(hands[inf.seat]).toEqual(inf.hand);
            }
          });
        },
      ),
      { numRuns: 150 },
    );
    expect(bruteChecked).toBeGreaterThan(100);
  });
});

// Uniform sampling of the hidden hands given one seat's information set: the "worlds" a search
// (PIMC, IS-MCTS) plays out. Pure and allocation-light: build a sampler once per decision with
// `createDealSampler(info)`, then draw thousands of deals from it.
//
// Method. The observer holds its own hand; the other three seats a < b < c share the unseen cards,
// each seat s taking exactly handSizes[s], none of a suit in voids[s].
// 1. Pin: while the trump card is unplayed and the dealer is not the observer, it is in the dealer's
//    hand, so give it to the dealer and take one from the dealer's capacity.
// 2. Count: deal the remaining cards suit by suit. A suit with n cards split (k1, k2, k3) among a, b, c
//    can be dealt in n! / (k1! k2! k3!) ways, and in 0 ways if a seat with k > 0 is void in the suit.
//    W[i](r1, r2) = number of ways to deal suits i.. when a and b still have room for r1 and r2 (c's
//    room is implied: the cards left minus r1 minus r2), so
//      W[i](r1, r2) = sum over splits of multinomial(n_i; k1, k2, k3) * W[i+1](r1 - k1, r2 - k2),
//    W[end](0, 0) = 1, and the number of consistent deals is W[0](room of a, room of b).
// 3. Sample: for each suit in turn pick its split with probability multinomial * W[i+1] / W[i], then
//    give the suit's cards to the seats by a uniformly random permutation (a partial Fisher-Yates;
//    the seat taking most of the suit gets the rest, which saves draws). Each deal then has
//    probability prod_i (multinomial_i * W[i+1] / W[i]) * (1 / multinomial_i) = W[end] / W[0] = 1 / W[0]:
//    exactly uniform over the consistent deals (up to the Rng's own resolution: splits are drawn with
//    53-bit uniforms, permutations with Rng.int).
// The table is at most 5 x 11 x 11 numbers; counts reach 30! / (10!)^3 ~ 5.55e12, exact in a double.
// The cumulative weights of each (suit, r1, r2) state are built the first time a sample reaches it.

import type { Card, Suit } from './cards.js';
import { formatCard, formatSuit, suitOf } from './cards.js';
import type { Rng } from './rng.js';
import type { Seat } from './seats.js';
import type { InfoSet } from './view.js';

/** No deal of the unseen cards fits the information set: someone renounced unseen, or the data is wrong. */
export class NoConsistentDealError extends Error {
  constructor(
    /** The observer: the seat whose information set has no consistent deal. */
    readonly seat: Seat,
    /** What rules the deals out, in words. */
    readonly reason: string,
  ) {
    super(
      `no deal of the unseen cards fits what seat ${seat} has seen (hand sizes, voids, the dealer's trump card): ${reason}. ` +
        `A player probably failed to follow suit while holding it (an undiscovered renounce), or the information set is inconsistent`,
    );
    this.name = 'NoConsistentDealError';
  }
}

/** Draws deals uniformly from the ones consistent with an information set. */
export interface DealSampler {
  /** The number of consistent deals of the unseen cards (0 when there is none). */
  readonly count: number;
  /**
   * Four hands indexed by seat: the observer's own hand and a uniformly drawn consistent deal of the
   * unseen cards. Reuses `out` (and its four arrays) when given. Throws NoConsistentDealError when
   * `count` is 0. The result depends only on the info set and the rng's state.
   */
  sample(rng: Rng, out?: Card[][]): Card[][];
}

/** BINOM[n][k] for n <= 40 (exact: at most 40 choose 20 ~ 1.4e11). */
const BINOM: Float64Array[] = [];
for (let n = 0; n <= 40; n++) {
  const row = new Float64Array(n + 1);
  row[0] = 1;
  row[n] = 1;
  for (let k = 1; k < n; k++) row[k] = BINOM[n - 1]![k - 1]! + BINOM[n - 1]![k]!;
  BINOM.push(row);
}

const TWO_POW_32 = 0x100000000;
const TWO_POW_53 = 9007199254740992;

/** A uniform double in [0, 1) with 53 random bits (two draws of the 32-bit generator). */
function uniform53(rng: Rng): number {
  const hi = Math.floor(rng.next() * 0x200000);
  const lo = Math.floor(rng.next() * TWO_POW_32);
  return (hi * TWO_POW_32 + lo) / TWO_POW_53;
}

/** The splits of one state with positive weight: cumulative weights and (k1, k2) packed as k1 * 64 + k2. */
interface Splits {
  cum: Float64Array;
  code: Uint16Array;
}

class Sampler implements DealSampler {
  readonly count: number;
  private readonly seat: Seat;
  private readonly hand: readonly Card[];
  /** The other seats in increasing order. */
  private readonly others: readonly [Seat, Seat, Seat];
  /** The seat that is given the trump card before anything else, or -1. */
  private readonly pinnedSeat: Seat | -1;
  private readonly trumpCard: Card;
  /** Room of seats a, b, c after the pin. */
  private readonly room: readonly [number, number, number];
  /** Void masks (bit = suit) of a, b, c. */
  private readonly voidMask: readonly [number, number, number];
  /** The unseen cards (the pinned one excepted) of each non-empty suit, in suit order. */
  private readonly suitCards: readonly (readonly Card[])[];
  private readonly suitIds: readonly Suit[];
  private readonly d1: number;
  private readonly d2: number;
  private readonly ways: Float64Array;
  private readonly splits: (Splits | undefined)[];
  private readonly scratch: Card[] = [];
  /** Cards written so far to each seat's hand during a sample. */
  private readonly pos = new Int32Array(4);
  /** Why there is no deal, when the cause is found before counting. */
  private readonly problem: string | null;

  constructor(info: InfoSet) {
    this.seat = info.seat;
    this.hand = info.hand.slice();
    this.trumpCard = info.trumpCard;
    const others = ([0, 1, 2, 3] as Seat[]).filter((s) => s !== info.seat) as [Seat, Seat, Seat];
    this.others = others;
    const pin = info.trumpCardInDealerHand && info.dealer !== info.seat;
    this.pinnedSeat = pin ? info.dealer : -1;
    const room = others.map((s) => info.handSizes[s] - (s === this.pinnedSeat ? 1 : 0)) as [number, number, number];
    this.room = room;
    this.voidMask = others.map((s) => (info.voids[s] ?? []).reduce<number>((m, suit) => m | (1 << suit), 0)) as [
      number,
      number,
      number,
    ];

    const bySuit: Card[][] = [[], [], [], []];
    let pinnedFound = false;
    for (const c of info.unseen) {
      if (pin && c === info.trumpCard) pinnedFound = true;
      else bySuit[suitOf(c)]!.push(c);
    }
    const suitIds: Suit[] = [];
    const suitCards: Card[][] = [];
    for (let s = 0; s < 4; s++) {
      if (bySuit[s]!.length) {
        suitIds.push(s as Suit);
        suitCards.push(bySuit[s]!);
      }
    }
    this.suitIds = suitIds;
    this.suitCards = suitCards;
    const total = suitCards.reduce((n, cards) => n + cards.length, 0);

    let problem: string | null = null;
    if (pin && !pinnedFound) {
      problem = `the trump card ${formatCard(info.trumpCard)} should be in the dealer's (seat ${info.dealer}) hand but is not among the unseen cards`;
    } else if (pin && info.handSizes[info.dealer] < 1) {
      problem = `the dealer (seat ${info.dealer}) holds no card but should still hold the trump card ${formatCard(info.trumpCard)}`;
    } else if (pin && (info.voids[info.dealer] ?? []).includes(info.trump)) {
      problem = `the dealer (seat ${info.dealer}) showed it has no ${formatSuit(info.trump)} but should still hold the trump card ${formatCard(info.trumpCard)}`;
    } else if (room[0] + room[1] + room[2] !== total || room.some((r) => r < 0)) {
      problem = `seats ${others.join(', ')} hold ${others.map((s) => info.handSizes[s]).join(' + ')} cards but ${info.unseen.length} are unseen`;
    }
    this.problem = problem;

    const d1 = Math.max(room[0], 0) + 1;
    const d2 = Math.max(room[1], 0) + 1;
    this.d1 = d1;
    this.d2 = d2;
    const nSuits = suitCards.length;
    const ways = new Float64Array((nSuits + 1) * d1 * d2);
    this.ways = ways;
    this.splits = new Array<Splits | undefined>(nSuits * d1 * d2);
    if (problem !== null) {
      this.count = 0;
      return;
    }

    ways[nSuits * d1 * d2] = 1;
    let left = 0; // cards in suits i .. once suit i is added
    for (let i = nSuits - 1; i >= 0; i--) {
      const n = suitCards[i]!.length;
      left += n;
      const bit = 1 << suitIds[i]!;
      const va = (this.voidMask[0] & bit) !== 0;
      const vb = (this.voidMask[1] & bit) !== 0;
      const vc = (this.voidMask[2] & bit) !== 0;
      const binomN = BINOM[n]!;
      const base = i * d1 * d2;
      const next = (i + 1) * d1 * d2;
      for (let r1 = 0; r1 < d1; r1++) {
        for (let r2 = 0; r2 < d2; r2++) {
          const r3 = left - r1 - r2;
          if (r3 < 0 || r3 > room[2]) continue;
          let sum = 0;
          const k1max = va ? 0 : Math.min(n, r1);
          for (let k1 = 0; k1 <= k1max; k1++) {
            const rest = n - k1;
            const k2max = vb ? 0 : Math.min(rest, r2);
            const binomRest = BINOM[rest]!;
            for (let k2 = 0; k2 <= k2max; k2++) {
              const k3 = rest - k2;
              if (k3 > r3 || (k3 > 0 && vc)) continue;
              const w = ways[next + (r1 - k1) * d2 + (r2 - k2)]!;
              if (w) sum += binomN[k1]! * binomRest[k2]! * w;
            }
          }
          ways[base + r1 * d2 + r2] = sum;
        }
      }
    }
    this.count = ways[room[0] * d2 + room[1]]!;
  }

  /** Builds and caches the positive-weight splits of suit i when a and b have room r1 and r2. */
  private splitsOf(i: number, r1: number, r2: number): Splits {
    const key = (i * this.d1 + r1) * this.d2 + r2;
    const n = this.suitCards[i]!.length;
    const bit = 1 << this.suitIds[i]!;
    const va = (this.voidMask[0] & bit) !== 0;
    const vb = (this.voidMask[1] & bit) !== 0;
    const vc = (this.voidMask[2] & bit) !== 0;
    const d2 = this.d2;
    const next = (i + 1) * this.d1 * d2;
    let left = 0;
    for (let j = i; j < this.suitCards.length; j++) left += this.suitCards[j]!.length;
    const r3 = left - r1 - r2;
    const cum: number[] = [];
    const code: number[] = [];
    let acc = 0;
    const k1max = va ? 0 : Math.min(n, r1);
    for (let k1 = 0; k1 <= k1max; k1++) {
      const rest = n - k1;
      const k2max = vb ? 0 : Math.min(rest, r2);
      for (let k2 = 0; k2 <= k2max; k2++) {
        const k3 = rest - k2;
        if (k3 > r3 || (k3 > 0 && vc)) continue;
        const w = this.ways[next + (r1 - k1) * d2 + (r2 - k2)]!;
        if (!w) continue;
        acc += BINOM[n]![k1]! * BINOM[rest]![k2]! * w;
        cum.push(acc);
        code.push(k1 * 64 + k2);
      }
    }
    const splits: Splits = { cum: Float64Array.from(cum), code: Uint16Array.from(code) };
    this.splits[key] = splits;
    return splits;
  }

  sample(rng: Rng, out?: Card[][]): Card[][] {
    if (this.count === 0) throw new NoConsistentDealError(this.seat, this.reason());
    const hands = out ?? [];
    for (let s = 0; s < 4; s++) if (!hands[s]) hands[s] = [];
    // Hands are written by index and trimmed at the end: with a reused `out` of the right sizes
    // nothing is allocated or resized.
    const own = hands[this.seat]!;
    const hand = this.hand;
    for (let t = 0; t < hand.length; t++) own[t] = hand[t]!;
    if (own.length !== hand.length) own.length = hand.length;
    const sa = this.others[0];
    const sb = this.others[1];
    const sc = this.others[2];
    const pos = this.pos;
    pos[sa] = 0;
    pos[sb] = 0;
    pos[sc] = 0;
    if (this.pinnedSeat !== -1) {
      hands[this.pinnedSeat]![0] = this.trumpCard;
      pos[this.pinnedSeat] = 1;
    }

    const scratch = this.scratch;
    let r1 = this.room[0];
    let r2 = this.room[1];
    for (let i = 0; i < this.suitCards.length; i++) {
      const splits = this.splits[(i * this.d1 + r1) * this.d2 + r2] ?? this.splitsOf(i, r1, r2);
      const cum = splits.cum;
      // The first split whose cumulative weight exceeds a uniform draw (binary search).
      let j = 0;
      const last = cum.length - 1;
      if (last > 0) {
        const u = uniform53(rng) * cum[last]!;
        let hi = last;
        while (j < hi) {
          const mid = (j + hi) >> 1;
          if (u < cum[mid]!) hi = mid;
          else j = mid + 1;
        }
      }
      const code = splits.code[j]!;
      const k1 = code >> 6;
      const k2 = code & 63;
      const cards = this.suitCards[i]!;
      const n = cards.length;
      const k3 = n - k1 - k2;
      // The seat taking most of the suit (z) gets what is left once x and y are served.
      let sx: Seat, sy: Seat, sz: Seat, kx: number, ky: number;
      if (k1 >= k2 && k1 >= k3) {
        sz = sa;
        sx = sb;
        kx = k2;
        sy = sc;
        ky = k3;
      } else if (k2 >= k3) {
        sz = sb;
        sx = sa;
        kx = k1;
        sy = sc;
        ky = k3;
      } else {
        sz = sc;
        sx = sa;
        kx = k1;
        sy = sb;
        ky = k2;
      }
      const m = kx + ky;
      for (let t = 0; t < n; t++) scratch[t] = cards[t]!;
      // Partial Fisher-Yates: the first m places are a uniformly random ordered selection of m cards.
      for (let t = 0; t < m; t++) {
        const x = t + rng.int(n - t);
        const tmp = scratch[t]!;
        scratch[t] = scratch[x]!;
        scratch[x] = tmp;
      }
      const hx = hands[sx]!;
      const hy = hands[sy]!;
      const hz = hands[sz]!;
      let t = 0;
      let p = pos[sx]!;
      for (; t < kx; t++) hx[p++] = scratch[t]!;
      pos[sx] = p;
      p = pos[sy]!;
      for (; t < m; t++) hy[p++] = scratch[t]!;
      pos[sy] = p;
      p = pos[sz]!;
      for (; t < n; t++) hz[p++] = scratch[t]!;
      pos[sz] = p;
      r1 -= k1;
      r2 -= k2;
    }
    for (let s = 0; s < 3; s++) {
      const seat = this.others[s]!;
      const h = hands[seat]!;
      if (h.length !== pos[seat]) h.length = pos[seat]!;
    }
    return hands;
  }

  /** Why no deal fits, in words (only called when count is 0). */
  private reason(): string {
    if (this.problem !== null) return this.problem;
    // The suits' cards are a supply, the seats' room a demand. By Hall's theorem some set of suits
    // has more cards than the seats that may hold any of those suits have room for.
    const n = this.suitCards.length;
    let best: string | null = null;
    let bestSize = Infinity;
    for (let set = 1; set < 1 << n; set++) {
      let cards = 0;
      let suitMask = 0;
      const names: string[] = [];
      for (let i = 0; i < n; i++) {
        if (!(set & (1 << i))) continue;
        cards += this.suitCards[i]!.length;
        suitMask |= 1 << this.suitIds[i]!;
        names.push(formatSuit(this.suitIds[i]!));
      }
      const able: Seat[] = [];
      const blocked: Seat[] = [];
      let room = 0;
      for (let j = 0; j < 3; j++) {
        if ((suitMask & ~this.voidMask[j]!) !== 0) {
          able.push(this.others[j]!);
          room += this.room[j]!;
        } else {
          blocked.push(this.others[j]!);
        }
      }
      if (cards > room && names.length < bestSize) {
        bestSize = names.length;
        const who = able.length
          ? `seat${able.length > 1 ? 's' : ''} ${able.join(' and ')}, with room for ${room}`
          : 'no seat';
        best =
          `the ${cards} unseen card${cards > 1 ? 's' : ''} of ${names.join(' and ')} can only go to ${who}` +
          (blocked.length ? ` (seat${blocked.length > 1 ? 's' : ''} ${blocked.join(' and ')} showed void)` : '');
      }
    }
    return best ?? 'the voids leave no room for the unseen cards';
  }
}

/** Precomputes the counting table for one information set; each `sample` then costs a few dozen steps. */
export function createDealSampler(info: InfoSet): DealSampler {
  return new Sampler(info);
}

/** The exact number of deals of the unseen cards to the other three seats consistent with `info`. */
export function countConsistentDeals(info: InfoSet): number {
  return new Sampler(info).count;
}

/**
 * Four hands (index = seat): the observer's own and a deal of the unseen cards drawn uniformly from
 * those consistent with `info`. Throws NoConsistentDealError when there is none. For many samples of
 * one info set, build a sampler once with `createDealSampler`.
 */
export function sampleDeal(info: InfoSet, rng: Rng): Card[][] {
  return new Sampler(info).sample(rng);
}

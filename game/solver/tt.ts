// Transposition table for positions at trick boundaries: bounds on the points team A takes from the
// remaining cards. Open addressing in one typed array, two-way buckets, 64-bit keys as two 32-bit
// halves. A slot is four int32s (key 1, key 2, lower | upper << 8 | move << 16, depth | pattern << 6),
// so a bucket is 32 bytes: one cache line per probe.
// Values are independent of the path (and of the sampled world): one table serves a whole decision.
// A cleared table uses its first 1 MB and doubles the part in use as it fills (grow): most probes
// miss the processor's cache, and a query of a few hundred thousand nodes then misses it less.
//
// Quasi-symmetry (after Kupferschmid and Helmert's Skat solver): the key says who holds each live card
// by its place in its suit, not which cards carry points; the entry keeps which (the pattern: per
// canonical suit slot, the live Q J K 7 A as a 5-bit mask; point cards are always a suit's top live
// cards). Two positions with the same key have the same game tree card for card, the cards at each
// place differing only in points, so a probe with another pattern reads the stored bounds widened by
// the points that differ: team A's points move by at most the sum of the rises (up) and of the falls
// (down) over the cards matched by their place in the suit. (Keeping the number of point cards in the
// key, as the first version did, shared half as much: 2.59 M nodes to 1.40 M for exact full deals.)

import { RANK_POINTS } from '../cards.js';

/** UP/DOWN[stored * 32 + probed]: points gained / lost when the suit's live point cards are `probed` instead of `stored`, matched from the top. */
const UP = new Uint8Array(1024);
const DOWN = new Uint8Array(1024);
for (let a = 0; a < 32; a++) {
  for (let b = 0; b < 32; b++) {
    let up = 0;
    let down = 0;
    // Match the two masks' cards from the top.
    let x = a;
    let y = b;
    while (x && y) {
      const ra = 31 - Math.clz32(x);
      const rb = 31 - Math.clz32(y);
      x ^= 1 << ra;
      y ^= 1 << rb;
      const d = RANK_POINTS[5 + rb]! - RANK_POINTS[5 + ra]!;
      if (d > 0) up += d;
      else down -= d;
    }
    // Point cards left over on one side face zero-point cards on the other.
    for (; x; x &= x - 1) down += RANK_POINTS[5 + 31 - Math.clz32(x & -x)]!;
    for (; y; y &= y - 1) up += RANK_POINTS[5 + 31 - Math.clz32(y & -y)]!;
    UP[a * 32 + b] = up;
    DOWN[a * 32 + b] = down;
  }
}

/** The points up and down (packed: up | down << 16) between two patterns of the same key, suit by suit. */
function patternDistance(stored: number, probed: number): number {
  let up = 0;
  let down = 0;
  for (let s = 0; s < 20; s += 5) {
    const j = (((stored >>> s) & 31) << 5) | ((probed >>> s) & 31);
    up += UP[j]!;
    down += DOWN[j]!;
  }
  return up | (down << 16);
}

/** log2 of the slots a cleared table starts with: 1 MB, in the processor's cache for a query of a few hundred thousand nodes. */
const START_BITS = 16;

export class TranspositionTable {
  private readonly slots: Int32Array;
  /** The bucket mask of the whole table, and of the part in use (it grows up to the whole, see grow). */
  private readonly maxMask: number;
  private mask = 0;
  /** New entries since the table last grew or was cleared, and how many make it grow. */
  private added = 0;
  private growAt = 0;
  /** Result of the last successful probe. */
  lower = 0;
  upper = 0;
  /** The best lead found: suit slot * 16 + its rank among the suit's live cards from the top; 255 = none. */
  move = 255;

  constructor(bits = 20) {
    const size = 1 << bits;
    this.slots = new Int32Array(size * 4);
    this.maxMask = (size - 1) & ~1; // even index: a bucket of two slots
    this.start();
  }

  /** Starts small again, empty: the part a cleared table uses is emptied here, the rest as it grows into it. */
  clear(): void {
    this.start();
    this.slots.fill(0, 0, (this.mask + 2) * 4);
  }

  private start(): void {
    this.mask = Math.min(this.maxMask, ((1 << START_BITS) - 1) & ~1);
    this.added = 0;
    this.growAt = (this.mask + 2) >> 2;
  }

  /**
   * Doubles the part in use once a quarter of its slots have been filled: a small query's entries stay close
   * together (cache misses are most of a probe's cost), a large one gets the whole table. Each bucket's
   * entries either stay or move to the bucket one old size above (the next bit of their hash).
   */
  private grow(): void {
    const t = this.slots;
    const size = this.mask + 2;
    const mask = (size * 2 - 1) & ~1;
    t.fill(0, size * 4, size * 8);
    for (let i = 0; i < size * 4; i += 4) {
      if (t[i + 1] === 0 || (t[i]! & mask) << 2 === (i & ~7)) continue;
      const j = i + size * 4;
      t[j] = t[i]!;
      t[j + 1] = t[i + 1]!;
      t[j + 2] = t[i + 2]!;
      t[j + 3] = t[i + 3]!;
      t[i] = 0;
      t[i + 1] = 0;
      t[i + 2] = 0;
      t[i + 3] = 0;
    }
    this.mask = mask;
    this.added = 0;
    this.growAt = size >> 1;
  }

  /**
   * Looks up a key; on a hit sets `lower`, `upper` (widened if the stored pattern differs from
   * `pattern`) and `move`, and returns true. k2 is never 0 (see `store`).
   */
  probe(h1: number, h2: number, pattern: number): boolean {
    const t = this.slots;
    let i = (h1 & this.mask) << 2;
    const k = h2 | 1;
    if (t[i] !== h1 || t[i + 1] !== k) {
      i += 4;
      if (t[i] !== h1 || t[i + 1] !== k) return false;
    }
    const d = t[i + 2]!;
    let lower = d & 255;
    let upper = (d >> 8) & 255;
    const stored = t[i + 3]! >>> 6;
    if (stored !== pattern) {
      const ud = patternDistance(stored, pattern);
      const down = ud >>> 16;
      lower = lower > down ? lower - down : 0;
      upper += ud & 0xffff;
    }
    this.lower = lower;
    this.upper = upper;
    this.move = (d >> 16) & 255;
    return true;
  }

  /** Stores bounds, tightening what the table already knows of the same key (widened first if its pattern differs). */
  store(h1: number, h2: number, lower: number, upper: number, move: number, depth: number, pattern: number): void {
    const t = this.slots;
    const i = (h1 & this.mask) << 2;
    const k = h2 | 1;
    const dp = depth | (pattern << 6);
    let j: number;
    if (t[i] === h1 && t[i + 1] === k) j = i;
    else if (t[i + 4] === h1 && t[i + 5] === k) j = i + 4;
    else {
      // New entry: the first slot keeps the deepest (the most work saved), the second the newest.
      if (depth >= (t[i + 3]! & 63)) {
        t[i + 4] = t[i]!;
        t[i + 5] = t[i + 1]!;
        t[i + 6] = t[i + 2]!;
        t[i + 7] = t[i + 3]!;
        j = i;
      } else j = i + 4;
      t[j] = h1;
      t[j + 1] = k;
      t[j + 2] = lower | (upper << 8) | (move << 16);
      t[j + 3] = dp;
      if (++this.added >= this.growAt && this.mask < this.maxMask) this.grow();
      return;
    }
    const d = t[j + 2]!;
    let lo = d & 255;
    let hi = (d >> 8) & 255;
    const stored = t[j + 3]! >>> 6;
    if (stored !== pattern) {
      // The same tree with other points: what was stored, widened to this pattern, still bounds it.
      const ud = patternDistance(stored, pattern);
      const down = ud >>> 16;
      const up = ud & 0xffff;
      lo = lo > down ? lo - down : 0;
      hi = hi + up > 255 ? 255 : hi + up;
      t[j + 3] = dp;
    }
    let mv = (d >> 16) & 255;
    if (lower > lo) lo = lower;
    if (upper < hi) hi = upper;
    if (move !== 255) mv = move;
    t[j + 2] = lo | (hi << 8) | (mv << 16);
  }
}

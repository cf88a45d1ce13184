// Transposition table for positions at trick boundaries: bounds on the points team A takes from the
// remaining cards. Open addressing in one typed array, two-way buckets, 64-bit keys as two 32-bit
// halves. A slot is four int32s (key 1, key 2, lower | upper << 8 | move << 16, depth), so a bucket
// is 32 bytes: one cache line per probe.
// Values are independent of the path (and of the sampled world): one table serves a whole decision.

export class TranspositionTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Result of the last successful probe. */
  lower = 0;
  upper = 0;
  /** The best lead found: suit slot * 16 + its rank among the suit's live cards from the top; 255 = none. */
  move = 255;

  constructor(bits = 20) {
    const size = 1 << bits;
    this.slots = new Int32Array(size * 4);
    this.mask = (size - 1) & ~1; // even index: a bucket of two slots
  }

  clear(): void {
    this.slots.fill(0);
  }

  /** Looks up a key; on a hit sets `lower`, `upper` and `move` and returns true. k2 is never 0 (see `store`). */
  probe(h1: number, h2: number): boolean {
    const t = this.slots;
    let i = (h1 & this.mask) << 2;
    const k = h2 | 1;
    if (t[i] !== h1 || t[i + 1] !== k) {
      i += 4;
      if (t[i] !== h1 || t[i + 1] !== k) return false;
    }
    const d = t[i + 2]!;
    this.lower = d & 255;
    this.upper = (d >> 8) & 255;
    this.move = (d >> 16) & 255;
    return true;
  }

  /** Stores bounds, tightening what the table already knows of the same position. */
  store(h1: number, h2: number, lower: number, upper: number, move: number, depth: number): void {
    const t = this.slots;
    const i = (h1 & this.mask) << 2;
    const k = h2 | 1;
    let j: number;
    if (t[i] === h1 && t[i + 1] === k) j = i;
    else if (t[i + 4] === h1 && t[i + 5] === k) j = i + 4;
    else {
      // New entry: the first slot keeps the deepest (the most work saved), the second the newest.
      if (depth >= t[i + 3]!) {
        t[i + 4] = t[i]!;
        t[i + 5] = t[i + 1]!;
        t[i + 6] = t[i + 2]!;
        t[i + 7] = t[i + 3]!;
        j = i;
      } else j = i + 4;
      t[j] = h1;
      t[j + 1] = k;
      t[j + 2] = lower | (upper << 8) | (move << 16);
      t[j + 3] = depth;
      return;
    }
    const d = t[j + 2]!;
    let lo = d & 255;
    let hi = (d >> 8) & 255;
    let mv = (d >> 16) & 255;
    if (lower > lo) lo = lower;
    if (upper < hi) hi = upper;
    if (move !== 255) mv = move;
    t[j + 2] = lo | (hi << 8) | (mv << 16);
  }
}

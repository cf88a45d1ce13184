// Transposition table for positions at trick boundaries: bounds on the points team A takes from the
// remaining cards. Open addressing in typed arrays, two-way buckets, 64-bit keys as two 32-bit halves.
// Values are independent of the path (and of the sampled world): one table serves a whole decision.

export class TranspositionTable {
  private readonly k1: Int32Array;
  private readonly k2: Int32Array;
  private readonly lo: Uint8Array;
  private readonly hi: Uint8Array;
  /** The best lead found: suit * 16 + its rank among the suit's live cards from the top; 255 = none. */
  private readonly mv: Uint8Array;
  private readonly mask: number;
  /** Result of the last successful probe. */
  lower = 0;
  upper = 0;
  move = 255;

  constructor(bits = 20) {
    const size = 1 << bits;
    this.k1 = new Int32Array(size);
    this.k2 = new Int32Array(size);
    this.lo = new Uint8Array(size);
    this.hi = new Uint8Array(size);
    this.mv = new Uint8Array(size);
    this.mask = (size - 1) & ~1; // even index: a bucket of two slots
  }

  clear(): void {
    this.k2.fill(0);
  }

  /** Looks up a key; on a hit sets `lower` and `upper` and returns true. k2 is never 0 (see `store`). */
  probe(h1: number, h2: number): boolean {
    const i = h1 & this.mask;
    const k = h2 | 1;
    if (this.k1[i] === h1 && this.k2[i] === k) {
      this.lower = this.lo[i]!;
      this.upper = this.hi[i]!;
      this.move = this.mv[i]!;
      return true;
    }
    if (this.k1[i + 1] === h1 && this.k2[i + 1] === k) {
      this.lower = this.lo[i + 1]!;
      this.upper = this.hi[i + 1]!;
      this.move = this.mv[i + 1]!;
      return true;
    }
    return false;
  }

  /** Stores bounds, tightening what the table already knows of the same position. */
  store(h1: number, h2: number, lower: number, upper: number, move: number): void {
    const i = h1 & this.mask;
    const k = h2 | 1;
    let j: number;
    if (this.k1[i] === h1 && this.k2[i] === k) j = i;
    else if (this.k1[i + 1] === h1 && this.k2[i + 1] === k) j = i + 1;
    else {
      // New entry: the first slot keeps the newest, the older moves to the second.
      this.k1[i + 1] = this.k1[i]!;
      this.k2[i + 1] = this.k2[i]!;
      this.lo[i + 1] = this.lo[i]!;
      this.hi[i + 1] = this.hi[i]!;
      this.mv[i + 1] = this.mv[i]!;
      this.k1[i] = h1;
      this.k2[i] = k;
      this.lo[i] = lower;
      this.hi[i] = upper;
      this.mv[i] = move;
      return;
    }
    if (lower > this.lo[j]!) this.lo[j] = lower;
    if (upper < this.hi[j]!) this.hi[j] = upper;
    if (move !== 255) this.mv[j] = move;
  }
}

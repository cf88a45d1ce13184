// Seeded randomness. Every random choice in the project goes through an Rng made from a seed, so a
// tournament, a simulated session or a replay reproduces exactly. sfc32 is small, fast and passes
// PractRand; seeds are expanded with splitmix32 so nearby seeds give unrelated streams.

export interface Rng {
  /** Uniform integer in [0, n), n >= 1. */
  int(n: number): number;
  /** Uniform float in [0, 1). */
  next(): number;
}

function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A seed for a sub-stream: the same (seed, ...path) always gives the same value. */
export function deriveSeed(seed: number, ...path: number[]): number {
  let h = splitmix32((seed >>> 0) ^ Math.floor(seed / 0x100000000));
  for (const p of path) h = splitmix32(h ^ Math.imul(p | 0, 0x27d4eb2d) ^ 0x165667b1);
  return h;
}

class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = splitmix32(seed);
    this.b = splitmix32(this.a ^ 0x6a09e667);
    this.c = splitmix32(this.b ^ 0xbb67ae85);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  private u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.u32() / 0x100000000;
  }

  int(n: number): number {
    // Multiply-shift; the bias for n <= 40 is below 1e-8 and irrelevant here.
    return Math.floor(this.next() * n);
  }
}

export function createRng(seed: number, ...path: number[]): Rng {
  return new Sfc32(path.length ? deriveSeed(seed, ...path) : deriveSeed(seed));
}

/** Fisher-Yates in place. */
export function shuffleInPlace<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}

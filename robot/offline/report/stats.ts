// The few statistics a session report needs. Quantiles are nearest-rank (a value that occurred, never
// an interpolation between two), so a median intensity or latency is one the robot really had.

/** The nearest-rank q-quantile of `xs`; null when there is nothing to take it of. */
export function quantile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

export const median = (xs: readonly number[]): number | null => quantile(xs, 0.5);

/** `part / whole`, rounded; null when there is no whole to share. */
export const share = (part: number, whole: number): number | null => (whole > 0 ? round(part / whole, 3) : null);

export const round = (x: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

export const roundOrNull = (x: number | null, digits = 2): number | null => (x === null ? null : round(x, digits));

export interface Bin {
  /** Inclusive. */
  from: number;
  /** Exclusive, except the last bin's, which holds its upper edge too. */
  to: number;
  count: number;
}

/** Counts of `xs` in bins of `width` from `min` to `max`; values outside are clamped into the end bins. */
export function histogram(xs: readonly number[], min: number, max: number, width: number): Bin[] {
  const n = Math.round((max - min) / width);
  const bins: Bin[] = Array.from({ length: n }, (_, i) => ({
    from: min + i * width,
    to: min + (i + 1) * width,
    count: 0,
  }));
  for (const x of xs) {
    const i = Math.min(n - 1, Math.max(0, Math.floor((x - min) / width)));
    bins[i]!.count++;
  }
  return bins;
}

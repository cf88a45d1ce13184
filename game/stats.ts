// Small statistics that merge across workers: a log-bucket histogram of durations and a confidence
// interval for a win rate measured over independent boards.

/** Eight buckets per doubling (about 9% wide), from 1 microsecond up. */
const BUCKETS_PER_OCTAVE = 8;
const BUCKETS = 40 * BUCKETS_PER_OCTAVE;

export interface Histogram {
  count: number;
  sumMs: number;
  maxMs: number;
  /** Sparse bucket counts: bucket index -> count. */
  buckets: Record<number, number>;
}

export const emptyHistogram = (): Histogram => ({ count: 0, sumMs: 0, maxMs: 0, buckets: {} });

const bucketOf = (ms: number): number => {
  const us = ms * 1000;
  if (us <= 1) return 0;
  return Math.min(BUCKETS - 1, Math.floor(Math.log2(us) * BUCKETS_PER_OCTAVE));
};
/** The middle of a bucket, in ms. */
const bucketValue = (b: number): number => 2 ** ((b + 0.5) / BUCKETS_PER_OCTAVE) / 1000;

export function record(h: Histogram, ms: number): void {
  const b = bucketOf(ms);
  h.buckets[b] = (h.buckets[b] ?? 0) + 1;
  h.count++;
  h.sumMs += ms;
  if (ms > h.maxMs) h.maxMs = ms;
}

export function mergeHistogram(into: Histogram, from: Histogram): void {
  for (const [b, n] of Object.entries(from.buckets)) into.buckets[+b] = (into.buckets[+b] ?? 0) + n;
  into.count += from.count;
  into.sumMs += from.sumMs;
  into.maxMs = Math.max(into.maxMs, from.maxMs);
}

/** The q-quantile (0..1) in ms, to the bucket's resolution; never above the true maximum. */
export function quantile(h: Histogram, q: number): number {
  if (!h.count) return 0;
  const target = Math.max(1, Math.ceil(q * h.count));
  let seen = 0;
  const keys = Object.keys(h.buckets)
    .map(Number)
    .sort((a, b) => a - b);
  for (const b of keys) {
    seen += h.buckets[b]!;
    if (seen >= target) return Math.min(bucketValue(b), h.maxMs);
  }
  return h.maxMs;
}

/**
 * 95% confidence interval for a rate measured as the mean of per-board rates. Boards are independent;
 * the games of one board (a duplicate pair, a session) are not, so the spread is taken between boards.
 * sum and sumSq are of per-board successes; each board has `perBoard` games.
 */
export function boardRateCi95(sum: number, sumSq: number, boards: number, perBoard: number): [number, number] {
  if (boards < 2) return [0, 1];
  const mean = sum / (boards * perBoard);
  // Variance of per-board rates x = w / perBoard.
  const varX = (sumSq / (perBoard * perBoard) - boards * mean * mean) / (boards - 1);
  const half = 1.96 * Math.sqrt(Math.max(0, varX) / boards);
  return [Math.max(0, mean - half), Math.min(1, mean + half)];
}

/**
 * 95% confidence interval for a mean per game measured over independent boards (the two games of a
 * duplicate deal as one pair): sum and sumSq are of per-board totals; each board has `perBoard` games.
 */
export function boardMeanCi95(
  sum: number,
  sumSq: number,
  boards: number,
  perBoard: number,
): { mean: number; ci95: [number, number] } {
  const mean = boards > 0 ? sum / (boards * perBoard) : 0;
  if (boards < 2) return { mean, ci95: [mean, mean] };
  const varX = (sumSq / (perBoard * perBoard) - boards * mean * mean) / (boards - 1);
  const half = 1.96 * Math.sqrt(Math.max(0, varX) / boards);
  return { mean, ci95: [mean - half, mean + half] };
}

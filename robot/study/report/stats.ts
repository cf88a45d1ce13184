// The statistics of the study's figures: a mean with its standard deviation and 95% interval (Student's
// t), and a share with its 95% Wilson interval (sound for few sessions and shares near 0 or 1).

/** Student's t at 0.975 for 1 to 30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const Z975 = 1.959964;

/** The 0.975 quantile of Student's t with `df` degrees of freedom (past 30, the Cornish-Fisher expansion: within 1e-3). */
export function t975(df: number): number {
  if (df <= 30) return T975[df - 1]!;
  const z = Z975;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

export interface MeanFigure {
  n: number;
  mean: number | null;
  sd: number | null;
  /** The mean's 95% interval; null for fewer than two values. */
  ci: [number, number] | null;
}

export function meanFigure(xs: readonly number[]): MeanFigure {
  const n = xs.length;
  if (n === 0) return { n, mean: null, sd: null, ci: null };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, sd: null, ci: null };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, ci: [mean - half, mean + half] };
}

export interface ShareFigure {
  count: number;
  n: number;
  share: number | null;
  /** 95% Wilson interval. */
  ci: [number, number] | null;
}

export function shareFigure(count: number, n: number): ShareFigure {
  if (n === 0) return { count, n, share: null, ci: null };
  const p = count / n;
  const z2 = Z975 ** 2;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z975 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { count, n, share: p, ci: [Math.max(0, centre - half), Math.min(1, centre + half)] };
}

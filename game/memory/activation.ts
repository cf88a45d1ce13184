// ACT-R's declarative memory, the part the levels of play use (as in Renkema's ACT-R models of No
// Thanks!, after Anderson and Lebiere):
//   base-level activation  B = ln( sum_j t_j^-d )       t_j: seconds since the j-th presentation, d: decay
//   activation             A = B + e, e ~ logistic(0, s)  transient noise, drawn at each retrieval
//   retrieved when         A > tau                        tau: the retrieval threshold
// so a chunk presented once t seconds ago is retrieved with probability 1 / (1 + exp(-(B - tau) / s)).
// Each presentation (the card seen, or recalled again when it matters) adds a term: a rehearsed chunk
// decays from a higher level and is remembered longer.

import type { Rng } from '../rng.js';

/** B = ln(sum of t^-d) over the ages `t` (seconds, > 0) of a chunk's presentations; -Infinity when none. */
export function baseLevel(ages: readonly number[], decay: number): number {
  let sum = 0;
  for (const t of ages) sum += Math.pow(t, -decay);
  return Math.log(sum);
}

/** A draw of ACT-R's activation noise: logistic with mean 0 and scale `s` (variance pi^2 s^2 / 3). */
export function logisticNoise(rng: Rng, s: number): number {
  if (s === 0) return 0;
  // next() is in [0, 1): keep u off 0 so that the logarithm stays finite.
  const u = (rng.next() * 0xfffffffe + 1) / 0x100000000;
  return s * Math.log(u / (1 - u));
}

/** The probability that a chunk of base-level activation `b` is retrieved: P(b + noise > tau). */
export function retrievalProbability(b: number, threshold: number, noise: number): number {
  if (noise === 0) return b > threshold ? 1 : 0;
  return 1 / (1 + Math.exp(-(b - threshold) / noise));
}

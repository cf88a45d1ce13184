// The worlds a search draws from, one at a time: weighed by the other seats' plays (inference.ts)
// when there is trust and something to infer from, else uniformly among the consistent deals. The
// same source as the timed player's, so players built on it differ from it only in how they value
// a world, not in which worlds they believe.

import type { Card } from '../cards.js';
import type { Rng } from '../rng.js';
import { createDealSampler } from '../sampler.js';
import type { InfoSet } from '../view.js';
import type { InferenceReport } from '../decision.js';
import type { InferenceSettings } from './inference.js';
import { weighedWorlds } from './inference.js';

export interface WorldDraw {
  /** Fills `out` with the four hands of the next world (the seat's own included). */
  next(out: Card[][]): Card[][];
  /** What the inference weighed, when worlds are weighed. */
  readonly inference?: InferenceReport;
}

/**
 * A source of worlds of `info`. With a clock and a deadline the weighing of candidates takes at most
 * a tenth of the time left (as in the timed player).
 */
export function drawWorlds(
  info: InfoSet,
  rng: Rng,
  inference: InferenceSettings | undefined,
  clock?: () => number,
  deadline?: number,
): WorldDraw {
  const sampler = createDealSampler(info);
  const weighted = weighedWorlds(info, sampler, rng, inference, clock, deadline);
  if (!weighted) return { next: (out) => sampler.sample(rng, out) };
  return {
    next: (out) => weighted.next(rng, out),
    inference: {
      trust: inference!.trust,
      candidates: weighted.count,
      effective: Math.round(weighted.effective * 10) / 10,
    },
  };
}

// A fast, knowledge-based estimate of a hand at the deal (after Marincic et al.'s Tarok bidding): a
// linear model of the team's final points and a logistic model of its win probability over the features
// a player reads (features.ts), fitted to simulated games (test/bench/hand-assessment.ts writes
// fitted-model.ts).
// Microseconds where the search's estimate takes 150 ms, so the robot can hope or fear at once, and
// fall back on it when no search estimate comes back in time. Combined with the search's estimate by
// a weight, as the seed combines its decision model with simulation: ks x search + (1 - ks) x model.

import type { Card } from '../cards.js';
import type { Seat } from '../seats.js';
import { FEATURE_COUNT, HAND_FEATURES, handFeatures } from './features.js';
import type { HandModel } from './features.js';
import { FITTED_MODEL } from './fitted-model.js';

/** The team's expected final points (0..120) and its probability of more than 60. */
export interface HandAssessment {
  expectedPoints: number;
  winProbability: number;
}

export class HandAssessor {
  readonly #x = new Float64Array(FEATURE_COUNT);
  readonly #points: Float64Array;
  readonly #win: Float64Array;

  constructor(readonly model: HandModel = FITTED_MODEL) {
    if (model.features.length !== FEATURE_COUNT || model.features.some((f, i) => f !== HAND_FEATURES[i])) {
      throw new Error(
        `hand model: its features (${model.features.join(', ')}) are not this build's (${HAND_FEATURES.join(', ')}); fit it again`,
      );
    }
    this.#points = Float64Array.from(model.points.weights);
    this.#win = Float64Array.from(model.win.weights);
  }

  /** The hand of `seat` at the deal (dealer `dealer`, turned-up card `trumpCard`), for its team. */
  assess(hand: readonly Card[], seat: Seat, dealer: Seat, trumpCard: Card): HandAssessment {
    const x = handFeatures(hand, seat, dealer, trumpCard, this.#x);
    let p = this.model.points.intercept;
    let z = this.model.win.intercept;
    for (let i = 0; i < FEATURE_COUNT; i++) {
      p += this.#points[i]! * x[i]!;
      z += this.#win[i]! * x[i]!;
    }
    return { expectedPoints: Math.min(120, Math.max(0, p)), winProbability: 1 / (1 + Math.exp(-z)) };
  }
}

/** Seed 004's combination: `searchWeight` (ks, 0..1) of the search's estimate, the rest the model's. */
export function combineEstimates(model: HandAssessment, search: HandAssessment, searchWeight: number): HandAssessment {
  const k = Math.min(1, Math.max(0, searchWeight));
  return {
    expectedPoints: k * search.expectedPoints + (1 - k) * model.expectedPoints,
    winProbability: k * search.winProbability + (1 - k) * model.winProbability,
  };
}

/** Seed 001's fuzzy classes of a hand's strength, weakest first. */
export const STRENGTH_CLASSES = ['very-weak', 'weak', 'average', 'strong', 'very-strong'] as const;
export type StrengthClass = (typeof STRENGTH_CLASSES)[number];

/** Peaks of the triangular memberships over expected points (60 is an even game). */
const PEAKS = [30, 48, 60, 72, 90] as const;

/**
 * The fuzzy strength of an expected score: each class's membership (triangles between neighbouring
 * peaks, the outer classes open-ended) and the class that holds most.
 */
export function strengthOf(expectedPoints: number): {
  class: StrengthClass;
  membership: Record<StrengthClass, number>;
} {
  const m = {} as Record<StrengthClass, number>;
  let best = 0;
  for (let i = 0; i < PEAKS.length; i++) {
    const peak = PEAKS[i]!;
    const lo = i === 0 ? -Infinity : PEAKS[i - 1]!;
    const hi = i === PEAKS.length - 1 ? Infinity : PEAKS[i + 1]!;
    let v: number;
    if (expectedPoints <= peak) v = lo === -Infinity ? 1 : Math.max(0, (expectedPoints - lo) / (peak - lo));
    else v = hi === Infinity ? 1 : Math.max(0, (hi - expectedPoints) / (hi - peak));
    m[STRENGTH_CLASSES[i]!] = v;
    if (v > m[STRENGTH_CLASSES[best]!]!) best = i;
  }
  return { class: STRENGTH_CLASSES[best]!, membership: m };
}

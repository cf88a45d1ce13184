// The predictors' parameters, fitted by maximum likelihood on simulated games (test/bench/prediction.ts
// fit: the seat's true hand known, every decision of the fitting games' players; docs/theory-of-mind.md).
// Written by hand from the fit's output; rerun the fit after changing a model.

export const FITTED = {
  /** rule: share of the rule-based player's odds against a uniformly random legal card. */
  ruleMix: 0.4,
  /** expert: softmax temperature over the expert's scores, and the softmax's share against uniform. */
  expertTemperature: 1.5,
  expertMix: 0.3,
  /** tom1: softmax temperature over the mean rollout values (points), and the share against uniform. */
  tom1Temperature: 3,
  tom1Mix: 0.9,
  /** What the fit was run on. */
  fittedOn: 'not fitted yet',
} as const;

// The predictors' parameters, fitted by maximum likelihood on simulated games (test/bench/prediction.ts
// fit: the deciding seat's true hand known, so this fits the policy P(card | hand, public game) of each
// model; docs/theory-of-mind.md). Written by hand from the fit's output; rerun the fit after changing
// a model.
//
// Pooled over the players that stand in for people of different skill: 20 games each of four `rule`,
// four `hybrid` and four `timed:budget=50` players, seed 2201 (1,769 decisions; the timed players'
// games depend on the machine's speed, so a rerun finds a slightly different optimum on a flat
// likelihood: an earlier run found 3 and 0.5 for the expert):
//   node dist/test/bench/prediction.js fit --games 20 --players rule,hybrid,timed:budget=50 --seed 2201
// Not `expert` (a model fitted on the player it is made from goes to temperature 0) nor `random`
// (its cards are the uniform share's, which the predictor's floor already gives).

export const FITTED = {
  /** rule: share of the rule-based player's odds against a uniformly random legal card. */
  ruleMix: 0.4,
  /** expert: softmax temperature over the expert's scores (score points), and the softmax's share against uniform. */
  expertTemperature: 2,
  expertMix: 0.4,
  /** tom1: softmax temperature over the mean rollout values (card points), and the share against uniform. */
  tom1Temperature: 8,
  /** tom1: temperature of the expert's scores in the same exponent (Infinity: the rollouts alone). */
  tom1ExpertTemperature: 2,
  tom1Mix: 0.4,
  /**
   * The expert softmax's temperature when the search weighs worlds by it (`timed:model=expert`; the
   * search's trust does the mixing). From the first fit, pooled over 10 games each of rule, random,
   * hybrid and timed:budget=50 (seed 2201), which the strength measurements were made with.
   */
  inferenceExpertTemperature: 1.5,
  fittedOn: 'rule, hybrid, timed:budget=50; 20 games each, seed 2201; tom1 with 2 worlds of 16 candidates, horizon 9',
} as const;

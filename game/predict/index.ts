// Theory of mind: predicting the other seats' cards from the observer's information set (issue 22).
export { FITTED } from './fitted.js';
export { ExpertSoftmaxPolicy, RulePolicy, Tom1Policy, allowedSuits, handKey, softmaxInPlace } from './policy.js';
export type { PolicyKind, SeatPolicy, SeatWorld, Tom1Settings } from './policy.js';
export { possiblePlays, seatToMove } from './possible.js';
export { DEFAULT_TOM1, PREDICTOR_KINDS, createPredictor, probabilityOf } from './predictor.js';
export type { PendingPrediction, Prediction, Predictor, PredictorKind, PredictorOptions } from './predictor.js';
export { GameSeatWorld, INFERENCE_MODELS, PolicyPlayLikelihood, inferenceModel } from './likelihood.js';
export type { InferenceModelName } from './likelihood.js';
export { PredictionScorer } from './evaluate.js';
export type { ModelSummary, ObservedGame, WhoSummary } from './evaluate.js';

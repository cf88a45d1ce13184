// Learned play models (issue 23): the encoding of a decision, the policy network's forward pass from an
// ONNX file's weights, the imitation player. Pure: model files are read at the edge (models.ts).
export { FEATURES_VERSION, DECISION_FEATURES, DECISION_LAYOUT, encodeHand, encodeHandMasks, encodeInfoSet, encodePublic, legalCardsOf, playSeats, publicToMove } from './encode.js';
export type { PublicGame } from './encode.js';
export { ModelFormatError, readOnnxMlp } from './onnx-weights.js';
export type { DenseLayer, OnnxMlp } from './onnx-weights.js';
export { MlpPolicyNet } from './mlp.js';
export type { PolicyNet } from './mlp.js';
export { policyNet, registerPolicyNet, setModelLoader } from './models.js';
export type { ModelBytesLoader } from './models.js';
export { ImitationPlayer } from './imitation.js';
export type { ImitationPlayerOptions } from './imitation.js';
export { DATASET_FORMAT, decisionRows } from './dataset.js';
export type { DatasetHeader, DecisionRow } from './dataset.js';
export { LearnedPlayLikelihood, learnedInferenceModel } from './likelihood.js';

// Inference in onnxruntime-node: a policy network for one decision or a batch of worlds, and the
// models the live node opens once and keeps (docs/learned-models.md).
export { OnnxPolicy } from './onnx-policy.js';
export { loadLiveModel } from './live-model.js';
export type { LiveModel, ModelIdentity } from './live-model.js';

// Learned models at the runtime's edge (issue 23): reading model files, and onnxruntime-node inference.
export { ModelFileError, installModelLoader, readModelFile } from './load.js';
export { OnnxPolicy } from './onnx-policy.js';
export { inFlight, runsInFlight, runsSettled, runsStarted } from './inflight.js';
export { loadLiveModel } from './live-model.js';
export { modelPath, sidecarOf } from './model-path.js';
export type { LiveModel, ModelIdentity } from './live-model.js';

// Learned models at the runtime's edge: reading and checking model files. Light on purpose: every
// command loads it. Inference in onnxruntime-node has its own door, ./onnx.ts, imported only where a
// network runs (the native library takes a while to load).
export { ModelFileError, installModelLoader, readModelFile } from './load.js';
export { inFlight, runsInFlight, runsSettled, runsStarted } from './inflight.js';
export { modelPath, sidecarOf } from './model-path.js';
export { checkModelFile } from './model-check.js';
export type { CheckedModel } from './model-check.js';
export { recordedModelHere } from './recorded-model.js';

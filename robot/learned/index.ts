// Learned models at the runtime's edge (issue 23): reading model files, and onnxruntime-node inference.
export { ModelFileError, installModelLoader, readModelFile } from './load.js';
export { OnnxPolicy } from './onnx-policy.js';

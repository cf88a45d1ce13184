// A policy network for the live node: the model file a lab names (config/node.yaml
// prediction.modelFile), checked before the node opens anything (model-check.ts), and run in
// onnxruntime-node.

import type { CheckedModel } from './model-check.js';
import { checkModelFile } from './model-check.js';
import { OnnxPolicy } from './onnx-policy.js';

export type { CheckedModel, ModelIdentity } from './model-check.js';

export interface LiveModel extends CheckedModel {
  /** The network in onnxruntime-node (CPU, one thread). */
  onnx: OnnxPolicy;
}

/**
 * Reads, checks and opens the network in `file`; throws a ModelFileError whose one-line message names
 * the file and what is wrong (as checkModelFile, or onnxruntime refusing it).
 */
export async function loadLiveModel(file: string, root?: string): Promise<LiveModel> {
  const checked = checkModelFile(file, root);
  const onnx = await OnnxPolicy.load(checked.path);
  return { ...checked, onnx };
}

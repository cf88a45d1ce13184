// A policy network for the live node (issue 23): the model file a lab names (config/node.yaml
// prediction.modelFile), checked before the node opens anything, and run in onnxruntime-node. Its
// sidecar (MODEL.json, written by `parceiro train`) must say the features version this build encodes;
// the file's name, that version and a digest of its bytes go into the session's recording, so that a
// replay predicts with the same network (or says it cannot).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DECISION_FEATURES, FEATURES_VERSION, MlpPolicyNet } from '../../game/index.js';
import { ModelFileError, readModelFile } from './load.js';
import { modelPath, sidecarOf } from './model-path.js';
import { OnnxPolicy } from './onnx-policy.js';

/** What a recording says of the network it predicted with. */
export interface ModelIdentity {
  /** As named in the settings (relative to the project root, or absolute). */
  modelFile: string;
  /** The sidecar's features version (game/learned/encode.ts FEATURES_VERSION when it was trained). */
  featuresVersion: number;
  /** The first 16 hex digits of the SHA-256 of the model file's bytes. */
  sha256: string;
}

export interface LiveModel extends ModelIdentity {
  /** The file's absolute path. */
  path: string;
  /** The network in onnxruntime-node (CPU, one thread). */
  onnx: OnnxPolicy;
  /** The same file's weights for game/'s synchronous forward pass (what the predictor is built with). */
  net: MlpPolicyNet;
}

/**
 * Reads, checks and opens the network in `file`; throws a ModelFileError whose one-line message names
 * the file and what is wrong (missing, unreadable, not a policy network of this encoding, no sidecar or
 * another features version, or onnxruntime refusing it).
 */
export async function loadLiveModel(file: string, root?: string): Promise<LiveModel> {
  const path = modelPath(file, root);
  const bytes = readModelFile(path);
  let net: MlpPolicyNet;
  try {
    net = MlpPolicyNet.fromOnnx(path, bytes);
  } catch (e) {
    throw new ModelFileError(`model ${path}: not a policy network of this build (${oneLine(e)})`);
  }
  const sidecar = sidecarOf(path);
  let side: { featuresVersion?: unknown; featureCount?: unknown };
  try {
    side = JSON.parse(readFileSync(sidecar, 'utf8')) as typeof side;
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing (parceiro train writes it next to the model)' : `is unreadable: ${oneLine(e)}`;
    throw new ModelFileError(`model ${path}: its sidecar ${sidecar} ${why}`);
  }
  if (side.featuresVersion !== FEATURES_VERSION || (side.featureCount !== undefined && side.featureCount !== DECISION_FEATURES)) {
    const count = typeof side.featureCount === 'number' ? ` (${side.featureCount} features)` : '';
    throw new ModelFileError(`model ${path}: its sidecar says features version ${String(side.featuresVersion)}${count}, this build encodes version ${FEATURES_VERSION} (${DECISION_FEATURES} features): train it again on a dataset of this build`);
  }
  const onnx = await OnnxPolicy.load(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return { modelFile: file, featuresVersion: FEATURES_VERSION, sha256, path, onnx, net };
}

const oneLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

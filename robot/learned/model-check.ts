// A model file a lab names (config/node.yaml's prediction.modelFile or player.inferenceModelFile, a
// player spec) read and checked without onnxruntime: a policy network of this build's encoding, with a
// sidecar (MODEL.json, written by `parceiro train`) that says the features version this build encodes.
// What a recording keeps of it: the name, that version and a digest of the bytes, so that a replay or a
// resume uses the same network (or says it cannot). No native code here: a replay checks files with it.

import { createHash } from 'node:crypto';
import type { ReadBound } from '../../config/index.js';
import { readBounded } from '../../config/index.js';
import { DECISION_FEATURES, FEATURES_VERSION, MlpPolicyNet } from '../../game/index.js';
import { ModelFileError, readModelFile } from './load.js';
import { modelPath, sidecarOf } from './model-path.js';

/** A sidecar is a few hundred bytes of JSON. */
const SIDECAR_BOUND: ReadBound = { maxBytes: 1 << 20, what: "a model's sidecar" };

/** What a recording says of the network it predicted with. */
export interface ModelIdentity {
  /** As named in the settings (relative to the project root, or absolute). */
  modelFile: string;
  /** The sidecar's features version (game/learned/encode.ts FEATURES_VERSION when it was trained). */
  featuresVersion: number;
  /** The first 16 hex digits of the SHA-256 of the model file's bytes. */
  sha256: string;
}

/** A model file read and checked, without onnxruntime: what the search workers are given. */
export interface CheckedModel extends ModelIdentity {
  /** The file's absolute path. */
  path: string;
  /** The bytes that were checked and digested (what a search worker builds its network from). */
  bytes: Uint8Array;
  /** The same file's weights for game/'s synchronous forward pass (what the predictor is built with). */
  net: MlpPolicyNet;
}

/** The first 16 hex digits of the SHA-256 of a model file's bytes: what a recording keeps of it. */
export const modelDigest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/**
 * Why the sidecar of the model at `path` is not one of this build's features (missing, unreadable, or
 * another features version or count), or null when it is.
 */
export function sidecarProblem(path: string): string | null {
  const sidecar = sidecarOf(path);
  let side: { featuresVersion?: unknown; featureCount?: unknown };
  try {
    side = JSON.parse(readBounded(sidecar, SIDECAR_BOUND).toString('utf8')) as typeof side;
  } catch (e) {
    const why =
      (e as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'is missing (parceiro train writes it next to the model)'
        : `is unreadable: ${oneLine(e)}`;
    return `its sidecar ${sidecar} ${why}`;
  }
  if (
    side.featuresVersion !== FEATURES_VERSION ||
    (side.featureCount !== undefined && side.featureCount !== DECISION_FEATURES)
  ) {
    const count = typeof side.featureCount === 'number' ? ` (${side.featureCount} features)` : '';
    return `its sidecar says features version ${String(side.featuresVersion)}${count}, this build encodes version ${FEATURES_VERSION} (${DECISION_FEATURES} features): train it again on a dataset of this build`;
  }
  return null;
}

/**
 * Reads and checks the network in `file` without opening it in onnxruntime; throws a ModelFileError
 * whose one-line message names the file and what is wrong (missing, unreadable, not a policy network
 * of this encoding, no sidecar or another features version).
 */
export function checkModelFile(file: string, root?: string): CheckedModel {
  const path = modelPath(file, root);
  const bytes = readModelFile(path);
  let net: MlpPolicyNet;
  try {
    net = MlpPolicyNet.fromOnnx(path, bytes);
  } catch (e) {
    throw new ModelFileError(`model ${path}: not a policy network of this build (${oneLine(e)})`);
  }
  const problem = sidecarProblem(path);
  if (problem) throw new ModelFileError(`model ${path}: ${problem}`);
  return { modelFile: file, featuresVersion: FEATURES_VERSION, sha256: modelDigest(bytes), path, bytes, net };
}

const oneLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

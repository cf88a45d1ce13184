// A model a recording names (the prediction model, the people's model the worlds were weighed by): is
// the same network here for a replay or a resume to use? No onnxruntime here: a replay checks files
// without loading native code.

import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { packageRoot } from '../../config/index.js';
import { FEATURES_VERSION } from '../../game/index.js';
import { modelDigest, sidecarProblem } from './model-check.js';
import { modelPath } from './model-path.js';

/** A policy network is a few megabytes; a file far larger is not one. */
const MAX_MODEL_BYTES = 256 * 1024 * 1024;

/**
 * The file a recording names, when it is a network in the project's models/ folder (what the project
 * ships and where `parceiro train` writes): a recording names files, it does not choose which files
 * of the machine are read. Null for any other path, a link out of the folder included.
 */
function insideModels(file: string): string | null {
  const root = resolve(packageRoot(), 'models');
  const path = modelPath(file);
  if (!path.startsWith(root + sep)) return null;
  try {
    const real = realpathSync(path);
    return real.startsWith(realpathSync(root) + sep) ? path : null;
  } catch {
    return path;
  }
}

/** What a recording says of a network: its file (relative to the project root, or absolute), digest and features version. */
interface RecordedModel {
  modelFile: string;
  sha256?: unknown;
  featuresVersion?: unknown;
}

/**
 * The recorded network's path and bytes when the same file is here (same digest), of this build's
 * features, with its sidecar (the node opens a model only with it); otherwise why not, in words that
 * name the `what` (e.g. "the recording's prediction model m.onnx is not here (/abs/m.onnx)").
 */
export function recordedModelHere(
  m: RecordedModel,
  what: string,
): { path: string; bytes: Uint8Array } | { why: string } {
  const file = m.modelFile.length > 200 ? `${m.modelFile.slice(0, 197)}...` : m.modelFile;
  const path = insideModels(m.modelFile);
  if (path === null)
    return { why: `the recording's ${what} ${JSON.stringify(file)} is not a file of the project's models/ folder` };
  let bytes: Buffer;
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_MODEL_BYTES)
      return { why: `the recording's ${what} ${file} is not a network (not a file of at most 256 MB)` };
    bytes = readFileSync(path);
  } catch {
    return { why: `the recording's ${what} ${file} is not here (${path})` };
  }
  const sha256 = modelDigest(bytes);
  if (typeof m.sha256 === 'string' && m.sha256 !== sha256)
    return { why: `the ${what} ${file} is not the network the session used (digest ${sha256}, recorded ${m.sha256})` };
  if (m.featuresVersion !== undefined && m.featuresVersion !== FEATURES_VERSION)
    return {
      why: `the recording's ${what} was trained on features version ${String(m.featuresVersion)}, this build encodes ${FEATURES_VERSION}`,
    };
  const problem = sidecarProblem(path);
  if (problem) return { why: `the ${what} ${file} has no sidecar of this build's features here (${problem})` };
  return { path, bytes };
}

// Where a model file named in the settings or a recording is (no onnxruntime here: a replay reads it
// without loading native code).

import { isAbsolute, resolve } from 'node:path';
import { packageRoot } from '../../config/index.js';

/** A model file named relative to the project root (the folder with package.json and config/), or absolute. */
export const modelPath = (file: string, root: string = packageRoot()): string =>
  isAbsolute(file) ? file : resolve(root, file);

/** The sidecar of MODEL.onnx: MODEL.json. */
export const sidecarOf = (path: string): string => path.replace(/\.onnx$/i, '') + '.json';

// The edge that reads model files for game/learned (which does no I/O): installed by the CLI and by the
// tournament's worker threads before any player spec naming a model is made.

import type { ReadBound } from '../../config/index.js';
import { BoundedReadError, readBounded } from '../../config/index.js';
import { setModelLoader } from '../../game/index.js';

/** A model file that cannot be read: its message names the file and why. */
export class ModelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFileError';
  }
}

/** The shipped policy networks are 270 kB; a network a hundred times wider is still under this. */
const MODEL_BOUND: ReadBound = { maxBytes: 64 << 20, what: 'a model file' };

/** The bytes of a model file, or a ModelFileError naming it. */
export function readModelFile(path: string): Uint8Array {
  try {
    return readBounded(path, MODEL_BOUND);
  } catch (e) {
    if (e instanceof BoundedReadError) throw new ModelFileError(`model ${path}: ${e.reason}`);
    throw e;
  }
}

/** Lets `imitation:model=FILE` and the `learned` predictor read model files in this thread. */
export function installModelLoader(): void {
  setModelLoader(readModelFile);
}

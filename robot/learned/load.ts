// The edge that reads model files for game/learned (which does no I/O): installed by the CLI and by the
// tournament's worker threads before any player spec naming a model is made.

import { readFileSync } from 'node:fs';
import { setModelLoader } from '../../game/index.js';

/** A model file that cannot be read: its message names the file and why. */
export class ModelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFileError';
  }
}

/** The bytes of a model file, or a ModelFileError naming it. */
export function readModelFile(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw new ModelFileError(`model ${path}: ${why}`);
  }
}

/** Lets `imitation:model=FILE` and the `learned` predictor read model files in this thread. */
export function installModelLoader(): void {
  setModelLoader(readModelFile);
}

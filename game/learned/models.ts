// Model files named in player specs (`imitation:model=FILE`) and predictor options. game/ does no I/O:
// the program's edge installs a loader that reads a file's bytes (robot/learned/load.ts, installed by
// the CLI and the tournament workers), and the networks are kept here by path, made once per process.

import { MlpPolicyNet } from './mlp.js';
import type { PolicyNet } from './mlp.js';

/** Reads a model file's bytes; throws an Error whose message names the file when it cannot. */
type ModelBytesLoader = (path: string) => Uint8Array;

let loader: ModelBytesLoader | null = null;
const nets = new Map<string, PolicyNet>();

/** Installs the reader of model files (the edge of the program: the CLI, a worker thread). */
export function setModelLoader(read: ModelBytesLoader | null): void {
  loader = read;
  nets.clear();
}

/** Registers a network under a name, so specs may name it without a file (tests, embedding programs). */
export function registerPolicyNet(name: string, net: PolicyNet): void {
  nets.set(name, net);
}

/** The network in `path` (made once per process); throws when no loader is installed or the file is not a policy model. */
export function policyNet(path: string): PolicyNet {
  const known = nets.get(path);
  if (known) return known;
  if (!loader)
    throw new Error(
      `cannot read the model ${path}: no model loader is installed (the CLI installs one; a program embedding game/ calls setModelLoader)`,
    );
  const net = MlpPolicyNet.fromOnnx(path, loader(path));
  nets.set(path, net);
  return net;
}

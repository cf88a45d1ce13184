// A policy network run by onnxruntime-node (the CPU binaries inside its npm package): the runtime's
// inference for the robot, asynchronous, for one decision or a batch of worlds at once. The same model
// file's weights also run synchronously in game/learned/mlp.ts (for the players, predictors and search
// in game/, which cannot await); the tests check that the two agree.

import { DECK_SIZE, DECISION_FEATURES } from '../../game/index.js';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { inFlight } from './inflight.js';
import { ModelFileError, readModelFile } from './load.js';

export class OnnxPolicy {
  private constructor(
    readonly path: string,
    private readonly session: InferenceSession,
    private readonly input: string,
    private readonly output: string,
  ) {}

  /** Loads a model written by `parceiro train` (input `features` [batch, DECISION_FEATURES], output `probs` [batch, 40]). */
  static async load(path: string, options: { threads?: number } = {}): Promise<OnnxPolicy> {
    const bytes = readModelFile(path);
    let session: InferenceSession;
    try {
      // One thread by default: the robot's search has the other cores, and a small MLP gains nothing from more.
      session = await InferenceSession.create(bytes, {
        intraOpNumThreads: options.threads ?? 1,
        interOpNumThreads: 1,
        executionProviders: ['cpu'],
      });
    } catch (e) {
      throw new ModelFileError(`model ${path}: onnxruntime cannot load it (${(e as Error).message.split('\n')[0]})`);
    }
    const input = session.inputNames[0];
    const output = session.outputNames[0];
    if (!input || !output) throw new ModelFileError(`model ${path}: no input or output`);
    return new OnnxPolicy(path, session, input, output);
  }

  /** Probabilities of the 40 cards for `batch` encoded decisions (DECISION_FEATURES floats each), 40 per decision. */
  async forward(x: Float32Array, batch: number): Promise<Float32Array> {
    if (x.length < batch * DECISION_FEATURES)
      throw new RangeError(`forward: ${x.length} floats for ${batch} decisions of ${DECISION_FEATURES}`);
    const t = new Tensor(
      'float32',
      x.length === batch * DECISION_FEATURES ? x : x.subarray(0, batch * DECISION_FEATURES),
      [batch, DECISION_FEATURES],
    );
    const r = await inFlight(this.session.run({ [this.input]: t }));
    const y = r[this.output];
    if (!y || y.dims[1] !== DECK_SIZE)
      throw new ModelFileError(`model ${this.path}: output ${this.output} is not [batch, 40]`);
    return y.data as Float32Array;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

// A policy network for the synchronous code of game/ (players, predictors): the forward pass of the
// MLP that train_policy.py exports to ONNX, computed here from the same file's weights. ReLU between
// dense layers, then a softmax over the 40 cards masked by the encoding's legal block (encode.ts): the
// probability of every illegal card is exactly 0. onnxruntime-node runs the same file asynchronously
// and in batches (robot/learned/onnx-policy.ts); the tests check that the two agree.
//
// The first layer is computed from the nonzero features only (a decision has about 30 of 436), each
// later layer from the units ReLU left above 0, and the output layer for the legal cards only.

import { DECK_SIZE } from '../cards.js';
import { DECISION_FEATURES, DECISION_LAYOUT, PRIVATE_FEATURES } from './encode.js';
import type { DenseLayer } from './onnx-weights.js';
import { ModelFormatError, readOnnxMlp } from './onnx-weights.js';

/** A policy over the 40 cards for encoded decisions (encode.ts), synchronous. */
export interface PolicyNet {
  /** Where the model came from (a file path, or a name). */
  readonly name: string;
  /**
   * Probabilities of the 40 cards for each of `batch` decisions in `x` (DECISION_FEATURES floats each),
   * written to `out` (40 each): 0 for every card outside the decision's legal block, summing to 1.
   */
  forward(x: Float32Array, batch: number, out: Float32Array): void;
  /**
   * Optional, for decisions that differ only in the hand and legal blocks (the worlds of one position):
   * the public features' share of the first layer, summed once per decision (publicPartSize floats,
   * written to `part`), then forwardWithPublic reads only the hand and legal blocks of `x` at `offset`.
   */
  readonly publicPartSize?: number;
  publicPart?(x: Float32Array, offset: number, part: Float32Array): void;
  forwardWithPublic?(part: Float32Array, x: Float32Array, offset: number, out: Float32Array): void;
}

export class MlpPolicyNet implements PolicyNet {
  private readonly first: DenseLayer;
  /** The first layer's weights transposed (in x out), for the sparse input. */
  private readonly firstT: Float32Array;
  /** The hidden layers after the first, weights transposed (in x out): a unit ReLU left at 0 adds nothing, so only active ones are read. */
  private readonly hidden: { outputs: number; bias: Float32Array; weightT: Float32Array }[];
  /** The output layer (row per card): only the legal cards' rows are computed. */
  private readonly last: DenseLayer | null;
  private readonly a: Float32Array;
  private readonly b: Float32Array;
  /** The indices of the units of the current layer that are above 0. */
  private readonly active: Int32Array;

  constructor(
    readonly name: string,
    readonly layers: DenseLayer[],
  ) {
    if (!layers.length) throw new ModelFormatError(`${name}: no layer`);
    if (layers[0]!.inputs !== DECISION_FEATURES)
      throw new ModelFormatError(
        `${name}: the model takes ${layers[0]!.inputs} features, this encoding has ${DECISION_FEATURES} (another features version)`,
      );
    if (layers.at(-1)!.outputs !== DECK_SIZE)
      throw new ModelFormatError(`${name}: the model gives ${layers.at(-1)!.outputs} outputs, not one per card (40)`);
    this.first = layers[0]!;
    this.firstT = transposed(this.first);
    this.hidden = layers.slice(1, -1).map((l) => ({ outputs: l.outputs, bias: l.bias, weightT: transposed(l) }));
    this.last = layers.length > 1 ? layers.at(-1)! : null;
    const widest = Math.max(...layers.map((l) => l.outputs));
    this.a = new Float32Array(widest);
    this.b = new Float32Array(widest);
    this.active = new Int32Array(widest);
  }

  /** The network in the bytes of an ONNX file exported by learn/train_policy.py. */
  static fromOnnx(name: string, bytes: Uint8Array): MlpPolicyNet {
    try {
      return new MlpPolicyNet(name, readOnnxMlp(bytes).layers);
    } catch (e) {
      if (e instanceof ModelFormatError && !e.message.startsWith(name))
        throw new ModelFormatError(`${name}: ${e.message}`);
      throw e;
    }
  }

  forward(x: Float32Array, batch: number, out: Float32Array): void {
    const n = this.first.outputs;
    for (let k = 0; k < batch; k++) {
      const xo = k * DECISION_FEATURES;
      // The public features first, then the hand and legal blocks: the very sums publicPart and
      // forwardWithPublic make, so the two ways give the same numbers.
      this.a.set(this.first.bias.subarray(0, n));
      this.addFeatures(x, xo, PRIVATE_FEATURES, DECISION_FEATURES, this.a);
      this.addFeatures(x, xo, 0, PRIVATE_FEATURES, this.a);
      this.finish(x, xo, out, k * DECK_SIZE);
    }
  }

  get publicPartSize(): number {
    return this.first.outputs;
  }

  publicPart(x: Float32Array, offset: number, part: Float32Array): void {
    part.set(this.first.bias.subarray(0, this.first.outputs));
    this.addFeatures(x, offset, PRIVATE_FEATURES, DECISION_FEATURES, part);
  }

  forwardWithPublic(part: Float32Array, x: Float32Array, offset: number, out: Float32Array): void {
    this.a.set(part.subarray(0, this.first.outputs));
    this.addFeatures(x, offset, 0, PRIVATE_FEATURES, this.a);
    this.finish(x, offset, out, 0);
  }

  /** Adds features `from` to `to` of the decision at `xo` to the first layer's sums `h`, from the nonzero ones only (a decision has about 30 of 436). */
  private addFeatures(x: Float32Array, xo: number, from: number, to: number, h: Float32Array): void {
    const n = this.first.outputs;
    const w1 = this.firstT;
    for (let i = from; i < to; i++) {
      const v = x[xo + i]!;
      if (v === 0) continue;
      const row = i * n;
      for (let o = 0; o < n; o++) h[o]! += v * w1[row + o]!;
    }
  }

  /** The rest of the network from the first layer's sums in `this.a`, for the decision at `xo` (its legal block), to `out` at `oo`. */
  private finish(x: Float32Array, xo: number, out: Float32Array, oo: number): void {
    const legal = xo + DECISION_LAYOUT.legal;
    const active = this.active;
    let h = this.a;
    let g = this.b;
    let n = this.first.outputs;
    if (this.last) {
      // Later hidden layers: ReLU, then only the active units' rows of the transposed weights.
      let k = relu(h, n, active);
      for (const l of this.hidden) {
        const m = l.outputs;
        const w = l.weightT;
        g.set(l.bias.subarray(0, m));
        for (let j = 0; j < k; j++) {
          const i = active[j]!;
          const v = h[i]!;
          const row = i * m;
          for (let o = 0; o < m; o++) g[o]! += v * w[row + o]!;
        }
        [h, g] = [g, h];
        n = m;
        k = relu(h, n, active);
      }
      // The output layer for the legal cards only: the others' probability is 0 whatever their logit.
      const { bias, weight, inputs } = this.last;
      for (let c = 0; c < DECK_SIZE; c++) {
        if (!x[legal + c]) continue;
        let s = bias[c]!;
        const row = c * inputs;
        for (let j = 0; j < k; j++) {
          const i = active[j]!;
          s += weight[row + i]! * h[i]!;
        }
        g[c] = s;
      }
      h = g;
    }
    // Masked softmax over the legal cards.
    let max = -Infinity;
    for (let c = 0; c < DECK_SIZE; c++) if (x[legal + c] && h[c]! > max) max = h[c]!;
    let z = 0;
    for (let c = 0; c < DECK_SIZE; c++) {
      const e = x[legal + c] ? Math.exp(h[c]! - max) : 0;
      out[oo + c] = e;
      z += e;
    }
    if (z > 0) for (let c = 0; c < DECK_SIZE; c++) out[oo + c]! /= z;
  }
}

/** A dense layer's weights (out x in, as ONNX stores them) transposed to in x out. */
function transposed(l: DenseLayer): Float32Array {
  const t = new Float32Array(l.inputs * l.outputs);
  for (let o = 0; o < l.outputs; o++)
    for (let i = 0; i < l.inputs; i++) t[i * l.outputs + o] = l.weight[o * l.inputs + i]!;
  return t;
}

/** ReLU on the first `n` units of `h`, writing the indices of those above 0 to `active`; returns how many. */
function relu(h: Float32Array, n: number, active: Int32Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (h[i]! > 0) active[k++] = i;
    else h[i] = 0;
  }
  return k;
}

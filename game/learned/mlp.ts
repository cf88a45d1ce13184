// A policy network for the synchronous code of game/ (players, predictors): the forward pass of the
// MLP that train_policy.py exports to ONNX, computed here from the same file's weights. ReLU between
// dense layers, then a softmax over the 40 cards masked by the encoding's legal block (encode.ts): the
// probability of every illegal card is exactly 0. onnxruntime-node runs the same file asynchronously
// and in batches (robot/learned/onnx-policy.ts); the tests check that the two agree.
//
// The first layer is computed from the nonzero features only (a decision has about 30 of 436).

import { DECK_SIZE } from '../cards.js';
import { DECISION_FEATURES, DECISION_LAYOUT } from './encode.js';
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
}

export class MlpPolicyNet implements PolicyNet {
  private readonly first: DenseLayer;
  /** The first layer's weights transposed (in x out), for the sparse input. */
  private readonly firstT: Float32Array;
  private readonly rest: DenseLayer[];
  private readonly a: Float32Array;
  private readonly b: Float32Array;

  constructor(
    readonly name: string,
    readonly layers: DenseLayer[],
  ) {
    if (!layers.length) throw new ModelFormatError(`${name}: no layer`);
    if (layers[0]!.inputs !== DECISION_FEATURES) throw new ModelFormatError(`${name}: the model takes ${layers[0]!.inputs} features, this encoding has ${DECISION_FEATURES} (another features version)`);
    if (layers.at(-1)!.outputs !== DECK_SIZE) throw new ModelFormatError(`${name}: the model gives ${layers.at(-1)!.outputs} outputs, not one per card (40)`);
    this.first = layers[0]!;
    this.rest = layers.slice(1);
    const { inputs, outputs, weight } = this.first;
    this.firstT = new Float32Array(inputs * outputs);
    for (let o = 0; o < outputs; o++) for (let i = 0; i < inputs; i++) this.firstT[i * outputs + o] = weight[o * inputs + i]!;
    const widest = Math.max(...layers.map((l) => l.outputs));
    this.a = new Float32Array(widest);
    this.b = new Float32Array(widest);
  }

  /** The network in the bytes of an ONNX file exported by learn/train_policy.py. */
  static fromOnnx(name: string, bytes: Uint8Array): MlpPolicyNet {
    try {
      return new MlpPolicyNet(name, readOnnxMlp(bytes).layers);
    } catch (e) {
      if (e instanceof ModelFormatError && !e.message.startsWith(name)) throw new ModelFormatError(`${name}: ${e.message}`);
      throw e;
    }
  }

  forward(x: Float32Array, batch: number, out: Float32Array): void {
    for (let k = 0; k < batch; k++) this.one(x, k * DECISION_FEATURES, out, k * DECK_SIZE);
  }

  private one(x: Float32Array, xo: number, out: Float32Array, oo: number): void {
    const f = this.first;
    let h = this.a;
    let g = this.b;
    const n1 = f.outputs;
    h.set(f.bias.subarray(0, n1));
    for (let i = 0; i < f.inputs; i++) {
      const v = x[xo + i]!;
      if (v === 0) continue;
      const row = i * n1;
      for (let o = 0; o < n1; o++) h[o]! += v * this.firstT[row + o]!;
    }
    let n = n1;
    for (const l of this.rest) {
      for (let i = 0; i < n; i++) if (h[i]! < 0) h[i] = 0; // ReLU before each later layer
      const w = l.weight;
      for (let o = 0; o < l.outputs; o++) {
        let s = l.bias[o]!;
        const row = o * l.inputs;
        for (let i = 0; i < l.inputs; i++) s += w[row + i]! * h[i]!;
        g[o] = s;
      }
      [h, g] = [g, h];
      n = l.outputs;
    }
    // Masked softmax over the legal cards.
    let max = -Infinity;
    for (let c = 0; c < DECK_SIZE; c++) if (x[xo + DECISION_LAYOUT.legal + c] && h[c]! > max) max = h[c]!;
    let z = 0;
    for (let c = 0; c < DECK_SIZE; c++) {
      const e = x[xo + DECISION_LAYOUT.legal + c] ? Math.exp(h[c]! - max) : 0;
      out[oo + c] = e;
      z += e;
    }
    if (z > 0) for (let c = 0; c < DECK_SIZE; c++) out[oo + c]! /= z;
  }
}

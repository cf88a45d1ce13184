// The policy network as a model of a seat's choice for the predictors (game/predict): P(card | the
// seat's hand, the public game) = the network's probabilities, mixed with a uniformly random legal card
// at 1 - mix. The public part of the encoding is the same in every world of one prediction, so it is
// written once (prepare), with its share of the network's first layer when the network can sum it
// apart, and only the hand and legal blocks change from world to world.

import { DECK_SIZE } from '../cards.js';
import type { SeatPolicy, SeatWorld } from '../predict/policy.js';
import type { Seat } from '../seats.js';
import type { PublicGame } from './encode.js';
import { DECISION_FEATURES, encodeHandMasks, encodePublic } from './encode.js';
import type { PolicyNet } from './mlp.js';

export class LearnedPolicy implements SeatPolicy {
  readonly kind = 'learned';
  private readonly x = new Float32Array(DECISION_FEATURES);
  private readonly p = new Float32Array(DECK_SIZE);
  private prepared: { plays: number; seat: Seat; game: PublicGame } | null = null;
  /**
   * The prepared decision's public share of the network's first layer, when the network can sum it
   * apart; summed at the first world asked about here (a batch run elsewhere never needs it).
   */
  private readonly part: Float32Array | null;
  private partSummed = false;

  constructor(
    readonly net: PolicyNet,
    readonly mix = 1,
  ) {
    if (!(mix >= 0 && mix <= 1)) throw new RangeError(`learned policy: mix must be from 0 to 1, got ${mix}`);
    this.part = net.publicPart && net.publicPartSize ? new Float32Array(net.publicPartSize) : null;
  }

  /** Writes the public part of the encoding for `seat` deciding in `game` (once per prediction). */
  prepare(game: PublicGame, seat: Seat): void {
    if (
      this.prepared &&
      this.prepared.game === game &&
      this.prepared.seat === seat &&
      this.prepared.plays === game.plays.length
    )
      return;
    encodePublic(game, seat, this.x);
    this.partSummed = false;
    this.prepared = { plays: game.plays.length, seat, game };
  }

  /**
   * The whole encoding of `w`'s decision (prepared public part, the world's hand) written to `out` at
   * `offset`, for a batch run elsewhere (onnxruntime); returns the number of legal cards.
   */
  encodeWorld(w: SeatWorld, out: Float32Array, offset: number): number {
    if (!this.prepared || this.prepared.seat !== w.seat)
      throw new Error('learned policy: prepare(game, seat) before asking about worlds');
    const n = encodeHandMasks(w.hand, w.led, this.x);
    out.set(this.x, offset);
    return n;
  }

  /**
   * What probabilities() gives, from the network's output `p` (40 floats at `offset`) for the decision
   * encoded in `x` at `xOffset` (its legal block), with `n` legal cards.
   */
  fromOutput(x: Float32Array, xOffset: number, n: number, p: Float32Array, offset: number, out: Float64Array): void {
    const u = (1 - this.mix) / n;
    for (let c = 0; c < DECK_SIZE; c++) if (x[xOffset + DECK_SIZE + c]) out[c] = this.mix * p[offset + c]! + u;
  }

  probabilities(w: SeatWorld, out: Float64Array): number {
    if (!this.prepared || this.prepared.seat !== w.seat)
      throw new Error('learned policy: prepare(game, seat) before asking about worlds');
    const n = encodeHandMasks(w.hand, w.led, this.x);
    if (this.part) {
      if (!this.partSummed) this.net.publicPart!(this.x, 0, this.part);
      this.partSummed = true;
      this.net.forwardWithPublic!(this.part, this.x, 0, this.p);
    } else this.net.forward(this.x, 1, this.p);
    const u = (1 - this.mix) / n;
    for (let c = 0; c < DECK_SIZE; c++) if (this.x[DECK_SIZE + c]) out[c] = this.mix * this.p[c]! + u;
    return n;
  }
}

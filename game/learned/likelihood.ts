// Worlds weighed by a policy network: the likelihood of the other seats' plays so far had
// they held a world's hands, each play scored by the network (a model of how people at a lab play,
// trained with `parceiro train` on its recordings, or the distilled policy) mixed with a uniformly
// random legal card at the inference's trust. This is what `timed:infer=50:model=FILE.onnx` and the
// live node's `player.inferenceModelFile` weigh worlds by, instead of the rule-based odds.
//
// Everything public about each play (the trick, the cards played, voids, points...) is the same in
// every world, so it is encoded once per decision, and its share of the network's first layer summed
// once (when the network can: MlpPolicyNet); a world only changes the hand and legal blocks.
// Walking the plays backwards from the world's hands rebuilds each seat's hand at each of its plays
// without replaying a game. A play the world leaves without a choice scores 1 and costs no forward pass.

import type { Card } from '../cards.js';
import { DECK_SIZE, suitOf } from '../cards.js';
import { Game } from '../game.js';
import type { PlayModel, WorldLikelihood } from '../search/inference.js';
import { checkTrust } from '../search/inference.js';
import { infoSetOf } from '../view.js';
import type { InfoSet } from '../view.js';
import { DECISION_FEATURES, DECISION_LAYOUT, encodeHandMasks, encodePublic, playSeats } from './encode.js';
import type { PolicyNet } from './mlp.js';

export class LearnedPlayLikelihood implements WorldLikelihood {
  /** Plays of the other seats: when none, every world weighs the same. */
  readonly count: number;
  /** A world costs a forward pass per play with a choice (up to about a millisecond late in a game): the clock is read every 4. */
  readonly checkEvery = 4;
  /** Per play of the game so far: the seat, the card, the suit led to its trick (-1 leading), its encoding's slot (-1: the observer's). */
  private readonly seat: Int8Array;
  private readonly card: Int8Array;
  private readonly led: Int8Array;
  private readonly slot: Int16Array;
  /** One encoding per play of the other seats, its public blocks written once (and a view of each, made once). */
  private readonly x: Float32Array;
  private readonly views: Float32Array[] = [];
  /** Each play's public share of the first layer (the network's publicPart), or none. */
  private readonly parts: Float32Array[] = [];
  private readonly p = new Float32Array(DECK_SIZE);
  /** Rank masks of each seat's hand, seat * 4 + suit, rebuilt per world. */
  private readonly hands = new Int32Array(16);
  private readonly handOf = [0, 1, 2, 3].map((s) => this.hands.subarray(s * 4, s * 4 + 4));

  constructor(
    info: InfoSet,
    private readonly trust: number,
    private readonly net: PolicyNet,
  ) {
    checkTrust(trust);
    const n = info.plays.length;
    this.seat = new Int8Array(n);
    this.card = new Int8Array(n);
    this.led = new Int8Array(n);
    this.slot = new Int16Array(n).fill(-1);
    const by = playSeats(info.dealer, info.trumpCard, info.plays);
    let count = 0;
    for (let i = 0; i < n; i++) if (by[i] !== info.seat) count++;
    this.count = count;
    this.x = new Float32Array(count * DECISION_FEATURES);
    const open = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
    let k = 0;
    for (let i = 0; i < n; i++) {
      const s = by[i]!;
      const c = info.plays[i]!;
      this.seat[i] = s;
      this.card[i] = c;
      this.led[i] = open.cardsInTrick ? open.ledSuit : -1;
      if (s !== info.seat) {
        this.slot[i] = k;
        encodePublic(infoSetOf(open, s, []), s, this.x, k * DECISION_FEATURES, by);
        this.views.push(this.x.subarray(k * DECISION_FEATURES, (k + 1) * DECISION_FEATURES));
        if (net.publicPart && net.publicPartSize) {
          const part = new Float32Array(net.publicPartSize);
          net.publicPart(this.x, k * DECISION_FEATURES, part);
          this.parts.push(part);
        }
        k++;
      }
      open.play(c);
    }
  }

  weight(hands: readonly (readonly Card[])[]): number {
    const h = this.hands;
    h.fill(0);
    for (let s = 0; s < 4; s++) for (const c of hands[s]!) h[s * 4 + suitOf(c)]! |= 1 << (c % 10);
    const trust = this.trust;
    let w = 1;
    // Backwards: before play i its seat held what it holds after, plus the card.
    for (let i = this.card.length - 1; i >= 0; i--) {
      const s = this.seat[i]!;
      const c = this.card[i]!;
      h[s * 4 + ((c / 10) | 0)]! |= 1 << (c % 10);
      const k = this.slot[i]!;
      if (k < 0) continue;
      const o = k * DECISION_FEATURES;
      const legal = encodeHandMasks(this.handOf[s]!, this.led[i]!, this.x, o);
      if (legal <= 1) continue; // no choice: probability 1 under any model
      // A card the world's hand could not have played legally: only the uniform share explains it.
      if (!this.x[o + DECISION_LAYOUT.legal + c]) {
        w *= (1 - trust) / legal;
        continue;
      }
      if (this.parts.length) this.net.forwardWithPublic!(this.parts[k]!, this.x, o, this.p);
      else this.net.forward(this.views[k]!, 1, this.p);
      w *= trust * this.p[c]! + (1 - trust) / legal;
    }
    return w;
  }
}

/** The inference's model of play for a policy network (`model=FILE.onnx`). */
export function learnedInferenceModel(net: PolicyNet): PlayModel {
  return { name: net.name, likelihood: (info, trust) => new LearnedPlayLikelihood(info, trust, net) };
}

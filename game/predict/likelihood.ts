// Worlds weighed by a model of play other than the rule-based odds: the likelihood of the other seats'
// plays so far had they held a world's hands, each play scored by a SeatPolicy (policy.ts) mixed with a
// uniformly random legal card at the inference's trust. This is what `timed:infer=50:model=expert`
// uses instead of search/inference.ts's rule-based PlayLikelihood. Dearer than the rule odds (the
// world's game is replayed from the deal and each play scored by the model, tens of microseconds a
// world), so within a budget it weighs fewer candidates: the measurement says whether that pays.

import type { Card, Suit } from '../cards.js';
import { Game } from '../game.js';
import type { InfoSet } from '../view.js';
import type { PlayModel, WorldLikelihood } from '../search/inference.js';
import { checkTrust } from '../search/inference.js';
import type { Seat } from '../seats.js';
import { FITTED } from './fitted.js';
import type { SeatPolicy, SeatWorld } from './policy.js';
import { ExpertSoftmaxPolicy } from './policy.js';

/** A world's position for the seat to move in `game` (hands known), for a SeatPolicy. */
export class GameSeatWorld implements SeatWorld {
  seat: Seat = 0;
  trump: Suit = 0;
  readonly hand = new Int32Array(4);
  readonly played = new Int32Array(4);
  led = -1;
  winning = -1;
  private g: Game | null = null;

  /** Points this world at the seat to move in `g`. */
  at(g: Game): this {
    const seat = g.toMove;
    this.g = g;
    this.seat = seat;
    this.trump = g.trump;
    for (let s = 0; s < 4; s++) {
      this.hand[s] = g.handMask(seat, s as Suit);
      this.played[s] = g.playedMask(s as Suit);
    }
    this.led = g.cardsInTrick ? g.ledSuit : -1;
    this.winning = g.cardsInTrick ? g.winningCard : -1;
    return this;
  }

  game(): Game {
    return this.g!;
  }
}

/** The likelihood of the other seats' plays under `policy`, each mixed with uniform at `trust`. */
export class PolicyPlayLikelihood implements WorldLikelihood {
  readonly count: number;
  private readonly playedBy: Card[][] = [[], [], [], []];
  private readonly probs = new Float64Array(40);
  private readonly world = new GameSeatWorld();

  constructor(
    private readonly info: InfoSet,
    private readonly trust: number,
    private readonly policy: SeatPolicy,
  ) {
    checkTrust(trust);
    const open = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
    let count = 0;
    for (const c of info.plays) {
      if (open.toMove !== info.seat) count++;
      this.playedBy[open.toMove]!.push(c);
      open.play(c);
    }
    this.count = count;
  }

  weight(hands: readonly (readonly Card[])[]): number {
    const info = this.info;
    const g = new Game({
      dealer: info.dealer,
      trumpCard: info.trumpCard,
      hands: hands.map((h, s) => [...h, ...this.playedBy[s]!]),
    });
    const trust = this.trust;
    let w = 1;
    for (const c of info.plays) {
      if (g.toMove !== info.seat) {
        const n = this.policy.probabilities(this.world.at(g), this.probs);
        w *= trust * this.probs[c]! + (1 - trust) / n;
      }
      g.play(c);
    }
    return w;
  }
}

/** The models `infer=` can weigh worlds by, by name (`rule` is search/inference.ts's own, the default). */
export const INFERENCE_MODELS = ['rule', 'expert'] as const;
export type InferenceModelName = (typeof INFERENCE_MODELS)[number];

/** The play model for `model=NAME`, or undefined for `rule` (the search's built-in, fastest odds). */
export function inferenceModel(name: InferenceModelName): PlayModel | undefined {
  if (name === 'rule') return undefined;
  // The softmax unmixed: the inference's trust does the mixing with uniform.
  const policy = new ExpertSoftmaxPolicy(FITTED.inferenceExpertTemperature, 1);
  return { name, likelihood: (info, trust) => new PolicyPlayLikelihood(info, trust, policy) };
}

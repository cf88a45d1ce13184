// Inference from the other seats' plays. Uniform worlds treat every deal consistent with the voids as
// equally likely, but people's plays say more than their voids: a player who followed low to a suit
// whose ace was still out probably does not hold the ace. A world is weighted by how likely the other
// seats' plays were had they held its hands, under a model of how people play: the rule-based player
// (which stands for a casual player in the paper) mixed with a uniformly random legal card,
//   P(card | hand) = trust * P_rule(card | hand) + (1 - trust) / legal cards.
// The uniform share keeps every consistent world possible, so a player who does not play by the rules
// (a person, or a searching partner) only makes the weights flatter, never wrong-footed to zero.
//
// The search draws candidate worlds uniformly (the sampler), weighs them, and resamples in proportion
// to the weights (sampling-importance-resampling), so its solving time goes to the likely worlds.

import type { Card, Suit } from '../cards.js';
import { MASK_COUNT } from '../cards.js';
import { Game } from '../game.js';
import type { DealSampler } from '../sampler.js';
import type { Rng } from '../rng.js';
import { ruleProbability } from '../players/rule-odds.js';
import type { InfoSet } from '../view.js';

export interface InferenceSettings {
  /** How far the other seats are believed to play like the model (the rule-based player unless `model` says), 0..1 (0: no inference). */
  trust: number;
  /** Candidate worlds drawn and weighed per decision (default 2048). */
  candidates?: number;
  /** Another model of how the other seats play (game/predict/likelihood.ts); absent: the rule-based player's odds. */
  model?: PlayModel;
}

/** The likelihood of the other seats' plays in a world of an information set. */
export interface WorldLikelihood {
  /** Plays of the other seats: when none, every world weighs the same. */
  readonly count: number;
  /** The likelihood of those plays if the seats now hold `hands`. */
  weight(hands: readonly (readonly Card[])[]): number;
  /** Candidates between two looks at the clock (default 64, for a likelihood of a few microseconds a world). */
  readonly checkEvery?: number;
}

/** A model of play the inference can weigh worlds by, named for the command line (`model=expert`). */
export interface PlayModel {
  readonly name: string;
  likelihood(info: InfoSet, trust: number): WorldLikelihood;
}

export const DEFAULT_CANDIDATES = 2048;

/** Throws a RangeError unless `trust` is from 0 to 1. */
export function checkTrust(trust: number): void {
  if (!(trust >= 0 && trust <= 1))
    throw new RangeError(
      `trust must be from 0 to 1 (how far the other seats are believed to play like the rule-based player), got ${trust}`,
    );
}

/**
 * The likelihood of the other seats' plays so far, for any world consistent with a seat's
 * information set. Built once per decision; `weight` allocates nothing.
 */
export class PlayLikelihood implements WorldLikelihood {
  /** Per play of the game so far: the seat, the card, the led suit (-1 leading), the winning card. */
  private readonly seat: Int8Array;
  private readonly card: Int8Array;
  private readonly led: Int8Array;
  private readonly winning: Int8Array;
  /** The suit masks of all cards played before each play (four per play). */
  private readonly playedBefore: Int32Array;
  private readonly hands = new Int32Array(16);
  private readonly trump: number;
  private readonly observer: number;
  /** Plays of the other seats: when none, every world weighs the same. */
  readonly count: number;

  constructor(
    info: InfoSet,
    private readonly trust: number,
  ) {
    checkTrust(trust);
    const n = info.plays.length;
    this.trump = info.trump;
    this.observer = info.seat;
    this.seat = new Int8Array(n);
    this.card = new Int8Array(n);
    this.led = new Int8Array(n);
    this.winning = new Int8Array(n);
    this.playedBefore = new Int32Array(n * 4);
    // Replay the public plays (hands unknown) through the engine: who played each card, to which led
    // suit, against which winning card, after which cards.
    const open = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
    let count = 0;
    for (let i = 0; i < n; i++) {
      const c = info.plays[i]!;
      this.seat[i] = open.toMove;
      this.card[i] = c;
      this.led[i] = open.ledSuit;
      this.winning[i] = open.winningCard;
      for (let k = 0; k < 4; k++) this.playedBefore[i * 4 + k] = open.playedMask(k as Suit);
      if (open.toMove !== info.seat) count++;
      open.play(c);
    }
    this.count = count;
  }

  /** The likelihood of the other seats' plays if they now hold `hands` (a world of the information set). */
  weight(hands: readonly (readonly Card[])[]): number {
    const h = this.hands;
    h.fill(0);
    for (let s = 0; s < 4; s++) {
      if (s === this.observer) continue;
      for (const c of hands[s]!) h[s * 4 + ((c / 10) | 0)]! |= 1 << (c % 10);
    }
    const trust = this.trust;
    let w = 1;
    // Backwards: each card goes back into its player's hand before that play is scored.
    for (let i = this.seat.length - 1; i >= 0; i--) {
      const seat = this.seat[i]!;
      if (seat === this.observer) continue;
      const c = this.card[i]!;
      const o = seat * 4;
      h[o + ((c / 10) | 0)]! |= 1 << (c % 10);
      const led = this.led[i]!;
      const legal =
        led >= 0 && h[o + led] !== 0
          ? MASK_COUNT[h[o + led]!]!
          : MASK_COUNT[h[o]!]! + MASK_COUNT[h[o + 1]!]! + MASK_COUNT[h[o + 2]!]! + MASK_COUNT[h[o + 3]!]!;
      const pRule =
        trust > 0 ? ruleProbability(h, o, this.playedBefore, i * 4, this.trump, led, this.winning[i]!, c) : 0;
      w *= trust * pRule + (1 - trust) / legal;
    }
    return w;
  }
}

/**
 * Worlds drawn in proportion to their likelihood: `candidates` uniform worlds are drawn and weighed
 * once, then each `next` picks one of them with probability weight / total (with replacement, so a
 * likely world may come again: `index` tells, and a caller may reuse what it computed for it).
 */
export class WeightedWorlds {
  private readonly worlds: Card[][][] = [];
  private readonly cumulative: Float64Array;
  /** The candidate picked by the last `next`. */
  index = -1;
  /** Candidates drawn and weighed (fewer than asked when `enough` stopped the drawing). */
  readonly count: number;
  /** Effective number of distinct candidates: (sum w)^2 / sum w^2. */
  readonly effective: number;
  /** True when not one candidate fitted the model (possible only with full trust) and all weigh the same. */
  readonly uniform: boolean;

  /**
   * Draws and weighs up to `candidates` worlds. `enough`, asked every `likelihood.checkEvery` (64)
   * candidates, may stop the drawing early (a search with a deadline must keep most of its budget for solving).
   */
  constructor(sampler: DealSampler, likelihood: WorldLikelihood, rng: Rng, candidates: number, enough?: () => boolean) {
    this.cumulative = new Float64Array(candidates);
    let total = 0;
    let squares = 0;
    let n = 0;
    const every = likelihood.checkEvery ?? 64;
    while (n < candidates) {
      if (n % every === 0 && n > 0 && enough?.()) break;
      const hands = sampler.sample(rng, [[], [], [], []]);
      const w = likelihood.weight(hands);
      this.worlds.push(hands);
      total += w;
      squares += w * w;
      this.cumulative[n++] = total;
    }
    this.count = n;
    this.uniform = !(total > 0);
    if (this.uniform) {
      // Not one candidate fits the model (only with full trust): fall back to uniform weights.
      for (let i = 0; i < n; i++) this.cumulative[i] = i + 1;
      total = n;
      squares = n;
    }
    this.effective = (total * total) / squares;
  }

  /** A world, drawn in proportion to its weight; copies it into `out`. */
  next(rng: Rng, out: Card[][]): Card[][] {
    const cum = this.cumulative;
    const u = rng.next() * cum[this.count - 1]!;
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    this.index = lo;
    const w = this.worlds[lo]!;
    for (let s = 0; s < 4; s++) {
      const src = w[s]!;
      const dst = out[s]!;
      dst.length = src.length;
      for (let k = 0; k < src.length; k++) dst[k] = src[k]!;
    }
    return out;
  }
}

/**
 * The weighed worlds of an information set, or null when they would all weigh the same (no trust, or
 * no other seat has played yet: then the plain sampler serves). With a clock and a deadline, drawing
 * the candidates takes at most a tenth of the time left, so a search keeps most of it for solving.
 */
export function weighedWorlds(
  info: InfoSet,
  sampler: DealSampler,
  rng: Rng,
  inference: InferenceSettings | undefined,
  clock?: () => number,
  deadline?: number,
): WeightedWorlds | null {
  if (!inference || inference.trust <= 0) return null;
  const likelihood = inference.model
    ? inference.model.likelihood(info, inference.trust)
    : new PlayLikelihood(info, inference.trust);
  if (likelihood.count === 0) return null;
  const until = clock && deadline !== undefined ? clock() + (deadline - clock()) / 10 : Infinity;
  return new WeightedWorlds(
    sampler,
    likelihood,
    rng,
    inference.candidates ?? DEFAULT_CANDIDATES,
    clock ? () => clock() > until : undefined,
  );
}

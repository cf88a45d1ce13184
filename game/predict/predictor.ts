// Predicting the next card of another seat from the observer's information set (the robot's: its
// own hand, the public plays, the voids shown), never from that seat's true hand.
//
//   P(card | observer's info) = sum over the seat's possible hands h of P(h | info) P_model(card | h, public)
//
// The hands come from worlds of the observer's information set: `candidates` uniform deals
// (game/sampler.ts), weighed by how likely the other seats' plays so far were in each under the rule
// model at `trust` (search/inference.ts, the robot's own reading of the table). Worlds in which the
// seat holds the same hand are one term (the models read only the seat's hand and the public game);
// when there are more distinct hands than `worlds`, `worlds` of them are drawn in proportion to their
// weights. The model's answer is finally mixed with a uniform choice among the cards the seat might
// play as far as the observer knows (possible.ts) at `floor`, so no possible card gets probability 0
// and a log-likelihood stays finite. Every random choice comes from a stream seeded by the seed, the
// number of plays and the two seats: the same situation is always predicted the same way, whatever
// was asked before.

import type { Card, Suit } from '../cards.js';
import { suitOf } from '../cards.js';
import { createRng } from '../rng.js';
import type { Rng } from '../rng.js';
import { createDealSampler } from '../sampler.js';
import { PlayLikelihood, checkTrust } from '../search/inference.js';
import { WorldBuilder } from '../search/world.js';
import type { Game } from '../game.js';
import type { Seat } from '../seats.js';
import type { InfoSet } from '../view.js';
import { FITTED } from './fitted.js';
import type { SeatPolicy, SeatWorld, Tom1Settings } from './policy.js';
import { ExpertSoftmaxPolicy, RulePolicy, Tom1Policy, handKey } from './policy.js';
import { possiblePlays, seatToMove } from './possible.js';
import { LearnedPolicy } from '../learned/policy.js';
import type { PolicyNet } from '../learned/mlp.js';
import { DECISION_FEATURES } from '../learned/encode.js';
import { DECK_SIZE } from '../cards.js';

/**
 * `uniform`: any card the seat might play, alike (the baseline). `legal`: a random legal card in each
 * of the observer's worlds (what reading the hands alone is worth, with no model of choice). `rule`,
 * `expert`, `tom1`: the models of policy.ts. `learned`: a policy network (game/learned; `net` option).
 */
export const PREDICTOR_KINDS = ['uniform', 'legal', 'rule', 'expert', 'tom1', 'learned'] as const;
export type PredictorKind = (typeof PREDICTOR_KINDS)[number];

/** What a prediction says: each card the seat might play, with its probability. */
export interface Prediction {
  seat: Seat;
  /** The cards the seat might play as far as the observer knows, in card order. */
  cards: Card[];
  /** Their probabilities, in the same order: each above 0, summing to 1. */
  probabilities: number[];
  /** Distinct hands of the seat the model was asked about (0 for uniform). */
  hands: number;
  /** True when no deal fits the observer's information set (an unseen renounce): the prediction is uniform. */
  inconsistent: boolean;
}

export interface Predictor {
  readonly kind: PredictorKind;
  /** The probability of each card `seat` (to move, not the observer) may play next, from `info` alone. */
  predict(info: InfoSet, seat: Seat): Prediction;
  /**
   * The same in two steps when a policy network runs elsewhere (onnxruntime, asynchronously): the
   * `learned` kind gives the decisions to run the network on and finishes with its output; every
   * other kind gives the prediction at once.
   */
  begin(info: InfoSet, seat: Seat): PendingPrediction;
}

/** A prediction made at once (`done`), or waiting for a policy network's probabilities of `batch` encoded decisions. */
export type PendingPrediction =
  | { done: Prediction }
  | {
      /** `batch` decisions of DECISION_FEATURES floats (game/learned/encode.ts). */
      features: Float32Array;
      batch: number;
      /** The prediction, from the network's probabilities of the 40 cards for each decision (40 floats each, in order). */
      finish(probs: Float32Array): Prediction;
    };

/** The tom1 model's defaults: small enough for a live robot (a few ms a prediction, docs/theory-of-mind.md). */
export const DEFAULT_TOM1: Omit<Tom1Settings, 'seed'> = {
  temperature: FITTED.tom1Temperature,
  expertTemperature: FITTED.tom1ExpertTemperature,
  mix: FITTED.tom1Mix,
  worlds: 2,
  candidates: 16,
  trust: 0.5,
  horizon: 9,
};

interface PredictorOptions {
  kind: PredictorKind;
  seed: number;
  /** Uniform worlds of the observer's drawn and weighed (default 256). */
  candidates?: number;
  /** Distinct hands of the seat the model is asked about at most (default: rule 256, expert 64, tom1 16). */
  worlds?: number;
  /** How far the observer reads the others' past plays as the rule-based player's, 0..1 (default 0.5, the robot's). */
  trust?: number;
  /** Share of a uniform choice among the possible cards mixed into the answer (default 0.02). */
  floor?: number;
  /** Model parameters (default the fitted ones). */
  ruleMix?: number;
  expertTemperature?: number;
  expertMix?: number;
  tom1?: Partial<Omit<Tom1Settings, 'seed'>>;
  /** learned: the policy network (required), and its share against a random legal card (default 1). */
  net?: PolicyNet;
  learnedMix?: number;
}

const DEFAULT_WORLDS: Record<PredictorKind, number> = {
  uniform: 0,
  legal: 256,
  rule: 256,
  expert: 64,
  tom1: 16,
  learned: 64,
};

/** The probability `prediction` gives `card` (0 for a card it says the seat cannot play). */
export function probabilityOf(prediction: Prediction, card: Card): number {
  const i = prediction.cards.indexOf(card);
  return i < 0 ? 0 : prediction.probabilities[i]!;
}

export function createPredictor(options: PredictorOptions): Predictor {
  return new WorldPredictor(options);
}

/** The public game of an information set as a seat's model reads it, with one world's hand filled in. */
class InfoSeatWorld implements SeatWorld {
  readonly hand = new Int32Array(4);
  readonly played = new Int32Array(4);
  readonly led: number;
  readonly winning: number;
  readonly trump: Suit;
  hands: Card[][] = [];
  private built: Game | null = null;
  private builder: WorldBuilder | null = null;

  constructor(
    private readonly info: InfoSet,
    readonly seat: Seat,
  ) {
    this.trump = info.trump;
    for (const c of info.plays) this.played[suitOf(c)]! |= 1 << (c % 10);
    const t = info.table;
    this.led = t.length ? suitOf(t[0]!) : -1;
    let best = t.length ? t[0]! : -1;
    for (let i = 1; i < t.length; i++) {
      const c = t[i]!;
      const same = suitOf(c) === suitOf(best as Card);
      if ((same && c % 10 > best % 10) || (!same && suitOf(c) === info.trump)) best = c;
    }
    this.winning = best;
  }

  /** Points this world at `hands` (all four seats' current hands). */
  set(hands: Card[][]): this {
    this.hands = hands;
    this.built = null;
    this.hand.fill(0);
    for (const c of hands[this.seat]!) this.hand[suitOf(c)]! |= 1 << (c % 10);
    return this;
  }

  game(): Game {
    if (!this.built) {
      this.builder ??= new WorldBuilder(this.info);
      this.built = this.builder.game(this.hands);
    }
    return this.built;
  }
}

class WorldPredictor implements Predictor {
  readonly kind: PredictorKind;
  private readonly policy: SeatPolicy | null;
  /** tom1: the expert softmax, whose marginal over `baseWorlds` hands tom1 corrects (see predict). */
  private readonly control: SeatPolicy | null;
  private readonly baseWorlds: number;
  private readonly candidates: number;
  private readonly worlds: number;
  private readonly trust: number;
  private readonly floor: number;
  private readonly probs = new Float64Array(40);
  private readonly acc = new Float64Array(40);

  constructor(private readonly o: PredictorOptions) {
    this.kind = o.kind;
    if (!PREDICTOR_KINDS.includes(o.kind))
      throw new RangeError(`unknown predictor '${String(o.kind)}' (known: ${PREDICTOR_KINDS.join(', ')})`);
    this.candidates = o.candidates ?? 256;
    this.worlds = o.worlds ?? DEFAULT_WORLDS[o.kind];
    this.trust = o.trust ?? 0.5;
    this.floor = o.floor ?? 0.02;
    checkTrust(this.trust);
    if (!(this.floor > 0 && this.floor <= 1))
      throw new RangeError(
        `floor must be above 0 and at most 1 (the uniform share that keeps every possible card likely), got ${this.floor}`,
      );
    if (!(Number.isInteger(this.candidates) && this.candidates >= 1))
      throw new RangeError(`candidates must be a whole number from 1, got ${this.candidates}`);
    this.policy =
      o.kind === 'legal'
        ? new RulePolicy(0)
        : o.kind === 'rule'
          ? new RulePolicy(o.ruleMix ?? FITTED.ruleMix)
          : o.kind === 'expert'
            ? new ExpertSoftmaxPolicy(o.expertTemperature ?? FITTED.expertTemperature, o.expertMix ?? FITTED.expertMix)
            : o.kind === 'tom1'
              ? new Tom1Policy({ ...DEFAULT_TOM1, ...o.tom1, seed: o.seed })
              : o.kind === 'learned'
                ? new LearnedPolicy(learnedNet(o.net), o.learnedMix ?? 1)
                : null;
    this.control =
      o.kind === 'tom1'
        ? new ExpertSoftmaxPolicy(o.expertTemperature ?? FITTED.expertTemperature, o.expertMix ?? FITTED.expertMix)
        : null;
    this.baseWorlds = DEFAULT_WORLDS.expert;
  }

  predict(info: InfoSet, seat: Seat): Prediction {
    const b = this.begin(info, seat, false);
    if ('done' in b) return b.done;
    throw new Error('unreachable: a prediction without a batch is computed at once');
  }

  /**
   * The same prediction in two steps for a policy network run elsewhere (onnxruntime, asynchronous):
   * for the `learned` kind, the encoded decisions of the seat's hands to ask the network about, and
   * `finish` with the network's probabilities; for every other kind (and the cases it needs no
   * model for), the prediction at once. `finish` gives exactly what predict() gives when the network
   * answers the same.
   */
  begin(info: InfoSet, seat: Seat, batched = true): PendingPrediction {
    if (seat === info.seat) throw new RangeError(`seat ${seat} is the observer: a predictor predicts the other seats`);
    const toMove = seatToMove(info);
    if (seat !== toMove) throw new RangeError(`seat ${seat} is not to move (seat ${toMove} is)`);
    const cards = possiblePlays(info, seat);
    const uniform = (inconsistent: boolean): PendingPrediction => ({
      done: { seat, cards, probabilities: cards.map(() => 1 / cards.length), hands: 0, inconsistent },
    });
    if (!cards.length) return uniform(true); // it must play, yet no card fits: the view is inconsistent
    if (!this.policy || cards.length === 1) return uniform(false);
    const sampler = createDealSampler(info);
    if (sampler.count === 0) return uniform(true);

    // Candidates, weighed by the others' plays, grouped by the seat's hand.
    const rng = createRng(this.o.seed, info.plays.length, seat, info.seat);
    const likelihood = this.trust > 0 ? new PlayLikelihood(info, this.trust) : null;
    const weighing = likelihood !== null && likelihood.count > 0;
    const groups = new Map<number, { hands: Card[][]; weight: number }>();
    let total = 0;
    for (let i = 0; i < this.candidates; i++) {
      const hands = sampler.sample(rng, [[], [], [], []]);
      const w = weighing ? likelihood.weight(hands) : 1;
      if (!(w > 0)) continue;
      total += w;
      const key = handKey(hands[seat]!);
      const g = groups.get(key);
      if (g) g.weight += w;
      else groups.set(key, { hands, weight: w });
    }
    if (!(total > 0)) return uniform(false); // not reached while trust < 1: every world has weight
    const all = [...groups.values()];
    const world = new InfoSeatWorld(info, seat);
    if (this.policy instanceof LearnedPolicy) this.policy.prepare(info, seat);
    if (this.control) {
      // tom1: its rollouts are dear, so it is asked about few of the seat's hands, and a marginal over
      // few hands is noisy. The expert softmax (the same expert term tom1 starts from) is cheap: its
      // marginal over many hands, plus tom1's difference from it on the same few hands, estimates
      // tom1's marginal with the hand-sampling noise mostly cancelled (a control variate).
      const many = this.draw(all, this.baseWorlds, rng);
      const few = this.draw(all, this.worlds, rng);
      const acc = this.marginal(this.control, many, world).slice();
      const tom = this.marginal(this.policy, few, world).slice();
      const ctl = this.marginal(this.control, few, world);
      let z = 0;
      for (let c = 0; c < 40; c++) {
        const v = acc[c]! + tom[c]! - ctl[c]!;
        acc[c] = v > 0 ? v : 0;
        z += acc[c]!;
      }
      for (let c = 0; c < 40; c++) acc[c]! /= z;
      return { done: this.answer(seat, cards, acc, few.length) };
    }
    const terms = this.draw(all, this.worlds, rng);
    const policy = this.policy;
    if (!batched || !(policy instanceof LearnedPolicy))
      return { done: this.answer(seat, cards, this.marginal(policy, terms, world), terms.length) };
    // The network's inputs, one decision per term; the answer once it has run.
    const features = new Float32Array(terms.length * DECISION_FEATURES);
    const legal = terms.map((t, i) => policy.encodeWorld(world.set(t.hands), features, i * DECISION_FEATURES));
    return {
      features,
      batch: terms.length,
      finish: (probs: Float32Array): Prediction => {
        if (probs.length < terms.length * DECK_SIZE)
          throw new RangeError(
            `the network gave ${probs.length} probabilities for ${terms.length} decisions of ${DECK_SIZE} cards`,
          );
        const acc = this.acc;
        acc.fill(0);
        let sum = 0;
        terms.forEach((t, i) => {
          const p = this.probs;
          p.fill(0);
          policy.fromOutput(features, i * DECISION_FEATURES, legal[i]!, probs, i * DECK_SIZE, p);
          for (let c = 0; c < 40; c++) if (p[c]) acc[c]! += t.weight * p[c]!;
          sum += t.weight;
        });
        for (let c = 0; c < 40; c++) acc[c]! /= sum;
        return this.answer(seat, cards, acc, terms.length);
      },
    };
  }

  /** The model's marginal mixed with a uniform choice among the possible cards at `floor`. */
  private answer(seat: Seat, cards: Card[], acc: Float64Array, asked: number): Prediction {
    const floor = this.floor;
    const n = cards.length;
    const probabilities = cards.map((c) => (1 - floor) * acc[c]! + floor / n);
    // The model's mass on a card outside the possible ones cannot happen (the worlds are consistent);
    // renormalize anyway, so the answer sums to 1 even then.
    const z = probabilities.reduce((a, b) => a + b, 0);
    return { seat, cards, probabilities: probabilities.map((p) => p / z), hands: asked, inconsistent: false };
  }

  /** The hands to ask the model about: all when few enough, else `n` drawn by weight (with replacement, repeats counted). */
  private draw(all: Term[], n: number, rng: Rng): Term[] {
    if (all.length <= n) return all;
    const cum: number[] = [];
    let s = 0;
    for (const t of all) cum.push((s += t.weight));
    const drawn = new Map<number, Term>();
    for (let k = 0; k < n; k++) {
      const u = rng.next() * s;
      let lo = 0;
      let hi = cum.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid]! > u) hi = mid;
        else lo = mid + 1;
      }
      const d = drawn.get(lo);
      if (d) d.weight += 1;
      else drawn.set(lo, { hands: all[lo]!.hands, weight: 1 });
    }
    return [...drawn.values()];
  }

  /** The weighted mean of `policy`'s probabilities over `terms`, by card (sums to 1 over the cards played in some term). */
  private marginal(policy: SeatPolicy, terms: readonly Term[], world: InfoSeatWorld): Float64Array {
    const acc = this.acc;
    acc.fill(0);
    let sum = 0;
    for (const t of terms) {
      const probs = this.probs;
      probs.fill(0);
      policy.probabilities(world.set(t.hands), probs);
      for (let c = 0; c < 40; c++) if (probs[c]) acc[c]! += t.weight * probs[c]!;
      sum += t.weight;
    }
    for (let c = 0; c < 40; c++) acc[c]! /= sum;
    return acc;
  }
}

function learnedNet(net: PolicyNet | undefined): PolicyNet {
  if (!net) throw new RangeError('the learned predictor needs a policy network (net)');
  return net;
}

/** The seat's hand in some weighed worlds (one of them), and their weight. */
interface Term {
  hands: Card[][];
  weight: number;
}

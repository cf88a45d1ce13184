// Models of how one seat chooses its card when its hand is known (theory of mind of order 0 and 1):
// P(card | the seat's hand, the public game). The predictor (predictor.ts) asks them once per world
// of the observer's, so they are written to allocate little and to read integers and masks.
//
// - `rule`: the rule-based player's choice (players/rule-odds.ts), mixed with a uniformly random
//   legal card, as the search's inference does (search/inference.ts).
// - `expert`: a softmax over the expert player's card scores (players/expert.ts) at a fitted
//   temperature, mixed with uniform: a player who mostly plays what a good club player would.
// - `tom1`: the seat as a player who itself does not know the others' hands (the robot's among
//   them): it reads them from the public plays as a casual player would (its own worlds weighed by
//   the rule model of the others' plays), values each legal card by expert rollouts (to the end of
//   the game by default) in a few of those worlds, and picks by a softmax over the expert's scores
//   plus those mean values: the expert's judgement corrected by its own reading of the hands.
//   Order 1: "what it thinks the others hold, and so what it will do".

import type { Card, Suit } from '../cards.js';
import { MASK_COUNT } from '../cards.js';
import type { Game } from '../game.js';
import { ExpertPlayer } from '../players/expert.js';
import { ruleProbability } from '../players/rule-odds.js';
import { createRng, deriveSeed } from '../rng.js';
import { createDealSampler } from '../sampler.js';
import { PlayLikelihood, WeightedWorlds } from '../search/inference.js';
import { WorldBuilder } from '../search/world.js';
import type { Seat } from '../seats.js';
import { teamOf } from '../seats.js';
import { SeatView, infoSetOf } from '../view.js';

/** One world of the observer's: the hands everyone holds now, and the game reached in it. */
export interface SeatWorld {
  /** The seat to move, whose card is predicted. */
  readonly seat: Seat;
  readonly trump: Suit;
  /** The seat's hand as four rank masks (index = suit). */
  readonly hand: Int32Array;
  /** The four rank masks of every card played so far, the trick on the table included. */
  readonly played: Int32Array;
  /** The suit led to the trick, or -1 when the seat leads. */
  readonly led: number;
  /** The card winning the trick so far (-1 when leading). */
  readonly winning: number;
  /** The whole game in this world, built on first use (the rule model never needs it). */
  game(): Game;
}

/** A model of the seat to move: how likely it is to play each of its legal cards. */
export interface SeatPolicy {
  readonly kind: PolicyKind;
  /**
   * Writes the probability of each legal card of `world.seat` to `out[card]` (other entries are left
   * alone) and returns the number of legal cards. The probabilities of the legal cards sum to 1.
   */
  probabilities(world: SeatWorld, out: Float64Array): number;
}

type PolicyKind = 'rule' | 'expert' | 'tom1' | 'learned';

/** The legal cards of a seat holding `hand` (rank masks by suit), as a 4-bit mask of suits it may play. */
export function allowedSuits(hand: ArrayLike<number>, led: number): number {
  if (led >= 0 && hand[led] !== 0) return 1 << led;
  return (hand[0] ? 1 : 0) | (hand[1] ? 2 : 0) | (hand[2] ? 4 : 0) | (hand[3] ? 8 : 0);
}

function legalCount(hand: ArrayLike<number>, suits: number): number {
  let n = 0;
  for (let s = 0; s < 4; s++) if (suits & (1 << s)) n += MASK_COUNT[hand[s]!]!;
  return n;
}

/** Throws a RangeError unless `mix` is from 0 to 1. */
function checkMix(mix: number, what: string): void {
  if (!(mix >= 0 && mix <= 1))
    throw new RangeError(
      `${what}: mix must be from 0 to 1 (the share of the model against a uniformly random legal card), got ${mix}`,
    );
}

/** The rule-based player's odds, mixed with a uniformly random legal card: mix * P_rule + (1 - mix) / legal. */
export class RulePolicy implements SeatPolicy {
  readonly kind = 'rule';
  constructor(readonly mix: number) {
    checkMix(mix, 'rule policy');
  }

  probabilities(w: SeatWorld, out: Float64Array): number {
    const suits = allowedSuits(w.hand, w.led);
    const n = legalCount(w.hand, suits);
    const u = (1 - this.mix) / n;
    for (let s = 0; s < 4; s++) {
      if (!(suits & (1 << s))) continue;
      let m = w.hand[s]!;
      while (m) {
        const r = 31 - Math.clz32(m);
        m &= ~(1 << r);
        const c = s * 10 + r;
        out[c] = this.mix * ruleProbability(w.hand, 0, w.played, 0, w.trump, w.led, w.winning, c) + u;
      }
    }
    return n;
  }
}

/**
 * Softmax of `values` at `temperature`, mixed with uniform: written over the same `values`.
 * The largest value is subtracted first, so large scores cannot overflow.
 */
function softmaxInPlace(values: Float64Array, n: number, temperature: number, mix: number): void {
  let max = -Infinity;
  for (let i = 0; i < n; i++) if (values[i]! > max) max = values[i]!;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp((values[i]! - max) / temperature);
    values[i] = e;
    sum += e;
  }
  const u = (1 - mix) / n;
  for (let i = 0; i < n; i++) values[i] = (mix * values[i]!) / sum + u;
}

/** A softmax over the expert player's scores, at `temperature` (score points), mixed with uniform. */
export class ExpertSoftmaxPolicy implements SeatPolicy {
  readonly kind = 'expert';
  private readonly experts: ExpertPlayer[];
  private readonly cards: Card[] = [];
  private readonly scores = new Float64Array(10);

  constructor(
    readonly temperature: number,
    readonly mix: number,
  ) {
    checkMix(mix, 'expert policy');
    if (!(temperature > 0)) throw new RangeError(`expert policy: temperature must be above 0, got ${temperature}`);
    // Scores use no randomness: the seeds only satisfy the constructor.
    this.experts = [0, 1, 2, 3].map((s) => new ExpertPlayer({ seat: s as Seat, seed: s }));
  }

  /** The expert's scores for the seat to move in `game`: cards to `cards`, scores to `scores`. */
  scoresIn(game: Game, seat: Seat, cards: Card[], scores: Float64Array): number {
    return this.experts[seat]!.scores(new SeatView(game, seat), cards, scores);
  }

  probabilities(w: SeatWorld, out: Float64Array): number {
    const n = this.scoresIn(w.game(), w.seat, this.cards, this.scores);
    softmaxInPlace(this.scores, n, this.temperature, this.mix);
    for (let i = 0; i < n; i++) out[this.cards[i]!] = this.scores[i]!;
    return n;
  }
}

export interface Tom1Settings {
  /** Softmax temperature over the cards' mean rollout values (points). */
  temperature: number;
  /**
   * Temperature of the expert's own scores added to the exponent (Infinity: the rollouts alone). The
   * seat's policy is then softmax(score / expertTemperature + value / temperature): the expert's
   * judgement, corrected by what the seat's reading of the others' hands says each card is worth.
   */
  expertTemperature: number;
  /** Share of the softmax against a uniformly random legal card. */
  mix: number;
  /** Worlds of its own the seat values its cards in. */
  worlds: number;
  /** Candidate worlds it draws and weighs by the others' plays before picking `worlds` of them. */
  candidates: number;
  /** How far it believes the others (the robot included) play like the rule-based player, 0..1. */
  trust: number;
  /** Tricks rolled out after the current one before a card's value is read (0: to the end of this trick). */
  horizon: number;
  seed: number;
}

/**
 * The seat as a player with a theory of the others' hands: it draws worlds from its own information
 * set in the observer's world (its hand, the public plays), weighs them by how likely the others'
 * plays were under the rule model, and values each legal card by the points its team takes from now
 * to the horizon when the expert plays every seat out. P(card) = softmax(mean value / T).
 */
export class Tom1Policy implements SeatPolicy {
  readonly kind = 'tom1';
  private readonly cards: Card[] = [];
  private readonly values = new Float64Array(10);
  private readonly inner: Card[][] = [[], [], [], []];
  private readonly expert = new ExpertSoftmaxPolicy(1, 1);
  private readonly expertCards: Card[] = [];
  private readonly scores = new Float64Array(10);

  constructor(readonly settings: Tom1Settings) {
    checkMix(settings.mix, 'tom1 policy');
    if (!(settings.temperature > 0))
      throw new RangeError(`tom1 policy: temperature must be above 0, got ${settings.temperature}`);
    if (!(settings.expertTemperature > 0))
      throw new RangeError(
        `tom1 policy: expertTemperature must be above 0 (Infinity: no expert term), got ${settings.expertTemperature}`,
      );
    if (!(settings.worlds >= 1 && settings.candidates >= 1))
      throw new RangeError('tom1 policy: worlds and candidates must be at least 1');
  }

  probabilities(w: SeatWorld, out: Float64Array): number {
    const game = w.game();
    const n = this.cardValues(game, w.seat, this.cards, this.values);
    const { temperature, expertTemperature } = this.settings;
    // Both terms in one exponent, in units of the rollout temperature (softmaxInPlace divides by it).
    if (Number.isFinite(expertTemperature)) {
      this.expert.scoresIn(game, w.seat, this.expertCards, this.scores);
      for (let i = 0; i < n; i++)
        this.values[i]! += (this.scores[this.expertCards.indexOf(this.cards[i]!)]! * temperature) / expertTemperature;
    }
    softmaxInPlace(this.values, n, temperature, this.settings.mix);
    for (let i = 0; i < n; i++) out[this.cards[i]!] = this.values[i]!;
    return n;
  }

  /**
   * The seat's mean value of each legal card (points its team takes up to the horizon) over worlds of
   * its own information set in `game`. Deterministic: the rng is seeded from the seat's hand and the
   * plays, so the same situation is always valued the same way.
   */
  cardValues(game: Game, seat: Seat, cards: Card[], values: Float64Array): number {
    const o = this.settings;
    const view = new SeatView(game, seat);
    const n = view.legalMoves(cards as Card[]);
    cards.length = n;
    values.fill(0, 0, n);
    if (n === 1) return n;
    const hand = view.hand();
    const info = infoSetOf(game, seat, hand);
    const situation = deriveSeed(o.seed, handKey(hand) % 0x7fffffff, info.plays.length, seat);
    const rng = createRng(situation);
    // Rollout players made here, not kept: their tie-breaking rng then depends on the situation only.
    const experts = [0, 1, 2, 3].map((s) => new ExpertPlayer({ seat: s as Seat, seed: deriveSeed(situation, s) }));
    const sampler = createDealSampler(info);
    if (sampler.count === 0) return n; // a seat whose own view is inconsistent values its cards alike
    const likelihood = o.trust > 0 ? new PlayLikelihood(info, o.trust) : null;
    const weighted =
      likelihood && likelihood.count > 0 ? new WeightedWorlds(sampler, likelihood, rng, o.candidates) : null;
    const builder = new WorldBuilder(info);
    const team = teamOf(seat);
    const until = Math.min(10, game.trick + 1 + o.horizon);
    const base = game.points(team);
    for (let k = 0; k < o.worlds; k++) {
      if (weighted) weighted.next(rng, this.inner);
      else sampler.sample(rng, this.inner);
      const g0 = builder.game(this.inner);
      for (let i = 0; i < n; i++) {
        const g = g0.clone();
        g.play(cards[i]!);
        while (!g.isOver && g.trick < until) {
          const s = g.toMove;
          g.play(experts[s]!.choose(new SeatView(g, s)));
        }
        values[i]! += g.points(team) - base;
      }
    }
    for (let i = 0; i < n; i++) values[i]! /= o.worlds;
    return n;
  }
}

/** A number for a set of cards (bit c set for card c: exact in a double, 40 bits). */
export function handKey(cards: Iterable<Card>): number {
  let k = 0;
  for (const c of cards) k += 2 ** c;
  return k;
}

// Predicting the other seats' cards live: before each card of another seat, the robot's
// model of that seat (game/predict) gives each card it might play a probability, from the robot's own
// information set (its hand, the public plays, the voids shown; never the true hands). The prediction
// goes on the bus (`prediction`, phase `predicted`); when the card is down, the same prediction again
// with the card, the probability it had, its place among the cards and the surprise (phase `played`),
// and the surprise goes to the appraisal with the play.
//
// surprise = 1 - p(card) / p(the most likely card): 0 for the card the robot expected most (and for any
// card when it could not tell them apart), near 1 for a card it gave a small fraction of its
// favourite's chance. Relative to the favourite rather than a surprisal (-log p) because a surprisal
// grows with the number of cards a seat might play: a card of 1 in 8 alike is no surprise at all.
//
// Deterministic: the predictor's random choices come from the session's seed and the position
// (game/predict/predictor.ts), so a replay predicts exactly the same. The prediction runs on the
// reactions' queue just after the reaction to the event before the card, so it never delays a reaction;
// its cost (a fraction of a millisecond with the expert model) is counted in `stats`, never published.
//
// A learned model (`model: learned` with a model file, robot/learned/live-model.ts) runs in
// onnxruntime-node: the predictor draws the seat's hands and encodes them (synchronously), the network
// values them in one batch on onnxruntime's thread, and the prediction is finished and published when
// it answers. The task holds the reactions' queue meanwhile, so the card's own reaction (which needs the
// prediction for its surprise) still comes after it, live and in a replay alike; a replay also waits
// for the run before it moves its clock (robot/offline/replay/replay-clock.ts settle).

import { performance } from 'node:perf_hooks';
import type {
  Card,
  InfoSet,
  PendingPrediction,
  PolicyNet,
  Prediction,
  Predictor,
  PredictorKind,
  Seat,
} from '../../../game/index.js';
import { createPredictor, formatCard, probabilityOf } from '../../../game/index.js';
import type { Bus, PredictionMessage } from '../../bus/index.js';

export interface PredictionSettings {
  /** The model of the other seats (game/predict: uniform, legal, rule, expert, tom1). */
  model: PredictorKind;
  /** Cards shown on the bus, the most likely first. */
  top: number;
  /** learned: the model file (relative to the project root, or absolute), with its sidecar MODEL.json. */
  modelFile?: string;
}

/** A policy network for the `learned` model: the batch run (onnxruntime) and the same weights for the predictor. */
export interface PredictionNetwork {
  net: PolicyNet;
  /** Probabilities of the 40 cards for `batch` encoded decisions, 40 each. */
  forward(x: Float32Array, batch: number): Promise<Float32Array>;
}

/** How unexpected `card` was under `prediction`: 1 - p(card) / max p, 0..1 (0 for a card it did not list: an inconsistent view). */
export function surpriseOf(prediction: Prediction, card: Card): number {
  const p = probabilityOf(prediction, card);
  const max = Math.max(...prediction.probabilities);
  if (!(p > 0) || !(max > 0)) return 0;
  return Math.min(1, Math.max(0, 1 - p / max));
}

interface Waiting {
  message: PredictionMessage;
  prediction: Prediction;
}

export class SeatPredictions {
  readonly #predictor: Predictor;
  readonly #waiting = new Map<Seat, Waiting>();
  /** Predictions made, their cost (ms, wall clock: never on the bus; runsMs: of which awaiting the network's runs), and cards judged. */
  readonly stats = {
    predictions: 0,
    totalMs: 0,
    maxMs: 0,
    costs: [] as number[],
    played: 0,
    failures: 0,
    runsMs: [] as number[],
  };

  constructor(
    private readonly o: {
      bus: Bus;
      seed: number;
      settings: PredictionSettings;
      network?: PredictionNetwork | null;
      warn: (detail: Record<string, unknown>, message: string) => void;
    },
  ) {
    if (o.settings.model === 'learned' && !o.network)
      throw new RangeError('the learned prediction model needs its network (a model file)');
    this.#predictor = createPredictor({
      kind: o.settings.model,
      seed: o.seed,
      ...(o.network ? { net: o.network.net } : {}),
    });
  }

  /**
   * `seat` is to play next in game `game` (1-based): predicts its card from the robot's `info`, and
   * publishes the prediction; a promise when a network runs in onnxruntime (resolved once published).
   */
  predict(info: InfoSet, seat: Seat, game: number): void | Promise<void> {
    this.#waiting.delete(seat);
    const t0 = performance.now();
    const failed = (e: unknown): void => {
      this.stats.failures++;
      this.o.warn(
        { err: e instanceof Error ? e.message : String(e), seat },
        "a prediction of another seat's card failed",
      );
    };
    let pending: PendingPrediction;
    try {
      pending = this.o.network ? this.#predictor.begin(info, seat) : { done: this.#predictor.predict(info, seat) };
    } catch (e) {
      failed(e);
      return;
    }
    if ('done' in pending) return this.#publish(info, seat, game, pending.done, t0);
    const { features, batch, finish } = pending;
    const t1 = performance.now();
    return this.o.network!.forward(features, batch).then((probs) => {
      this.stats.runsMs.push(performance.now() - t1);
      let prediction: Prediction;
      try {
        prediction = finish(probs);
      } catch (e) {
        failed(e);
        return;
      }
      this.#publish(info, seat, game, prediction, t0);
    }, failed);
  }

  #publish(info: InfoSet, seat: Seat, game: number, prediction: Prediction, t0: number): void {
    const ms = performance.now() - t0;
    this.stats.predictions++;
    this.stats.totalMs += ms;
    this.stats.maxMs = Math.max(this.stats.maxMs, ms);
    this.stats.costs.push(ms);
    const order = prediction.cards
      .map((_, i) => i)
      .sort(
        (a, b) =>
          prediction.probabilities[b]! - prediction.probabilities[a]! || prediction.cards[a]! - prediction.cards[b]!,
      );
    const top = order.slice(0, this.o.settings.top);
    const message: PredictionMessage = {
      game,
      trick: Math.floor(info.plays.length / 4),
      seat,
      model: this.#predictor.kind,
      phase: 'predicted',
      cards: top.map((i) => formatCard(prediction.cards[i]!)),
      probabilities: top.map((i) => round(prediction.probabilities[i]!)),
      possible: prediction.cards.length,
      played: '',
      probability: -1,
      rank: -1,
      surprise: -1,
    };
    this.#waiting.set(seat, { message, prediction });
    this.o.bus.publish('prediction', message);
  }

  /**
   * `seat` played `card`: the surprise (0..1) under the prediction made for it, published with the
   * card; null when no prediction was made for this card (off, failed, or a seat whose turn was not seen).
   */
  played(seat: Seat, card: Card): number | null {
    const w = this.#waiting.get(seat);
    this.#waiting.clear();
    if (!w) return null;
    const p = probabilityOf(w.prediction, card);
    const surprise = round(surpriseOf(w.prediction, card));
    const rank = p > 0 ? 1 + w.prediction.probabilities.filter((q) => q > p).length : -1;
    this.stats.played++;
    this.o.bus.publish('prediction', {
      ...w.message,
      phase: 'played',
      played: formatCard(card),
      probability: round(p),
      rank,
      surprise,
    });
    return surprise;
  }

  /** A new deal or a game's end: nothing waits for a card any more. */
  clear(): void {
    this.#waiting.clear();
  }

  /** The median cost of a prediction (ms), or null before any. */
  medianMs(): number | null {
    return this.quantileMs(0.5);
  }

  /** The cost (ms) below which a share `q` of the predictions were made (nearest rank), or null before any. */
  quantileMs(q: number): number | null {
    const c = [...this.stats.costs].sort((a, b) => a - b);
    return c.length ? c[Math.min(c.length - 1, Math.floor(q * c.length))]! : null;
  }
}

/** Six decimals: what a person reads, and the same number on every run. */
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

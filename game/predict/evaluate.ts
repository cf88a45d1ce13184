// Scoring predictors on played games: for every card played by a seat other than the observer, each
// predictor is asked (from the observer's information set just before the card) how likely that card
// was. Per decision: the probability given (its natural log is the log-likelihood) and top-1 (1 when
// the card had the highest probability, 1/k when it shared it with k-1 others, else 0). Summaries are
// per player ("who") and model, with 95% confidence intervals taken between games (the decisions of
// one game are not independent), and each model's gain in log-likelihood over the first model
// (uniform, as a rule) on the same decisions.

import type { Card } from '../cards.js';
import { Game } from '../game.js';
import type { Clock } from '../clock.js';
import type { Seat } from '../seats.js';
import { infoSetOf } from '../view.js';
import type { Predictor } from './predictor.js';
import { probabilityOf } from './predictor.js';

/** A game as the observer saw it: the deal's public part, its own hand, every card in order. */
export interface ObservedGame {
  dealer: Seat;
  trumpCard: Card;
  observer: Seat;
  /** The observer's ten cards at the deal. */
  observerHand: readonly Card[];
  plays: readonly Card[];
  /** Who sat at each seat (player kind, or "person"): the row each seat's cards are counted in. */
  who: readonly [string, string, string, string];
}

/** One game's sums for one player (who) and model. */
interface Sums {
  n: number;
  top1: number;
  ll: number;
  /** Log-likelihood minus the first model's, summed. */
  gain: number;
}

interface ModelSummary {
  model: string;
  decisions: number;
  top1: number;
  top1Ci95: [number, number];
  meanLogLikelihood: number;
  meanLogLikelihoodCi95: [number, number];
  /** Mean log-likelihood gain over the first model on the same decisions, with its CI (0 for the first model itself). */
  gainOverBaseline: number;
  gainCi95: [number, number];
  /** Mean time per prediction (ms), when a clock was given. */
  msPerPrediction?: number;
}

export interface WhoSummary {
  who: string;
  games: number;
  decisions: number;
  models: ModelSummary[];
}

/** Accumulates decisions of many games; `summary()` at the end. */
export class PredictionScorer {
  /** Per who: per game: per model sums. */
  private readonly byWho = new Map<string, Sums[][]>();
  private readonly time = new Map<string, { ms: number; n: number }>();
  /** Cards outside what a predictor thought possible (a renounce not yet discovered): skipped, counted. */
  outside = 0;
  /** Decisions whose information set no deal fits (an unseen renounce): skipped, counted. */
  inconsistent = 0;
  private gameIndex = 0;

  constructor(
    readonly predictors: readonly Predictor[],
    private readonly clock?: Clock['now'],
  ) {
    if (!predictors.length) throw new RangeError('at least one predictor is needed');
  }

  /** Scores every card of `g` played by a seat other than the observer. */
  add(g: ObservedGame): void {
    const game = new Game({
      dealer: g.dealer,
      trumpCard: g.trumpCard,
      hands: [0, 1, 2, 3].map((s) => (s === g.observer ? g.observerHand : null)),
    });
    const hand = new Set(g.observerHand);
    const index = this.gameIndex++;
    const m = this.predictors.length;
    for (const card of g.plays) {
      if (game.isOver) break;
      const seat = game.toMove;
      if (seat !== g.observer) {
        const info = infoSetOf(game, g.observer, [...hand]);
        const probs: number[] = [];
        const top: number[] = [];
        let skip = false;
        for (const p of this.predictors) {
          const t0 = this.clock?.();
          const pred = p.predict(info, seat);
          if (this.clock) {
            const t = this.time.get(p.kind) ?? { ms: 0, n: 0 };
            t.ms += this.clock() - t0!;
            t.n++;
            this.time.set(p.kind, t);
          }
          if (pred.inconsistent) skip = true;
          const q = probabilityOf(pred, card);
          if (!(q > 0)) skip = true;
          const max = Math.max(...pred.probabilities);
          const ties = pred.probabilities.filter((x) => x === max).length;
          probs.push(q);
          top.push(q === max ? 1 / ties : 0);
        }
        if (skip) {
          if (probs.some((q) => !(q > 0))) this.outside++;
          else this.inconsistent++;
        } else {
          const perGame = this.byWho.get(g.who[seat]) ?? [];
          this.byWho.set(g.who[seat], perGame);
          const row = (perGame[index] ??= Array.from({ length: m }, () => ({ n: 0, top1: 0, ll: 0, gain: 0 })));
          const base = Math.log(probs[0]!);
          for (let k = 0; k < m; k++) {
            const s = row[k]!;
            s.n++;
            s.top1 += top[k]!;
            s.ll += Math.log(probs[k]!);
            s.gain += Math.log(probs[k]!) - base;
          }
        }
      }
      game.play(card, seat);
      if (seat === g.observer) hand.delete(card);
    }
  }

  summary(): WhoSummary[] {
    const out: WhoSummary[] = [];
    for (const [who, perGame] of this.byWho) {
      const games = perGame.filter((r) => r !== undefined);
      const models = this.predictors.map((p, k): ModelSummary => {
        const rows = games.map((r) => r[k]!);
        const top1 = clusterMean(rows, (s) => s.top1);
        const ll = clusterMean(rows, (s) => s.ll);
        const gain = clusterMean(rows, (s) => s.gain);
        const t = this.time.get(p.kind);
        return {
          model: p.kind,
          decisions: top1.n,
          top1: round(top1.mean),
          top1Ci95: top1.ci.map((x) => round(x)) as [number, number],
          meanLogLikelihood: round(ll.mean),
          meanLogLikelihoodCi95: ll.ci.map((x) => round(x)) as [number, number],
          gainOverBaseline: round(gain.mean),
          gainCi95: gain.ci.map((x) => round(x)) as [number, number],
          ...(t ? { msPerPrediction: round(t.ms / t.n, 3) } : {}),
        };
      });
      out.push({ who, games: games.length, decisions: models[0]!.decisions, models });
    }
    return out;
  }
}

const round = (v: number, digits = 4): number => Number(v.toFixed(digits));

/**
 * The mean per decision of a quantity summed per game (a ratio of sums), with a 95% interval from
 * the between-games variance of the residuals (a cluster-robust standard error).
 */
function clusterMean(rows: readonly Sums[], y: (s: Sums) => number): { n: number; mean: number; ci: [number, number] } {
  let n = 0;
  let sum = 0;
  for (const r of rows) {
    n += r.n;
    sum += y(r);
  }
  const mean = n ? sum / n : 0;
  const g = rows.length;
  let v = 0;
  for (const r of rows) v += (y(r) - mean * r.n) ** 2;
  const se = g > 1 && n ? Math.sqrt((g / (g - 1)) * v) / n : 0;
  return { n, mean, ci: [mean - 1.96 * se, mean + 1.96 * se] };
}

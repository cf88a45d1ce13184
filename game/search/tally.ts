// What a search learns about each legal card over the worlds it played: sums that merge across
// workers, and the beliefs a decision reports.

import type { Card } from '../cards.js';
import { victoriesFor } from '../scoring.js';
import type { ReasonSummary } from '../explain/reasons.js';

/**
 * What a search values a card by. `victories`: the game's real score, the victories the team expects
 * (1, 2 or 4 a game, negative for the other team's), valued per world by its victory class, ties
 * broken by expected points. `points`: the team's expected final card points (the paper's players).
 */
export type SearchObjective = 'points' | 'victories';

export interface MoveBelief {
  card: Card;
  /** Mean final points of our team over the worlds, after this card. */
  mean: number;
  /** Standard deviation of those points over the worlds. */
  sd: number;
  /** Fraction of worlds in which our team ends with more than 60 points. */
  winProbability: number;
  /** Mean victories of our team over the worlds (negative: the other team's), 1, 2 or 4 a game. Absent in beliefs recorded before victories were valued. */
  victories?: number;
}

export interface Beliefs {
  /** Every legal card, best first. */
  moves: MoveBelief[];
  worlds: number;
  nodes: number;
  timeMs: number;
  /** Estimated probability that our team wins the game after the chosen card. */
  winProbability: number;
  /** The trick (0-based) from which the values were exact; earlier tricks were rolled out by rules. */
  exactFromTrick: number;
  /** Set when the search could not value any world in time and a rule-based card was played. */
  fallback?: 'rule' | 'forced';
  /** Worlds weighed by the other seats' plays (search/inference.ts); absent when drawn uniformly. */
  inference?: InferenceReport;
  /** What the cards were ranked by (best first): expected victories, then points; or expected points (also when absent, as in older recordings). */
  objective?: SearchObjective;
  /**
   * How each card's points were found in a world: `exact` (the solver's value) or `bounds` (the
   * middle of the bounds a victory-class proof found, at least as narrow as the class: 61-90 for one
   * victory). Win probability and victories are exact per world either way. Absent: exact.
   */
  points?: 'exact' | 'bounds';
  /** Why the card rather than the next best (game/explain), when the player says; absent otherwise. */
  reason?: ReasonSummary;
}

export interface InferenceReport {
  /** How far the other seats were believed to play like the rule-based player, 0..1. */
  trust: number;
  /** Candidate worlds drawn and weighed. */
  candidates: number;
  /** How many equally weighted worlds the weights amount to: (sum w)^2 / sum w^2. Few means the plays point at few deals. */
  effective: number;
}

export interface Decision {
  card: Card;
  beliefs?: Beliefs;
}

/** Per-card sums over worlds. Plain data, so workers can send it and `mergeTally` can add it up. */
export interface Tally {
  cards: Card[];
  objective: SearchObjective;
  /** How the worlds' points were found (see Beliefs.points). */
  points: 'exact' | 'bounds';
  /** Sums of our team's final points per card (exact, or the middle of proven bounds: see Beliefs.points). */
  sum: number[];
  sumSq: number[];
  /** Worlds in which our team wins (61 points or more). */
  wins: number[];
  /** Sums of our team's victories (signed) per card. */
  victories: number[];
  worlds: number;
  nodes: number;
}

export const emptyTally = (cards: Card[], objective: SearchObjective = 'points'): Tally => ({
  cards,
  objective,
  points: 'exact',
  sum: cards.map(() => 0),
  sumSq: cards.map(() => 0),
  wins: cards.map(() => 0),
  victories: cards.map(() => 0),
  worlds: 0,
  nodes: 0,
});

/** Adds one world: each card's final points (exact or estimated) and, when known apart, its victories. */
export function addWorld(t: Tally, values: ArrayLike<number>, victories?: ArrayLike<number>): void {
  for (let i = 0; i < t.cards.length; i++) {
    const v = values[i]!;
    const vic = victories ? victories[i]! : victoriesFor(v);
    t.sum[i]! += v;
    t.sumSq[i]! += v * v;
    t.victories[i]! += vic;
    if (vic > 0) t.wins[i]!++;
  }
  t.worlds++;
}

export function mergeTally(into: Tally, from: Tally): Tally {
  into.objective = from.objective;
  into.points = from.points;
  for (let i = 0; i < into.cards.length; i++) {
    into.sum[i]! += from.sum[i]!;
    into.sumSq[i]! += from.sumSq[i]!;
    into.wins[i]! += from.wins[i]!;
    into.victories[i]! += from.victories[i]!;
  }
  into.worlds += from.worlds;
  into.nodes += from.nodes;
  return into;
}

/** The beliefs behind a tally, best card first (ties keep the cards' order). */
export function beliefsOf(t: Tally, timeMs: number, exactFromTrick: number, inference?: InferenceReport): Beliefs {
  const n = Math.max(1, t.worlds);
  const moves = t.cards
    .map((card, i) => {
      const mean = t.sum[i]! / n;
      const variance = t.worlds > 1 ? Math.max(0, (t.sumSq[i]! - n * mean * mean) / (n - 1)) : 0;
      return { card, mean: round(mean), sd: round(Math.sqrt(variance)), winProbability: round(t.wins[i]! / n), victories: round(t.victories[i]! / n) };
    })
    .sort(t.objective === 'victories' ? (a, b) => b.victories! - a.victories! || b.mean - a.mean : (a, b) => b.mean - a.mean);
  return {
    moves,
    worlds: t.worlds,
    nodes: t.nodes,
    timeMs: round(timeMs),
    winProbability: moves[0]?.winProbability ?? 0,
    exactFromTrick,
    ...(inference ? { inference } : {}),
    objective: t.objective,
    points: t.points,
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The decision for a seat with a single legal card: played at once, nothing searched. */
export const forcedDecision = (card: Card, trick: number): Decision => ({
  card,
  beliefs: { moves: [], worlds: 0, nodes: 0, timeMs: 0, winProbability: NaN, exactFromTrick: trick, fallback: 'forced', objective: 'points', points: 'exact' },
});

/** The best card of the beliefs; when no world was valued, the fallback's card, said in the beliefs. */
export function decisionOf(beliefs: Beliefs, fallback: () => Card): Decision {
  if (beliefs.worlds === 0) return { card: fallback(), beliefs: { ...beliefs, fallback: 'rule' } };
  return { card: beliefs.moves[0]!.card, beliefs };
}

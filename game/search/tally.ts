// What a search learns about each legal card over the worlds it played: sums that merge across
// workers, and the beliefs a decision reports (decision.ts).

import type { Card } from '../cards.js';
import { victoriesFor } from '../scoring.js';
import type { Beliefs, InferenceReport, SearchObjective } from '../decision.js';

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
      return {
        card,
        mean: round(mean),
        sd: round(Math.sqrt(variance)),
        winProbability: round(t.wins[i]! / n),
        victories: round(t.victories[i]! / n),
      };
    })
    .sort(
      t.objective === 'victories'
        ? (a, b) => b.victories! - a.victories! || b.mean - a.mean
        : (a, b) => b.mean - a.mean,
    );
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

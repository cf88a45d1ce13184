// The vocabulary of a decision: the card a player chooses and, for players that explain themselves,
// the beliefs behind it (what a search found for each legal card, search/tally.ts) and the reason for
// it (explain/reasons.ts). Plain data: decisions go on the bus, into recordings and to workers.

import type { Card, Suit } from './cards.js';

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

/** The reasons a card can be played for, in the order they are tried (explain/reasons.ts). */
export const REASON_KINDS = [
  /** Leads a suit the partner has shown it lacks, so the partner can ruff. */
  'partner-ruffs',
  /** Keeps the ace of trumps (or the highest trump left) for a later trick. */
  'keeps-master-trump',
  /** Leads a trump to draw the opponents' trumps. */
  'draws-trumps',
  /** Puts points on a trick the partner is sure to take. */
  'points-to-partner',
  /** Takes the trick (the other card would not, as often). */
  'takes-trick',
  /** The trick is lost either way: gives away fewer points. */
  'saves-points',
  /** None of the above stands out: the card wins more often, by two points of percent or more in the search that chose it. */
  'better-odds',
  /** It wins as often as the other card in that search (within two points of percent), and ends with more points. */
  'more-points',
  /** Neither: the search preferred it by a hair, or by victories while the other card wins more often. */
  'close-call',
] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];
export const isReasonKind = (s: unknown): s is ReasonKind =>
  typeof s === 'string' && (REASON_KINDS as readonly string[]).includes(s);

/** What a decision carries of its reason (plain data: it goes on the bus and into recordings). */
export interface ReasonSummary {
  kind: ReasonKind;
  /** The card played and the next best. */
  card: Card;
  other: Card;
  /**
   * Share of the worlds that bear the reason out, 0..1; for better-odds how sure its margin makes it
   * (winGainSupport); 1 when it follows from the rules, the cards held or the search's points.
   */
  support: number;
  points?: number;
  suit?: Suit;
  kept?: Card;
}

/** The decision for a seat with a single legal card: played at once, nothing searched. */
export const forcedDecision = (card: Card, trick: number): Decision => ({
  card,
  beliefs: {
    moves: [],
    worlds: 0,
    nodes: 0,
    timeMs: 0,
    winProbability: NaN,
    exactFromTrick: trick,
    fallback: 'forced',
    objective: 'points',
    points: 'exact',
  },
});

/** The best card of the beliefs; when no world was valued, the fallback's card, said in the beliefs. */
export function decisionOf(beliefs: Beliefs, fallback: () => Card): Decision {
  if (beliefs.worlds === 0) return { card: fallback(), beliefs: { ...beliefs, fallback: 'rule' } };
  return { card: beliefs.moves[0]!.card, beliefs };
}

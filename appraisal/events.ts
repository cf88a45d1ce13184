// What the appraisal is told: the game's own events (game/events.ts) plus the few a live table adds,
// each with what the robot's player believed before and after it.

import type { Beliefs, Card, GameEvent, Renounce, Seat } from '../game/index.js';

export type AppraisalEvent =
  | GameEvent
  /** The dealer turned up the trump card (at a live table this may come after the hands). */
  | { type: 'trump'; dealer: Seat; trumpCard: Card }
  /** A renounce found out at the table, possibly tricks after it was made. */
  | { type: 'renounce'; renounce: Renounce }
  /** The session is over; `victories` are team A's and team B's. */
  | { type: 'session-end'; victories: [number, number]; games: number };

export type AppraisalEventType = AppraisalEvent['type'];

export const APPRAISAL_EVENT_TYPES: readonly AppraisalEventType[] = [
  'deal',
  'trump',
  'play',
  'trick',
  'end',
  'renounce',
  'session-end',
];

/** What the robot's player expects of the current game. */
export interface Expectation {
  /** Expected final card points of the robot's team (0..120). */
  expectedPoints: number;
  /** Probability that the robot's team wins the game (0..1). */
  winProbability: number;
  /**
   * The standard errors of the two as estimates from sampled worlds (their sampling noise); absent
   * or 0 when not known (a hand model, a scenario, an older recording).
   */
  pointsSe?: number;
  winSe?: number;
}

/** Beliefs as an event brings them: either side may be missing (`expectationOf` of a forced card). */
export interface PerceivedBeliefs {
  /** Defaults to the last `after` (an even game at a deal). */
  before?: Expectation | undefined;
  /** Defaults to `before`: no change of expectation. */
  after?: Expectation | undefined;
}

/** An event as perceived: when beliefs are missing, the last known expectation stands. */
export interface Perception {
  event: AppraisalEvent;
  beliefs?: PerceivedBeliefs;
  /**
   * How unexpected the event was to the robot, 0..1 (a card another seat played: 1 - p(card) / max p
   * under the robot's model of that seat, robot/live/node/prediction.ts); absent or 0: as expected.
   */
  surprise?: number | undefined;
}

/** Before anything is known of a game: an even game. */
export const PRIOR_EXPECTATION: Expectation = { expectedPoints: 60, winProbability: 0.5 };

/**
 * The expectation behind a decision of the robot's player: the mean points of its best card and its
 * win probability. Undefined for a forced card or a fallback, which searched nothing.
 */
export function expectationOf(beliefs: Beliefs | undefined): Expectation | undefined {
  const best = beliefs?.moves[0];
  if (
    !beliefs ||
    !best ||
    beliefs.worlds === 0 ||
    !Number.isFinite(best.mean) ||
    !Number.isFinite(beliefs.winProbability)
  )
    return undefined;
  return { expectedPoints: best.mean, winProbability: beliefs.winProbability };
}

// Game and session scoring: card points to victories, and victories accumulated over a session.

import type { Seat, TeamName } from './seats.js';
import { teamName, teamOf } from './seats.js';
import type { Card } from './cards.js';

export interface GameOutcome {
  winner: TeamName | 'draw';
  /** Victories the winner earns: 1 (61-90), 2 (91-119), 4 (120 or the opponents' renounce); 0 for a draw. */
  victories: number;
}

/** A renounce: `seat` did not follow suit at trick `trick` (0-based) with `card` while holding the led suit. */
export interface Renounce {
  seat: Seat;
  trick: number;
  card: Card;
  /** At a live table the renounce shows later: the trick and card that revealed it. Absent when caught at the play. */
  discovered?: { trick: number; card: Card };
}

/** Victories from team A's card points (team B has 120 minus them). */
export function outcomeFromPoints(pointsA: number): GameOutcome {
  const v = victoriesFor(pointsA);
  return v === 0 ? { winner: 'draw', victories: 0 } : { winner: v > 0 ? 'A' : 'B', victories: Math.abs(v) };
}

/**
 * A team's victories for its final card points, signed: 4, 2 or 1 when it wins, 0 for a draw, -1, -2
 * or -4 when the other team wins (what the search plays for).
 */
export function victoriesFor(points: number): number {
  if (points === 60) return 0;
  if (points > 60) return points === 120 ? 4 : points > 90 ? 2 : 1;
  return points === 0 ? -4 : points < 30 ? -2 : -1;
}

/**
 * Whether a better card would have changed the result (the end-of-game review's moments): the points
 * it kept for the seat's team (`before` to `after`, team A's final points with best play), added to the
 * game as it went, move the final score across a victory line (14 points more on a 36 to 84 loss
 * still lose). `finalA`: team A's final points as played.
 */
export function turnsTheResult(m: { seat: number; before: number; after: number }, finalA: number): boolean {
  const points = Math.abs(m.before - m.after);
  const instead = Math.min(120, Math.max(0, finalA + ((m.seat & 1) === 0 ? points : -points)));
  return victoriesFor(instead) !== victoriesFor(finalA);
}

/** A renounce loses the game: the offender's opponents get 4 victories. */
export function outcomeFromRenounce(renounce: Renounce): GameOutcome {
  return { winner: teamName(teamOf(renounce.seat) === 0 ? 1 : 0), victories: 4 };
}

export interface SessionScore {
  games: number;
  victories: [number, number];
  draws: number;
}

export const emptySessionScore = (): SessionScore => ({ games: 0, victories: [0, 0], draws: 0 });

export function addGame(score: SessionScore, outcome: GameOutcome): SessionScore {
  const victories: [number, number] = [score.victories[0], score.victories[1]];
  if (outcome.winner === 'A') victories[0] += outcome.victories;
  else if (outcome.winner === 'B') victories[1] += outcome.victories;
  return { games: score.games + 1, victories, draws: score.draws + (outcome.winner === 'draw' ? 1 : 0) };
}

/** The session's winner by accumulated victories. */
export function sessionWinner(score: SessionScore): TeamName | 'draw' {
  const [a, b] = score.victories;
  return a === b ? 'draw' : a > b ? 'A' : 'B';
}

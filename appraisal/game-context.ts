// The little the appraisal remembers of the game to give rules their words: whose seat is the
// robot's, the trump suit, the trick on the table, points and victories so far. Updated by events only.

import type { Card, Seat, Suit, Team } from '../game/index.js';
import { nextSeat, suitOf, teamOf } from '../game/index.js';
import type { AppraisalEvent } from './events.js';

export interface GameContext {
  /** The robot's seat; a deal event says it anew for each game. */
  self: Seat;
  dealer: Seat | null;
  trump: Suit | null;
  /** The trick being played (0-based); 10 once the game is over. */
  trick: number;
  /** The seat that led the trick on the table, once known. */
  leader: Seat | null;
  /** The cards of the trick on the table, from the leader on. */
  table: readonly Card[];
  /** Card points won this game, by team (A, B). */
  points: readonly [number, number];
  /** Victories this session, by team (A, B). */
  victories: readonly [number, number];
}

export const initialContext = (self: Seat): GameContext => ({
  self,
  dealer: null,
  trump: null,
  trick: 0,
  leader: null,
  table: [],
  points: [0, 0],
  victories: [0, 0],
});

const add = (pair: readonly [number, number], team: Team, n: number): [number, number] =>
  team === 0 ? [pair[0] + n, pair[1]] : [pair[0], pair[1] + n];

/** The context after an event. */
export function advanceContext(c: GameContext, e: AppraisalEvent): GameContext {
  switch (e.type) {
    case 'deal':
      return {
        ...c,
        self: e.seat,
        dealer: e.dealer,
        trump: suitOf(e.trumpCard),
        trick: 0,
        leader: nextSeat(e.dealer),
        table: [],
        points: [0, 0],
      };
    case 'trump':
      return { ...c, dealer: e.dealer, trump: suitOf(e.trumpCard) };
    case 'play': {
      // A card played into a full table, or for another trick, starts the trick afresh: the table
      // follows the events it is given rather than refusing them.
      const fresh = c.table.length === 0 || c.table.length >= 4 || e.trick !== c.trick;
      return {
        ...c,
        trick: e.trick,
        leader: fresh ? e.seat : c.leader,
        table: fresh ? [e.card] : [...c.table, e.card],
      };
    }
    case 'trick':
      return {
        ...c,
        trick: e.trick + 1,
        leader: e.winner,
        table: [],
        points: add(c.points, teamOf(e.winner), e.points),
      };
    case 'end': {
      const victories =
        e.outcome.winner === 'draw'
          ? c.victories
          : add(c.victories, e.outcome.winner === 'A' ? 0 : 1, e.outcome.victories);
      return { ...c, trick: 10, table: [], points: [e.points[0], e.points[1]], victories };
    }
    case 'renounce':
      return c;
    case 'session-end':
      return { ...c, victories: [e.victories[0], e.victories[1]] };
  }
}

// Where the session is, as one integer that only grows: the game (1-based) and the cards played in
// it, then its end and the session's end. A line is about a moment, and useful only until a later
// one: a card's line until the next card is down, a trick's until the next trick begins, a game's
// result until the next game's first card, anything of a game once it has ended. The scheduler drops
// a line whose moment has passed before it could start, so the robot never names a card the table
// has moved on from. Moments come from the game's events, so a replay reaches them in the same order.

import type { BehaviourEvent } from './events.js';

export type Moment = number;

/** Room for 40 cards, the game's end and the session's end within one game. */
const PER_GAME = 64;
const CARDS = 40;

/** Game `game` (0 before the first deal) with `plays` cards played. */
export const momentOf = (game: number, plays: number): Moment => game * PER_GAME + plays;
/** Game `game` has ended (after its last card or a renounce). */
export const gameEndOf = (game: number): Moment => momentOf(game, CARDS + 1);
/** The session has ended, after game `game`. */
export const sessionEndOf = (game: number): Moment => momentOf(game, CARDS + 2);

/** The moment an event brings the session to, from the one before it. */
export function momentAfter(moment: Moment, game: number, event: BehaviourEvent): Moment {
  switch (event.type) {
    case 'game-start':
      return momentOf(event.game, 0);
    case 'play':
      return moment + 1;
    case 'end':
      return gameEndOf(game);
    case 'session-end':
      return sessionEndOf(game);
    default:
      return moment;
  }
}

/**
 * Until when a line about `event` (which brought the session to `moment`) is worth starting: it is
 * dropped once the session reaches the returned moment; null for lines that never go stale.
 */
export function usefulUntil(event: BehaviourEvent, moment: Moment, game: number): Moment | null {
  switch (event.type) {
    case 'session-start':
      // The greeting, while the first trick is on the table.
      return momentOf(1, 5);
    case 'game-start':
    case 'shuffling':
    case 'cutting':
    case 'dealing':
      // The game's start and the deal's steps, until the first card is played.
      return momentOf(game, 1);
    case 'deal':
      // The cards received and the trump card turned, through the first trick: their line follows
      // the game's start line, and the first card is often down before that one ends.
      return momentOf(game, 4);
    case 'turn':
    case 'play':
    case 'trick':
    case 'reappraisal':
      // A card, a turn, a trick just taken: until the next card (the game's end after the last one).
      return moment + 1;
    case 'end':
      // The result, while the next game is dealt (and through the session's end after the last game).
      return momentOf(game + 1, 1);
    case 'session-end':
      return null;
  }
}

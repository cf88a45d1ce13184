// What the behaviours react to: the game's own events (game/events.ts) and the moments of a session
// around them, which the session machine (robot/) reports.

import type { GameEvent, Seat } from '../game/index.js';

export type SessionEvent =
  /** The session begins; `names` by seat when the players gave them (null where unknown). */
  | { type: 'session-start'; robotSeat: Seat; games: number; names?: readonly (string | null)[] }
  /** Game `game` (1-based) of the session begins with `dealer` dealing. */
  | { type: 'game-start'; game: number; dealer: Seat }
  /** `seat` is asked to shuffle, to cut, or to deal. */
  | { type: 'shuffling'; seat: Seat }
  | { type: 'cutting'; seat: Seat }
  | { type: 'dealing'; seat: Seat }
  /** It is `seat`'s turn to play. */
  | { type: 'turn'; seat: Seat }
  /**
   * The robot thought again about `event`, which it reacted to already (a quick estimate of the game
   * came after it), and feels differently: the face may change and, while the game has not moved past
   * the event, it may now say what it feels about it; the gaze stays.
   */
  | { type: 'reappraisal'; of: GameEvent['type']; event: GameEvent }
  /** Victories by team (A, B) at the end of the session. */
  | { type: 'session-end'; victories: readonly [number, number] };

export type BehaviourEvent = GameEvent | SessionEvent;

// The behaviour planner's memory between events: who sits where, the game so far as far as speech
// needs it (trump, the trick on the table, points), and what was said. Plain data, owned by the caller.

import type { Card, Seat, Suit } from '../game/index.js';
import type { Moment } from './moment.js';
import { momentOf } from './moment.js';
import { EMPTY_SPEECH_MEMORY } from './utterances.js';
import type { SpeechMemory } from './utterances.js';

export interface BehaviourState {
  robotSeat: Seat;
  /** Players' names by seat; null where unknown. */
  names: readonly (string | null)[];
  games: number;
  /** The current game, 1-based; 0 before the first. */
  game: number;
  dealer: Seat | null;
  trump: Suit | null;
  /** The trick on the table: its leader and the cards so far. */
  trick: { leader: Seat; cards: readonly Card[] } | null;
  /** Card points this game: [our team, their team]. */
  points: readonly [number, number];
  /** Where the session is (moment.ts): the lines planned carry until when they are worth starting. */
  moment: Moment;
  speech: SpeechMemory;
  /**
   * The last card played, the moment it brought and its trick so far (it last) with the trick's
   * leader: a reappraisal of it may still speak until the next card.
   */
  lastPlay: { card: Card; moment: Moment; trick: readonly Card[]; leader: Seat } | null;
  /** The moment of the last card or trick a line was planned about: a reappraisal does not speak of it again. */
  spokenAbout: Moment | null;
  /**
   * Lines said (`speech.said`) when the last plan was made: more at the next event means the caller
   * added lines about that plan's event (robot/ names the robot's card), so it has been spoken about.
   */
  saidAtPlan: number;
  /**
   * The face planned last and held until `untilMs` (postures' hold): plans made before then replace
   * it only with a clearly stronger face; after a surprise (`surprise`: its amount), this event's face
   * comes after it.
   */
  face?: FaceHeld | null;
  /** Each game's result for the robot's team so far this session, game 1 first (absent: none yet). */
  results?: readonly ('won' | 'lost' | 'draw')[];
}

/** A face planned (from `atMs`) and held until `untilMs`, with its strength 0..10 after expressiveness. */
export interface FaceHeld {
  atMs: number;
  untilMs: number;
  strength: number;
  /** The expression, when it shows an emotion. */
  expression?: string;
  /** A surprised face: how surprised (0..1). */
  surprise?: number;
}

export const initialBehaviourState = (
  robotSeat: Seat,
  names: readonly (string | null)[] = [null, null, null, null],
): BehaviourState => ({
  robotSeat,
  names,
  games: 0,
  game: 0,
  dealer: null,
  trump: null,
  trick: null,
  points: [0, 0],
  moment: momentOf(0, 0),
  speech: EMPTY_SPEECH_MEMORY,
  lastPlay: null,
  spokenAbout: null,
  saidAtPlan: 0,
});

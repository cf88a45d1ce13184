// What the planner asks for: timed posture, gaze and speech commands. Plain data, so a plan can be
// recorded, compared and replayed; only the scheduler carries commands out.

import type { Seat } from '../game/index.js';
import type { EmotionType } from './emotion-input.js';
import type { BehaviourEvent } from './events.js';
import type { Gaze } from './gaze.js';
import type { Moment } from './moment.js';
import type { Posture } from './postures.js';
import type { UtteranceCategory, UtteranceEmotion, UtteranceTarget } from './utterance-config.js';

/** What a line reacts to: recorded with it, so a session's report can judge each line against its event. */
export interface UtteranceAbout {
  /** The event the line reacts to; `operator` for a line the operator asked for. */
  event: BehaviourEvent['type'] | 'operator';
  /** The seat the event is about (who played, who took the trick, who renounced); null for the whole table. */
  seat: Seat | null;
  /** The moment (moment.ts) the event brought the session to; null for the operator's lines. */
  moment: Moment | null;
  /** The emotional subcategory the line was chosen for; null for a plain line. */
  emotion: UtteranceEmotion | null;
}

/** The answers a person asks for at a table ("Como correu o jogo?", "Porquê essa carta?"). */
export type AskedCategory = 'asked.review' | 'asked.why';

/** Whom a line to the opponents speaks to: one of them or both. */
export type Audience = 'one' | 'both';

export interface PlannedUtterance {
  /** The line's id in its library (`category#n`). */
  id: string;
  /**
   * `operator`: a wizard-of-oz line typed by the operator, not from the library. `asked.review`,
   * `asked.why`: an answer a person asked for at a table (the game's review, why that card).
   */
  category: UtteranceCategory | 'operator' | AskedCategory;
  /** The text to speak, slots filled. */
  text: string;
  language: string;
  to: UtteranceTarget;
  /** The seat spoken to; null when speaking to everyone. */
  addressee: Seat | null;
  /**
   * A line to the opponents: to one (the addressee: "A manilha de trunfo para ti?") or to both
   * (`gaze: opponents` in the library: "Preparem-se, que hoje não vos damos hipótese!"; the addressee
   * is the one the moment is about). Absent: not said (the operator's lines, the answers asked for).
   */
  audience?: Audience;
  /** How long the planner expects it to take; no other line is planned before it ends. */
  estimatedMs: number;
  /**
   * The moment (moment.ts) from which the line is stale: if the session gets there before the line
   * starts, it is dropped. Null: never stale (the operator's lines, the session's farewell).
   */
  until: Moment | null;
  about: UtteranceAbout;
}

export type BehaviourCommand =
  | {
      kind: 'posture';
      /** On the planner's clock (the scheduler's). */
      atMs: number;
      posture: Posture;
      /** Why: the emotion shown, an utterance's animation mark, or the return to rest. */
      cause: EmotionType | 'surprise' | 'animation' | 'rest' | 'operator';
    }
  | { kind: 'gaze'; atMs: number; gaze: Gaze; durationMs: number }
  | { kind: 'speech'; atMs: number; utterance: PlannedUtterance };

export interface BehaviourPlan {
  /** The event planned for, or `operator` for a wizard-of-oz command. */
  event: BehaviourEvent['type'] | 'operator';
  /** When the event was planned for. */
  atMs: number;
  /** The moment the event brought the session to; null when it is not a game event (the operator's). */
  moment: Moment | null;
  /** In time order (ties keep the planner's order). */
  commands: readonly BehaviourCommand[];
}

// What a character feels at a moment: the emotions with their intensities, the strongest overall
// and toward each other seat, and the mood. This is what behaviours read.

import type { Seat } from '../game/index.js';
import { SEATS, partnerOf } from '../game/index.js';
import type { Character } from './character.js';
import type { EmotionalState } from './emotional-state.js';
import { feltAt, moodAt } from './emotional-state.js';
import type { FeltEmotion } from './emotions.js';
import { concernsSeat } from './emotions.js';

export interface Toward {
  seat: Seat;
  role: 'partner' | 'opponent';
  /** The strongest emotion about this seat (directly or through its team), if any. */
  emotion: FeltEmotion | null;
}

export interface EmotionReport {
  /** Time of the report (ms). */
  at: number;
  /** The robot's seat. */
  seat: Seat;
  /** Strongest first. */
  emotions: FeltEmotion[];
  strongest: FeltEmotion | null;
  /** The other three seats in seat order. */
  toward: Toward[];
  mood: number;
}

export function emotionReport(character: Character, state: EmotionalState, time: number): EmotionReport {
  const emotions = feltAt(state, time, character);
  const self = state.game.self;
  const toward: Toward[] = SEATS.filter((s) => s !== self).map((seat) => ({
    seat,
    role: seat === partnerOf(self) ? 'partner' : 'opponent',
    emotion: emotions.find((e) => concernsSeat(e.target, seat, self)) ?? null,
  }));
  return {
    at: time,
    seat: self,
    emotions,
    strongest: emotions[0] ?? null,
    toward,
    mood: moodAt(state, time, character),
  };
}

// The 22 OCC emotion types as FAtiMA defines them: valence, whether they move the mood, and the
// appraisal variables they come from. Names are written in kebab case, as in the rule files.

import type { Seat } from '../game/index.js';

export const EMOTION_TYPES = [
  'joy',
  'distress',
  'hope',
  'fear',
  'satisfaction',
  'relief',
  'disappointment',
  'fears-confirmed',
  'happy-for',
  'gloating',
  'resentment',
  'pity',
  'pride',
  'shame',
  'admiration',
  'reproach',
  'gratification',
  'remorse',
  'gratitude',
  'anger',
  'love',
  'hate',
] as const;
export type EmotionType = (typeof EMOTION_TYPES)[number];

/** +1 for a positive emotion, -1 for a negative one. */
export const VALENCE: Readonly<Record<EmotionType, 1 | -1>> = {
  joy: 1,
  distress: -1,
  hope: 1,
  fear: -1,
  satisfaction: 1,
  relief: 1,
  disappointment: -1,
  'fears-confirmed': -1,
  'happy-for': 1,
  gloating: 1,
  resentment: -1,
  pity: -1,
  pride: 1,
  shame: -1,
  admiration: 1,
  reproach: -1,
  gratification: 1,
  remorse: -1,
  gratitude: 1,
  anger: -1,
  love: 1,
  hate: -1,
};

/** FAtiMA keeps hope and fear out of the mood: a prospect is not yet a fact. */
export const INFLUENCES_MOOD: Readonly<Record<EmotionType, boolean>> = Object.fromEntries(
  EMOTION_TYPES.map((t) => [t, t !== 'hope' && t !== 'fear']),
) as Record<EmotionType, boolean>;

/**
 * Whom an emotion is about: a seat (the robot's own seat for pride, shame, gratification and remorse),
 * the robot's team as a whole (`team`), or the other team as a whole (`opponents`). Well-being and
 * prospect emotions have no target (`null`).
 */
export type Target = Seat | 'team' | 'opponents';

/** An emotion an appraisal elicits, before thresholds and mood: FAtiMA's "potential". */
export interface ElicitedEmotion {
  type: EmotionType;
  target: Target | null;
  potential: number;
}

/** An emotion being felt. Its intensity decays from `intensity` at time `since` (ms). */
export interface ActiveEmotion {
  type: EmotionType;
  target: Target | null;
  /** Intensity (0..10) at `since`. */
  intensity: number;
  since: number;
}

/** An emotion as reported at a moment: its intensity then. */
export interface FeltEmotion {
  type: EmotionType;
  target: Target | null;
  intensity: number;
}

/** Emotions of one type and one target are one emotion: a new appraisal reinforces it. */
export const emotionKey = (type: EmotionType, target: Target | null): string =>
  target === null ? type : `${type}>${target}`;

/** Does an emotion with this target concern `seat` (directly, or through its team)? */
export function concernsSeat(target: Target | null, seat: Seat, self: Seat): boolean {
  if (target === null) return false;
  if (target === 'team') return ((seat ^ self) & 1) === 0;
  if (target === 'opponents') return ((seat ^ self) & 1) === 1;
  return target === seat;
}

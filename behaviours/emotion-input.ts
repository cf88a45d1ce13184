// What behaviours need from the appraisal: the 22 OCC emotion types with intensities, and the mood.
// The types are appraisal's (appraisal/emotions.ts); behaviours import them as types only, so the
// runtime list below is our own copy, checked against appraisal's union at compile time.

import type { EmotionReport, EmotionType as AppraisalEmotionType, FeltEmotion } from '../appraisal/index.js';

export type EmotionType = AppraisalEmotionType;

/** The 22 OCC emotion types, spelled as the appraisal spells them (for schemas and tests). */
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
] as const satisfies readonly EmotionType[];

// Fails to compile if appraisal gains an emotion type this list lacks.
type Missing = Exclude<EmotionType, (typeof EMOTION_TYPES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

export const isEmotionType = (s: unknown): s is EmotionType => (EMOTION_TYPES as readonly unknown[]).includes(s);

/** An emotion as the appraisal reports it (`FeltEmotion`); the target is optional here. */
export interface EmotionInput {
  type: EmotionType;
  /** 0..10. */
  intensity: number;
  /** Whom it is about (a seat, `team`, `opponents`), when anyone. */
  target?: FeltEmotion['target'];
}

/** The emotions the last event raised and the mood: an appraisal `EmotionReport` fits this shape. */
export interface EmotionalStateInput {
  emotions: readonly EmotionInput[];
  /** -10 (bad) .. 10 (good). */
  mood: EmotionReport['mood'];
}

export const CALM: EmotionalStateInput = { emotions: [], mood: 0 };

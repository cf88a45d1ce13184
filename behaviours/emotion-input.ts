// What behaviours need from the appraisal: the 22 OCC emotion types with intensities, and the mood.
// The list of types is appraisal's own (appraisal/emotions.ts): one vocabulary, imported in the
// direction the layers allow (appraisal <- behaviours), so a new emotion type reaches the posture and
// utterance schemas without a second list to keep in step.

import type { EmotionReport, EmotionType as AppraisalEmotionType, FeltEmotion } from '../appraisal/index.js';
import { EMOTION_TYPES } from '../appraisal/index.js';

export type EmotionType = AppraisalEmotionType;

export { EMOTION_TYPES };

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
  /**
   * How unexpected the event was, 0..1, as the appraisal took it (its frame's `surprise`: a card the
   * robot's prediction gave little chance). Absent: as expected.
   */
  surprise?: number;
}

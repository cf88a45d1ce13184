// Postures: an expression scaled by an amount 0..1 between neutral and its apex. Both ends lie within
// the limits (checked at load), so every blend does too; the clamp only guards rounding.

import type { EmotionType } from './emotion-input.js';
import { EXPRESSION_JOINTS, clampJoint } from './joints.js';
import type { JointName } from './joints.js';
import type { ExpressionName, PostureLibrary } from './posture-config.js';

export interface Posture {
  /** The ROS4HRI expression name this posture shows (a mood-tinted rest face is still `neutral`). */
  expression: ExpressionName;
  /** 0..1: how far from neutral toward the expression's apex. */
  amount: number;
  valence: number;
  arousal: number;
  /** Targets for the expression joints (gaze joints are gaze's). */
  joints: Readonly<Partial<Record<JointName, number>>>;
  /** Time to reach the targets. */
  durationMs: number;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** `expression` at `amount` (0..1) of its apex, blended from neutral. */
export function expressionPosture(
  lib: PostureLibrary,
  expression: ExpressionName,
  amount: number,
  durationMs = lib.timing.moveMs,
): Posture {
  const k = expression === 'neutral' ? 0 : clamp01(amount);
  const neutral = lib.expressions.neutral.joints;
  const apex = lib.expressions[expression].joints;
  const joints: Partial<Record<JointName, number>> = {};
  for (const j of EXPRESSION_JOINTS) {
    const n = neutral[j]!;
    joints[j] = clampJoint(lib.limits, j, round(n + (apex[j]! - n) * k, 1));
  }
  const e = lib.expressions[expression];
  const shown = round(k, 3);
  // An expression at no amount is the neutral face, and is named so.
  return {
    expression: shown === 0 ? 'neutral' : expression,
    amount: shown,
    valence: round(e.valence * k, 3),
    arousal: round(e.arousal * k, 3),
    joints,
    durationMs,
  };
}

/**
 * The posture showing an emotion of `intensity` 0..10. `expressiveness` (0..1, a toggle) scales it, as
 * does the emotion's gain in config: a faint hope is a faint smile.
 */
export function emotionPosture(
  lib: PostureLibrary,
  emotion: EmotionType,
  intensity: number,
  expressiveness = 1,
): Posture {
  const { expression, gain } = lib.emotions[emotion];
  return expressionPosture(lib, expression, clamp01(intensity / 10) * gain * clamp01(expressiveness));
}

/** The face the head returns to: neutral, tinted by the mood (-10..10) as far as `moodTint` allows. */
export function restPosture(lib: PostureLibrary, mood: number, expressiveness = 1): Posture {
  const amount = clamp01(Math.abs(mood) / 10) * lib.moodTint * clamp01(expressiveness);
  const tinted = expressionPosture(lib, mood >= 0 ? 'happy' : 'sad', amount, lib.timing.neutralMoveMs);
  return { ...tinted, expression: 'neutral' };
}

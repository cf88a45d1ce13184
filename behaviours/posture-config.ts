// config/postures.yaml: the robot's joint limits, its expressions (neutral and Ekman's six, as joint
// targets at full intensity) and which expression shows each of the 22 emotion types.

import { z } from 'zod';
import { EMOTION_TYPES } from './emotion-input.js';
import type { EmotionType } from './emotion-input.js';
import { EMYS_LIMITS, EXPRESSION_JOINTS, GAZE_JOINTS, JOINTS, jointUnit } from './joints.js';
import type { JointLimits, JointName } from './joints.js';
import { loadYamlConfig } from '../config/index.js';

/** ROS4HRI (hri_msgs/Expression) names for neutral and Ekman's six basic emotions. */
export const EXPRESSIONS = ['neutral', 'happy', 'sad', 'angry', 'surprised', 'scared', 'disgusted'] as const;
export type ExpressionName = (typeof EXPRESSIONS)[number];

export interface Expression {
  name: ExpressionName;
  /** -1..1 at full intensity. */
  valence: number;
  /** -1..1 at full intensity. */
  arousal: number;
  /** Every expression joint (gaze joints excluded): the expression's own values, neutral's elsewhere. */
  joints: Readonly<Partial<Record<JointName, number>>>;
}

interface EmotionExpression {
  expression: ExpressionName;
  /** 0..1: how far toward the expression's apex this emotion goes at intensity 10. */
  gain: number;
}

export interface PostureLibrary {
  limits: JointLimits;
  timing: {
    moveMs: number;
    neutralMoveMs: number;
    /** The random wait after an expression before the head goes back to neutral: [min, max] ms. */
    neutralDelayMs: readonly [number, number];
  };
  /** How long a face stays before another replaces it, and what may replace it sooner. */
  hold: {
    /** From a face's start (its move included) until another or the rest face may replace it. */
    minMs: number;
    /** 0..10 after expressiveness: a face this much stronger than the held one replaces it sooner. */
    strongerBy: number;
    /** Events whose face replaces any held one at once (a game's result). */
    events: readonly HoldEvent[];
    /** 0..10 after expressiveness: a reappraisal (a change of estimate) shows a face only this strong. */
    reappraisalMin: number;
  };
  /** Display rules: a card taking the lead of a trick this rich shows no face against its side. */
  display: { richTrickPoints: number };
  /** 0..1: how much the mood tints the neutral face toward happy (good mood) or sad (bad mood). */
  moodTint: number;
  expressions: Readonly<Record<ExpressionName, Expression>>;
  emotions: Readonly<Record<EmotionType, EmotionExpression>>;
}

const jointShape = <T extends z.ZodType>(t: T) => Object.fromEntries(JOINTS.map((j) => [j, t])) as Record<JointName, T>;
const objectOf = <K extends string, T extends z.ZodType>(keys: readonly K[], t: T) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, t])) as Record<K, T>);

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const range = z.tuple([finite, finite]).refine(([min, max]) => min < max, 'expected [min, max] with min below max');

const expressionSchema = z.strictObject({
  valence: z.number().min(-1).max(1),
  arousal: z.number().min(-1).max(1),
  joints: z.strictObject(jointShape(finite.optional())),
});

const emotionSchema = z.union(
  [z.enum(EXPRESSIONS), z.strictObject({ expression: z.enum(EXPRESSIONS), gain: z.number().min(0).max(1).default(1) })],
  { error: `expected an expression (${EXPRESSIONS.join(', ')}) or { expression, gain 0..1 }` },
);

const positiveMs = z.number().int().min(0).max(60_000);

/** The events a face may come with (behaviours/events.ts), for `hold.events`. */
export const HOLD_EVENTS = [
  'session-start',
  'game-start',
  'deal',
  'play',
  'trick',
  'end',
  'session-end',
  'reappraisal',
] as const;
export type HoldEvent = (typeof HOLD_EVENTS)[number];

export const postureFileSchema = z
  .strictObject({
    limits: z.strictObject(jointShape(range.optional())).optional(),
    timing: z.strictObject({
      moveMs: positiveMs,
      neutralMoveMs: positiveMs,
      neutralDelayMs: z
        .tuple([positiveMs, positiveMs])
        .refine(([a, b]) => a <= b, 'expected [min, max] with min <= max'),
    }),
    hold: z
      .strictObject({
        minMs: positiveMs,
        strongerBy: z.number().min(0).max(10),
        events: z.array(z.enum(HOLD_EVENTS)),
        reappraisalMin: z.number().min(0).max(10),
      })
      .default({ minMs: 0, strongerBy: 0, events: [], reappraisalMin: 0 }),
    display: z.strictObject({ richTrickPoints: z.number().int().min(0).max(120) }).default({ richTrickPoints: 0 }),
    moodTint: z.number().min(0).max(1).default(0),
    expressions: objectOf(EXPRESSIONS, expressionSchema),
    emotions: objectOf(EMOTION_TYPES, emotionSchema),
  })
  .superRefine((file, ctx) => {
    const limits = { ...EMYS_LIMITS };
    for (const j of JOINTS) {
      const r = file.limits?.[j];
      if (!r) continue;
      const hw = EMYS_LIMITS[j];
      if (r[0] < hw.min || r[1] > hw.max) {
        ctx.addIssue({
          code: 'custom',
          path: ['limits', j],
          message: `[${r[0]}, ${r[1]}] is wider than EMYS's ${describeJoint(j)} range ${hw.min}..${hw.max} ${jointUnit(j)}`,
        });
      } else limits[j] = { min: r[0], max: r[1] };
    }
    for (const name of EXPRESSIONS) {
      const joints = file.expressions[name].joints;
      for (const j of JOINTS) {
        const v = joints[j];
        if (v === undefined) {
          if (name === 'neutral' && EXPRESSION_JOINTS.includes(j)) {
            ctx.addIssue({
              code: 'custom',
              path: ['expressions', name, 'joints'],
              message: `neutral must set every expression joint; ${j} is missing`,
            });
          }
          continue;
        }
        if (GAZE_JOINTS.includes(j)) {
          ctx.addIssue({
            code: 'custom',
            path: ['expressions', name, 'joints', j],
            message: `${j} belongs to gaze (table-geometry.yaml), not to expressions`,
          });
        } else if (v < limits[j].min || v > limits[j].max) {
          ctx.addIssue({
            code: 'custom',
            path: ['expressions', name, 'joints', j],
            message: `${v} is outside the ${describeJoint(j)} limits ${limits[j].min}..${limits[j].max} ${jointUnit(j)}`,
          });
        }
      }
    }
  })
  .transform((file): PostureLibrary => {
    const limits = Object.fromEntries(
      JOINTS.map((j) => {
        const r = file.limits?.[j];
        return [j, r ? { min: r[0], max: r[1] } : EMYS_LIMITS[j]];
      }),
    ) as Record<JointName, { min: number; max: number }>;
    const neutral = file.expressions.neutral.joints;
    const expressions = Object.fromEntries(
      EXPRESSIONS.map((name) => {
        const e = file.expressions[name];
        const joints = Object.fromEntries(EXPRESSION_JOINTS.map((j) => [j, e.joints[j] ?? neutral[j]!]));
        return [name, { name, valence: e.valence, arousal: e.arousal, joints }];
      }),
    ) as Record<ExpressionName, Expression>;
    const emotions = Object.fromEntries(
      EMOTION_TYPES.map((t) => {
        const m = file.emotions[t];
        return [t, typeof m === 'string' ? { expression: m, gain: 1 } : m];
      }),
    ) as Record<EmotionType, EmotionExpression>;
    return {
      limits,
      timing: file.timing,
      hold: file.hold,
      display: file.display,
      moodTint: file.moodTint,
      expressions,
      emotions,
    };
  });

const describeJoint = (j: JointName): string => j.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** Reads config/postures.yaml (or another file of that form). Throws `ConfigError`. */
export const loadPostureLibrary = (file: string): PostureLibrary => loadYamlConfig(file, postureFileSchema);

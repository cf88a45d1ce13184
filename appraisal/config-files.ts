// The appraisal's YAML files: their schemas (zod), read through config/'s loader (YAML with line
// numbers), so every mistake is one ConfigError naming the file, the line, the key and what was
// expected. Pure: text in, checked data out; reading files is load-character.ts's job.

import { z } from 'zod';
import { parseConfigFile } from '../config/index.js';
import type { ConfigFile, YamlConfigOptions } from '../config/index.js';
import type { ModelConstants } from './character.js';
import { EMOTION_TYPES } from './emotions.js';
import { APPRAISAL_EVENT_TYPES } from './events.js';

export type Path = readonly (string | number)[];

/** A checked file, with the means to point at any of its keys. */
export type Located<T> = ConfigFile<T>;

// The schemas below word their own messages; the first mistake the schema finds is told, with its
// line (no column), as it always was.
const APPRAISAL_FILES: YamlConfigOptions = { firstOnly: true, columns: false };

const check = <T>(schema: z.ZodType<T>, text: string, file: string): Located<T> =>
  parseConfigFile(text, file, schema, APPRAISAL_FILES);

/** An object whose unknown keys are named in the error, with the keys it knows. */
function strict<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown key "${iss.keys[0]}" (expected ${known})`
        : iss.code === 'invalid_type'
          ? `expected a mapping with keys ${known}`
          : undefined,
  });
}

const number = (what: string, min: number, max: number) =>
  z
    .number({ error: `expected a number (${what})` })
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const eventType = z.enum(APPRAISAL_EVENT_TYPES as [string, ...string[]], {
  error: `expected an event type: ${APPRAISAL_EVENT_TYPES.join(', ')}`,
});

const disposition = strict({
  threshold: number('potential to exceed', 0, 10).optional(),
  decay: number('decay factor', 0, 10).optional(),
});
const dispositions = strict(Object.fromEntries(['default', ...EMOTION_TYPES].map((t) => [t, disposition.optional()])));

const SETTINGS_SCHEMA = strict({
  character: z.string({ error: 'expected the name of a preset (a .yaml file beside this one)' }).min(1),
  model: strict({
    tickMs: number('milliseconds per tick', 1, 3_600_000),
    emotionHalfLifeTicks: number('ticks', 0.001, 1e9),
    moodHalfLifeTicks: number('ticks', 0.001, 1e9),
    moodInfluenceOnEmotion: number('a factor', 0, 10),
    emotionInfluenceOnMood: number('a factor', 0, 10),
    neutralMoodBand: number('a mood value', 0, 10),
    minimumIntensity: number('an intensity', 0, 10),
    likeFactor: number('a factor', 0, 10),
  }),
  dispositions: dispositions.refine((d) => d.default?.threshold !== undefined && d.default.decay !== undefined, {
    message: 'needs default: { threshold, decay }',
  }),
});

const numberOrExpression = z.union([z.number(), z.string().min(1)], { error: 'expected a number or an expression' });
const byTarget = z.record(z.string(), numberOrExpression, {
  error: 'expected a mapping of target to a number or an expression',
});
const condition = z.union([z.string().min(1), z.boolean()], { error: 'expected an expression (or true / false)' });

const RULE_SCHEMA = strict({
  name: z.string({ error: 'expected a name' }).min(1),
  on: z.union([eventType, z.array(eventType).min(1)], {
    error: `expected an event type or a list of them: ${APPRAISAL_EVENT_TYPES.join(', ')}`,
  }),
  when: z
    .union([condition, z.array(condition).min(1)], {
      error: 'expected an expression or a list of expressions (all must hold)',
    })
    .optional(),
  appraise: strict({
    desirability: numberOrExpression.optional(),
    'desirability-for-other': byTarget.optional(),
    praiseworthiness: byTarget.optional(),
    like: byTarget.optional(),
    'goal-success-probability': z
      .record(z.string(), numberOrExpression, { error: 'expected a mapping of goal name to a probability' })
      .optional(),
    'goal-achieved': z
      .record(z.string(), condition, { error: 'expected a mapping of goal name to true, false or a condition' })
      .optional(),
  }).optional(),
});

const GOAL_SCHEMA = strict({
  significance: number('how much the goal matters', 0, 10),
  likelihood: number('a probability', 0, 1).optional(),
  minChange: number('a change of probability', 0, 1).optional(),
  resetOn: z.array(eventType).optional(),
});

const PRESET_SCHEMA = strict({
  description: z.string().optional(),
  include: z.array(z.string().min(1), { error: 'expected a list of file names' }).optional(),
  dispositions: dispositions.optional(),
  surpriseGain: number('how strongly an unexpected event is taken', 0, 2).optional(),
  noiseBand: number('standard errors of the estimates', 0, 4).optional(),
  leadTrickPoints: number('card points on the table', 0, 120).optional(),
  goals: z
    .record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'goal names are lower case words joined by -'), GOAL_SCHEMA)
    .optional(),
  rules: z.array(RULE_SCHEMA, { error: 'expected a list of rules' }).optional(),
});

export type SettingsFile = z.infer<typeof SETTINGS_SCHEMA> & { model: ModelConstants };
export type PresetFile = z.infer<typeof PRESET_SCHEMA>;
export type RuleEntry = z.infer<typeof RULE_SCHEMA>;

/** appraisal.yaml: the model's constants, default dispositions and the character in use. */
export const parseSettings = (text: string, file: string): Located<SettingsFile> =>
  check(SETTINGS_SCHEMA, text, file) as Located<SettingsFile>;

/** A character preset: includes, dispositions, goals and rules. */
export const parsePreset = (text: string, file: string): Located<PresetFile> => check(PRESET_SCHEMA, text, file);

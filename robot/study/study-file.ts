// The study file: a study as data (YAML, checked by a zod schema; mistakes name the file, line and key).
// It names the study, its conditions (session settings and behaviour toggles), games and participants
// per session, how people are assigned to conditions and seats, and the questionnaires before and after.
// docs/studies.md explains each key; config/studies/sueca-trust.yaml is the paper's study.

import { z } from 'zod';
import { parseConfigFile, readConfigText } from '../../config/index.js';
import { LEVEL_NAMES, isLevelName } from '../../game/index.js';
import { togglesSchema } from '../../behaviours/index.js';
import { CHOICE_KEYS, SESSION_FIELDS, choiceOf, parseChoice } from '../live/index.js';
import type { ChoiceKey } from '../live/index.js';

/** Ids of studies, conditions and questionnaires: they name folders and files. */
const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const id = (what: string) =>
  z.string().regex(ID, `${what}: lowercase letters, digits and dashes, starting with a letter or digit`);

/** The assignment schemes (docs/studies.md, "Assignment"). */
export const ASSIGNMENT_SCHEMES = ['draw', 'counterbalanced'] as const;
export type AssignmentScheme = (typeof ASSIGNMENT_SCHEMES)[number];

/** The speech backends a condition may choose (behaviours/). */
const SPEECH_BACKENDS = ['log', 'espeak-ng', 'say', 'festival', 'publish'] as const;

/**
 * The session settings a condition may set: every setting a person chooses by a flag (SESSION_FIELDS'
 * choices) but the games (a study's, the same for every condition), the recording's format (the lab's)
 * and the participants (the study's own); plus when the robot greets, its seat, its level of play and
 * its speech backend.
 */
const FROM_CHOICES = CHOICE_KEYS.filter(
  (k) => choiceOf(k).flag !== undefined && k !== 'games' && k !== 'recordingFormat' && k !== 'participants',
);
export const CONDITION_SETTINGS: readonly string[] = [...FROM_CHOICES, 'greet', 'robotSeat', 'level', 'speech'];
export type ConditionSettingKey = ChoiceKey | 'robotSeat' | 'level' | 'speech';

/** One setting's value from the file: the decoded value, or what it expects. */
function settingValue(key: string, raw: unknown): { value: unknown } | { expected: string } {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
    return { expected: 'a single value (a word, a number, true or false)' };
  const text = String(raw);
  if (key === 'level') return isLevelName(text) ? { value: text } : { expected: `one of ${LEVEL_NAMES.join(', ')}` };
  if (key === 'speech')
    return (SPEECH_BACKENDS as readonly string[]).includes(text)
      ? { value: text }
      : { expected: `one of ${SPEECH_BACKENDS.join(', ')}` };
  if (key === 'robotSeat') {
    const r = z.safeDecode(SESSION_FIELDS.robotSeat.codec, text);
    return r.success ? { value: r.data } : { expected: 'a seat, 0 to 3' };
  }
  return parseChoice(key as ChoiceKey, text);
}

const settingsSchema = z.record(z.string(), z.unknown()).transform((given, ctx) => {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(given)) {
    if (!CONDITION_SETTINGS.includes(key)) {
      ctx.issues.push({
        code: 'custom',
        path: [key],
        input: raw,
        message: `not a setting a condition can choose (these are: ${CONDITION_SETTINGS.join(', ')})`,
      });
      continue;
    }
    const r = settingValue(key, raw);
    if ('expected' in r)
      ctx.issues.push({
        code: 'custom',
        path: [key],
        input: raw,
        message: `expected ${r.expected}, got ${JSON.stringify(raw)}`,
      });
    else out[key] = r.value;
  }
  return out as ConditionSettings;
});

/** A condition's session settings, decoded (a number is a number, a seat a Seat). */
export type ConditionSettings = { [K in ConditionSettingKey]?: unknown } & { robotSeat?: 0 | 1 | 2 | 3 };

const conditionSchema = z.strictObject({
  id: id('a condition id'),
  description: z.string().max(2000).optional(),
  /** Session settings (SESSION_FIELDS' chosen ones, robotSeat, level, speech), as a command-line flag would take them. */
  settings: settingsSchema.default({}),
  /** The operator's behaviour toggles at the session's start (config/behaviours.yaml's toggles). */
  toggles: togglesSchema.partial().default({}),
});

const questionnaireList = z.array(id('a questionnaire id')).max(50).default([]);

export const studySchema = z.strictObject({
  /** Names the study's folder (studies/<id>/). */
  id: id('a study id'),
  title: z.string().min(1).max(300),
  description: z.string().max(10_000).optional(),
  /** People the study aims for (the paper: 60); at most sessions x participantsPerSession. */
  participants: z.number().int().min(1).max(100_000).optional(),
  /** Sessions planned (the paper: 20). */
  sessions: z.number().int().min(1).max(10_000),
  /** People at the table per session, beside the robot (the paper: 3); empty seats get simulated players. */
  participantsPerSession: z.number().int().min(1).max(3).default(3),
  /** Games per session (the paper: 5). */
  games: z.number().int().min(1).max(1000),
  assignment: z.strictObject({
    scheme: z.enum(ASSIGNMENT_SCHEMES),
    /** Seeds the draw (seats, the order of conditions) and each session's games. */
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
  conditions: z.array(conditionSchema).min(1).max(100),
  questionnaires: z.strictObject({ pre: questionnaireList, post: questionnaireList }).default({ pre: [], post: [] }),
  consent: z
    .strictObject({
      /** The consent text's version in use; `add-participant` defaults to it. */
      version: z.string().min(1).max(100),
    })
    .optional(),
});

export type Study = z.output<typeof studySchema>;
export type Condition = Study['conditions'][number];

/** A study file checked: the schema, then what it cannot say (ids unique, the participants fit). */
export function parseStudy(text: string, file: string): Study {
  const f = parseConfigFile(text, file, studySchema);
  const study = f.value;
  const seen = new Set<string>();
  study.conditions.forEach((c, i) => {
    if (seen.has(c.id)) throw f.error(['conditions', i, 'id'], `the condition "${c.id}" is named twice`);
    seen.add(c.id);
  });
  for (const phase of ['pre', 'post'] as const) {
    const list = study.questionnaires[phase];
    list.forEach((q, i) => {
      if (list.indexOf(q) !== i) throw f.error(['questionnaires', phase, i], `the questionnaire "${q}" is given twice`);
    });
  }
  const seats = study.sessions * study.participantsPerSession;
  if (study.participants !== undefined && study.participants > seats)
    throw f.error(
      ['participants'],
      `${study.participants} participants do not fit in ${study.sessions} sessions of ${study.participantsPerSession}`,
    );
  return study;
}

/** Reads and checks a study file. Throws ConfigError naming the file and line. */
export const loadStudy = (file: string): Study => parseStudy(readConfigText(file), file);

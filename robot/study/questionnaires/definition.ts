// A questionnaire as data: a SurveyJS definition (`survey`, rendered as it is by the page) with what
// Parceiro relies on beside it: its id and version, the languages every text must have, and how its
// items make scales (`scoring`). Read from JSON (JSON is YAML, so config/'s reader gives the line of a
// mistake); only the parts we rely on are checked, the rest of `survey` is SurveyJS's business.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { ConfigError, configPath, parseConfigFile, readConfigText } from '../../../config/index.js';

/** pt and en: SurveyJS keeps English under "default" (its default locale). */
export const QUESTIONNAIRE_LANGUAGES = ['pt', 'en'] as const;
export type QuestionnaireLanguage = (typeof QUESTIONNAIRE_LANGUAGES)[number];

const ID = /^[a-z][a-z0-9_-]{0,39}$/;
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,59}$/;

const text = z.union([z.string().min(1), z.record(z.string(), z.string())]);

const scaleSchema = z.strictObject({
  /** The items whose (reverse-scored) answers are averaged. */
  items: z.array(z.string().regex(NAME, 'expected an item name (letters, digits, _)')).min(1),
  /** Items scored as min + max - answer. */
  reverse: z.array(z.string()).default([]),
  /** The ends of every item's scale, and so of the score. */
  min: z.number(),
  max: z.number(),
});
export type ScaleDefinition = z.output<typeof scaleSchema>;

// A question: its name and, where given, the values it takes. Other keys are SurveyJS's.
const choiceSchema = z.union([z.string(), z.number(), z.looseObject({ value: z.union([z.string(), z.number()]) })]);
const questionSchema = z.looseObject({
  type: z.string().min(1),
  name: z.string().regex(NAME, 'expected a name of letters, digits and _, starting with a letter'),
  title: text.optional(),
  rateValues: z.array(choiceSchema).optional(),
  rateMin: z.number().optional(),
  rateMax: z.number().optional(),
  rateStep: z.number().positive().optional(),
  choices: z.array(choiceSchema).optional(),
});
const pageSchema = z.looseObject({
  name: z.string().optional(),
  elements: z.array(questionSchema).min(1),
});

const definitionSchema = z.strictObject({
  id: z.string().regex(ID, 'expected an id of lower-case letters, digits, _ and -'),
  version: z.string().min(1),
  /** The languages of every text (SurveyJS's "default" is English). */
  languages: z.array(z.enum(QUESTIONNAIRE_LANGUAGES)).min(1),
  /** Where the items come from (a reference), for the codebook and the docs. */
  source: z.string().optional(),
  /** Words put in the texts' {placeholders}, by the participant's situation (e.g. {partner}: robot or human). */
  variables: z.record(z.string(), z.record(z.string(), text)).optional(),
  scoring: z.strictObject({ scales: z.record(z.string().regex(NAME, 'expected a scale name'), scaleSchema) }),
  survey: z.looseObject({ pages: z.array(pageSchema).min(1) }),
});

export type QuestionnaireFile = z.output<typeof definitionSchema>;

/** A questionnaire ready to give and score. */
export interface Questionnaire {
  id: string;
  version: string;
  languages: QuestionnaireLanguage[];
  source?: string;
  /** The file it was read from, as shown to people. */
  file: string;
  /** The SurveyJS JSON, as in the file. */
  survey: Record<string, unknown>;
  variables: Record<string, Record<string, string | Record<string, string>>>;
  scales: Record<string, ScaleDefinition>;
  /** Every question's name, in the order asked, with the values it may take (null: any). */
  items: { name: string; values: (string | number)[] | null; type: string; required: boolean }[];
}

/** The values a question takes, or null when any (text, comments). */
function valuesOf(q: z.output<typeof questionSchema>): (string | number)[] | null {
  const listed = q.rateValues ?? q.choices;
  if (listed) return listed.map((c) => (typeof c === 'object' ? c.value : c));
  if (q.type === 'rating') {
    const min = q.rateMin ?? 1;
    const max = q.rateMax ?? 5;
    const step = q.rateStep ?? 1;
    const out: number[] = [];
    for (let v = min; v <= max + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
    return out;
  }
  return null;
}

type Located = ReturnType<typeof parseConfigFile<typeof definitionSchema>>;

/** Every text (a title, a description...) at `path` in the SurveyJS part, for the language check. */
function* textsOf(node: unknown, path: (string | number)[]): Generator<{ path: (string | number)[]; value: unknown }> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* textsOf(v, [...path, i]);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (TEXT_KEYS.has(k)) yield { path: [...path, k], value: v };
    else yield* textsOf(v, [...path, k]);
  }
}
/** SurveyJS's localizable strings that a participant reads. */
const TEXT_KEYS = new Set([
  'title',
  'description',
  'text',
  'otherText',
  'minRateDescription',
  'maxRateDescription',
  'placeholder',
  'completedHtml',
]);

/**
 * The languages missing from one text. A plain string is every language's when it has no letters
 * ("70%"), or when only one language is declared.
 */
function missingLanguages(value: unknown, languages: readonly QuestionnaireLanguage[]): string[] {
  if (typeof value === 'string')
    return languages.length > 1 && /\p{L}/u.test(value) ? languages.filter((l) => l !== 'en') : [];
  if (value === null || typeof value !== 'object') return [];
  const have = value as Record<string, unknown>;
  return languages.filter((l) => {
    const v = l === 'en' ? (have['default'] ?? have['en']) : have[l];
    return typeof v !== 'string' || v.trim() === '';
  });
}

/** The checks across keys: unique names, scales over items that exist with the scale's values, every language. */
function checked(f: Located): Questionnaire {
  const d = f.value;
  const items: Questionnaire['items'] = [];
  const at = new Map<string, (string | number)[]>();
  d.survey.pages.forEach((page, p) =>
    page.elements.forEach((q, e) => {
      const path = ['survey', 'pages', p, 'elements', e, 'name'];
      if (at.has(q.name)) throw f.error(path, `"${q.name}" is the name of an earlier question too: names must differ`);
      at.set(q.name, path);
      items.push({ name: q.name, values: valuesOf(q), type: q.type, required: q['isRequired'] === true });
    }),
  );
  for (const [scale, s] of Object.entries(d.scoring.scales)) {
    const base = ['scoring', 'scales', scale];
    if (!(s.min < s.max)) throw f.error([...base, 'max'], `expected more than min (${s.min})`);
    s.items.forEach((name, i) => {
      const item = items.find((it) => it.name === name);
      if (!item) throw f.error([...base, 'items', i], `no question of the survey is named "${name}"`);
      const values = item.values;
      if (!values || values.some((v) => typeof v !== 'number'))
        throw f.error([...base, 'items', i], `"${name}" does not take numbers (a rating or numeric choices) to score`);
      const nums = values as number[];
      if (Math.min(...nums) !== s.min || Math.max(...nums) !== s.max)
        throw f.error(
          [...base, 'items', i],
          `"${name}" takes ${Math.min(...nums)} to ${Math.max(...nums)}, but the scale goes from ${s.min} to ${s.max}`,
        );
    });
    s.reverse.forEach((name, i) => {
      if (!s.items.includes(name)) throw f.error([...base, 'reverse', i], `"${name}" is not one of this scale's items`);
    });
  }
  for (const t of textsOf(d.survey, ['survey'])) {
    const missing = missingLanguages(t.value, d.languages);
    if (missing.length > 0)
      throw f.error(
        t.path,
        `no ${missing.join(' or ')} text (give {"default": English, "pt": Portuguese}, one key per language)`,
      );
  }
  for (const [name, cases] of Object.entries(d.variables ?? {}))
    for (const [k, v] of Object.entries(cases)) {
      const missing = missingLanguages(v, d.languages);
      if (missing.length > 0) throw f.error(['variables', name, k], `no ${missing.join(' or ')} text`);
    }
  return {
    id: d.id,
    version: d.version,
    languages: d.languages,
    ...(d.source === undefined ? {} : { source: d.source }),
    file: f.file,
    survey: d.survey as Record<string, unknown>,
    variables: d.variables ?? {},
    scales: d.scoring.scales,
    items,
  };
}

/** Reads and checks one definition file. Throws ConfigError naming the file, line and key. */
export function readQuestionnaireFile(file: string, expectedId?: string): Questionnaire {
  const f = parseConfigFile(readConfigText(file), file, definitionSchema);
  if (expectedId !== undefined && f.value.id !== expectedId)
    throw f.error(['id'], `expected "${expectedId}" (the file's name), got "${f.value.id}"`);
  return checked(f);
}

export interface QuestionnaireLookup {
  /** A study folder: its `questionnaires/<id>.json` comes before the shipped one. */
  studyDir?: string;
  /** Folders searched before config/questionnaires/, in order. */
  dirs?: readonly string[];
}

/** The folders searched for `<id>.json`, first first. */
export const questionnaireDirs = (o: QuestionnaireLookup = {}): string[] => [
  ...(o.studyDir === undefined ? [] : [join(o.studyDir, 'questionnaires')]),
  ...(o.dirs ?? []),
  configPath('questionnaires'),
];

/**
 * The questionnaire `id`: the study's own definition when it has one (a lab edits or replaces the
 * shipped ones there), else the shipped one (config/questionnaires/). Throws ConfigError.
 */
export function loadQuestionnaire(id: string, o: QuestionnaireLookup = {}): Questionnaire {
  if (!ID.test(id))
    throw new ConfigError({
      file: id,
      line: null,
      key: '',
      reason: 'not a questionnaire id (lower-case letters, digits, _ and -)',
    });
  const dirs = questionnaireDirs(o);
  for (const dir of dirs) {
    const file = join(dir, `${id}.json`);
    if (existsSync(file)) return readQuestionnaireFile(file, id);
  }
  throw new ConfigError({
    file: `${id}.json`,
    line: null,
    key: '',
    reason: `no questionnaire "${id}" in ${dirs.join(' or ')}`,
  });
}

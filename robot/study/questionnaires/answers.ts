// Answers as they are given: one file per participant, questionnaire and phase,
// `<study>/answers/<code>/<questionnaire>.<pre|post>.json`, rewritten whole (through a temporary file
// and a rename, so a crash leaves the old or the new one) at every answer a participant gives. A
// questionnaire left halfway stays `complete: false` with what was answered.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Questionnaire, QuestionnaireLanguage } from './definition.js';

export const PHASES = ['pre', 'post'] as const;
export type Phase = (typeof PHASES)[number];

/** The file's contents (the contract with the study's export). */
export interface AnswerFile {
  code: string;
  questionnaire: string;
  version: string;
  phase: Phase;
  language: QuestionnaireLanguage;
  /** ISO 8601 times: the first answer (or opening) and the latest change. */
  startedAt: string;
  updatedAt: string;
  complete: boolean;
  answers: Record<string, string | number>;
}

/** A participant's code as it can name a folder: no path, no names. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const isParticipantCode = (code: string): boolean => CODE.test(code);

export const answerPath = (studyDir: string, code: string, questionnaire: string, phase: Phase): string =>
  join(studyDir, 'answers', code, `${questionnaire}.${phase}.json`);

/** Why `value` cannot be the answer to `name` of `q`, or null when it can. */
export function answerRefusal(q: Questionnaire, name: string, value: unknown): string | null {
  // SurveyJS keeps the words of an "other" choice under `<name>-Comment`.
  const comment = name.endsWith('-Comment') ? q.items.find((i) => `${i.name}-Comment` === name) : undefined;
  if (comment)
    return typeof value === 'string' && value.length <= 500 ? null : 'expected a text of 500 characters at most';
  const item = q.items.find((i) => i.name === name);
  if (!item) return `${q.id} has no question "${name}"`;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'expected a finite number';
  if (typeof value !== 'string' && typeof value !== 'number') return 'expected a number or a text';
  if (typeof value === 'string' && value.length > 500) return 'expected a text of 500 characters at most';
  if (item.values === null) return null;
  // SurveyJS's "other" choice.
  if (value === 'other') return null;
  return item.values.includes(value) ? null : `"${name}" takes ${item.values.join(', ')}; got ${JSON.stringify(value)}`;
}

/** The answer files of one study folder. `now`: milliseconds since the epoch (injected). */
export class AnswerStore {
  constructor(
    readonly studyDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The file, or null when this participant has not opened this questionnaire in this phase. */
  read(code: string, questionnaire: string, phase: Phase): AnswerFile | null {
    try {
      return JSON.parse(readFileSync(answerPath(this.studyDir, code, questionnaire, phase), 'utf8')) as AnswerFile;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** The file as it is, created (empty, not complete) when it is not there yet. */
  open(code: string, q: Questionnaire, phase: Phase, language: QuestionnaireLanguage): AnswerFile {
    const found = this.read(code, q.id, phase);
    if (found) return found;
    const at = new Date(this.now()).toISOString();
    const file: AnswerFile = {
      code,
      questionnaire: q.id,
      version: q.version,
      phase,
      language,
      startedAt: at,
      updatedAt: at,
      complete: false,
      answers: {},
    };
    this.#write(file);
    return file;
  }

  /** One answer changed (null: cleared); saved at once. */
  answer(
    code: string,
    q: Questionnaire,
    phase: Phase,
    language: QuestionnaireLanguage,
    name: string,
    value: string | number | null,
  ): AnswerFile {
    const file = this.open(code, q, phase, language);
    if (value === null) delete file.answers[name];
    else file.answers[name] = value;
    file.language = language;
    file.updatedAt = new Date(this.now()).toISOString();
    this.#write(file);
    return file;
  }

  /** The participant finished it (SurveyJS's Complete, every required question answered). */
  complete(code: string, q: Questionnaire, phase: Phase, language: QuestionnaireLanguage): AnswerFile {
    const file = this.open(code, q, phase, language);
    file.complete = true;
    file.updatedAt = new Date(this.now()).toISOString();
    this.#write(file);
    return file;
  }

  #write(file: AnswerFile): void {
    const path = answerPath(this.studyDir, file.code, file.questionnaire, file.phase);
    mkdirSync(join(this.studyDir, 'answers', file.code), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(tmp, path);
  }
}

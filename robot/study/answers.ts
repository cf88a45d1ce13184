// What participants answered, as the questionnaires' code stores it (questionnaires/): read here for
// the status, the export and the report.

import { existsSync, readdirSync } from 'node:fs';
import { z } from 'zod';
import { filesIn, readJson } from './json-files.js';
import { answerFile, answersDir } from './layout.js';
import type { Phase } from './layout.js';

const answerSchema = z.object({
  code: z.string(),
  questionnaire: z.string(),
  version: z.union([z.string(), z.number()]).transform(String),
  phase: z.enum(['pre', 'post']),
  language: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  complete: z.boolean(),
  answers: z.record(z.string(), z.unknown()),
});
export type AnswerSet = z.output<typeof answerSchema>;

export function getAnswers(dir: string, code: string, questionnaire: string, phase: Phase): AnswerSet | null {
  const file = answerFile(dir, code, questionnaire, phase);
  return existsSync(file) ? readJson(file, answerSchema) : null;
}

/** Every answer set in the study, by participant code then file name. */
export function listAnswers(dir: string): AnswerSet[] {
  const root = answersDir(dir);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .flatMap((code) =>
      filesIn(answersDir(dir, code), '.json').map((f) => readJson(`${answersDir(dir, code)}/${f}`, answerSchema)),
    );
}

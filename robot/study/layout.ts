// Where a study keeps what it knows, under its folder (docs/studies.md, "The study's folder"). This
// layout is shared with the questionnaires' code (questionnaires/): change it in both or not at all.
//
//   <dir>/study.yaml                                   the study file as created
//   <dir>/participants/<code>.json                     Participant
//   <dir>/sessions/<sessionId>.json                    StudySession (recordings beside them)
//   <dir>/answers/<code>/<questionnaire>.<phase>.json  what a participant answered
//   <dir>/notes.jsonl                                  the operator's notes, one JSON object a line
//   <dir>/consent/<version>.txt                        each consent text, as participants saw it
//   <dir>/exports.jsonl                                where exports were written (a deletion rewrites them)

import { join } from 'node:path';

export const STUDY_FILE = 'study.yaml';

export const studyFile = (dir: string): string => join(dir, STUDY_FILE);
export const participantsDir = (dir: string): string => join(dir, 'participants');
export const participantFile = (dir: string, code: string): string => join(dir, 'participants', `${code}.json`);
export const sessionsDir = (dir: string): string => join(dir, 'sessions');
export const sessionFile = (dir: string, id: string): string => join(dir, 'sessions', `${id}.json`);
export const answersDir = (dir: string, code?: string): string =>
  code === undefined ? join(dir, 'answers') : join(dir, 'answers', code);
export const answerFile = (dir: string, code: string, questionnaire: string, phase: Phase): string =>
  join(dir, 'answers', code, `${questionnaire}.${phase}.json`);
export const notesFile = (dir: string): string => join(dir, 'notes.jsonl');
export const consentFile = (dir: string, version: string): string => join(dir, 'consent', `${version}.txt`);
export const exportsLog = (dir: string): string => join(dir, 'exports.jsonl');

/** Before the games or after them. */
export type Phase = 'pre' | 'post';
export const PHASES: readonly Phase[] = ['pre', 'post'];

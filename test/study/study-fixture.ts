// A small simulated study, made as a lab makes one with the commands: two conditions, six participants
// with consent, two sessions planned by the counterbalanced schedule and played through the simulated
// table (`parceiro simulate`, one fast game each, with the seats' codes in the recording), recordings
// attached, and questionnaires answered by scripted participants (one abandoned halfway).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../launch/run-cli.js';

export const STUDY_YAML = `id: lab
title: A simulated lab study
sessions: 4
participantsPerSession: 3
games: 1
assignment:
  scheme: counterbalanced
  seed: 5
conditions:
  - id: warm
    settings: { character: warm }
  - id: competitive
    settings: { character: competitive }
questionnaires:
  pre: [trust14]
  post: [trust14]
consent:
  version: v1
`;

export const CODES = ['P-A2B3', 'P-C4D5', 'P-E6F7', 'P-G8H9', 'P-J2K3', 'P-M4N5'];

/** The 14 items of trust14 (config/questionnaires/trust14.json). */
export const TRUST_ITEMS = [
  'function_successfully',
  'act_consistently',
  'reliable',
  'predictable',
  'dependable',
  'follow_directions',
  'meet_needs',
  'perform_as_instructed',
  'have_errors',
  'appropriate_information',
  'unresponsive',
  'malfunction',
  'communicate',
  'provide_feedback',
];
export const REVERSED = ['have_errors', 'unresponsive', 'malfunction'];

export interface SimulatedStudy {
  /** The study's folder. */
  dir: string;
  sessions: { id: string; seats: Record<string, string>; condition: string }[];
  /** Each participant's answers by phase: every item at one value (the last participant's post stops halfway). */
  answers: Record<string, { pre: number; post: number }>;
}

async function ok(args: string[], cwd: string): Promise<string> {
  const r = await runCli(args, cwd);
  if (r.code !== 0) throw new Error(`parceiro ${args.join(' ')} failed (${r.code}): ${r.err}`);
  return r.out;
}

/** Writes an answer file as the questionnaires' code does (the layout both share). */
export function writeAnswers(
  dir: string,
  code: string,
  phase: 'pre' | 'post',
  value: number,
  items = TRUST_ITEMS,
): void {
  mkdirSync(join(dir, 'answers', code), { recursive: true });
  writeFileSync(
    join(dir, 'answers', code, `trust14.${phase}.json`),
    JSON.stringify({
      code,
      questionnaire: 'trust14',
      version: '1',
      phase,
      language: 'pt',
      startedAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:04:00.000Z',
      complete: items.length === TRUST_ITEMS.length,
      answers: Object.fromEntries(items.map((i) => [i, value])),
    }),
  );
}

export async function simulatedStudy(root: string): Promise<SimulatedStudy> {
  writeFileSync(join(root, 'lab.yaml'), STUDY_YAML);
  writeFileSync(join(root, 'consent.txt'), 'I agree to take part in the study.\n');
  await ok(['study', 'create', 'lab.yaml'], root);
  const dir = join(root, 'studies', 'lab');
  await ok(['study', 'add-participant', dir, '--code', CODES[0]!, '--consent-text', 'consent.txt'], root);
  await Promise.all(CODES.slice(1).map((code) => ok(['study', 'add-participant', dir, '--code', code], root)));
  const sessions: SimulatedStudy['sessions'] = [];
  for (const group of [CODES.slice(0, 3), CODES.slice(3)]) {
    await ok(['study', 'next', dir, '--participants', group.join(',')], root);
    const id = `S0${sessions.length + 1}`;
    const s = JSON.parse(readFileSync(join(dir, 'sessions', `${id}.json`), 'utf8'));
    sessions.push({ id, seats: s.seats, condition: s.condition });
    await ok(['study', 'note', dir, `${id} planned`, '--session', id], root);
  }
  await Promise.all(
    sessions.map(async (s) => {
      const file = JSON.parse(readFileSync(join(dir, 'sessions', `${s.id}.json`), 'utf8'));
      const codes = Object.entries(s.seats)
        .filter(([, h]) => h.startsWith('P-'))
        .map(([seat, h]) => `${seat}=${h}`)
        .join(',');
      await ok(
        [
          'simulate',
          '--games',
          '1',
          '--seed',
          String(file.seed),
          '--session',
          s.id,
          '--bot-think',
          '0',
          '--min-think',
          '0',
          '--budget',
          '50',
          // The conditions are named after the robot's character.
          '--character',
          s.condition,
          '--participants',
          codes,
          '--recordings',
          join(dir, 'sessions'),
          '--json',
        ],
        root,
      );
      await ok(['study', 'attach', dir, s.id, join(dir, 'sessions', `${s.id}.mcap`)], root);
    }),
  );
  const answers: SimulatedStudy['answers'] = {};
  CODES.forEach((code, i) => {
    const pre = 40 + i * 5;
    const post = pre + (i % 2 === 0 ? 20 : -10);
    answers[code] = { pre, post };
    writeAnswers(dir, code, 'pre', pre);
    // The last participant leaves the post questionnaire halfway.
    writeAnswers(dir, code, 'post', post, i === CODES.length - 1 ? TRUST_ITEMS.slice(0, 7) : TRUST_ITEMS);
  });
  return { dir, sessions, answers };
}

/** RFC 4180 CSV into rows of named fields (the test's own reader, as strict as R's). */
export function readCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  const [header, ...body] = rows;
  for (const r of body)
    if (r.length !== header!.length) throw new Error(`a row of ${r.length} fields under ${header!.length} columns`);
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}

// parceiro study export: a study's data as tidy CSV and a codebook (docs/studies.md, "Export"):
//   questionnaires.csv  one row per participant, questionnaire and phase: item answers and scores
//   sessions.csv        one row per session: condition, seats by code, victories, points, duration
//   games.csv           one row per session and game
//   decisions.csv       one row per thing the robot did: decision, emotion, face, line
//   codebook.json       every column of every file
// Participants appear by code only; a deleted participant's seat says "deleted". The recordings are
// read here (readRecording); the answers are scored by the questionnaires' own definitions.

import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Seat } from '../../../game/index.js';
import { readRecording } from '../../recording/index.js';
import { listAnswers } from '../answers.js';
import { partnerKind, partnerSeat } from '../assignment.js';
import type { Seats } from '../assignment.js';
import { exportsLog, sessionsDir } from '../layout.js';
import type { Now } from '../participants.js';
import { listSessions } from '../sessions.js';
import type { StudySession } from '../sessions.js';
import { readStudy } from '../study-dir.js';
import { scoreAnswers } from '../questionnaires/index.js';
import type { ColumnDoc } from './codebook.js';
import {
  DECISION_COLUMNS,
  GAME_COLUMNS,
  QUESTIONNAIRE_COLUMNS,
  SESSION_COLUMNS,
  itemColumn,
  scoreColumn,
} from './codebook.js';
import { columnName, toCsv } from './csv.js';
import type { Cell } from './csv.js';
import { recordedSession } from './recorded-session.js';
import type { RecordedSession } from './recorded-session.js';

export type Row = Record<string, Cell>;

/** Scores one participant's answers to a questionnaire (by scale); the questionnaires' scoreAnswers by default. */
export type Scorer = (questionnaire: string, answers: Readonly<Record<string, unknown>>) => Record<string, number>;

export interface ExportOptions {
  score?: Scorer;
  now?: Now;
}

export interface StudyExport {
  out: string;
  /** Each file written with its rows. */
  files: { name: string; rows: number }[];
  /** What the lab should know: a missing recording, codes that disagree, a questionnaire without a definition. */
  notes: string[];
}

/** The seats' holders as the export shows them. */
const seatCells = (seats: Seats): Row =>
  Object.fromEntries([0, 1, 2, 3].map((s) => [`seat${s}`, seats[String(s) as keyof Seats]]));

const relation = (robot: Seat, seat: Seat | null): string | null =>
  seat === null ? null : seat === robot ? 'self' : seat === partnerSeat(robot) ? 'partner' : 'opponent';

/** The session's recording(s), read; null when it has none (not run yet) or the file is gone (a note says so). */
function readSession(dir: string, s: StudySession, notes: string[]): RecordedSession | null {
  if (s.recording === undefined) return null;
  const names = [s.recording, ...(s.parts ?? [])];
  const missing = names.filter((n) => !existsSync(join(sessionsDir(dir), n)));
  if (missing.length) {
    notes.push(`session ${s.id}: recording ${missing.join(', ')} is missing from ${sessionsDir(dir)}`);
    return null;
  }
  const rec = recordedSession(names.map((n) => readRecording(join(sessionsDir(dir), n))));
  for (const p of rec.problems) notes.push(`session ${s.id}: ${p}`);
  // The recording names codes by seat: each must be the session's (or a participant since deleted).
  if (rec.codes)
    for (const [seat, code] of Object.entries(rec.codes)) {
      const holder = s.seats[seat as keyof Seats];
      if (holder !== code && holder !== 'deleted')
        notes.push(
          `session ${s.id}: the recording seats a different participant in seat ${seat} than the session file (${holder})`,
        );
    }
  else
    notes.push(
      `session ${s.id}: the recording names no participants (made without --participants); the session file's seats are used`,
    );
  const robot = Number(Object.entries(s.seats).find(([, h]) => h === 'robot')?.[0] ?? rec.robotSeat);
  if (robot !== rec.robotSeat)
    notes.push(
      `session ${s.id}: the recording has the robot in seat ${rec.robotSeat}, the session file in seat ${robot}`,
    );
  return rec;
}

function sessionRow(studyId: string, s: StudySession, rec: RecordedSession | null): Row {
  const robot = (rec?.robotSeat ?? 0) as Seat;
  const ended = rec?.games.filter((g) => g.result !== 'unfinished') ?? [];
  const total = ended.at(-1)?.total ?? null;
  const sum = (i: 0 | 1): number | null => (rec ? ended.reduce((a, g) => a + (g.points?.[i] ?? 0), 0) : null);
  return {
    study: studyId,
    session: s.id,
    session_index: s.index,
    condition: s.condition,
    state: s.state,
    ...seatCells(s.seats),
    robot_seat: rec?.robotSeat ?? null,
    robot_partner: rec ? s.seats[String(partnerSeat(robot)) as keyof Seats] : null,
    games_planned: s.games,
    games_played: rec ? ended.length : null,
    victories_robot_team: rec ? (total?.[0] ?? 0) : null,
    victories_other_team: rec ? (total?.[1] ?? 0) : null,
    victory_margin: rec ? (total ? total[0] - total[1] : 0) : null,
    robot_team_result:
      !rec || !ended.length ? null : !total || total[0] === total[1] ? 'drawn' : total[0] > total[1] ? 'won' : 'lost',
    points_robot_team: sum(0),
    points_other_team: sum(1),
    duration_s: rec?.durationS ?? null,
    paused_s: rec?.pausedS ?? null,
    parts: rec ? rec.parts : null,
    started_at: s.startedAt ?? null,
    ended_at: s.endedAt ?? null,
    recording: s.recording === undefined ? null : [s.recording, ...(s.parts ?? [])].join(';'),
    recording_complete: rec ? rec.complete : null,
  };
}

function gameRows(studyId: string, s: StudySession, rec: RecordedSession): Row[] {
  const robot = rec.robotSeat;
  return rec.games.map((g) => ({
    study: studyId,
    session: s.id,
    condition: s.condition,
    game: g.game,
    ...seatCells(s.seats),
    robot_seat: robot,
    robot_partner: s.seats[String(partnerSeat(robot)) as keyof Seats],
    result: g.result,
    points_robot_team: g.points?.[0] ?? null,
    points_other_team: g.points?.[1] ?? null,
    victories_robot_team: g.victories?.[0] ?? null,
    victories_other_team: g.victories?.[1] ?? null,
    total_victories_robot_team: g.total?.[0] ?? null,
    total_victories_other_team: g.total?.[1] ?? null,
    renounce: g.renounce,
    duration_s: g.durationS,
    paused_s: g.pausedS,
  }));
}

function decisionRows(studyId: string, s: StudySession, rec: RecordedSession): Row[] {
  const robot = rec.robotSeat;
  const holder = (seat: Seat | null | undefined): string | null =>
    seat === null || seat === undefined ? null : s.seats[String(seat) as keyof Seats];
  return rec.events.map((e) => ({
    study: studyId,
    session: s.id,
    condition: s.condition,
    time_s: e.timeS,
    game: e.game,
    trick: e.trick,
    kind: e.kind,
    about_seat: e.aboutSeat,
    about_code: holder(e.aboutSeat),
    about_relation: relation(robot, e.aboutSeat),
    event: e.event ?? null,
    card: e.card ?? null,
    win_probability: e.winProbability === undefined || e.winProbability < 0 ? null : e.winProbability,
    think_ms: e.thinkMs ?? null,
    fallback: e.fallback === undefined ? null : e.fallback || 'search',
    reason: e.reason || null,
    emotion: e.emotion ?? null,
    intensity: e.intensity ?? null,
    mood: e.mood ?? null,
    face: e.face ?? null,
    line_category: e.lineCategory ?? null,
    line_id: e.lineId ?? null,
    line_text: e.lineText ?? null,
    line_outcome: e.lineOutcome ?? null,
    addressee_seat: e.kind === 'line' ? (e.addresseeSeat ?? null) : null,
    addressee_code: e.kind === 'line' ? holder(e.addresseeSeat) : null,
    addressee_relation: e.kind === 'line' ? relation(robot, e.addresseeSeat ?? null) : null,
  }));
}

function questionnaireRows(
  dir: string,
  studyId: string,
  sessions: readonly StudySession[],
  score: Scorer,
  notes: string[],
): { rows: Row[]; columns: ColumnDoc[] } {
  const items = new Map<string, Set<string>>();
  const scales = new Map<string, Set<string>>();
  const note = (key: string, map: Map<string, Set<string>>, q: string) => {
    if (!map.has(key)) map.set(key, new Set());
    map.get(key)!.add(q);
  };
  const failed = new Set<string>();
  const rows = listAnswers(dir).map((a) => {
    const session = sessions.find((s) => Object.values(s.seats).includes(a.code));
    const seat = session ? Object.entries(session.seats).find(([, h]) => h === a.code)?.[0] : undefined;
    const row: Row = {
      study: studyId,
      code: a.code,
      session: session?.id ?? null,
      condition: session?.condition ?? null,
      seat: seat === undefined ? null : Number(seat),
      partner: session ? partnerKind(session.seats, a.code) : null,
      questionnaire: a.questionnaire,
      phase: a.phase,
      version: a.version,
      language: a.language,
      complete: a.complete,
      started_at: a.startedAt,
      updated_at: a.updatedAt,
    };
    for (const [name, value] of Object.entries(a.answers)) {
      const col = columnName(`item_${name}`);
      note(col, items, a.questionnaire);
      row[col] =
        typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean'
          ? value
          : JSON.stringify(value);
    }
    let scores: Record<string, number> = {};
    try {
      scores = score(a.questionnaire, a.answers);
    } catch (e) {
      if (!failed.has(a.questionnaire))
        notes.push(`questionnaire ${a.questionnaire}: not scored (${(e as Error).message.split('\n')[0]})`);
      failed.add(a.questionnaire);
    }
    for (const [scale, value] of Object.entries(scores)) {
      const col = columnName(`score_${scale}`);
      note(col, scales, a.questionnaire);
      row[col] = value;
    }
    return row;
  });
  return {
    rows,
    columns: [
      ...QUESTIONNAIRE_COLUMNS,
      ...[...items].map(([name, qs]) => itemColumn(name, [...qs])),
      ...[...scales].map(([name, qs]) => scoreColumn(name, [...qs])),
    ],
  };
}

/** The study's tables, as the export writes them and the report reads them. */
export interface StudyTables {
  studyId: string;
  tables: { name: string; columns: readonly ColumnDoc[]; rows: Row[] }[];
  notes: string[];
}

/** Reads the study (its sessions' recordings, its answers, scored) into the export's tables. */
export function collectStudy(dir: string, o: ExportOptions = {}): StudyTables {
  const study = readStudy(dir);
  const score: Scorer = o.score ?? ((q, answers) => scoreAnswers(q, answers, { studyDir: dir }));
  const notes: string[] = [];
  const sessions = listSessions(dir);
  const sessionRows: Row[] = [];
  const games: Row[] = [];
  const decisions: Row[] = [];
  for (const s of sessions) {
    const rec = readSession(dir, s, notes);
    sessionRows.push(sessionRow(study.id, s, rec));
    if (!rec) continue;
    games.push(...gameRows(study.id, s, rec));
    decisions.push(...decisionRows(study.id, s, rec));
  }
  const q = questionnaireRows(dir, study.id, sessions, score, notes);
  return {
    studyId: study.id,
    tables: [
      { name: 'questionnaires.csv', columns: q.columns, rows: q.rows },
      { name: 'sessions.csv', columns: SESSION_COLUMNS, rows: sessionRows },
      { name: 'games.csv', columns: GAME_COLUMNS, rows: games },
      { name: 'decisions.csv', columns: DECISION_COLUMNS, rows: decisions },
    ],
    notes,
  };
}

/** Writes the study's export into `out` (made if missing; the files there are replaced) and logs it in the study. */
export function exportStudy(dir: string, out: string, o: ExportOptions = {}): StudyExport {
  const { studyId, tables, notes } = collectStudy(dir, o);
  mkdirSync(out, { recursive: true });
  for (const t of tables)
    writeFileSync(
      join(out, t.name),
      toCsv(
        t.columns.map((c) => c.name),
        t.rows,
      ),
    );
  const codebook = {
    codebook: 'parceiro-study-export',
    version: 1,
    study: studyId,
    exportedAt: (o.now ?? (() => new Date()))().toISOString(),
    format: 'CSV, RFC 4180: comma-separated, CRLF line ends, UTF-8, a header row, NA for a missing value, TRUE/FALSE',
    files: Object.fromEntries(tables.map((t) => [t.name, { rows: t.rows.length, columns: t.columns }])),
    notes,
  };
  writeFileSync(join(out, 'codebook.json'), `${JSON.stringify(codebook, null, 2)}\n`);
  appendFileSync(exportsLog(dir), `${JSON.stringify({ at: codebook.exportedAt, out: resolve(out) })}\n`);
  return {
    out,
    files: [...tables.map((t) => ({ name: t.name, rows: t.rows.length })), { name: 'codebook.json', rows: 0 }],
    notes,
  };
}

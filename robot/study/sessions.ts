// The study's sessions: planned (condition, seats, seed) when their people are there, then running,
// paused, ended or crashed, with the recording they wrote. One file each, named by the session's id.

import { existsSync } from 'node:fs';
import { z } from 'zod';
import { StudyError } from './errors.js';
import { assign } from './assignment.js';
import type { Seats } from './assignment.js';
import { filesIn, readJson, writeJson } from './json-files.js';
import { sessionFile, sessionsDir } from './layout.js';
import { getParticipant, listParticipants } from './participants.js';
import type { Now } from './participants.js';
import type { Study } from './study-file.js';
import { readStudy } from './study-dir.js';

export const SESSION_STATES = ['planned', 'running', 'paused', 'ended', 'crashed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

const seatsSchema = z.object({ '0': z.string(), '1': z.string(), '2': z.string(), '3': z.string() });
const sessionSchema = z.object({
  id: z.string(),
  /** From 1, in the order planned. */
  index: z.number().int().min(1),
  condition: z.string(),
  seats: seatsSchema,
  games: z.number().int().min(1),
  /** The games' seed (deals, simulated players, the robot). */
  seed: z.number().int().min(0).optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  /** The recording's file name, relative to <dir>/sessions/ (a restarted session's first part). */
  recording: z.string().optional(),
  /** Parts written after a restart, relative to <dir>/sessions/, in order. */
  parts: z.array(z.string()).optional(),
  /** The operator's pauses during the games: from `at`, until `until` (absent while it lasts). */
  pauses: z.array(z.object({ at: z.string(), until: z.string().optional() })).optional(),
  state: z.enum(SESSION_STATES),
});
export type StudySession = z.output<typeof sessionSchema>;

const systemNow: Now = () => new Date();

/** Session `index`'s id: S01, S02... (three digits past 99). */
export const sessionId = (index: number): string => `S${String(index).padStart(2, '0')}`;

export function listSessions(dir: string): StudySession[] {
  return filesIn(sessionsDir(dir), '.json')
    .map((f) => readJson(`${sessionsDir(dir)}/${f}`, sessionSchema))
    .sort((a, b) => a.index - b.index);
}

export function getSession(dir: string, id: string): StudySession {
  if (!/^[\w.-]+$/.test(id)) throw new StudyError(`"${id}" is not a session id`);
  const file = sessionFile(dir, id);
  if (!existsSync(file)) throw new StudyError(`no session ${id} in this study`);
  return readJson(file, sessionSchema);
}

export const saveSession = (dir: string, s: StudySession): void => writeJson(sessionFile(dir, s.id), s);

/** The codes seated in any session (a deleted seat is no one's). */
const seated = (sessions: readonly StudySession[]): Set<string> =>
  new Set(sessions.flatMap((s) => Object.values(s.seats)));

/** Participants with consent, not withdrawn, who have no seat yet: in the order they were added. */
export function waitingParticipants(dir: string): string[] {
  const taken = seated(listSessions(dir));
  return listParticipants(dir)
    .filter((p) => p.consent !== null && !p.withdrawn && !taken.has(p.code))
    .map((p) => p.code);
}

export interface PlanOptions {
  /** The people at the table, in slot order; default the next participantsPerSession waiting. */
  participants?: readonly string[];
}

/**
 * The next session: without people named, the first one planned and not yet run if there is one;
 * else a new one for the people named (or the next waiting), with the condition and seats the study's
 * scheme gives it (two tables may run at once: each session is planned for the people named). Refuses a participant
 * without consent, withdrawn, unknown or already seated, and a study whose sessions are all planned.
 */
export function planNextSession(dir: string, o: PlanOptions = {}): StudySession {
  const study: Study = readStudy(dir);
  const sessions = listSessions(dir);
  // Asked for the next session without naming people: the first one planned and not yet run, if any.
  const open = sessions.find((s) => s.state === 'planned');
  if (open && o.participants === undefined) return open;
  const index = (sessions.at(-1)?.index ?? 0) + 1;
  if (index > study.sessions)
    throw new StudyError(`all ${study.sessions} sessions of the study are planned (the study file's "sessions")`);
  let codes: readonly string[];
  if (o.participants !== undefined) {
    codes = o.participants;
    if (codes.length < 1 || codes.length > study.participantsPerSession)
      throw new StudyError(`a session seats 1 to ${study.participantsPerSession} participants, got ${codes.length}`);
    const taken = seated(sessions);
    for (const code of codes) {
      const p = getParticipant(dir, code);
      if (!p) throw new StudyError(`no participant ${code} in this study`);
      if (p.consent === null) throw new StudyError(`${code} has not consented: record their consent first`);
      if (p.withdrawn) throw new StudyError(`${code} withdrew on ${p.withdrawn.at}`);
      if (taken.has(code)) throw new StudyError(`${code} already has a seat in another session`);
      if (codes.indexOf(code) !== codes.lastIndexOf(code)) throw new StudyError(`${code} is named twice`);
    }
  } else {
    const waiting = waitingParticipants(dir);
    if (waiting.length < study.participantsPerSession)
      throw new StudyError(
        `${waiting.length} participant(s) with consent are waiting for a seat and a session takes ${study.participantsPerSession}: add participants, or name who is at the table`,
      );
    codes = waiting.slice(0, study.participantsPerSession);
  }
  const a = assign(study, index, codes);
  const session: StudySession = {
    id: sessionId(index),
    index,
    condition: a.condition.id,
    seats: a.seats,
    games: study.games,
    seed: a.seed,
    state: 'planned',
  };
  saveSession(dir, session);
  return session;
}

/** The states a session may go to from each. */
const NEXT: Record<SessionState, readonly SessionState[]> = {
  planned: ['running'],
  running: ['paused', 'ended', 'crashed'],
  paused: ['running', 'ended', 'crashed'],
  // A crashed session is resumed from its recording (running again) or closed as it stands.
  crashed: ['running', 'ended'],
  ended: [],
};

export interface MarkOptions {
  /** The recording's file name relative to <dir>/sessions/ (given when it starts; a restart's part is added). */
  recording?: string;
  now?: Now;
}

/** Moves a session to `state`, with the time it started or ended and its recording. */
export function markSession(dir: string, id: string, state: SessionState, o: MarkOptions = {}): StudySession {
  const s = getSession(dir, id);
  if (s.state !== state && !NEXT[s.state].includes(state))
    throw new StudyError(`session ${id} is ${s.state}: it cannot become ${state}`);
  if (o.recording !== undefined && (o.recording.includes('..') || o.recording.startsWith('/')))
    throw new StudyError(`a recording is named relative to the sessions folder, got "${o.recording}"`);
  const at = (o.now ?? systemNow)().toISOString();
  const next: StudySession = { ...s, state };
  if (state === 'running' && !s.startedAt) next.startedAt = at;
  if (state === 'ended') next.endedAt = at;
  // A pause is kept with its times: opened when the session becomes paused, closed when it leaves it.
  if (state === 'paused' && s.state !== 'paused') next.pauses = [...(s.pauses ?? []), { at }];
  if (state !== 'paused' && s.state === 'paused' && s.pauses?.at(-1)?.until === undefined && s.pauses?.length)
    next.pauses = [...s.pauses.slice(0, -1), { ...s.pauses.at(-1)!, until: at }];
  if (o.recording !== undefined && o.recording !== s.recording) {
    if (s.recording === undefined) next.recording = o.recording;
    else if (!(s.parts ?? []).includes(o.recording)) next.parts = [...(s.parts ?? []), o.recording];
  }
  saveSession(dir, next);
  return next;
}

/** Seconds the session spent paused by the operator (an open pause counts until `now`). */
export function pausedSeconds(s: StudySession, now: Date = new Date()): number {
  const ms = (s.pauses ?? []).reduce(
    (sum, p) => sum + Math.max(0, (p.until === undefined ? now.getTime() : Date.parse(p.until)) - Date.parse(p.at)),
    0,
  );
  return Math.round(ms / 100) / 10;
}

/** Seats as the table sees them: the participants' codes by seat, for the recording's metadata (`--participants`). */
export function seatCodes(seats: Seats): Record<string, string> {
  return Object.fromEntries(Object.entries(seats).filter(([, h]) => h !== 'robot' && h !== 'bot' && h !== 'deleted'));
}

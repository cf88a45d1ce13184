// A session's report: who played what, each game's result, the figures and the checks; and the
// report of several sessions, each on its own and all together.

import type { Recording } from '../../recording/index.js';
import type { Figures } from './figures.js';
import { figuresOf } from './figures.js';
import { mergeFacts } from './merge.js';
import type { GameFacts, LibraryLookup, ReportOptions, SessionFacts } from './session-facts.js';
import { sessionFacts } from './session-facts.js';
import type { Timeline } from './timeline.js';

export interface SessionReport {
  /** The recording's path. */
  file: string;
  session: {
    id: string;
    seed: string | null;
    /** Games the session was set up for. */
    plannedGames: number | null;
    robotSeat: number;
    language: string;
    character: string | null;
    player: string | null;
  };
  /** False when the recording was cut short; then `problems` says where, and the report goes as far as it does. */
  complete: boolean;
  problems: string[];
  notes: string[];
  games: GameFacts[];
  figures: Figures;
}

export interface Report {
  report: 'parceiro-session-report';
  version: 1;
  sessions: SessionReport[];
  /** All sessions' facts together. */
  overall: Figures;
}

/** One session's report, with the facts it came from (for the overall figures) and its timeline (for the chart). */
export function sessionReport(
  recording: Recording,
  libraries: LibraryLookup,
  o: ReportOptions = {},
): { report: SessionReport; facts: SessionFacts; timeline: Timeline } {
  const { facts, timeline } = sessionFacts(recording, libraries, o);
  const s = recording.session ?? {};
  const planned = Number(s.games);
  const notes: string[] = [];
  if (!recording.session)
    notes.push('the recording has no session metadata: seat 0 and the language of its lines are assumed');
  if (!recording.complete || recording.problems.length > 0)
    notes.push(`the recording is ${recording.complete ? 'damaged' : 'incomplete'}: reported as far as it goes`);
  for (const g of facts.games) if (g.result === 'unfinished') notes.push(`game ${g.game} did not end in the recording`);
  if (Number.isInteger(planned) && facts.games.length < planned && recording.complete)
    notes.push(`${facts.games.length} of ${planned} games were played`);
  for (const [language, lib] of Object.entries(facts.libraries))
    if (!lib) notes.push(`no utterance library for language "${language}": its coverage is not known`);
  if (facts.unanswered > 0) notes.push(`${facts.unanswered} game events have no reaction in the recording`);
  const report: SessionReport = {
    file: recording.path,
    session: {
      id: s.id ?? recording.path,
      seed: s.seed ?? null,
      plannedGames: Number.isInteger(planned) && planned > 0 ? planned : null,
      robotSeat: timeline.robotSeat,
      language: timeline.language,
      character: s.character ?? null,
      player: s.player ?? null,
    },
    complete: recording.complete,
    problems: recording.problems,
    notes,
    games: facts.games,
    figures: figuresOf(facts),
  };
  return { report, facts, timeline };
}

/** The report of several recordings: each session, then all of them together. */
export function buildReport(
  recordings: readonly Recording[],
  libraries: LibraryLookup,
  o: ReportOptions = {},
): { report: Report; timelines: Timeline[] } {
  const each = recordings.map((r) => sessionReport(r, libraries, o));
  return {
    report: {
      report: 'parceiro-session-report',
      version: 1,
      sessions: each.map((e) => e.report),
      overall: figuresOf(mergeFacts(each.map((e) => e.facts))),
    },
    timelines: each.map((e) => e.timeline),
  };
}

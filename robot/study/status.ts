// A study's progress: sessions by state against those planned, participants and their consent, and
// who has answered which questionnaire before and after.

import { listAnswers } from './answers.js';
import { partnerKind } from './assignment.js';
import type { PartnerKind } from './assignment.js';
import { listNotes } from './notes.js';
import { listParticipants } from './participants.js';
import { SESSION_STATES, listSessions, pausedSeconds } from './sessions.js';
import type { SessionState, StudySession } from './sessions.js';
import { readStudy } from './study-dir.js';
import type { Study } from './study-file.js';

/** How far one questionnaire is: not started, started, complete. */
export type AnswerState = 'missing' | 'started' | 'complete';

export interface ParticipantStatus {
  code: string;
  consent: string | null;
  withdrawn: boolean;
  session: string | null;
  partner: PartnerKind | null;
  /** `trust14.pre` -> its state, for every questionnaire the study gives. */
  answers: Record<string, AnswerState>;
}

export interface StudyStatus {
  study: Study;
  sessions: { planned: number; byState: Record<SessionState, number>; list: StudySession[] };
  participants: { total: number; consented: number; withdrawn: number; target: number | null };
  people: ParticipantStatus[];
  notes: number;
}

export function studyStatus(dir: string): StudyStatus {
  const study = readStudy(dir);
  const sessions = listSessions(dir);
  const participants = listParticipants(dir);
  const answers = listAnswers(dir);
  const byState = Object.fromEntries(SESSION_STATES.map((s) => [s, 0])) as Record<SessionState, number>;
  for (const s of sessions) byState[s.state]++;
  const given = [
    ...study.questionnaires.pre.map((q) => `${q}.pre`),
    ...study.questionnaires.post.map((q) => `${q}.post`),
  ];
  const people = participants.map((p): ParticipantStatus => {
    const session = sessions.find((s) => Object.values(s.seats).includes(p.code)) ?? null;
    const mine = answers.filter((a) => a.code === p.code);
    return {
      code: p.code,
      consent: p.consent?.version ?? null,
      withdrawn: p.withdrawn !== undefined,
      session: session?.id ?? null,
      partner: session ? partnerKind(session.seats, p.code) : null,
      answers: Object.fromEntries(
        given.map((key) => {
          const a = mine.find((m) => `${m.questionnaire}.${m.phase}` === key);
          return [key, a ? (a.complete ? 'complete' : 'started') : 'missing'];
        }),
      ),
    };
  });
  return {
    study,
    sessions: { planned: study.sessions, byState, list: sessions },
    participants: {
      total: participants.length,
      consented: participants.filter((p) => p.consent !== null).length,
      withdrawn: participants.filter((p) => p.withdrawn).length,
      target: study.participants ?? null,
    },
    people,
    notes: listNotes(dir).length,
  };
}

/** "  paused since 2026-12-06T01:02:03.000Z (2 pauses, 95.5 s)", or the pauses of a session that went on. */
function pauseWords(x: StudySession): string {
  const pauses = x.pauses ?? [];
  if (pauses.length === 0) return '';
  const total = `${pauses.length} pause${pauses.length === 1 ? '' : 's'}, ${pausedSeconds(x)} s`;
  const open = pauses.at(-1)!.until === undefined ? pauses.at(-1)!.at : null;
  return open && x.state === 'paused' ? `  paused since ${open} (${total})` : `  paused ${total}`;
}

const MARK: Record<AnswerState, string> = { missing: '-', started: '~', complete: 'x' };

/** The status as text for the terminal. */
export function formatStatus(s: StudyStatus): string {
  const st = s.sessions.byState;
  const out = [
    `${s.study.title} (${s.study.id})`,
    `sessions: ${st.ended} ended of ${s.sessions.planned} planned (${st.running} running, ${st.paused} paused, ${st.crashed} crashed, ${st.planned} planned next)`,
    `participants: ${s.participants.total}${s.participants.target ? ` of ${s.participants.target}` : ''}, ${s.participants.consented} with consent, ${s.participants.withdrawn} withdrawn`,
    `notes: ${s.notes}`,
  ];
  for (const x of s.sessions.list)
    out.push(
      `  ${x.id} ${x.state.padEnd(7)} ${x.condition}  seats ${Object.entries(x.seats)
        .map(([seat, h]) => `${seat}=${h}`)
        .join(' ')}${x.recording ? `  ${x.recording}` : ''}${pauseWords(x)}`,
    );
  const keys = Object.keys(s.people[0]?.answers ?? {});
  if (s.people.length) {
    out.push(`answers (x complete, ~ started, - none): ${keys.join(', ') || 'no questionnaires in the study'}`);
    for (const p of s.people)
      out.push(
        `  ${p.code.padEnd(8)} ${(p.consent ? `consent ${p.consent}` : 'no consent').padEnd(16)} ${(p.session ?? '-').padEnd(4)} ${(p.partner ? `partner ${p.partner}` : '').padEnd(14)} ${keys.map((k) => MARK[p.answers[k]!]).join(' ')}${p.withdrawn ? '  withdrawn' : ''}`,
      );
  }
  return out.join('\n');
}

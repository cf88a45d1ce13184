// Several sessions' facts as one: lists are joined and counts added, so the overall figures are
// computed exactly as a session's are (a median of all moods, not a median of medians).

import type { CheckFacts } from './checks.js';
import type { CheckName, FaceCounts, SessionFacts } from './session-facts.js';
import { CHECK_NAMES } from './session-facts.js';

const addCounts = <K extends string>(
  a: Partial<Record<K, number>>,
  b: Partial<Record<K, number>>,
): Partial<Record<K, number>> => {
  const out: Partial<Record<K, number>> = { ...a };
  for (const [k, v] of Object.entries(b) as [K, number][]) out[k] = (out[k] ?? 0) + v;
  return out;
};

const addLists = (a: Record<string, number[]>, b: Record<string, number[]>): Record<string, number[]> => {
  const out: Record<string, number[]> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = [...(out[k] ?? []), ...v];
  return out;
};

const addChecks = (a: CheckFacts, b: CheckFacts): CheckFacts => ({
  examined: a.examined + b.examined,
  applicable: a.applicable + b.applicable,
  unknown: a.unknown + b.unknown,
  findings: [...a.findings, ...b.findings],
});

export function mergeFacts(all: readonly SessionFacts[]): SessionFacts {
  const [first, ...rest] = all;
  if (!first) throw new Error('mergeFacts needs at least one session');
  return rest.reduce(
    (a, b): SessionFacts => ({
      sessions: a.sessions + b.sessions,
      games: [...a.games, ...b.games],
      moods: [...a.moods, ...b.moods],
      emotionMessages: a.emotionMessages + b.emotionMessages,
      strongest: addCounts(a.strongest, b.strongest) as Record<string, number>,
      intensities: addLists(a.intensities, b.intensities),
      events: addCounts(a.events, b.events),
      toward: [...a.toward, ...b.toward],
      lines: [...a.lines, ...b.lines],
      // A language's library is the same file for every session read in one run.
      libraries: { ...a.libraries, ...b.libraries },
      facesBefore: addCounts(a.facesBefore, b.facesBefore) as FaceCounts,
      faceChanges: {
        holdMs: a.faceChanges.holdMs,
        perTrick: [...a.faceChanges.perTrick, ...b.faceChanges.perTrick],
        changes: a.faceChanges.changes + b.faceChanges.changes,
        early: a.faceChanges.early + b.faceChanges.early,
        strongestAgainst: a.faceChanges.strongestAgainst + b.faceChanges.strongestAgainst,
        panelStates: a.faceChanges.panelStates + b.faceChanges.panelStates,
      },
      checks: Object.fromEntries(CHECK_NAMES.map((n) => [n, addChecks(a.checks[n], b.checks[n])])) as Record<
        CheckName,
        CheckFacts
      >,
      latencies: [...a.latencies, ...b.latencies],
      unanswered: a.unanswered + b.unanswered,
    }),
    first,
  );
}

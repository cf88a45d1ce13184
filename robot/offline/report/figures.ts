// The report's figures, from facts (one session's or several merged). Every key is always present
// (an emotion type, a reason or a category appears once it occurs), so a JSON reader can rely on the
// shape; README's "parceiro report" section documents it.

import type { Finding, GameResult } from './checks.js';
import type { TargetRelation } from './felt.js';
import { TARGET_RELATIONS } from './felt.js';
import type { Addressee, CheckName, EventKind, FaceCounts, SessionFacts } from './session-facts.js';
import { CHECK_NAMES, EVENT_KINDS, noFaces } from './session-facts.js';
import type { Bin } from './stats.js';
import { histogram, median, quantile, round, roundOrNull, share } from './stats.js';

export interface CheckFigures {
  /** What the check looked at: spoken lines, plays, tricks' emotions toward seats, finished games. */
  examined: number;
  /** Of those, what its rule is about: lines about another seat, forced plays, lost games... */
  applicable: number;
  /** What it could not judge (older recordings, hands not known). */
  unknown: number;
  /** Findings. */
  count: number;
  /** The first findings (EXAMPLES), in recording order. */
  examples: Finding[];
  /** Why the check could not be run, or what it left out; null when it judged everything. */
  note: string | null;
}

interface LatencyFigures {
  count: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

export interface Figures {
  sessions: number;
  games: number;
  results: Record<GameResult, number>;
  mood: {
    messages: number;
    median: number | null;
    /** Share of messages with |mood| >= 9. */
    extremeShare: number | null;
    /** Bins of width 2 from -10 to 10. */
    histogram: Bin[];
    /** The mood in the reaction to each game's end. */
    atGameEnd: { count: number; median: number | null; min: number | null; max: number | null };
  };
  emotions: {
    messages: number;
    /** Per OCC type: messages it is in, messages it is the strongest in (and that share of all), its intensity. */
    types: Record<
      string,
      { present: number; strongest: number; strongestShare: number | null; median: number | null; p90: number | null }
    >;
    /** Per kind of game event: how many, and the emotions with a target the robot felt about them, by the target's relation. */
    towardSeats: Record<
      EventKind,
      { events: number } & Record<TargetRelation, Record<string, { count: number; median: number | null }>>
    >;
  };
  faces: {
    /**
     * The face as people meet it: changes of the expression shown, per trick (median, 90th
     * percentile, mean); how many replaced a face shown for less than the hold time; and how often
     * the strongest feeling was the face's opposite (what a panel naming it would have contradicted).
     */
    changes: {
      total: number;
      tricks: number;
      perTrick: { median: number | null; p90: number | null; mean: number | null };
      holdMs: number;
      replacedWithinHold: { count: number; share: number | null };
      strongestAgainstFace: { count: number; of: number; share: number | null };
    };
    beforeFirstGame: FaceCounts;
    /** Per game result: games, faces during them (first card to end) and after them (end to the next first card). */
    byResult: Record<GameResult, { games: number; during: FaceCounts; after: FaceCounts }>;
  };
  lines: {
    spoken: number;
    dropped: number;
    droppedByReason: Record<string, number>;
    byCategory: Record<string, { spoken: number; dropped: number }>;
    byAddressee: Record<Addressee, { spoken: number; dropped: number }>;
    /** Lines about the robot's own card, and their share of the lines spoken. */
    ownCard: { spoken: number; share: number | null };
    /** Per language: the library's categories and lines (distinct ids) said at least once; null without a library. */
    coverage: Record<
      string,
      {
        categories: { said: number; total: number; share: number | null };
        lines: { said: number; total: number; share: number | null };
      } | null
    >;
  };
  checks: Record<CheckName, CheckFigures> & {
    /** From each reacted game event to the robot's reaction (its emotions message), ms. */
    reactionLatency: LatencyFigures & { unanswered: number; byKind: Record<EventKind, LatencyFigures> };
  };
}

/** Findings listed per check (all are counted). */
export const EXAMPLES = 20;
const RESULTS: readonly GameResult[] = ['won', 'lost', 'drawn', 'unfinished'];
const ADDRESSEES: readonly Addressee[] = ['partner', 'opponent', 'all'];

const addFaces = (a: FaceCounts, b: FaceCounts): FaceCounts => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
};

const latency = (ms: readonly number[]): LatencyFigures => ({
  count: ms.length,
  p50: roundOrNull(quantile(ms, 0.5), 1),
  p95: roundOrNull(quantile(ms, 0.95), 1),
  max: ms.length ? round(Math.max(...ms), 1) : null,
});

const CHECK_NOTES: Partial<Record<CheckName, (unknown: number, examined: number) => string>> = {
  misaddressed: (u, e) =>
    e === 0
      ? `could not be checked: the ${u} spoken lines were recorded before lines said what they react to`
      : `${u} lines recorded without what they react to were not checked`,
  lateLines: (u, e) =>
    e === 0
      ? `could not be checked: the ${u} spoken lines were recorded before lines said what they react to`
      : `${u} lines recorded without what they react to were not checked`,
  forcedBlame: (u) => `${u} plays were not judged: the recording does not give back enough of the hand`,
  facesAgainstWords: (u) =>
    `${u} faces shown under lines of unknown feeling (no utterance library for their language, or lines not in it) were not judged`,
  linesAgainstTheGame: (u) =>
    `${u} lines were not judged: recorded before lines said what they react to, or not in the utterance library`,
  looksAgainstLines: (u, e) =>
    u === e ? 'not judged: no table geometry to tell where the head looked' : `${u} lines were not judged`,
};

function checkFigures(name: CheckName, f: SessionFacts): CheckFigures {
  const c = f.checks[name];
  return {
    examined: c.examined,
    applicable: c.applicable,
    unknown: c.unknown,
    count: c.findings.length,
    examples: c.findings.slice(0, EXAMPLES),
    note: c.unknown > 0 ? (CHECK_NOTES[name]?.(c.unknown, c.examined) ?? null) : null,
  };
}

function towardSeats(f: SessionFacts): Figures['emotions']['towardSeats'] {
  const out = {} as Figures['emotions']['towardSeats'];
  for (const kind of EVENT_KINDS) {
    const byRelation = Object.fromEntries(
      TARGET_RELATIONS.map((r) => [r, {} as Record<string, { count: number; median: number | null }>]),
    ) as Record<TargetRelation, Record<string, { count: number; median: number | null }>>;
    for (const relation of TARGET_RELATIONS) {
      const felt = f.toward.filter((x) => x.kind === kind && x.relation === relation);
      for (const type of [...new Set(felt.map((x) => x.type))].sort()) {
        const xs = felt.filter((x) => x.type === type).map((x) => x.intensity);
        byRelation[relation][type] = { count: xs.length, median: roundOrNull(median(xs)) };
      }
    }
    out[kind] = { events: f.events[kind] ?? 0, ...byRelation };
  }
  return out;
}

function lineFigures(f: SessionFacts): Figures['lines'] {
  const spoken = f.lines.filter((l) => l.spoken);
  const droppedByReason: Record<string, number> = {};
  const byCategory: Record<string, { spoken: number; dropped: number }> = {};
  const byAddressee = Object.fromEntries(ADDRESSEES.map((a) => [a, { spoken: 0, dropped: 0 }])) as Record<
    Addressee,
    { spoken: number; dropped: number }
  >;
  for (const l of f.lines) {
    const phase = l.spoken ? 'spoken' : 'dropped';
    if (!l.spoken) droppedByReason[l.reason || 'unknown'] = (droppedByReason[l.reason || 'unknown'] ?? 0) + 1;
    (byCategory[l.category] ??= { spoken: 0, dropped: 0 })[phase]++;
    byAddressee[l.addressee][phase]++;
  }
  const coverage: Figures['lines']['coverage'] = {};
  for (const [language, lib] of Object.entries(f.libraries).sort(([a], [b]) => a.localeCompare(b))) {
    if (!lib) {
      coverage[language] = null;
      continue;
    }
    const said = spoken.filter((l) => l.language === language);
    const ids = new Set(lib.ids);
    const saidIds = new Set(said.map((l) => l.id).filter((id) => ids.has(id)));
    const categories = new Set(lib.categories);
    const saidCategories = new Set(said.map((l) => l.category).filter((c) => categories.has(c)));
    coverage[language] = {
      categories: {
        said: saidCategories.size,
        total: categories.size,
        share: share(saidCategories.size, categories.size),
      },
      lines: { said: saidIds.size, total: ids.size, share: share(saidIds.size, ids.size) },
    };
  }
  const own = spoken.filter((l) => l.ownCard).length;
  return {
    spoken: spoken.length,
    dropped: f.lines.length - spoken.length,
    droppedByReason,
    byCategory: Object.fromEntries(
      Object.entries(byCategory).sort(
        ([a, x], [b, y]) => y.spoken + y.dropped - (x.spoken + x.dropped) || a.localeCompare(b),
      ),
    ),
    byAddressee,
    ownCard: { spoken: own, share: share(own, spoken.length) },
    coverage,
  };
}

export function figuresOf(f: SessionFacts): Figures {
  const results = Object.fromEntries(RESULTS.map((r) => [r, f.games.filter((g) => g.result === r).length])) as Record<
    GameResult,
    number
  >;
  const ends = f.games.map((g) => g.moodAtEnd).filter((m): m is number => m !== null);
  const messagesWithStrongest = Object.values(f.strongest).reduce((a, b) => a + b, 0);
  const types: Figures['emotions']['types'] = {};
  const typeNames = [...new Set([...Object.keys(f.intensities), ...Object.keys(f.strongest)])].sort(
    (a, b) => (f.strongest[b] ?? 0) - (f.strongest[a] ?? 0) || a.localeCompare(b),
  );
  for (const type of typeNames) {
    const xs = f.intensities[type] ?? [];
    const strongest = f.strongest[type] ?? 0;
    types[type] = {
      present: xs.length,
      strongest,
      strongestShare: share(strongest, messagesWithStrongest),
      median: roundOrNull(median(xs)),
      p90: roundOrNull(quantile(xs, 0.9)),
    };
  }
  const byResult = Object.fromEntries(
    RESULTS.map((r) => {
      const games = f.games.filter((g) => g.result === r);
      return [
        r,
        {
          games: games.length,
          during: games.map((g) => g.faces.during).reduce(addFaces, noFaces()),
          after: games.map((g) => g.faces.after).reduce(addFaces, noFaces()),
        },
      ];
    }),
  ) as Figures['faces']['byResult'];
  const byKind = Object.fromEntries(
    EVENT_KINDS.map((k) => [k, latency(f.latencies.filter((l) => l.kind === k).map((l) => l.ms))]),
  ) as Record<EventKind, LatencyFigures>;
  const checks = Object.fromEntries(CHECK_NAMES.map((n) => [n, checkFigures(n, f)])) as Record<CheckName, CheckFigures>;
  return {
    sessions: f.sessions,
    games: f.games.length,
    results,
    mood: {
      messages: f.moods.length,
      median: roundOrNull(median(f.moods)),
      extremeShare: share(f.moods.filter((m) => Math.abs(m) >= 9).length, f.moods.length),
      histogram: histogram(f.moods, -10, 10, 2),
      atGameEnd: {
        count: ends.length,
        median: roundOrNull(median(ends)),
        min: ends.length ? round(Math.min(...ends)) : null,
        max: ends.length ? round(Math.max(...ends)) : null,
      },
    },
    emotions: { messages: f.emotionMessages, types, towardSeats: towardSeats(f) },
    faces: {
      changes: {
        total: f.faceChanges.changes,
        tricks: f.faceChanges.perTrick.length,
        perTrick: {
          median: roundOrNull(median(f.faceChanges.perTrick)),
          p90: roundOrNull(quantile(f.faceChanges.perTrick, 0.9)),
          mean: f.faceChanges.perTrick.length
            ? round(f.faceChanges.perTrick.reduce((a, b) => a + b, 0) / f.faceChanges.perTrick.length)
            : null,
        },
        holdMs: f.faceChanges.holdMs,
        replacedWithinHold: { count: f.faceChanges.early, share: share(f.faceChanges.early, f.faceChanges.changes) },
        strongestAgainstFace: {
          count: f.faceChanges.strongestAgainst,
          of: f.faceChanges.panelStates,
          share: share(f.faceChanges.strongestAgainst, f.faceChanges.panelStates),
        },
      },
      beforeFirstGame: f.facesBefore,
      byResult,
    },
    lines: lineFigures(f),
    checks: {
      ...checks,
      reactionLatency: { ...latency(f.latencies.map((l) => l.ms)), unanswered: f.unanswered, byKind },
    },
  };
}

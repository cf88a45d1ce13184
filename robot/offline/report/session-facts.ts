// The facts of one session, as plain lists and counts that add up across sessions (merge.ts): every
// mood, every intensity, every line, every finding. The figures (figures.ts) are computed from
// facts, for one session and for all together, by the same code.

import type { Seat } from '../../../game/index.js';
import { EXPRESSIONS } from '../../../behaviours/index.js';
import type { Recording } from '../../recording/index.js';
import type { CheckFacts, GameResult } from './checks.js';
import {
  blameForForcedPlays,
  facesAfter,
  facesAgainstTricks,
  facesAgainstWords,
  gloatingAndPity,
  happyAfterLoss,
  lateLines,
  misaddressedLines,
  resultOf,
} from './checks.js';
import type { FaceChangeFacts } from './faces.js';
import { faceChangeFacts, facesAgainstCards, panelAgainstFace } from './faces.js';
import type { LineInfo, LookedAt } from './line-checks.js';
import { linesAgainstTheGame, looksAgainstLines, nudgesTooSoon } from './line-checks.js';
import type { Felt, SeatRelation, TargetRelation } from './felt.js';
import { feltAbout, previousEmotions, relationOf, targetRelation } from './felt.js';
import type { Reaction, Timeline } from './timeline.js';
import { timelineOf } from './timeline.js';

/** What a game event was, from the robot's seat: whose card, who took the trick, and the rest. */
export type EventKind = `play.${SeatRelation}` | `trick.${SeatRelation}` | 'deal' | 'end' | 'renounce';
export const EVENT_KINDS: readonly EventKind[] = [
  'deal',
  'play.self',
  'play.partner',
  'play.opponent',
  'trick.self',
  'trick.partner',
  'trick.opponent',
  'end',
  'renounce',
];

/** Faces shown, by ROS4HRI expression name. */
export type FaceCounts = Record<string, number>;
export const FACES: readonly string[] = EXPRESSIONS;
export const noFaces = (): FaceCounts => Object.fromEntries(FACES.map((f) => [f, 0]));

export interface GameFacts {
  session: string;
  /** From 1. */
  game: number;
  result: GameResult;
  /** Card points, the robot's team first; null for a game that did not end. */
  points: [number, number] | null;
  /** Victories after the game, the robot's team first. */
  victories: [number, number] | null;
  renounce: boolean;
  /** The mood in the robot's reaction to the game's end. */
  moodAtEnd: number | null;
  /** From the game's first card to its end, and from its end to the next game's first card. */
  faces: { during: FaceCounts; after: FaceCounts };
}

export type Addressee = 'partner' | 'opponent' | 'all';

interface LineFact {
  spoken: boolean;
  /** Why a dropped line was dropped; "" for a spoken one. */
  reason: string;
  category: string;
  id: string;
  language: string;
  addressee: Addressee;
  /** The robot naming or commenting its own card. */
  ownCard: boolean;
}

interface LibrarySummary {
  /** Categories with at least one line. */
  categories: string[];
  ids: string[];
}

interface TowardFact {
  kind: EventKind;
  relation: TargetRelation;
  type: string;
  intensity: number;
}

export type CheckName =
  | 'misaddressed'
  | 'lateLines'
  | 'forcedBlame'
  | 'gloatingPity'
  | 'happyAfterLoss'
  | 'facesAgainstWords'
  | 'facesAgainstTricks'
  | 'facesAgainstCards'
  | 'panelAgainstFace'
  | 'linesAgainstTheGame'
  | 'nudgesTooSoon'
  | 'looksAgainstLines';
export const CHECK_NAMES: readonly CheckName[] = [
  'misaddressed',
  'lateLines',
  'forcedBlame',
  'gloatingPity',
  'happyAfterLoss',
  'facesAgainstWords',
  'facesAgainstTricks',
  'facesAgainstCards',
  'panelAgainstFace',
  'linesAgainstTheGame',
  'nudgesTooSoon',
  'looksAgainstLines',
];

export interface SessionFacts {
  sessions: number;
  games: GameFacts[];
  /** The mood of every emotions message. */
  moods: number[];
  emotionMessages: number;
  /** Messages in which each emotion type was the strongest. */
  strongest: Record<string, number>;
  /** Each emotion type's intensity in every message it was in. */
  intensities: Record<string, number[]>;
  /** Game events reacted to, by kind. */
  events: Partial<Record<EventKind, number>>;
  /** Emotions with a target felt about each event. */
  toward: TowardFact[];
  lines: LineFact[];
  /** The utterance library of each language spoken; null when it could not be loaded. */
  libraries: Record<string, LibrarySummary | null>;
  /** Faces before the first game's first card. */
  facesBefore: FaceCounts;
  /** How the face changed: per trick, and how many faces were replaced within the hold time. */
  faceChanges: FaceChangeFacts;
  checks: Record<CheckName, CheckFacts>;
  /** From each reacted game event to the robot's reaction (its emotions message), ms. */
  latencies: { kind: EventKind; ms: number }[];
  /** Reacted events with no reaction in the recording (it ended first). */
  unanswered: number;
}

/**
 * What the report reads of an utterance library (behaviours' `UtteranceLibrary` is one): its lines' ids
 * and categories, and whether each sounds glad (1) or sorry (-1) when the caller knows.
 */
export interface LibraryLines {
  lines: readonly { id: string; category: string; valence?: number; when?: LineInfo['when'] }[];
}

/** The utterance library of a language; null when there is none. */
export type LibraryLookup = (language: string) => LibraryLines | null;

function eventKind(t: Timeline, r: Reaction): EventKind {
  const e = r.event.message;
  switch (e.type) {
    case 'play':
      return `play.${relationOf(t.robotSeat, e.seat)}`;
    case 'trick':
      return `trick.${relationOf(t.robotSeat, e.winner)}`;
    case 'end':
      return t.games.find((g) => g.game === e.game + 1)?.renounce ? 'renounce' : 'end';
    default:
      return 'deal';
  }
}

const ourFirst = (robot: Seat, [a, b]: readonly number[]): [number, number] => (robot % 2 === 0 ? [a!, b!] : [b!, a!]);

/** Own-card lines: the robot saying which card it plays, plain or with feeling. */
const isOwnCardLine = (category: string, id: string): boolean =>
  category.startsWith('playing.') || category.startsWith('play.self') || id === 'card#robot';

function countFaces(faces: readonly { message: { expression: string } }[]): FaceCounts {
  const out = noFaces();
  for (const f of faces) out[f.message.expression] = (out[f.message.expression] ?? 0) + 1;
  return out;
}

function gameFacts(t: Timeline, session: string): GameFacts[] {
  const endReaction = new Map(t.reactions.filter((r) => r.event.message.type === 'end').map((r) => [r.event.index, r]));
  return t.games.map((g) => {
    const start = (g.plays[0] ?? g.end)?.index ?? Infinity;
    const stop = g.end?.index ?? Infinity;
    const end = g.end?.message;
    return {
      session,
      game: g.game,
      result: resultOf(t.robotSeat, end),
      points: end ? ourFirst(t.robotSeat, end.final_points) : null,
      victories: end ? ourFirst(t.robotSeat, end.victories) : null,
      renounce: g.renounce !== null,
      moodAtEnd: g.end ? (endReaction.get(g.end.index)?.emotions?.message.mood ?? null) : null,
      faces: {
        during: countFaces(t.faces.filter((f) => f.index >= start && f.index <= stop)),
        after: countFaces(facesAfter(t, g)),
      },
    };
  });
}

function lineFacts(t: Timeline): LineFact[] {
  const out: LineFact[] = [];
  let language = t.language;
  let change = 0;
  for (const l of t.lines) {
    while (change < t.languages.length && t.languages[change]!.index < l.index)
      language = t.languages[change++]!.message.language;
    const m = l.message;
    if (m.phase !== 'start' && m.phase !== 'dropped') continue;
    const addressee: Addressee =
      m.addressee < 0 || m.addressee === t.robotSeat
        ? 'all'
        : relationOf(t.robotSeat, m.addressee) === 'partner'
          ? 'partner'
          : 'opponent';
    out.push({
      spoken: m.phase === 'start',
      reason: m.reason,
      category: m.category,
      id: m.id,
      language: m.language || language,
      addressee,
      ownCard: isOwnCardLine(m.category, m.id),
    });
  }
  return out;
}

function librarySummary(library: LibraryLines | null): LibrarySummary | null {
  if (!library) return null;
  return { categories: [...new Set(library.lines.map((l) => l.category))], ids: library.lines.map((l) => l.id) };
}

export interface ReportOptions {
  /** The least time a face should stay (config/postures.yaml, hold.minMs); default DEFAULT_HOLD_MS. */
  holdMs?: number;
  /** Where a look went, from the table's geometry; without it the looks during lines are not judged. */
  lookedAt?: LookedAt;
}

/** The hold time a report judges faces by when it is not told (config/postures.yaml's default). */
export const DEFAULT_HOLD_MS = 3000;

/** Everything a report needs from one recording, and the timeline it read (for the chart). */
export function sessionFacts(
  recording: Recording,
  libraries: LibraryLookup,
  o: ReportOptions = {},
): { facts: SessionFacts; timeline: Timeline } {
  const t = timelineOf(recording);
  const session = recording.session?.id ?? recording.path;
  const previous = previousEmotions(t);
  const feltCache = new Map<Reaction, Felt[]>();
  const felt = (r: Reaction): Felt[] => {
    let f = feltCache.get(r);
    if (!f) feltCache.set(r, (f = feltAbout(r, previous)));
    return f;
  };

  const strongest: Record<string, number> = {};
  const intensities: Record<string, number[]> = {};
  for (const e of t.emotions) {
    if (e.message.strongest) strongest[e.message.strongest] = (strongest[e.message.strongest] ?? 0) + 1;
    for (const x of e.message.emotions) (intensities[x.type] ??= []).push(x.intensity);
  }

  const events: Partial<Record<EventKind, number>> = {};
  const toward: TowardFact[] = [];
  const latencies: { kind: EventKind; ms: number }[] = [];
  let unanswered = 0;
  for (const r of t.reactions) {
    const kind = eventKind(t, r);
    events[kind] = (events[kind] ?? 0) + 1;
    if (!r.emotions) {
      unanswered++;
      continue;
    }
    latencies.push({ kind, ms: r.emotions.time - r.event.time });
    for (const f of felt(r)) {
      const relation = targetRelation(t.robotSeat, f);
      if (relation) toward.push({ kind, relation, type: f.type, intensity: f.intensity });
    }
  }

  const lines = lineFacts(t);
  const libs: Record<string, LibrarySummary | null> = {};
  for (const language of new Set([...lines.map((l) => l.language), ...(t.language ? [t.language] : [])]))
    libs[language] = librarySummary(libraries(language));

  const lineValence = (language: string, id: string): number | null =>
    libraries(language)?.lines.find((l) => l.id === id)?.valence ?? null;
  const context = { t, session, felt, lineValence };
  const lineInfo = (language: string, id: string): LineInfo | null => {
    const l = libraries(language)?.lines.find((x) => x.id === id);
    return l
      ? { ...(l.valence === undefined ? {} : { valence: l.valence }), ...(l.when ? { when: l.when } : {}) }
      : null;
  };
  const lineContext = { t, session, lineInfo, ...(o.lookedAt ? { lookedAt: o.lookedAt } : {}) };
  const facts: SessionFacts = {
    sessions: 1,
    games: gameFacts(t, session),
    moods: t.emotions.map((e) => e.message.mood),
    emotionMessages: t.emotions.length,
    strongest,
    intensities,
    events,
    toward,
    lines,
    libraries: libs,
    facesBefore: countFaces(
      t.faces.filter((f) => f.index < ((t.games[0]?.plays[0] ?? t.games[0]?.end)?.index ?? Infinity)),
    ),
    faceChanges: faceChangeFacts(t, o.holdMs ?? DEFAULT_HOLD_MS),
    checks: {
      misaddressed: misaddressedLines(context),
      lateLines: lateLines(context),
      forcedBlame: blameForForcedPlays(context),
      gloatingPity: gloatingAndPity(context),
      happyAfterLoss: happyAfterLoss(context),
      facesAgainstWords: facesAgainstWords(context),
      facesAgainstTricks: facesAgainstTricks(context),
      facesAgainstCards: facesAgainstCards(t, session),
      panelAgainstFace: panelAgainstFace(t, session),
      linesAgainstTheGame: linesAgainstTheGame(lineContext),
      nudgesTooSoon: nudgesTooSoon(lineContext),
      looksAgainstLines: looksAgainstLines(lineContext),
    },
    latencies,
    unanswered,
  };
  return { facts, timeline: t };
}

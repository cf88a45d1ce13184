// Choosing what to say: the lines of a category that fit the emotion and the allowed targets, least
// recently said first, never one said within the repeat window; then filling its slots.

import type { Rng } from '../game/index.js';
import type {
  ConditionName,
  LineConditions,
  SlotName,
  Utterance,
  UtteranceCategory,
  UtteranceEmotion,
  UtteranceLibrary,
  UtteranceTarget,
} from './utterance-config.js';
import type { GazeTarget } from './gaze.js';
import type { Valence } from './line-valence.js';
import type { NameSlot } from './utterance-text.js';

/** What the robot remembers of its own speech. Plain data, so a plan and its state can be recorded. */
export interface SpeechMemory {
  /** Lines said so far. */
  said: number;
  /** For each line id, the value of `said` just after it was said. */
  lastSaid: Readonly<Record<string, number>>;
  /** When the last line started, on the planner's clock; null before the first. */
  lastStartMs: number | null;
  /** When the last line is expected to end: no line starts before this. Null before the first, or when the voice is free. */
  busyUntilMs: number | null;
  /**
   * The lines planned that may not have ended, with the moment from which each is stale: one the game
   * overtakes before it starts is dropped by the scheduler, so the next line need not wait for it.
   * `valence`: glad (1) or sorry (-1), absent for neither; no face says the opposite while it is said.
   * `looks`: where the line turns the head (to whom it is said to, or its gaze mark), at what times:
   * a later event's looks wait for its end, and a later plan, which replaces the looks still waiting,
   * plans those again, so the head does not turn away mid-sentence.
   */
  planned: readonly {
    startMs: number;
    endMs: number;
    until: number | null;
    valence?: Valence;
    looks?: readonly (readonly [number, GazeTarget])[];
  }[];
  /**
   * When the last optional comment started: the cooldown runs from it. A line that is always said, or
   * the robot naming its own card, is not a comment, so it never silences the next one. Null before any.
   */
  lastCommentMs: number | null;
  /**
   * A nudge (`A tua vez...`) planned for when a player hesitates: said only if their card is not
   * down by then (`until`), so other lines do not wait for it unless they would overlap it.
   */
  nudge: { startMs: number; endMs: number; until: number | null } | null;
}

export const EMPTY_SPEECH_MEMORY: SpeechMemory = {
  said: 0,
  lastSaid: {},
  lastStartMs: null,
  busyUntilMs: null,
  planned: [],
  lastCommentMs: null,
  nudge: null,
};

/** What is true of the moment, for the lines' conditions; a condition whose fact is not given fails. */
export type LineFacts = LineConditions;

export interface UtteranceRequest {
  category: UtteranceCategory;
  /** The emotion subcategory, or those felt (the first the strongest); null or none for a neutral line. */
  emotion: UtteranceEmotion | readonly UtteranceEmotion[] | null;
  /** The targets the event and the toggles allow. */
  targets: readonly UtteranceTarget[];
  /** The facts the lines' conditions are judged on; none given: only lines without conditions fit. */
  facts?: LineFacts;
  /** The names known; a line that needs a name not in here (`{player} não assistiu`) does not fit. Default: all. */
  names?: readonly NameSlot[];
  /** Lines left out for a reason of the caller's (one the robot's feelings toward its addressee contradict). */
  exclude?: (line: Utterance) => boolean;
  /**
   * When every fitting emotional line was said too recently, a neutral one stands in (for what is
   * always said); otherwise nothing is said rather than a line that misses the feeling.
   */
  orNeutral?: boolean;
}

/** The emotions of a request, as a list. */
const requestedEmotions = (request: Pick<UtteranceRequest, 'emotion'>): readonly UtteranceEmotion[] =>
  request.emotion === null ? [] : typeof request.emotion === 'string' ? [request.emotion] : request.emotion;

/** The first of the requested emotions `line` belongs to; null for a neutral line. */
export const emotionOf = (line: Utterance, request: Pick<UtteranceRequest, 'emotion'>): UtteranceEmotion | null =>
  requestedEmotions(request).find((e) => line.emotions.includes(e)) ?? null;

/** Does `line` fit these facts: every condition it sets holds? */
const fitsFacts = (line: Utterance, facts: LineFacts = {}): boolean =>
  (Object.keys(line.when) as ConditionName[]).every((k) => line.when[k] === facts[k]);

/**
 * The lines that fit: same category, an allowed target, their conditions and names, and the emotion
 * subcategory. When no such line has that emotion, neutral lines of the category stand in; an emotional
 * line is never said without its emotion.
 */
export function matchingLines(library: UtteranceLibrary, request: UtteranceRequest): Utterance[] {
  const inCategory = library.lines.filter(
    (l) =>
      l.category === request.category &&
      request.targets.includes(l.to) &&
      fitsFacts(l, request.facts) &&
      (request.names === undefined || l.needsNames.every((n) => request.names!.includes(n))) &&
      !request.exclude?.(l),
  );
  const neutral = inCategory.filter((l) => l.emotions.length === 0);
  const emotions = requestedEmotions(request);
  if (emotions.length === 0) return neutral;
  const emotional = inCategory.filter((l) => l.emotions.some((e) => emotions.includes(e)));
  return emotional.length > 0 ? emotional : neutral;
}

/** True when `line` was said within the last `window` lines. */
export const saidRecently = (memory: SpeechMemory, line: Utterance, window: number): boolean => {
  const at = memory.lastSaid[line.id];
  return at !== undefined && memory.said - at < window;
};

/** The least recently said fitting line outside the window (ties by `rng`), or null when there is none. */
export function selectUtterance(
  library: UtteranceLibrary,
  request: UtteranceRequest,
  memory: SpeechMemory,
  window: number,
  rng: Rng,
): Utterance | null {
  let fresh = matchingLines(library, request).filter((l) => !saidRecently(memory, l, window));
  if (fresh.length === 0 && request.orNeutral && requestedEmotions(request).length > 0)
    fresh = matchingLines(library, { ...request, emotion: null }).filter((l) => !saidRecently(memory, l, window));
  if (fresh.length === 0) return null;
  const age = (l: Utterance): number => memory.lastSaid[l.id] ?? -1;
  const oldest = Math.min(...fresh.map(age));
  const pool = fresh.filter((l) => age(l) === oldest);
  return pool[rng.int(pool.length)]!;
}

/**
 * Memory after saying `line` from `startMs` to `endMs`. Only an optional comment (`comment: true`)
 * starts the cooldown; a line always said, or the robot's card named, leaves it where it was. `until`
 * is the moment from which the line is stale (its `PlannedUtterance.until`): given, the next lines
 * stop waiting for it once the game has overtaken it before it started.
 */
export const rememberSaid = (
  memory: SpeechMemory,
  line: Pick<Utterance, 'id'>,
  startMs: number,
  endMs: number,
  o: {
    comment?: boolean;
    until?: number | null;
    valence?: Valence;
    looks?: readonly (readonly [number, GazeTarget])[];
  } = {},
): SpeechMemory => ({
  ...memory,
  said: memory.said + 1,
  lastSaid: { ...memory.lastSaid, [line.id]: memory.said + 1 },
  lastStartMs: startMs,
  busyUntilMs: Math.max(endMs, memory.busyUntilMs ?? endMs),
  planned: [
    ...(memory.planned ?? []),
    {
      startMs,
      endMs,
      until: o.until ?? null,
      ...(o.valence ? { valence: o.valence } : {}),
      ...(o.looks?.length ? { looks: o.looks } : {}),
    },
  ],
  lastCommentMs: o.comment ? startMs : (memory.lastCommentMs ?? null),
  nudge: memory.nudge ?? null,
});

/**
 * Memory at `nowMs`, once the session has reached `moment`: lines that have ended are forgotten, and
 * so are lines the game overtook before they started (the scheduler drops those as stale), so the
 * voice is busy only until the end of what will really be said. A caller that knows the voice is free
 * (its `busyUntilMs` set to null) frees it here too.
 */
export function speechAt(memory: SpeechMemory, nowMs: number, moment: number): SpeechMemory {
  const stale = (l: { startMs: number; until: number | null }): boolean =>
    l.until !== null && moment >= l.until && l.startMs > nowMs;
  const planned = memory.busyUntilMs === null ? [] : (memory.planned ?? []).filter((l) => l.endMs > nowMs && !stale(l));
  const busyUntilMs = planned.length === 0 ? null : Math.max(...planned.map((l) => l.endMs));
  const nudge = memory.nudge ?? null;
  // A nudge the player's card overtook is dropped, unless it had started: then it is being said.
  if (nudge && stale(nudge)) return { ...memory, planned, busyUntilMs, nudge: null };
  if (nudge && nudge.until !== null && moment >= nudge.until) {
    const end = Math.max(busyUntilMs ?? nudge.endMs, nudge.endMs);
    return {
      ...memory,
      planned: nudge.endMs > nowMs ? [...planned, { ...nudge }] : planned,
      busyUntilMs: nudge.endMs > nowMs ? end : busyUntilMs,
      nudge: null,
    };
  }
  return { ...memory, planned, busyUntilMs, nudge };
}

export type SlotValues = Partial<Record<SlotName, string | number>>;

// Filling a line and speaking a card live in utterance-text.ts (no Node APIs: the dashboard uses them too).
export { NAME_SLOTS, cardPhrase, namesNeeded, rankPhrase, renderUtterance, suitPhrase } from './utterance-text.js';

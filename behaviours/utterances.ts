// Choosing what to say: the lines of a category that fit the emotion and the allowed targets, least
// recently said first, never one said within the repeat window; then filling its slots.

import type { Rng } from '../game/index.js';
import type { SlotName, Utterance, UtteranceCategory, UtteranceEmotion, UtteranceLibrary, UtteranceTarget } from './utterance-config.js';

/** What the robot remembers of its own speech. Plain data, so a plan and its state can be recorded. */
export interface SpeechMemory {
  /** Lines said so far. */
  said: number;
  /** For each line id, the value of `said` just after it was said. */
  lastSaid: Readonly<Record<string, number>>;
  /** When the last line started, on the planner's clock; null before the first. */
  lastStartMs: number | null;
  /** When the last line is expected to end: no line starts before this. Null before the first. */
  busyUntilMs: number | null;
}

export const EMPTY_SPEECH_MEMORY: SpeechMemory = { said: 0, lastSaid: {}, lastStartMs: null, busyUntilMs: null };

export interface UtteranceRequest {
  category: UtteranceCategory;
  /** The emotion subcategory; null for a neutral line. */
  emotion: UtteranceEmotion | null;
  /** The targets the event and the toggles allow. */
  targets: readonly UtteranceTarget[];
}

/**
 * The lines that fit: same category, an allowed target, and the emotion subcategory. When no line has
 * that emotion, neutral lines of the category stand in; an emotional line is never said without its emotion.
 */
export function matchingLines(library: UtteranceLibrary, request: UtteranceRequest): Utterance[] {
  const inCategory = library.lines.filter((l) => l.category === request.category && request.targets.includes(l.to));
  const neutral = inCategory.filter((l) => l.emotions.length === 0);
  if (request.emotion === null) return neutral;
  const emotional = inCategory.filter((l) => l.emotions.includes(request.emotion!));
  return emotional.length > 0 ? emotional : neutral;
}

/** True when `line` was said within the last `window` lines. */
export const saidRecently = (memory: SpeechMemory, line: Utterance, window: number): boolean => {
  const at = memory.lastSaid[line.id];
  return at !== undefined && memory.said - at < window;
};

/** The least recently said fitting line outside the window (ties by `rng`), or null when there is none. */
export function selectUtterance(library: UtteranceLibrary, request: UtteranceRequest, memory: SpeechMemory, window: number, rng: Rng): Utterance | null {
  const fresh = matchingLines(library, request).filter((l) => !saidRecently(memory, l, window));
  if (fresh.length === 0) return null;
  const age = (l: Utterance): number => memory.lastSaid[l.id] ?? -1;
  const oldest = Math.min(...fresh.map(age));
  const pool = fresh.filter((l) => age(l) === oldest);
  return pool[rng.int(pool.length)]!;
}

/** Memory after saying `line` from `startMs` to `endMs`. */
export const rememberSaid = (memory: SpeechMemory, line: Utterance, startMs: number, endMs: number): SpeechMemory => ({
  said: memory.said + 1,
  lastSaid: { ...memory.lastSaid, [line.id]: memory.said + 1 },
  lastStartMs: startMs,
  busyUntilMs: endMs,
});

export type SlotValues = Partial<Record<SlotName, string | number>>;

// Filling a line and speaking a card live in utterance-text.ts (no Node APIs: the dashboard uses them too).
export { cardPhrase, rankPhrase, renderUtterance, suitPhrase } from './utterance-text.js';

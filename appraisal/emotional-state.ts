// The emotional state and its dynamics, as FAtiMA defines them: thresholds, intensities clamped to
// 0..10, same-type emotions combined, exponential decay with a half-life and a per-type factor, and
// a mood (-10..10) that decays, colours new emotions and is moved by them. Pure: time is passed in.

import type { Seat } from '../game/index.js';
import type { Character } from './character.js';
import type { ActiveEmotion, ElicitedEmotion, FeltEmotion } from './emotions.js';
import { INFLUENCES_MOOD, VALENCE, emotionKey } from './emotions.js';
import type { Expectation } from './events.js';
import { PRIOR_EXPECTATION } from './events.js';
import type { GameContext } from './game-context.js';
import { initialContext } from './game-context.js';

/** Everything the appraisal of a character carries from one event to the next. */
export interface EmotionalState {
  /** Time (ms) of the last event appraised. */
  at: number;
  /** Emotions being felt; each decays from its own `since`. */
  emotions: readonly ActiveEmotion[];
  /** The mood at `moodSince`. */
  mood: number;
  moodSince: number;
  /** Goals' success probabilities. */
  likelihood: Readonly<Record<string, number>>;
  /** Goals whose outcome is known (true achieved, false failed) since they were last adopted. */
  resolved: Readonly<Record<string, boolean>>;
  /** The last expectation the player reported for this game. */
  expectation: Expectation;
  game: GameContext;
}

export function initialState(character: Character, seat: Seat, time: number): EmotionalState {
  const likelihood = Object.fromEntries(Object.values(character.goals).map((g) => [g.name, g.likelihood]));
  return {
    at: time,
    emotions: [],
    mood: 0,
    moodSince: time,
    likelihood,
    resolved: {},
    expectation: PRIOR_EXPECTATION,
    game: initialContext(seat),
  };
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/** Decay per millisecond at decay factor 1: ln(1/2) / half-life. */
const rate = (halfLifeTicks: number, tickMs: number): number => Math.log(0.5) / (halfLifeTicks * tickMs);

/** An emotion's intensity at `time` (not before its `since`). */
export function intensityAt(e: ActiveEmotion, time: number, character: Character): number {
  const dt = time - e.since;
  if (dt <= 0) return e.intensity;
  const m = character.model;
  return e.intensity * Math.exp(rate(m.emotionHalfLifeTicks, m.tickMs) * character.dispositions[e.type].decay * dt);
}

/** The mood at `time`: decayed toward 0, and 0 once inside the neutral band. */
export function moodAt(state: EmotionalState, time: number, character: Character): number {
  const m = character.model;
  const dt = time - state.moodSince;
  const v = dt <= 0 ? state.mood : state.mood * Math.exp(rate(m.moodHalfLifeTicks, m.tickMs) * dt);
  return Math.abs(v) < m.neutralMoodBand ? 0 : v;
}

/** The emotions still felt at `time`, with their intensities then, strongest first. */
export function feltAt(state: EmotionalState, time: number, character: Character): FeltEmotion[] {
  const out: FeltEmotion[] = [];
  for (const e of state.emotions) {
    const intensity = intensityAt(e, time, character);
    if (intensity >= character.model.minimumIntensity) out.push({ type: e.type, target: e.target, intensity });
  }
  return out.sort(strongestFirst);
}

const TYPE_ORDER = new Map<string, number>();
/** Strongest first; ties in a fixed order (type, then target), so reports never depend on history. */
function strongestFirst(a: FeltEmotion, b: FeltEmotion): number {
  if (b.intensity !== a.intensity) return b.intensity - a.intensity;
  if (TYPE_ORDER.size === 0) Object.keys(VALENCE).forEach((t, i) => TYPE_ORDER.set(t, i));
  const t = TYPE_ORDER.get(a.type)! - TYPE_ORDER.get(b.type)!;
  return t !== 0 ? t : String(a.target).localeCompare(String(b.target));
}

/** ln(e^a + e^b) without overflow. */
const logSumExp = (a: number, b: number): number => Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));

interface Feeling {
  emotions: ActiveEmotion[];
  mood: number;
  /** The emotions the event made felt (above threshold), with the intensity each added alone. */
  felt: FeltEmotion[];
}

/**
 * Adds an event's elicited emotions to the state at `time` (FAtiMA's AddEmotion):
 * - the potential moves by valence x mood x moodInfluenceOnEmotion (the mood before this event);
 * - below the type's threshold nothing is felt; above, intensity = potential - threshold, at most 10;
 * - an emotion already felt with the same type and target is reinforced: its intensity becomes
 *   ln(e^(current + threshold) + e^(potential)) - threshold (FAtiMA Modular's ReforceEmotion);
 * - the mood moves by emotionInfluenceOnMood x (the strongest positive - the strongest negative
 *   intensity among the new emotions that influence it, not hope and fear), softly bounded (moodStep);
 *   `movesMood` false: the emotions are felt but leave the mood alone (those of a new estimate).
 * Emotions that decayed below the minimum intensity are dropped.
 */
export function feel(
  state: EmotionalState,
  elicited: readonly ElicitedEmotion[],
  time: number,
  character: Character,
  movesMood = true,
): Feeling {
  const { model, dispositions } = character;
  const mood = moodAt(state, time, character);
  const byKey = new Map<string, ActiveEmotion>();
  for (const e of state.emotions) {
    if (intensityAt(e, time, character) >= model.minimumIntensity) byKey.set(emotionKey(e.type, e.target), e);
  }
  const felt: FeltEmotion[] = [];
  // One event is one reaction, however many facets the OCC derivation gives it (joy, happy-for,
  // gratitude... from one trick): the mood moves by its strongest positive and strongest negative
  // emotion. FAtiMA adds every emotion; with several per event that pinned the mood at +-10 (README).
  let up = 0;
  let down = 0;
  for (const em of elicited) {
    const { threshold } = dispositions[em.type];
    const potential = Math.max(0, em.potential + VALENCE[em.type] * mood * model.moodInfluenceOnEmotion);
    if (!(potential > threshold)) continue;
    const alone = clamp(potential - threshold, 0, 10);
    const key = emotionKey(em.type, em.target);
    const old = byKey.get(key);
    const intensity = old
      ? clamp(logSumExp(intensityAt(old, time, character) + threshold, potential) - threshold, 0, 10)
      : alone;
    byKey.set(key, { type: em.type, target: em.target, intensity, since: time });
    felt.push({ type: em.type, target: em.target, intensity: alone });
    if (movesMood && INFLUENCES_MOOD[em.type]) {
      if (VALENCE[em.type] > 0) up = Math.max(up, alone);
      else down = Math.max(down, alone);
    }
  }
  let next = clamp(mood + moodStep(mood, (up - down) * model.emotionInfluenceOnMood), -10, 10);
  if (Math.abs(next) < model.neutralMoodBand) next = 0;
  return { emotions: [...byKey.values()], mood: next, felt };
}

/**
 * How far the mood moves for a push `step` from `mood`: toward its bound by the room left (at +8 a
 * push up moves a fifth of it), away from it in full. FAtiMA adds the push and clamps at +-10; a
 * robot that appraises a card a second, with the mood colouring each new emotion (good news felt
 * more strongly in a good mood), sat at +10 for most of a session and looked happy after losing.
 */
export function moodStep(mood: number, step: number): number {
  const toward = step > 0 ? mood > 0 : mood < 0;
  return toward ? step * (1 - Math.abs(mood) / 10) : step;
}

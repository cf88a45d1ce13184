// Appraising one event: pure. The character that owns the emotional state passes it in with the
// time; the new state comes back with what the event elicited and why (the rules that matched and
// the appraisal variables they set), so a behaviour or an author can see the reasons.

import type { Character } from './character.js';
import type { AppraisalFrame } from './derive.js';
import { deriveEmotions, emptyFrame } from './derive.js';
import type { EmotionalState } from './emotional-state.js';
import { feel } from './emotional-state.js';
import type { FeltEmotion } from './emotions.js';
import type { Expectation, Perception } from './events.js';
import { PRIOR_EXPECTATION } from './events.js';
import { eventEnv, resolveTarget } from './event-scope.js';
import { advanceContext } from './game-context.js';

export interface AppraisalResult {
  state: EmotionalState;
  /** Names of the rules that matched, in order. */
  rules: string[];
  /** The appraisal variables the rules set. */
  frame: AppraisalFrame;
  /** The emotions this event made felt, each with the intensity it had alone. */
  felt: FeltEmotion[];
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/** A usable expectation, or undefined (a forced card reports NaN: nothing was searched). */
function usable(x: Partial<Expectation> | undefined): Expectation | undefined {
  if (!x || !Number.isFinite(x.expectedPoints) || !Number.isFinite(x.winProbability)) return undefined;
  return { expectedPoints: clamp(x.expectedPoints!, 0, 120), winProbability: clamp(x.winProbability!, 0, 1) };
}

/** Appraises one event at `time` (ms, not earlier than the state's last event). */
export function appraise(character: Character, state: EmotionalState, perception: Perception, time: number): AppraisalResult {
  if (!(time >= state.at)) throw new RangeError(`appraisal time ${time} is before the last event's (${state.at}): clocks must not go back`);
  const event = perception.event;
  const newGame = event.type === 'deal';
  const game = advanceContext(state.game, event);

  const after = usable(perception.beliefs?.after);
  const was = usable(perception.beliefs?.before) ?? (newGame ? PRIOR_EXPECTATION : state.expectation);
  const now = after ?? was;

  let likelihood = state.likelihood;
  for (const goal of Object.values(character.goals)) {
    if (goal.resetOn.includes(event.type)) likelihood = { ...likelihood, [goal.name]: goal.likelihood };
  }

  const env = eventEnv(event, game, was, now, after !== undefined);
  const frame = emptyFrame();
  const rules: string[] = [];
  // Later rules override earlier ones variable by variable and target by target (FAtiMA's frame).
  const put = <K>(into: Map<K, number>, key: K, v: number, lo: number, hi: number): void => {
    if (Number.isFinite(v)) into.set(key, clamp(v, lo, hi));
  };
  for (const rule of character.rulesFor[event.type]) {
    if (rule.when && !rule.when(env)) continue;
    rules.push(rule.name);
    if (rule.desirability) {
      const d = rule.desirability(env);
      if (Number.isFinite(d)) frame.desirability = clamp(d, -10, 10);
    }
    for (const [word, f] of rule.desirabilityForOther) put(frame.desirabilityForOther, resolveTarget(word, env), f(env), -10, 10);
    for (const [word, f] of rule.praiseworthiness) put(frame.praiseworthiness, resolveTarget(word, env), f(env), -10, 10);
    for (const [word, f] of rule.like) put(frame.like, resolveTarget(word, env), f(env), -10, 10);
    for (const [goal, f] of rule.goalSuccessProbability) put(frame.goalSuccessProbability, goal, f(env), 0, 1);
  }

  const derivation = deriveEmotions(frame, game.self, character.goals, likelihood, character.model.likeFactor);
  const feeling = feel(state, derivation.emotions, time, character);
  return {
    state: { at: time, emotions: feeling.emotions, mood: feeling.mood, moodSince: time, likelihood: derivation.likelihood, expectation: now, game },
    rules,
    frame,
    felt: feeling.felt,
  };
}

/** The state at a later time with nothing happening: emotions and mood decay (what a clock tick does). */
export function passTime(character: Character, state: EmotionalState, time: number): EmotionalState {
  if (!(time >= state.at)) throw new RangeError(`time ${time} is before the last event's (${state.at}): clocks must not go back`);
  const { emotions, mood } = feel(state, [], time, character);
  return { ...state, at: time, emotions, mood, moodSince: time };
}

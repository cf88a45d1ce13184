// Appraising one event: pure. The character that owns the emotional state passes it in with the
// time; the new state comes back with what the event elicited and why (the rules that matched and
// the appraisal variables they set), so a behaviour or an author can see the reasons.

import type { Character } from './character.js';
import type { AppraisalFrame } from './derive.js';
import { deriveEmotions, emptyFrame } from './derive.js';
import type { EmotionalState } from './emotional-state.js';
import { feel } from './emotional-state.js';
import type { FeltEmotion } from './emotions.js';
import type { AppraisalEvent, Expectation, Perception } from './events.js';
import { PRIOR_EXPECTATION } from './events.js';
import { eventEnv, resolveTarget } from './event-scope.js';
import type { Env } from './expression.js';
import { advanceContext } from './game-context.js';
import type { GameContext } from './game-context.js';

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
  const out: Expectation = {
    expectedPoints: clamp(x.expectedPoints!, 0, 120),
    winProbability: clamp(x.winProbability!, 0, 1),
  };
  if (x.pointsSe !== undefined && x.pointsSe > 0 && Number.isFinite(x.pointsSe)) out.pointsSe = x.pointsSe;
  if (x.winSe !== undefined && x.winSe > 0 && Number.isFinite(x.winSe)) out.winSe = x.winSe;
  return out;
}

/**
 * The least change of a goal's estimated probability that is news after an estimate with standard
 * error `winSe`: noiseBand standard errors of the difference from the probability last appraised,
 * taken to be as noisy as this one.
 */
const probabilityNoise = (character: Character, now: Expectation): number =>
  character.noiseBand * Math.SQRT2 * (now.winSe ?? 0);

/** The event's unexpectedness as the character appraises it: its surprise times surpriseGain, 0..1. */
export function surpriseOf(character: Character, surprise: number | undefined): number {
  if (surprise === undefined || !Number.isFinite(surprise) || surprise <= 0) return 0;
  return clamp(surprise * character.surpriseGain, 0, 1);
}

/** Appraises one event at `time` (ms, not earlier than the state's last event). */
export function appraise(
  character: Character,
  state: EmotionalState,
  perception: Perception,
  time: number,
): AppraisalResult {
  if (!(time >= state.at))
    throw new RangeError(`appraisal time ${time} is before the last event's (${state.at}): clocks must not go back`);
  const event = perception.event;
  const newGame = event.type === 'deal';
  const game = advanceContext(state.game, event);

  const after = usable(perception.beliefs?.after);
  const was = usable(perception.beliefs?.before) ?? (newGame ? PRIOR_EXPECTATION : state.expectation);
  const now = after ?? was;

  // A goal adopted afresh (every win-game at a deal) starts at its likelihood with no outcome known:
  // nothing of the last game's prospects is carried into the next.
  let likelihood = state.likelihood;
  let resolved = state.resolved;
  for (const goal of Object.values(character.goals)) {
    if (!goal.resetOn.includes(event.type)) continue;
    likelihood = { ...likelihood, [goal.name]: goal.likelihood };
    if (goal.name in resolved)
      resolved = Object.fromEntries(Object.entries(resolved).filter(([name]) => name !== goal.name));
  }

  const surprise = surpriseOf(character, perception.surprise);
  const { frame, rules } = frameOf(
    character,
    event,
    eventEnv(event, game, was, now, after !== undefined, 1, surprise, character.noiseBand),
  );
  frame.surprise = surprise;
  frame.probabilityNoise = probabilityNoise(character, now);
  const derivation = deriveEmotions(
    frame,
    game.self,
    character.goals,
    likelihood,
    character.model.likeFactor,
    resolved,
  );
  const feeling = feel(state, derivation.emotions, time, character);
  return {
    state: {
      at: time,
      emotions: feeling.emotions,
      mood: feeling.mood,
      moodSince: time,
      likelihood: derivation.likelihood,
      resolved: derivation.resolved,
      expectation: now,
      game,
    },
    rules,
    frame,
    felt: feeling.felt,
  };
}

/** The appraisal frame of an event: every matching rule, later ones overriding earlier ones variable by variable and target by target (FAtiMA's frame). */
function frameOf(character: Character, event: AppraisalEvent, env: Env): { frame: AppraisalFrame; rules: string[] } {
  const frame = emptyFrame();
  const rules: string[] = [];
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
    for (const [word, f] of rule.desirabilityForOther)
      put(frame.desirabilityForOther, resolveTarget(word, env), f(env), -10, 10);
    for (const [word, f] of rule.praiseworthiness)
      put(frame.praiseworthiness, resolveTarget(word, env), f(env), -10, 10);
    for (const [word, f] of rule.like) put(frame.like, resolveTarget(word, env), f(env), -10, 10);
    for (const [goal, f] of rule.goalSuccessProbability) put(frame.goalSuccessProbability, goal, f(env), 0, 1);
    for (const [goal, f] of rule.goalAchieved) frame.goalAchieved.set(goal, f(env));
  }
  if (event.type === 'play') withTheTrick(character, frame, env);
  return { frame, rules };
}

/**
 * A card that takes the lead of a rich trick is good news for its side, as anyone at the table sees
 * it. The estimate after it may say otherwise (an opponent's ace out of the way makes the robot's
 * cards masters, so its expectation rises), and the robot then smiled at the opponents' ace taking
 * the lead of 21 points. The change of estimate is news of the cards, not of this card: for an
 * opponent's such card no joy or hope (desirability and the goals' probabilities do not rise) and no
 * gloating at its player; for the partner's, no distress or fear, pity or blame. What is left out
 * still adds up: the goals are judged against the probability last appraised.
 */
function withTheTrick(character: Character, frame: AppraisalFrame, env: Env): void {
  const rich = character.leadTrickPoints;
  if (rich <= 0 || env.winning !== true || !((env.tablePoints as number) >= rich)) return;
  const player = env.player as number;
  if (player === env.self) return;
  const side = player === env.partner ? 1 : -1;
  const against = (v: number): boolean => (side > 0 ? v < 0 : v > 0);
  if (frame.desirability !== null && against(frame.desirability)) frame.desirability = 0;
  const was = (env.before as { winProbability: number }).winProbability;
  for (const [goal, p] of frame.goalSuccessProbability) if (against(p - was)) frame.goalSuccessProbability.delete(goal);
  // Good for the player: not bad for them (no pity for the partner, no gloating at an opponent), and
  // no blame for the partner or the team.
  const theirs = (t: unknown): boolean => t === player || (side > 0 && t === 'team');
  for (const [target, v] of frame.desirabilityForOther)
    if (theirs(target) && v < 0) frame.desirabilityForOther.delete(target);
  if (side > 0)
    for (const [target, v] of frame.praiseworthiness)
      if (theirs(target) && v < 0) frame.praiseworthiness.delete(target);
}

/** An event appraised already, and the expectation it should have come with, which arrived later. */
export interface Reappraisal {
  event: AppraisalEvent;
  /** The game context just after the event: what its first appraisal saw (`state.game` then). */
  context: GameContext;
  /** The expectation after the event. */
  after: Expectation;
  /**
   * False when the change of expectation is not this event's alone (the positions between the last
   * estimate and this one were never estimated): it is news about the game (joy, distress, hope,
   * fear) but no one's doing, so no praise, blame or fortune of others. Default true.
   */
  attributable?: boolean;
  /** After a play: how likely its player had another card it could play (0..1; 1 when not known). */
  choice?: number;
  /** How unexpected the event was when first perceived (0..1; the perception's surprise): it strengthens the late emotions too. */
  surprise?: number;
}

/** The entries of `late` that differ from `plain` (a value `plain` lacks counts as 0). */
function changedEntries<K>(plain: Map<K, number>, late: Map<K, number>): Map<K, number> {
  const out = new Map<K, number>();
  for (const [k, v] of late) if (v !== (plain.get(k) ?? 0)) out.set(k, v);
  return out;
}

/**
 * Appraises again, at `time`, an event that was appraised before its expectation was known (the
 * robot reacts at once; a quick estimate comes later). FAtiMA reappraises an event when what is
 * believed about it changes; here the event's rules run again in the context it had, from the
 * expectation in force now (`state.expectation`) to `after`, and only the appraisal variables the
 * new expectation changes are derived (the rest were felt at the first appraisal): the change of
 * expectation gives joy or distress, praise or blame that depend on it, and the goals' new success
 * probabilities give hope or fear. The game context does not move; the expectation becomes `after`.
 */
export function reappraise(character: Character, state: EmotionalState, r: Reappraisal, time: number): AppraisalResult {
  if (!(time >= state.at))
    throw new RangeError(`appraisal time ${time} is before the last event's (${state.at}): clocks must not go back`);
  const after = usable(r.after);
  if (!after) return { state: passTime(character, state, time), rules: [], frame: emptyFrame(), felt: [] };
  const was = state.expectation;
  // What the first appraisal made of the event (no change of expectation), and what it makes of it now.
  const surprise = surpriseOf(character, r.surprise);
  const plain = frameOf(
    character,
    r.event,
    eventEnv(r.event, r.context, was, was, false, r.choice, surprise, character.noiseBand),
  ).frame;
  const late = frameOf(
    character,
    r.event,
    eventEnv(r.event, r.context, was, after, true, r.choice, surprise, character.noiseBand),
  );
  const wellBeing = late.frame.desirability !== plain.desirability;
  const social = r.attributable !== false;
  const frame: AppraisalFrame = {
    // Fortune-of-others and compound emotions need the desirability even when it did not change.
    desirability: late.frame.desirability,
    desirabilityForOther: social
      ? changedEntries(plain.desirabilityForOther, late.frame.desirabilityForOther)
      : new Map(),
    praiseworthiness: social ? changedEntries(plain.praiseworthiness, late.frame.praiseworthiness) : new Map(),
    like: social ? changedEntries(plain.like, late.frame.like) : new Map(),
    // Goals are judged against the probability last appraised, so an unchanged one elicits nothing;
    // an outcome known already elicits nothing either, and estimates do not move it.
    goalSuccessProbability: late.frame.goalSuccessProbability,
    goalAchieved: late.frame.goalAchieved,
    surprise,
    probabilityNoise: probabilityNoise(character, after),
  };
  const derivation = deriveEmotions(
    frame,
    r.context.self,
    character.goals,
    state.likelihood,
    character.model.likeFactor,
    state.resolved,
  );
  // Joy or distress at the event itself only when its desirability changed: otherwise it was felt already.
  const elicited = wellBeing
    ? derivation.emotions
    : derivation.emotions.filter((e) => !(e.target === null && (e.type === 'joy' || e.type === 'distress')));
  // What an estimate changes is a prospect, not a fact: felt (joy or distress at the news, hope or
  // fear), but the mood moves only with what happened (points taken, an outcome, a renounce). Moved
  // by every estimate, the mood wandered with the estimator's noise and did not follow the score.
  const feeling = feel(state, elicited, time, character, false);
  return {
    state: {
      ...state,
      at: time,
      emotions: feeling.emotions,
      mood: feeling.mood,
      moodSince: time,
      likelihood: derivation.likelihood,
      resolved: derivation.resolved,
      expectation: after,
    },
    rules: late.rules,
    frame,
    felt: feeling.felt,
  };
}

/** The state at a later time with nothing happening: emotions and mood decay (what a clock tick does). */
export function passTime(character: Character, state: EmotionalState, time: number): EmotionalState {
  if (!(time >= state.at))
    throw new RangeError(`time ${time} is before the last event's (${state.at}): clocks must not go back`);
  const { emotions, mood } = feel(state, [], time, character);
  return { ...state, at: time, emotions, mood, moodSince: time };
}

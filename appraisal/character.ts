// A character: the model's constants, emotion dispositions, goals and appraisal rules, as loaded
// and checked from config/appraisal/. Plain data plus compiled rule expressions.

import type { EmotionType } from './emotions.js';
import type { GoalSpec } from './derive.js';
import type { AppraisalEventType } from './events.js';
import type { Env } from './expression.js';
import type { TargetWord } from './event-scope.js';

/** FAtiMA's constants (config/appraisal/appraisal.yaml says where each comes from). */
export interface ModelConstants {
  /** FAtiMA counts time in ticks; this many milliseconds make one tick. */
  tickMs: number;
  /** Ticks for an emotion with decay factor 1 to lose half its intensity. */
  emotionHalfLifeTicks: number;
  /** Ticks for the mood to lose half its value. */
  moodHalfLifeTicks: number;
  /** Share of the mood added to (or taken from) a new emotion's potential, by the emotion's valence. */
  moodInfluenceOnEmotion: number;
  /** Share of a new emotion's intensity added to the mood, by its valence. */
  emotionInfluenceOnMood: number;
  /** A mood closer to 0 than this is neutral (0). */
  neutralMoodBand: number;
  /** An emotion weaker than this is no longer felt. */
  minimumIntensity: number;
  /** Love and hate potentials are |like| times this. */
  likeFactor: number;
}

/** A character's disposition toward an emotion type (FAtiMA's EmotionDisposition). */
export interface Disposition {
  /** A potential must exceed this to be felt; intensity = potential - threshold (0..10). */
  threshold: number;
  /** Decay factor (0..10): multiplies the decay rate; 0 never decays. */
  decay: number;
}

export interface Goal extends GoalSpec {
  /** Events at which the goal is adopted afresh (its likelihood reset), before rules apply. */
  resetOn: readonly AppraisalEventType[];
}

type NumberOf = (env: Env) => number;
type BooleanOf = (env: Env) => boolean;

/** An appraisal rule, compiled. */
export interface Rule {
  name: string;
  on: readonly AppraisalEventType[];
  /** Where it was written, `file:line`. */
  source: string;
  when: ((env: Env) => boolean) | null;
  desirability: NumberOf | null;
  desirabilityForOther: readonly (readonly [TargetWord, NumberOf])[];
  praiseworthiness: readonly (readonly [TargetWord, NumberOf])[];
  like: readonly (readonly [TargetWord, NumberOf])[];
  /** Estimates of goals' success probabilities: hope and fear. */
  goalSuccessProbability: readonly (readonly [string, NumberOf])[];
  /** Goals' outcomes made certain (true achieved, false failed): satisfaction, relief, disappointment, fears-confirmed. */
  goalAchieved: readonly (readonly [string, BooleanOf])[];
}

export interface Character {
  /** The preset's name (or its file). */
  name: string;
  description: string;
  model: ModelConstants;
  dispositions: Readonly<Record<EmotionType, Disposition>>;
  /**
   * How strongly the character takes an unexpected event (0..2): an event's surprise (0..1) times
   * this is its unexpectedness, which strengthens the emotions about it and shows as surprise.
   * 0: nothing surprises it.
   */
  surpriseGain: number;
  /**
   * How many standard errors of the estimates a change of expectation must exceed to be news (0..4):
   * a smaller one is the estimator's sampling noise, so delta and winDelta read 0 and the goals'
   * estimated probabilities do not move. 0: every change is news.
   */
  noiseBand: number;
  /**
   * A card that takes the lead of a trick holding this many points or more (its own included) is
   * taken as good news for its side (0: off): an opponent's raises no joy, hope or gloating at it,
   * the partner's no distress, fear, pity or blame, whatever the estimate says; the estimate's change
   * still adds up toward the next appraisal.
   */
  leadTrickPoints: number;
  goals: Readonly<Record<string, Goal>>;
  /** In order: when two matching rules set the same variable for the same target, the later wins. */
  rules: readonly Rule[];
  /** The rules that listen to each event type, in order. */
  rulesFor: Readonly<Record<AppraisalEventType, readonly Rule[]>>;
}

// From appraisal variables to emotions: the OCC derivation as FAtiMA does it, with the differences
// README.md lists (constituent emotions are kept beside compounds, as FAtiMA Modular did).

import type { Seat } from '../game/index.js';
import type { ElicitedEmotion, EmotionType, Target } from './emotions.js';

/** One event's appraisal: FAtiMA's appraisal frame. */
export interface AppraisalFrame {
  /** How good the event is for the robot's goals, -10..10. */
  desirability: number | null;
  /** How good the event is for someone else, as the robot sees it, -10..10. */
  desirabilityForOther: Map<Target, number>;
  /** How well someone acted by the robot's standards, -10..10; at the robot itself or its team: pride, shame. */
  praiseworthiness: Map<Target, number>;
  /** How much the robot likes someone, -10..10. */
  like: Map<Target, number>;
  /**
   * The new success probability of named goals, 0..1: an estimate (the player's win probability is
   * the share of sampled worlds won), so it moves hope and fear but never confirms or disconfirms.
   */
  goalSuccessProbability: Map<string, number>;
  /** Named goals whose outcome the event makes certain: true achieved, false failed for good. */
  goalAchieved: Map<string, boolean>;
  /**
   * Unexpectedness, 0..1: how far the event departs from what the robot predicted (the perception's
   * surprise times the character's surpriseGain, at most 1). OCC's global intensity variable: it
   * strengthens what the event itself elicits (well-being, fortunes of others, attribution and their
   * compounds) by a factor 1 + surprise; prospects (hope, fear and their outcomes) and attraction are
   * about the goals and the people, not about this event, and are left as they are.
   */
  surprise: number;
  /**
   * The least change of an estimated goal probability that is news, beside each goal's minChange:
   * the estimator's sampling noise (the character's noiseBand standard errors); 0 when not known.
   */
  probabilityNoise: number;
}

export const emptyFrame = (): AppraisalFrame => ({
  desirability: null,
  desirabilityForOther: new Map(),
  praiseworthiness: new Map(),
  like: new Map(),
  goalSuccessProbability: new Map(),
  goalAchieved: new Map(),
  surprise: 0,
  probabilityNoise: 0,
});

export interface GoalSpec {
  name: string;
  /** How much the goal matters (0..10): the potential of prospect emotions scales with it. */
  significance: number;
  /** Its success probability when adopted. */
  likelihood: number;
  /** Smaller changes of an estimated probability are not appraised (an outcome always is). */
  minChange: number;
}

interface Derivation {
  emotions: ElicitedEmotion[];
  /** Goals' success probabilities after the event (1 or 0 for a goal whose outcome is known). */
  likelihood: Record<string, number>;
  /** Goals whose outcome is known after the event: true achieved, false failed. */
  resolved: Record<string, boolean>;
}

/** Is the target the robot itself, alone or with its partner? Then praise is pride, blame is shame. */
const isOwn = (target: Target, self: Seat): boolean => target === self || target === 'team';

/**
 * The emotions an appraisal frame elicits, with their potentials. `likelihood` holds each goal's
 * success probability before the event, `resolved` the goals whose outcome was known before it;
 * `likeFactor` scales love and hate (FAtiMA: 0.7).
 */
export function deriveEmotions(
  frame: AppraisalFrame,
  self: Seat,
  goals: Readonly<Record<string, GoalSpec>>,
  likelihood: Readonly<Record<string, number>>,
  likeFactor: number,
  resolved: Readonly<Record<string, boolean>> = {},
): Derivation {
  const out: ElicitedEmotion[] = [];
  const push = (type: EmotionType, target: Target | null, potential: number): void => {
    if (potential > 0) out.push({ type, target, potential });
  };
  // Unexpectedness strengthens the emotions about the event and its doer (not prospects, not attraction).
  const gain = 1 + (Number.isFinite(frame.surprise) ? Math.min(1, Math.max(0, frame.surprise)) : 0);
  const eventPush = (type: EmotionType, target: Target | null, potential: number): void =>
    push(type, target, potential * gain);
  const d = frame.desirability;

  // Well-being: joy or distress at the event itself.
  if (d !== null && d !== 0) eventPush(d > 0 ? 'joy' : 'distress', null, Math.abs(d));

  // Fortune of others: needs the event's desirability for the robot too (as in FAtiMA). The potential
  // is the mean of the two magnitudes; the four emotions come from the two signs.
  if (d !== null) {
    for (const [target, dfo] of frame.desirabilityForOther) {
      if (dfo === 0 || target === self) continue; // the robot is not an "other"
      const type: EmotionType = d >= 0 ? (dfo >= 0 ? 'happy-for' : 'gloating') : dfo >= 0 ? 'resentment' : 'pity';
      eventPush(type, target, (Math.abs(d) + Math.abs(dfo)) / 2);
    }
  }

  for (const [target, p] of frame.praiseworthiness) {
    if (p === 0) continue;
    const own = isOwn(target, self);
    // Attribution: pride or shame at oneself, admiration or reproach at another.
    eventPush(own ? (p > 0 ? 'pride' : 'shame') : p > 0 ? 'admiration' : 'reproach', target, Math.abs(p));
    // Compound (well-being and attribution of the same sign): gratification, remorse, gratitude, anger.
    if (d !== null && d !== 0 && d > 0 === p > 0) {
      eventPush(
        own ? (d > 0 ? 'gratification' : 'remorse') : d > 0 ? 'gratitude' : 'anger',
        target,
        (Math.abs(d) + Math.abs(p)) / 2,
      );
    }
  }

  // Attraction: love or hate.
  for (const [target, l] of frame.like) {
    if (l !== 0) push(l > 0 ? 'love' : 'hate', target, Math.abs(l) * likeFactor);
  }

  // Prospects. A goal's outcome made certain confirms or disconfirms the prospect, by the probability
  // it had before (FAtiMA Toolkit's thresholds): achieved, satisfaction if success had been likely
  // (> 0.5), relief if it had not; failed, disappointment if success had been likely (>= 0.5),
  // fears-confirmed if it had not. An outcome that is known already elicits nothing; one that turns
  // over (a renounce found out after the points were made) is judged from the outcome it replaces.
  const next: Record<string, number> = { ...likelihood };
  const known: Record<string, boolean> = { ...resolved };
  for (const [name, achieved] of frame.goalAchieved) {
    const goal = goals[name];
    if (!goal || known[name] === achieved) continue;
    const was = known[name] === undefined ? (likelihood[name] ?? goal.likelihood) : known[name] ? 1 : 0;
    known[name] = achieved;
    next[name] = achieved ? 1 : 0;
    if (achieved) push(was > 0.5 ? 'satisfaction' : 'relief', null, goal.significance);
    else push(was >= 0.5 ? 'disappointment' : 'fears-confirmed', null, goal.significance);
  }
  // A new success probability is an estimate, even at 1 or 0 (every sampled world won, or lost): a
  // rising one gives hope, a falling one fear, in proportion to the probability of the outcome and
  // the goal's significance. Once the outcome is known, estimates no longer move it.
  for (const [name, value] of frame.goalSuccessProbability) {
    const goal = goals[name];
    if (!goal || known[name] !== undefined) continue;
    const was = likelihood[name] ?? goal.likelihood;
    const p = Math.min(1, Math.max(0, value));
    // The player's estimate wobbles from sampling alone; a drift still adds up against `was`.
    // (A change of exactly minChange counts: 0.6 - 0.55 is 0.0499999... in floating point.)
    if (Math.abs(p - was) < goal.minChange - 1e-9) continue;
    if (Math.abs(p - was) <= frame.probabilityNoise) continue;
    next[name] = p;
    if (p > was) push('hope', null, p * goal.significance);
    else if (p < was) push('fear', null, (1 - p) * goal.significance);
  }
  return { emotions: out, likelihood: next, resolved: known };
}

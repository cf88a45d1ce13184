// The OCC model as FAtiMA defines it, through the public API: derivation, thresholds, intensities,
// reinforcement, decay, mood, and the injected clock.

import { describe, expect, it } from 'vitest';
import type {
  ActiveEmotion,
  AppraisalFrame,
  Character,
  ElicitedEmotion,
  EmotionalState,
  Target,
} from '../../appraisal/index.js';
import {
  Appraiser,
  EMOTION_TYPES,
  appraise,
  deriveEmotions,
  emotionReport,
  emptyFrame,
  expectationOf,
  feel,
  initialState,
  intensityAt,
  manualClock,
  moodAt,
  moodStep,
  passTime,
} from '../../appraisal/index.js';
import type { Beliefs, Seat } from '../../game/index.js';
import { parseCard } from '../../game/index.js';
import { character } from './helpers.js';

const SELF: Seat = 0;
const goals = { 'win-game': { name: 'win-game', significance: 6, likelihood: 0.5, minChange: 0 } };

function frame(
  f: Partial<{
    d: number;
    dfo: [Target, number][];
    praise: [Target, number][];
    like: [Target, number][];
    goal: number;
    achieved: boolean;
  }>,
): AppraisalFrame {
  const fr = emptyFrame();
  if (f.d !== undefined) fr.desirability = f.d;
  for (const [t, v] of f.dfo ?? []) fr.desirabilityForOther.set(t, v);
  for (const [t, v] of f.praise ?? []) fr.praiseworthiness.set(t, v);
  for (const [t, v] of f.like ?? []) fr.like.set(t, v);
  if (f.goal !== undefined) fr.goalSuccessProbability.set('win-game', f.goal);
  if (f.achieved !== undefined) fr.goalAchieved.set('win-game', f.achieved);
  return fr;
}
const derive = (f: AppraisalFrame, was = 0.5, resolved: Record<string, boolean> = {}): ElicitedEmotion[] =>
  deriveEmotions(f, SELF, goals, { 'win-game': was }, 0.7, resolved).emotions;
const types = (es: ElicitedEmotion[]): string[] =>
  es.map((e) => `${e.type}${e.target === null ? '' : `>${e.target}`}:${e.potential}`).sort();

describe('OCC derivation (FAtiMA)', () => {
  it('knows the 22 emotion types', () => {
    expect(EMOTION_TYPES).toHaveLength(22);
    expect(new Set(EMOTION_TYPES).size).toBe(22);
  });

  it('well-being: joy or distress from desirability', () => {
    expect(types(derive(frame({ d: 4 })))).toEqual(['joy:4']);
    expect(types(derive(frame({ d: -3 })))).toEqual(['distress:3']);
    expect(derive(frame({ d: 0 }))).toEqual([]);
  });

  it('fortune of others: the two signs choose the emotion; the potential is the mean of the magnitudes', () => {
    expect(types(derive(frame({ d: 4, dfo: [[2, 6]] })))).toEqual(['happy-for>2:5', 'joy:4']);
    expect(types(derive(frame({ d: 4, dfo: [[1, -2]] })))).toEqual(['gloating>1:3', 'joy:4']);
    expect(types(derive(frame({ d: -4, dfo: [[1, 2]] })))).toEqual(['distress:4', 'resentment>1:3']);
    expect(types(derive(frame({ d: -4, dfo: [[2, -6]] })))).toEqual(['distress:4', 'pity>2:5']);
  });

  it('fortune of others needs the desirability for the robot, and another than the robot', () => {
    expect(derive(frame({ dfo: [[2, 6]] }))).toEqual([]);
    expect(types(derive(frame({ d: 2, dfo: [[SELF, 6]] })))).toEqual(['joy:2']);
  });

  it('attribution: pride and shame at oneself or the team, admiration and reproach at another', () => {
    expect(types(derive(frame({ praise: [[SELF, 3]] })))).toEqual(['pride>0:3']);
    expect(types(derive(frame({ praise: [['team', -3]] })))).toEqual(['shame>team:3']);
    expect(types(derive(frame({ praise: [[2, 5]] })))).toEqual(['admiration>2:5']);
    expect(types(derive(frame({ praise: [['opponents', -2]] })))).toEqual(['reproach>opponents:2']);
  });

  it('compounds when well-being and attribution agree: gratification, remorse, gratitude, anger', () => {
    expect(types(derive(frame({ d: 4, praise: [[SELF, 2]] })))).toEqual(['gratification>0:3', 'joy:4', 'pride>0:2']);
    expect(types(derive(frame({ d: -4, praise: [['team', -2]] })))).toEqual([
      'distress:4',
      'remorse>team:3',
      'shame>team:2',
    ]);
    expect(types(derive(frame({ d: 6, praise: [[2, 2]] })))).toEqual(['admiration>2:2', 'gratitude>2:4', 'joy:6']);
    expect(types(derive(frame({ d: -6, praise: [[2, -4]] })))).toEqual(['anger>2:5', 'distress:6', 'reproach>2:4']);
    // Signs that disagree make no compound (a blunder that helps us is not gratitude).
    expect(types(derive(frame({ d: 4, praise: [[1, -4]] })))).toEqual(['joy:4', 'reproach>1:4']);
  });

  it('attraction: love and hate at 0.7 of like', () => {
    expect(types(derive(frame({ like: [[2, 5]] })))).toEqual(['love>2:3.5']);
    expect(types(derive(frame({ like: [[1, -10]] })))).toEqual(['hate>1:7']);
  });

  it('prospects: hope and fear from a changing probability, even at 1 or 0 (an estimate)', () => {
    expect(types(derive(frame({ goal: 0.7 }), 0.5))).toEqual([`hope:${0.7 * 6}`]);
    expect(types(derive(frame({ goal: 0.3 }), 0.5))).toEqual([`fear:${(1 - 0.3) * 6}`]);
    expect(derive(frame({ goal: 0.5 }), 0.5)).toEqual([]);
    expect(types(derive(frame({ goal: 1 }), 0.8))).toEqual(['hope:6']);
    expect(types(derive(frame({ goal: 0 }), 0.3))).toEqual(['fear:6']);
    expect(deriveEmotions(frame({ goal: 0.9 }), SELF, goals, { 'win-game': 0.5 }, 0.7).likelihood).toEqual({
      'win-game': 0.9,
    });
  });

  it('prospects: an outcome made certain confirms or disconfirms them, by the probability before', () => {
    expect(types(derive(frame({ achieved: true }), 0.8))).toEqual(['satisfaction:6']);
    expect(types(derive(frame({ achieved: true }), 0.4))).toEqual(['relief:6']);
    expect(types(derive(frame({ achieved: true }), 0.5))).toEqual(['relief:6']);
    expect(types(derive(frame({ achieved: false }), 0.6))).toEqual(['disappointment:6']);
    expect(types(derive(frame({ achieved: false }), 0.5))).toEqual(['disappointment:6']);
    expect(types(derive(frame({ achieved: false }), 0.3))).toEqual(['fears-confirmed:6']);
    expect(deriveEmotions(frame({ achieved: false }), SELF, goals, { 'win-game': 0.3 }, 0.7)).toMatchObject({
      likelihood: { 'win-game': 0 },
      resolved: { 'win-game': false },
    });
  });

  it('prospects: a known outcome elicits nothing again and estimates no longer move it; an outcome that turns over does', () => {
    const won = { 'win-game': true };
    expect(derive(frame({ achieved: true }), 1, won)).toEqual([]);
    expect(derive(frame({ goal: 0.2 }), 1, won)).toEqual([]);
    expect(deriveEmotions(frame({ goal: 0.2, achieved: true }), SELF, goals, { 'win-game': 0.9 }, 0.7)).toEqual({
      emotions: [{ type: 'satisfaction', target: null, potential: 6 }],
      likelihood: { 'win-game': 1 },
      resolved: won,
    });
    // A renounce found out after the points had won the game: the win is lost.
    expect(types(derive(frame({ achieved: false }), 1, won))).toEqual(['disappointment:6']);
    expect(types(derive(frame({ achieved: true }), 0, { 'win-game': false }))).toEqual(['relief:6']);
  });

  it('ignores changes of probability below the goal minChange, but lets a drift add up', () => {
    const g = { 'win-game': { ...goals['win-game'], minChange: 0.05 } };
    const step = (p: number, was: number) => deriveEmotions(frame({ goal: p }), SELF, g, { 'win-game': was }, 0.7);
    expect(step(0.53, 0.5)).toEqual({ emotions: [], likelihood: { 'win-game': 0.5 }, resolved: {} });
    expect(step(0.56, 0.5).likelihood['win-game']).toBe(0.56); // 0.53 then 0.56: the drift is appraised against 0.5
    expect(types(step(0.56, 0.5).emotions)).toEqual([`hope:${0.56 * 6}`]);
    expect(step(1, 0.98).emotions).toEqual([]); // 1 is an estimate like any other
    // A change of exactly 0.05 counts, whatever floating point makes of it (0.6 - 0.55 = 0.04999...).
    expect(0.6 - 0.55).toBeLessThan(0.05);
    expect(types(step(0.6, 0.55).emotions)).toEqual([`hope:${0.6 * 6}`]);
    expect(types(step(0.3, 0.35).emotions)).toEqual([`fear:${0.7 * 6}`]);
    const outcome = deriveEmotions(frame({ achieved: true }), SELF, g, { 'win-game': 0.98 }, 0.7);
    expect(types(outcome.emotions)).toEqual(['satisfaction:6']); // an outcome always counts
  });
});

describe('intensity, reinforcement, decay and mood', () => {
  const c = character('neutral');
  const at = (state: EmotionalState, t: number): ActiveEmotion[] => feel(state, [], t, c).emotions;
  const start = initialState(c, SELF, 0);

  it("uses FAtiMA Toolkit constants (and the original robot threshold), but for the mood's two factors", () => {
    expect(c.model).toEqual({
      tickMs: 1000,
      emotionHalfLifeTicks: 15,
      moodHalfLifeTicks: 60,
      moodInfluenceOnEmotion: 0.1,
      emotionInfluenceOnMood: 0.5,
      neutralMoodBand: 0.5,
      minimumIntensity: 0.1,
      likeFactor: 0.7,
    });
    expect(c.dispositions.joy).toEqual({ threshold: 1, decay: 1 });
  });

  it('feels nothing at or below the threshold; intensity is potential minus threshold, at most 10', () => {
    expect(feel(start, [{ type: 'joy', target: null, potential: 1 }], 0, c).emotions).toEqual([]);
    expect(feel(start, [{ type: 'joy', target: null, potential: 4.5 }], 0, c).emotions[0]!.intensity).toBe(3.5);
    expect(feel(start, [{ type: 'joy', target: null, potential: 40 }], 0, c).emotions[0]!.intensity).toBe(10);
  });

  it('reinforces an emotion of the same type and target: ln(e^(current + threshold) + e^potential) - threshold', () => {
    const one = feel(start, [{ type: 'joy', target: null, potential: 4 }], 0, c);
    const s1 = { ...start, emotions: one.emotions, mood: 0 };
    const two = feel(s1, [{ type: 'joy', target: null, potential: 4 }], 0, c);
    expect(two.emotions).toHaveLength(1);
    expect(two.emotions[0]!.intensity).toBeCloseTo(Math.log(Math.exp(4) + Math.exp(4)) - 1, 12);
    // A different target is another emotion.
    const other = feel(
      s1,
      [
        { type: 'pity', target: 2, potential: 4 },
        { type: 'pity', target: 3, potential: 4 },
      ],
      0,
      c,
    );
    expect(other.emotions.map((e) => `${e.type}>${e.target}`).sort()).toEqual(['joy>null', 'pity>2', 'pity>3']);
  });

  it('decays exponentially: half in 15 s at decay 1, a quarter at decay 2, never at decay 0', () => {
    const e: ActiveEmotion = { type: 'joy', target: null, intensity: 8, since: 1000 };
    expect(intensityAt(e, 16_000, c)).toBeCloseTo(4, 12);
    expect(intensityAt(e, 31_000, c)).toBeCloseTo(2, 12);
    const fast: Character = { ...c, dispositions: { ...c.dispositions, joy: { threshold: 1, decay: 2 } } };
    expect(intensityAt(e, 16_000, fast)).toBeCloseTo(2, 12);
    const never: Character = { ...c, dispositions: { ...c.dispositions, joy: { threshold: 1, decay: 0 } } };
    expect(intensityAt(e, 1e9, never)).toBe(8);
    // Below 0.1 it is no longer felt.
    const s = { ...start, emotions: [e] };
    expect(at(s, 1000 + 15_000 * Math.log2(8 / 0.11))).toHaveLength(1);
    expect(at(s, 1000 + 15_000 * Math.log2(8 / 0.09))).toHaveLength(0);
  });

  it('moves the mood by 0.5 of the strongest positive and negative emotion; hope and fear leave it alone', () => {
    const f = feel(
      start,
      [
        { type: 'joy', target: null, potential: 6 },
        { type: 'happy-for', target: 2, potential: 4 },
        { type: 'pity', target: 3, potential: 3 },
      ],
      0,
      c,
    );
    expect(f.mood).toBeCloseTo(0.5 * (5 - 2), 12);
    expect(feel(start, [{ type: 'hope', target: null, potential: 9 }], 0, c).mood).toBe(0);
    expect(feel(start, [{ type: 'joy', target: null, potential: 1.9 }], 0, c).mood).toBe(0); // 0.45: inside the neutral band
    const low = feel({ ...start, mood: -10 }, [{ type: 'distress', target: null, potential: 10 }], 0, c).mood;
    expect(low).toBe(-10);
  });

  it('bounds the mood softly: toward a bound by the room left, away from it in full', () => {
    const good = { ...start, mood: 8 };
    // joy 5.8 (the mood lifts it by 0.8) pushes by 2.9; at +8 a fifth of the room is left.
    expect(feel(good, [{ type: 'joy', target: null, potential: 6 }], 0, c).mood).toBeCloseTo(
      8 + 0.5 * (6 + 0.8 - 1) * 0.2,
      12,
    );
    // distress 5 (the mood dampens it by 0.8) pulls by 2.1 in full.
    expect(feel(good, [{ type: 'distress', target: null, potential: 6 }], 0, c).mood).toBeCloseTo(
      8 - 0.5 * (6 - 0.8 - 1),
      12,
    );
    expect(moodStep(-6, -2)).toBeCloseTo(-0.8, 12);
    expect(moodStep(-6, 2)).toBe(2);
    // Good news every 2 s, forty times: the mood levels off short of +10, where one piece of bad news
    // still moves it in full.
    let s: EmotionalState = { ...start };
    for (let i = 1; i <= 40; i++) {
      const f = feel(s, [{ type: 'joy', target: null, potential: 6 }], i * 2000, c);
      s = { ...s, emotions: [], mood: f.mood, moodSince: i * 2000, at: i * 2000 };
    }
    expect(s.mood).toBeGreaterThan(9);
    expect(s.mood).toBeLessThan(9.6);
    const after = feel(s, [{ type: 'distress', target: null, potential: 6 }], 80_000, c).mood;
    expect(s.mood - after).toBeGreaterThan(2);
  });

  it('leaves the mood alone for emotions that do not move it (those of a new estimate)', () => {
    const f = feel(
      start,
      [
        { type: 'joy', target: null, potential: 6 },
        { type: 'distress', target: null, potential: 3 },
      ],
      0,
      c,
      false,
    );
    expect(f.mood).toBe(0);
    expect(f.felt.map((e) => e.type)).toEqual(['joy', 'distress']);
  });

  it('colours new emotions by 0.1 of the mood: a good mood lifts joy and dampens distress', () => {
    const happy = { ...start, mood: 5 };
    expect(feel(happy, [{ type: 'joy', target: null, potential: 4 }], 0, c).emotions[0]!.intensity).toBeCloseTo(
      4 + 0.5 - 1,
      12,
    );
    expect(feel(happy, [{ type: 'distress', target: null, potential: 4 }], 0, c).emotions[0]!.intensity).toBeCloseTo(
      4 - 0.5 - 1,
      12,
    );
  });

  it('decays the mood with a half-life of 60 s, to exactly 0 inside the neutral band', () => {
    const s = { ...start, mood: 4, moodSince: 0 };
    expect(moodAt(s, 60_000, c)).toBeCloseTo(2, 12);
    expect(moodAt(s, 180_000, c)).toBeCloseTo(0.5, 12);
    expect(moodAt(s, 181_000, c)).toBe(0);
  });
});

describe('appraising events', () => {
  const c = character('competitive');

  it('keeps the last expectation when an event brings no beliefs, and starts each game from an even one', () => {
    let s = initialState(c, SELF, 0);
    s = appraise(
      c,
      s,
      {
        event: { type: 'deal', seat: 0, dealer: 3, trumpCard: parseCard('5H'), hand: [] },
        beliefs: { after: { expectedPoints: 70, winProbability: 0.7 } },
      },
      0,
    ).state;
    expect(s.expectation).toEqual({ expectedPoints: 70, winProbability: 0.7 });
    const r = appraise(c, s, { event: { type: 'play', seat: 1, card: parseCard('2S'), trick: 0 } }, 1000);
    expect(r.frame.desirability).toBe(0);
    expect(r.state.expectation).toEqual({ expectedPoints: 70, winProbability: 0.7 });
    const again = appraise(
      c,
      r.state,
      { event: { type: 'deal', seat: 0, dealer: 0, trumpCard: parseCard('5H'), hand: [] } },
      2000,
    );
    expect(again.state.expectation).toEqual({ expectedPoints: 60, winProbability: 0.5 });
    expect(again.state.likelihood['win-game']).toBe(0.5);
  });

  it('reads the player beliefs: best card mean and win probability; nothing from a forced card', () => {
    const beliefs: Beliefs = {
      moves: [{ card: parseCard('AS'), mean: 71.5, sd: 8, winProbability: 0.8 }],
      worlds: 40,
      nodes: 1,
      timeMs: 3,
      winProbability: 0.8,
      exactFromTrick: 4,
    };
    expect(expectationOf(beliefs)).toEqual({ expectedPoints: 71.5, winProbability: 0.8 });
    expect(
      expectationOf({ ...beliefs, moves: [], worlds: 0, winProbability: NaN, fallback: 'forced' }),
    ).toBeUndefined();
    expect(expectationOf(undefined)).toBeUndefined();
  });

  it('refuses a clock that goes back', () => {
    const s = initialState(c, SELF, 5000);
    expect(() => appraise(c, s, { event: { type: 'trump', dealer: 3, trumpCard: parseCard('5H') } }, 4000)).toThrow(
      RangeError,
    );
    expect(() => passTime(c, s, 4999)).toThrow(RangeError);
    const clock = manualClock(10);
    expect(() => clock.set(9)).toThrow(RangeError);
  });

  it('reads its injected clock: decay follows the clock, not the calls', () => {
    const clock = manualClock(0);
    const a = new Appraiser(c, { seat: 0, clock });
    a.perceive({
      type: 'trick',
      trick: 0,
      leader: 0,
      cards: ['KS', '7S', 'AS', '2S'].map(parseCard),
      winner: 2,
      points: 25,
    });
    const joy = (): number => a.report().emotions.find((e) => e.type === 'joy')!.intensity;
    const first = joy();
    expect(joy()).toBe(first); // no time passed
    clock.advance(15_000);
    expect(joy()).toBeCloseTo(first / 2, 12);
  });

  it('reports the strongest emotion overall and toward each other seat', () => {
    const s = appraise(
      c,
      initialState(c, SELF, 0),
      {
        event: {
          type: 'trick',
          trick: 0,
          leader: 0,
          cards: ['KS', '7S', 'AS', '2S'].map(parseCard),
          winner: 2,
          points: 25,
        },
      },
      0,
    ).state;
    const r = emotionReport(c, s, 0);
    expect(r.strongest).toEqual(r.emotions[0]);
    // Seat 1 threw its seven into the partner's trick; seat 3 only a two: it lost nothing to gloat at.
    expect(r.toward.map((t) => [t.seat, t.role, t.emotion?.type])).toEqual([
      [1, 'opponent', 'gloating'],
      [2, 'partner', 'happy-for'],
      [3, 'opponent', undefined],
    ]);
  });
});

// EMYS postures: every emotion at every intensity is a posture within the joint limits; the posture
// file is checked at load and a wrong one is rejected naming the file, line, key and reason.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { JointName } from '../../behaviours/index.js';
import {
  ConfigError,
  EMOTION_TYPES,
  EMYS_LIMITS,
  EXPRESSIONS,
  EXPRESSION_JOINTS,
  JOINTS,
  emotionPosture,
  expressionPosture,
  loadBehaviourSetup,
  parseYamlConfig,
  postureFileSchema,
  restPosture,
} from '../../behaviours/index.js';
import { configCopy, configText, shippedSetup } from './helpers.js';

const lib = shippedSetup().postures;

describe('EMYS joints', () => {
  it("has the 11 joints with EMYS's limits", () => {
    expect(JOINTS).toHaveLength(11);
    expect(EMYS_LIMITS.neckPitch).toEqual({ min: -20, max: 30 });
    expect(EMYS_LIMITS.headYaw).toEqual({ min: -90, max: 90 });
    expect(EMYS_LIMITS.headPitch).toEqual({ min: -6, max: 29 });
    expect(EMYS_LIMITS.lowerDisc).toEqual({ min: -16, max: 5 });
    expect(EMYS_LIMITS.upperDisc).toEqual({ min: -7, max: 15 });
    for (const side of ['left', 'right']) {
      expect(EMYS_LIMITS[`${side}Eyelid` as JointName]).toEqual({ min: 0, max: 120 });
      expect(EMYS_LIMITS[`${side}Eyebrow` as JointName]).toEqual({ min: -45, max: 45 });
      expect(EMYS_LIMITS[`${side}EyeProtrusion` as JointName]).toEqual({ min: 0, max: 100 });
    }
  });
});

describe('postures', () => {
  it('maps all 22 emotion types to one of the seven expressions', () => {
    expect(Object.keys(lib.emotions).sort()).toEqual([...EMOTION_TYPES].sort());
    for (const t of EMOTION_TYPES) expect(EXPRESSIONS).toContain(lib.emotions[t].expression);
    // Examples of the mapping.
    expect(lib.emotions.gloating.expression).toBe('happy');
    expect(lib.emotions['happy-for'].expression).toBe('happy');
    expect(lib.emotions.pity.expression).toBe('sad');
    expect(lib.emotions.shame.expression).toBe('sad');
    expect(lib.emotions.reproach.expression).toBe('angry');
    expect(lib.emotions.resentment.expression).toBe('angry');
  });

  it('every emotion at every intensity and expressiveness is a posture within the limits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EMOTION_TYPES),
        fc.oneof(fc.double({ min: -5, max: 15, noNaN: true }), fc.constantFrom(0, 10, Infinity, -Infinity, NaN)),
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 2, -1)),
        (emotion, intensity, expressiveness) => {
          const p = emotionPosture(lib, emotion, intensity, expressiveness);
          expect(Object.keys(p.joints).sort()).toEqual([...EXPRESSION_JOINTS].sort());
          for (const j of EXPRESSION_JOINTS) {
            const v = p.joints[j]!;
            expect(Number.isFinite(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(lib.limits[j].min);
            expect(v).toBeLessThanOrEqual(lib.limits[j].max);
          }
          expect(p.amount).toBeGreaterThanOrEqual(0);
          expect(p.amount).toBeLessThanOrEqual(1);
          expect(Math.abs(p.valence)).toBeLessThanOrEqual(1);
          expect(Math.abs(p.arousal)).toBeLessThanOrEqual(1);
          expect(p.expression).toBe(p.amount === 0 ? 'neutral' : lib.emotions[emotion].expression);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('scales with intensity: neutral at 0, the apex (times gain) at 10, and no further', () => {
    const neutral = lib.expressions.neutral.joints;
    expect(emotionPosture(lib, 'joy', 0).joints).toEqual(neutral);
    expect(emotionPosture(lib, 'joy', 10).joints).toEqual(lib.expressions.happy.joints);
    expect(emotionPosture(lib, 'joy', 25).joints).toEqual(lib.expressions.happy.joints);
    const half = emotionPosture(lib, 'distress', 5);
    expect(half.amount).toBe(0.5);
    expect(half.joints.neckPitch).toBeCloseTo((neutral.neckPitch! + lib.expressions.sad.joints.neckPitch!) / 2, 1);
    // hope has gain 0.5 in config: a full hope is half a smile.
    expect(emotionPosture(lib, 'hope', 10).amount).toBe(0.5);
    // Expressiveness scales it further.
    expect(emotionPosture(lib, 'joy', 10, 0.4).amount).toBe(0.4);
    expect(emotionPosture(lib, 'joy', 10, 0).joints).toEqual(neutral);
  });

  it('reports a ROS4HRI expression with valence and arousal scaled by the amount', () => {
    const p = expressionPosture(lib, 'angry', 0.5);
    expect(p.expression).toBe('angry');
    expect(p.valence).toBeCloseTo(lib.expressions.angry.valence / 2, 3);
    expect(p.arousal).toBeCloseTo(lib.expressions.angry.arousal / 2, 3);
    expect(expressionPosture(lib, 'neutral', 1)).toMatchObject({
      expression: 'neutral',
      amount: 0,
      valence: 0,
      arousal: 0,
    });
  });

  it('rests in neutral, tinted by the mood within the limits', () => {
    const calm = restPosture(lib, 0);
    expect(calm.expression).toBe('neutral');
    expect(calm.joints).toEqual(lib.expressions.neutral.joints);
    expect(calm.durationMs).toBe(lib.timing.neutralMoveMs);
    const glad = restPosture(lib, 10);
    expect(glad.expression).toBe('neutral');
    expect(glad.valence).toBeGreaterThan(0);
    expect(restPosture(lib, -10).valence).toBeLessThan(0);
    expect(glad.amount).toBeCloseTo(lib.moodTint, 3);
  });
});

describe('config/postures.yaml', () => {
  const text = configText('postures.yaml');
  const parse = (t: string) => parseYamlConfig(t, 'config/postures.yaml', postureFileSchema);
  const problemOf = (t: string) => {
    try {
      parse(t);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as ConfigError).problems[0]!;
    }
    throw new Error('the file was accepted');
  };
  const lineOf = (needle: string, t = text): number => t.slice(0, t.indexOf(needle)).split('\n').length;

  it('the shipped file loads', () => {
    expect(() => parse(text)).not.toThrow();
  });

  it('rejects an expression beyond a joint limit, naming file, line, key and the limits', () => {
    const bad = text.replace('leftEyelid: 90', 'leftEyelid: 130');
    const p = problemOf(bad);
    expect(p).toMatchObject({
      file: 'config/postures.yaml',
      line: lineOf('leftEyelid: 130', bad),
      key: 'expressions.happy.joints.leftEyelid',
    });
    expect(p.reason).toMatch(/130 is outside .*0\.\.120/);
  });

  it('rejects values outside the limits on either side, for every expression joint and expression', () => {
    for (const name of EXPRESSIONS) {
      for (const j of EXPRESSION_JOINTS) {
        for (const value of [EMYS_LIMITS[j].min - 0.5, EMYS_LIMITS[j].max + 1]) {
          const doc = parseDocument(text);
          doc.setIn(['expressions', name, 'joints', j], value);
          const p = problemOf(String(doc));
          expect(p.key).toBe(`expressions.${name}.joints.${j}`);
          expect(p.reason).toContain(`${value} is outside`);
        }
      }
    }
  });

  it('rejects head yaw or pitch in an expression: gaze owns them', () => {
    const p = problemOf(text.replace('joints: { neckPitch: -5,', 'joints: { headPitch: 10, neckPitch: -5,'));
    expect(p.key).toBe('expressions.happy.joints.headPitch');
    expect(p.reason).toMatch(/gaze/);
  });

  it('rejects limits wider than the robot can move', () => {
    const p = problemOf(text.replace('neckPitch: [-20, 30]', 'neckPitch: [-25, 30]'));
    expect(p).toMatchObject({ key: 'limits.neckPitch', line: lineOf('neckPitch: [-20, 30]') });
    expect(p.reason).toMatch(/wider than EMYS/);
  });

  it('checks expressions against narrowed limits', () => {
    const p = problemOf(text.replace('leftEyelid: [0, 120]', 'leftEyelid: [0, 100]'));
    expect(p.key).toBe('expressions.surprised.joints.leftEyelid');
    expect(p.reason).toMatch(/0\.\.100/);
  });

  it('rejects a missing emotion, an unknown expression and an unknown key', () => {
    expect(problemOf(text.replace('  hate: disgusted\n', ''))).toMatchObject({
      key: 'emotions.hate',
      line: lineOf('\nemotions:') + 1,
    });
    expect(problemOf(text.replace('  hate: disgusted\n', '  hate: disgusted\n  envy: sad\n')).reason).toMatch(
      /unknown key "envy"/,
    );
    const p = problemOf(text.replace('gloating: happy', 'gloating: smug'));
    expect(p.key).toBe('emotions.gloating');
    expect(p.reason).toMatch(/expected an expression .* got "smug"/);
    expect(problemOf(text.replace('neutralDelayMs: [1000, 5000]', 'neutralDelayMs: [5000, 1000]')).key).toBe(
      'timing.neutralDelayMs',
    );
  });

  it("rejects a hold that is not one, naming the file's line and key", () => {
    const minMs = problemOf(text.replace('  minMs: 3000 ', '  minMs: -3000 '));
    expect(minMs).toMatchObject({ key: 'hold.minMs', line: lineOf('  minMs: 3000') });
    const events = problemOf(text.replace('events: [end, session-end]', 'events: [end, lunch]'));
    expect(events.key).toBe('hold.events[1]');
    expect(events.line).toBe(lineOf('events: [end, session-end]'));
    expect(problemOf(text.replace('strongerBy: 3 ', 'strongerBy: 12 ')).key).toBe('hold.strongerBy');
    expect(problemOf(text.replace('richTrickPoints: 10', 'richTrickPoints: ten')).key).toBe('display.richTrickPoints');
  });

  it('rejects YAML that does not parse, with its line', () => {
    const p = problemOf(text.replace('moodTint: 0.25', 'moodTint: [0.25'));
    expect(p.reason).toMatch(/not valid YAML/);
    expect(p.line).toBeGreaterThan(0);
  });

  it('the loader of the whole setup reports the posture file by its path', () => {
    const dir = configCopy({ 'postures.yaml': text.replace('rightEyebrow: -35', 'rightEyebrow: -50') });
    expect(() => loadBehaviourSetup({ configDir: dir })).toThrow(
      /postures\.yaml:\d+:\d+: expressions\.angry\.joints\.rightEyebrow: -50 is outside/,
    );
  });
});

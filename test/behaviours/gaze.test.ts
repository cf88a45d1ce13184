// Gaze: table geometry to head yaw and pitch, within the limits, with seats placed by play direction.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../game/index.js';
import type { GazeTarget, TableGeometry } from '../../behaviours/index.js';
import {
  ConfigError,
  EMYS_LIMITS,
  gazeAt,
  loadBehaviourSetup,
  parseYamlConfig,
  placeOf,
  pointOf,
  tableFileSchema,
} from '../../behaviours/index.js';
import { configCopy, configText, shippedSetup } from './helpers.js';

const { table, postures } = shippedSetup();
const seatArb = fc.constantFrom<Seat>(0, 1, 2, 3);
const targetArb: fc.Arbitrary<GazeTarget> = fc.oneof(
  seatArb.map((seat) => ({ kind: 'seat', seat }) as const),
  seatArb.map((seat) => ({ kind: 'card', seat }) as const),
  fc.constantFrom<GazeTarget>({ kind: 'play-area' }, { kind: 'own-cards' }, { kind: 'rest' }),
);

describe('seats around the table', () => {
  it("counter-clockwise (Portugal): the next player sits on the robot's right, the partner across", () => {
    expect(placeOf(table, 0, 1)).toBe('right');
    expect(placeOf(table, 0, 2)).toBe('across');
    expect(placeOf(table, 0, 3)).toBe('left');
    expect(placeOf(table, 2, 3)).toBe('right');
    expect(placeOf(table, 2, 0)).toBe('across');
    expect(placeOf(table, 3, 3)).toBe('self');
  });

  it('clockwise mirrors it', () => {
    const cw: TableGeometry = { ...table, playDirection: 'clockwise' };
    expect(placeOf(cw, 0, 1)).toBe('left');
    expect(placeOf(cw, 0, 3)).toBe('right');
  });
});

describe('gazeAt', () => {
  it('looks left (positive yaw) at the player on the left, right at the one on the right, ahead across', () => {
    const left = gazeAt(table, postures.limits, 0, { kind: 'seat', seat: 3 });
    const right = gazeAt(table, postures.limits, 0, { kind: 'seat', seat: 1 });
    const across = gazeAt(table, postures.limits, 0, { kind: 'seat', seat: 2 });
    expect(left.yaw).toBeGreaterThan(30);
    expect(right.yaw).toBeLessThan(-30);
    expect(across.yaw).toBe(0);
    // Down at the cards, level at faces.
    expect(gazeAt(table, postures.limits, 0, { kind: 'play-area' }).pitch).toBeGreaterThan(15);
    expect(Math.abs(across.pitch)).toBeLessThan(6);
  });

  it('looks at a played card on the side of the player who played it', () => {
    const { center } = table.playArea;
    const byRight = pointOf(table, 0, { kind: 'card', seat: 1 });
    const byLeft = pointOf(table, 0, { kind: 'card', seat: 3 });
    expect(byRight.y).toBeLessThan(center.y);
    expect(byLeft.y).toBeGreaterThan(center.y);
    expect(Math.hypot(byRight.x - center.x, byRight.y - center.y)).toBeCloseTo(table.playArea.cardOffset, 6);
  });

  it('the shipped geometry is within reach: no shipped target needs clamping', () => {
    for (const robot of [0, 1, 2, 3] as Seat[]) {
      fc.assert(
        fc.property(targetArb, (target) => {
          expect(gazeAt(table, postures.limits, robot, target).clamped).toBe(false);
        }),
      );
    }
  });

  it('any geometry gives yaw and pitch within the head limits, and says when it clamped', () => {
    const coord = fc.double({ min: -3, max: 3, noNaN: true });
    const point = fc.record({ x: coord, y: coord, z: coord });
    fc.assert(
      fc.property(
        point,
        point,
        point,
        point,
        point,
        seatArb,
        targetArb,
        (right, across, left, ownCards, center, robot, target) => {
          const g: TableGeometry = {
            ...table,
            places: { right, across, left },
            ownCards,
            playArea: { center, cardOffset: 0.2 },
          };
          const gaze = gazeAt(g, postures.limits, robot, target);
          expect(gaze.yaw).toBeGreaterThanOrEqual(EMYS_LIMITS.headYaw.min);
          expect(gaze.yaw).toBeLessThanOrEqual(EMYS_LIMITS.headYaw.max);
          expect(gaze.pitch).toBeGreaterThanOrEqual(EMYS_LIMITS.headPitch.min);
          expect(gaze.pitch).toBeLessThanOrEqual(EMYS_LIMITS.headPitch.max);
          const p = gaze.point;
          const rawYaw = (Math.atan2(p.y, p.x) * 180) / Math.PI;
          const rawPitch = (Math.atan2(-p.z, Math.hypot(p.x, p.y)) * 180) / Math.PI;
          const inside = rawYaw >= -90 && rawYaw <= 90 && rawPitch >= -6 && rawPitch <= 29;
          if (!inside) expect(gaze.clamped).toBe(true);
          if (gaze.clamped === false) {
            expect(gaze.yaw).toBeCloseTo(rawYaw, 0);
            expect(gaze.pitch).toBeCloseTo(rawPitch, 0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a point behind the robot is clamped to the yaw limit', () => {
    const g: TableGeometry = { ...table, places: { ...table.places, left: { x: -1, y: 0.2, z: 0 } } };
    const gaze = gazeAt(g, postures.limits, 0, { kind: 'seat', seat: 3 });
    expect(gaze.clamped).toBe(true);
    expect(gaze.yaw).toBe(90);
  });
});

describe('config/table-geometry.yaml', () => {
  const text = configText('table-geometry.yaml');
  it('rejects a bad file naming line, key and reason', () => {
    try {
      parseYamlConfig(
        text.replace('playDirection: counter-clockwise', 'playDirection: anticlockwise'),
        'config/table-geometry.yaml',
        tableFileSchema,
      );
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as Error).message).toMatch(
        /^config\/table-geometry\.yaml:\d+:1: playDirection: expected one of "counter-clockwise", "clockwise", got "anticlockwise"$/,
      );
    }
    const dir = configCopy({
      'table-geometry.yaml': text.replace('across: { x: 1.30, y: 0.00, z: 0.10 }', 'across: { x: 1.30, y: 0.00 }'),
    });
    expect(() => loadBehaviourSetup({ configDir: dir })).toThrow(
      /table-geometry\.yaml:\d+:\d+: places\.across\.z: missing/,
    );
  });
});

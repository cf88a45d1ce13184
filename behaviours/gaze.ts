// Gaze: "look at seat 2", "look at the card seat 2 just played" -> a point on the table -> head yaw and
// pitch within the limits. Yaw is positive to the robot's left, pitch positive looking down (REP-103).

import type { Seat } from '../game/index.js';
import { clampJoint, withinLimits } from './joints.js';
import type { JointLimits } from './joints.js';
import type { Place, Point, TableGeometry } from './table-geometry.js';

export type GazeTarget =
  | { kind: 'seat'; seat: Seat }
  /** The card `seat` has just played: in the play area, on that player's side. */
  | { kind: 'card'; seat: Seat }
  | { kind: 'play-area' }
  | { kind: 'own-cards' }
  | { kind: 'rest' };

export interface Gaze {
  target: GazeTarget;
  point: Point;
  /** Degrees, within the head yaw limits. */
  yaw: number;
  /** Degrees, within the head pitch limits. */
  pitch: number;
  /** True when the point lies outside the head's reach and the look was stopped at the limit. */
  clamped: boolean;
}

/** Where a game seat sits relative to the robot; the robot's own seat is `self`. */
export function placeOf(geometry: TableGeometry, robotSeat: Seat, seat: Seat): Place | 'self' {
  const offset = (seat - robotSeat + 4) % 4;
  if (offset === 0) return 'self';
  if (offset === 2) return 'across';
  const next: Place = geometry.playDirection === 'counter-clockwise' ? 'right' : 'left';
  return offset === 1 ? next : next === 'right' ? 'left' : 'right';
}

export function pointOf(geometry: TableGeometry, robotSeat: Seat, target: GazeTarget): Point {
  switch (target.kind) {
    case 'seat': {
      const place = placeOf(geometry, robotSeat, target.seat);
      return place === 'self' ? geometry.ownCards : geometry.places[place];
    }
    case 'card': {
      const { center, cardOffset } = geometry.playArea;
      const place = placeOf(geometry, robotSeat, target.seat);
      const toward = place === 'self' ? { x: 0, y: 0 } : geometry.places[place];
      const dx = toward.x - center.x;
      const dy = toward.y - center.y;
      const d = Math.hypot(dx, dy) || 1;
      return { x: center.x + (dx / d) * cardOffset, y: center.y + (dy / d) * cardOffset, z: center.z };
    }
    case 'play-area':
      return geometry.playArea.center;
    case 'own-cards':
      return geometry.ownCards;
    case 'rest':
      return geometry.rest === 'across'
        ? geometry.places.across
        : geometry.rest === 'own-cards'
          ? geometry.ownCards
          : geometry.playArea.center;
  }
}

const deg = (rad: number): number => (rad * 180) / Math.PI;
const round1 = (x: number): number => Math.round(x * 10) / 10;

export function gazeAt(geometry: TableGeometry, limits: JointLimits, robotSeat: Seat, target: GazeTarget): Gaze {
  const point = pointOf(geometry, robotSeat, target);
  const rawYaw = deg(Math.atan2(point.y, point.x));
  const rawPitch = deg(Math.atan2(-point.z, Math.hypot(point.x, point.y)));
  const yaw = round1(clampJoint(limits, 'headYaw', rawYaw));
  const pitch = round1(clampJoint(limits, 'headPitch', rawPitch));
  const clamped = !withinLimits(limits, 'headYaw', rawYaw) || !withinLimits(limits, 'headPitch', rawPitch);
  return { target, point, yaw, pitch, clamped };
}

export const describeGazeTarget = (t: GazeTarget): string =>
  t.kind === 'seat' ? `seat:${t.seat}` : t.kind === 'card' ? `card:${t.seat}` : t.kind;

/** The target a describeGazeTarget name stands for; null for a name it does not give. */
export function gazeTargetNamed(name: string): GazeTarget | null {
  const m = /^(seat|card):([0-3])$/.exec(name);
  if (m) return { kind: m[1] as 'seat' | 'card', seat: Number(m[2]) as Seat };
  return name === 'play-area' || name === 'own-cards' || name === 'rest' ? { kind: name } : null;
}

// The robot's behaviour, forwarded from the bus to the tables that show the robot (a virtual table
// asks for it in its hello): postures, expressions, gaze, what it says as it says it, what it feels,
// and the session's language for every table's state. Only what people at a real table see and hear:
// never the robot's hand, decisions or beliefs (those topics are not read here).

import type { GazeTarget, TableGeometry } from '../../../behaviours/index.js';
import { placeOf, pointOf } from '../../../behaviours/index.js';
import type { Seat } from '../../../game/index.js';
import type { RobotBehaviourMessage } from '../../../table-bridge/index.js';
import type { Bus, EmotionalStateMessage, HeaderMessage, PointStampedMessage, Unsubscribe } from '../../bus/index.js';
import { postureSample, unitIntensity } from '../../web/index.js';
import type { PublishedLooks } from '../behaviour-publisher.js';

/** What the forwarding needs of the table server. */
interface BehaviourSink {
  robotBehaviour(msg: RobotBehaviourMessage): void;
  setLanguage(language: string): void;
}

const stampMs = (h: HeaderMessage): number => h.stamp.sec * 1000 + h.stamp.nanosec / 1e6;
const asSeat = (n: number): Seat | null => (n >= 0 && n <= 3 ? (n as Seat) : null);

type GazeOf = Pick<Extract<RobotBehaviourMessage, { kind: 'gaze' }>, 'target' | 'seat'>;

/**
 * The gaze target a look-at point stands for, for a look whose target is not known (one another
 * ROS 2 node published: the bus carries the point only, geometry_msgs): the nearest of the places
 * the robot looks at (behaviours/gaze.ts makes them the same way).
 */
export function gazeTargetOf(
  geometry: TableGeometry,
  robotSeat: Seat,
  point: { x: number; y: number; z: number },
): GazeOf {
  const candidates: GazeOf[] = [
    { target: 'play-area', seat: null },
    { target: 'own-cards', seat: null },
  ];
  for (const seat of [0, 1, 2, 3] as Seat[]) {
    if (seat !== robotSeat) candidates.push({ target: 'seat', seat });
    candidates.push({ target: 'card', seat });
  }
  let best = candidates[0]!;
  let bestD = Infinity;
  for (const c of candidates) {
    const p = pointOf(
      geometry,
      robotSeat,
      c.target === 'seat' || c.target === 'card' ? { kind: c.target, seat: c.seat! } : { kind: c.target },
    );
    const d = Math.hypot(p.x - point.x, p.y - point.y, p.z - point.z);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

/**
 * A look's target as a table shows it. The robot's own seat is its own cards, and resting is where the
 * table's geometry rests the head: the places a table knows.
 */
export function tableGazeOf(geometry: TableGeometry, robotSeat: Seat, target: GazeTarget): GazeOf {
  switch (target.kind) {
    case 'seat':
      return placeOf(geometry, robotSeat, target.seat) === 'self'
        ? { target: 'own-cards', seat: null }
        : { target: 'seat', seat: target.seat };
    case 'card':
      return { target: 'card', seat: target.seat };
    case 'play-area':
    case 'own-cards':
      return { target: target.kind, seat: null };
    case 'rest':
      return geometry.rest === 'across'
        ? { target: 'seat', seat: ((robotSeat + 2) % 4) as Seat }
        : { target: geometry.rest, seat: null };
  }
}

/** The appraisal's scale: intensities 0..10, mood -10..10 (appraisal/). A table gets them as 0..1 and -1..1. */
const SCALE = 10;
const unit = (x: number, lo: number): number => Math.round(Math.min(1, Math.max(lo, x / SCALE)) * 1000) / 1000;

/** The emotional state as a player reads it: the strongest few, each with the seat it is about. */
function feelingOf(m: EmotionalStateMessage, atMs: number): RobotBehaviourMessage {
  const emotions = [...m.emotions]
    .sort((a, b) => b.intensity - a.intensity)
    .slice(0, 5)
    .map((e) => ({ type: e.type, intensity: unitIntensity(e.intensity), seat: asSeat(e.target) }));
  return { kind: 'feeling', atMs, strongest: m.strongest, mood: unit(m.mood, -1), emotions };
}

/** Subscribes the node's bus (across sessions) and forwards to `sink`; returns the unsubscribe. */
export function forwardBehaviour(
  bus: Bus,
  sink: BehaviourSink,
  o: {
    robotSeat: Seat;
    geometry: TableGeometry;
    now: () => number;
    /** The targets of the node's own looks, as its behaviour publisher noted them. */
    looks?: PublishedLooks;
  },
): Unsubscribe {
  const offs: Unsubscribe[] = [
    bus.subscribe('posture', (m) => {
      const at = stampMs(m.header);
      const p = postureSample(m, at);
      if (p) sink.robotBehaviour({ kind: 'posture', atMs: at, joints: p.joints, durationMs: p.durationMs });
    }),
    bus.subscribe('expression', (m) =>
      sink.robotBehaviour({
        kind: 'expression',
        atMs: stampMs(m.header),
        expression: m.expression,
        valence: m.valence,
        arousal: m.arousal,
      }),
    ),
    bus.subscribe('lookAt', (m: PointStampedMessage) => {
      const target = o.looks?.targetOf(m.header, m.point);
      const gaze = target
        ? tableGazeOf(o.geometry, o.robotSeat, target)
        : gazeTargetOf(o.geometry, o.robotSeat, m.point);
      sink.robotBehaviour({ kind: 'gaze', atMs: stampMs(m.header), ...gaze });
    }),
    bus.subscribe('utterance', (m) => {
      // Lines waiting or dropped were not said: a table shows what the robot says, as it says it.
      if (m.phase !== 'start' && m.phase !== 'end') return;
      const to = m.target === 'partner' || m.target === 'opponent' ? m.target : 'all';
      sink.robotBehaviour({
        kind: 'utterance',
        atMs: o.now(),
        phase: m.phase,
        id: m.id,
        text: m.text,
        language: m.language,
        to,
        addressee: asSeat(m.addressee),
        ...(m.audience === 'one' || m.audience === 'both' ? { audience: m.audience } : {}),
      });
    }),
    bus.subscribe('emotions', (m) => sink.robotBehaviour(feelingOf(m, m.at_ms > 0 ? m.at_ms : o.now()))),
    bus.subscribe('language', (m) => sink.setLanguage(m.language)),
  ];
  return () => {
    for (const off of offs) off();
  };
}

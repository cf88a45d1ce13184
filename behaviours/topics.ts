// The topics behaviours publish on, named as ROS 2 and ROS4HRI (REP-155) name them where a convention
// exists, and the messages' shapes. The bus itself comes with robot/; anything with `publish` will do.
// These names are the one place they are written: robot/bus/topics.ts takes them from here.

import type { ExpressionName } from './posture-config.js';
import type { Toggles, ToggleName } from './toggles.js';
import type { UtteranceTarget } from './utterance-config.js';
import type { Seat } from '../game/index.js';
import type { PlannedUtterance, UtteranceAbout } from './commands.js';

export const TOPICS = {
  /** hri_msgs/Expression: what the face shows. */
  expression: '/robot_face/expression',
  /** trajectory_msgs/JointTrajectory with one point: joint targets and the time to reach them. */
  jointTrajectory: '/emys/joint_trajectory',
  /** geometry_msgs/PointStamped, as hri_actions_msgs/LookAt takes it: where the robot looks. */
  lookAt: '/look_at',
  /** Text for the robot's own text-to-speech (the `publish` speech backend). */
  say: '/tts/say',
  /** What the robot says, when it starts and ends, or why a line was dropped: for the dashboard and the record. */
  utterance: '/parceiro/behaviours/utterance',
  /** The toggles after every change, with what changed. */
  toggles: '/parceiro/behaviours/toggles',
} as const;

export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

export interface ExpressionMessage {
  expression: ExpressionName;
  /** -1..1 */
  valence: number;
  /** -1..1 */
  arousal: number;
  /** 0..1: the robot is sure of its own face. */
  confidence: number;
}

export interface JointTrajectoryMessage {
  /** ROS joint names: neck_pitch, head_yaw, ..., right_eye_protrusion. */
  jointNames: string[];
  /** One point: positions in radians (metres for the eye protrusion), reached after `timeFromStartMs`. */
  points: { positions: number[]; timeFromStartMs: number }[];
}

interface LookAtMessage {
  frameId: string;
  /** Metres, in `frameId` (x forward, y left, z up). */
  point: { x: number; y: number; z: number };
  /** What is looked at: `seat:2`, `card:1`, `play-area`, `own-cards`, `rest`. */
  target: string;
}

export interface SayMessage {
  text: string;
  /** BCP 47 language tag of the text, e.g. pt. */
  language: string;
  id: string;
}

export interface UtteranceMessage {
  /** queued: planned, waiting for its time or for the voice (announced so a dashboard shows what is coming). */
  phase: 'queued' | 'start' | 'end' | 'dropped';
  id: string;
  category: PlannedUtterance['category'];
  text: string;
  language: string;
  to: UtteranceTarget;
  addressee: Seat | null;
  /** A line to the opponents: to one of them (the addressee) or to both (PlannedUtterance). */
  audience?: PlannedUtterance['audience'];
  /** The speech backend that spoke it (after any fallback to the log). */
  backend: string;
  /** For `dropped`: why (late, speech off, target off). */
  reason?: string;
  /** What the line reacts to. */
  about: UtteranceAbout;
  /** For `queued`: in how long it is planned to start (ms). */
  dueInMs?: number;
}

interface TogglesMessage {
  toggles: Toggles;
  changed: ToggleName[];
  by: string;
  atMs: number;
}

export interface TopicMessages {
  [TOPICS.expression]: ExpressionMessage;
  [TOPICS.jointTrajectory]: JointTrajectoryMessage;
  [TOPICS.lookAt]: LookAtMessage;
  [TOPICS.say]: SayMessage;
  [TOPICS.utterance]: UtteranceMessage;
  [TOPICS.toggles]: TogglesMessage;
}

/**
 * Where behaviours publish. The embedded bus and rclnodejs (robot/) will both fit; so does any object
 * with a `publish(topic: string, message: unknown)` method.
 */
export interface Publisher {
  publish<T extends Topic>(topic: T, message: TopicMessages[T]): void;
}

// The bus every part of the node talks over. Two implementations share these semantics: the
// in-process bus (the default: nothing to install) and the ROS 2 bus (rclnodejs, on the robot).
// - publish never throws at the caller because of a subscriber: a failing handler is reported to
//   `onError` and the others still run;
// - messages are delivered in the order published, across topics;
// - a latched topic hands its last `depth` messages to a subscriber that arrives later (on ROS 2,
//   in this process as in another: ros2-bus.ts);
// - messages are plain: arrays as arrays, numbers as numbers, whoever published them (shape.ts);
// - `tap` sees every message that crosses the bus, with the direction, for recording.

import type { TopicKey, TopicMessage, TopicSpec } from './topics.js';

export type Unsubscribe = () => void;

/** One message crossing the bus: `out` when this node published it, `in` when it came from outside. */
export interface BusEntry {
  topic: TopicSpec;
  message: unknown;
  direction: 'in' | 'out';
}

export interface Bus {
  readonly kind: 'in-process' | 'ros2';
  publish<K extends TopicKey>(key: K, message: TopicMessage<K>): void;
  subscribe<K extends TopicKey>(key: K, handler: (message: TopicMessage<K>) => void): Unsubscribe;
  /** Every message, in and out, in order. */
  tap(handler: (entry: BusEntry) => void): Unsubscribe;
  /**
   * The node's settings: on ROS 2 they are declared as parameters of the node with these defaults (so a
   * launch file, a parameters file or `ros2 param` can set them) and read back; in process they are
   * the defaults, i.e. the config values. Numbers are doubles on ROS, except those named in `integers`.
   */
  parameters<P extends Record<string, NodeParameter>>(defaults: P, integers?: readonly (keyof P)[]): ParameterValues<P>;
  close(): Promise<void>;
}

/** A node setting: a ROS 2 parameter on ROS, a config value otherwise. */
export type NodeParameter = string | number | boolean;

/** The values read back for parameters declared with defaults `P` (same keys, same kinds). */
export type ParameterValues<P> = {
  [K in keyof P]: P[K] extends boolean ? boolean : P[K] extends number ? number : string;
};

export type BusErrorHandler = (error: unknown, topic: TopicSpec) => void;

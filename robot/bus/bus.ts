// The bus every part of the node talks over. Two implementations share these semantics: the
// in-process bus (the default: nothing to install) and the ROS 2 bus (rclnodejs, on the robot).
// - publish never throws at the caller because of a subscriber: a failing handler is reported to
//   `onError` and the others still run;
// - messages are delivered in the order published, across topics;
// - a latched topic hands its last message to a subscriber that arrives later;
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
  close(): Promise<void>;
}

export type BusErrorHandler = (error: unknown, topic: TopicSpec) => void;

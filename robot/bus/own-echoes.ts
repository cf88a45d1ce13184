// On ROS 2 a node hears its own messages: a subscription of this node receives what this node
// published, as it receives another node's. The bus taps its own messages as they are published
// (`out`); what a subscription hears from another node (a wizard line from `ros2 topic pub`, a table
// event from a lab's program) must be tapped as `in`, or the recording misses it. This tells the two
// apart.
//
// Each message carries its publisher's id (MessageInfo.publisherGid); the id of this node's publisher
// of a topic is not given by rclnodejs (nor is it the graph's endpoint id under Cyclone DDS), so it is
// learned: a message is this node's own when it is one this node published on that topic and has not
// yet heard back (its content, with numbers as float32 so the wire's rounding does not matter), and
// its publisher's id is then the node's for that topic. From then on the id alone decides: the node
// has one publisher per topic, any other is another node's. Without an id (an rclnodejs that gives
// none), the content decides every time.

import type { TopicSpec } from './topics.js';

/** The part of rclnodejs's MessageInfo used here. */
export interface MessageInfoLike {
  publisherGid?: ArrayLike<number>;
}

/** The most own messages waiting to be heard back, per topic (a lost echo must not grow it without end). */
const MAX_PENDING = 1000;

/** A message's content, the same for what was published and what is heard back. */
export function echoKey(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return Math.fround(v);
    if (typeof v === 'bigint') return Math.fround(Number(v));
    if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number | bigint>, walk);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, walk((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(walk(value));
}

const hex = (gid: ArrayLike<number>): string => Array.from(gid, (b) => b.toString(16).padStart(2, '0')).join('');

export class OwnEchoes {
  /** Per topic: what this node published while it was subscribed, not yet heard back. */
  readonly #pending = new Map<string, string[]>();
  /** Per latched topic: its last messages (a subscription made later hears them from ROS). */
  readonly #latched = new Map<string, string[]>();
  /** Per topic: the id of this node's publisher, once learned. */
  readonly #own = new Map<string, string>();

  /** This node published `message` on `topic`; `subscribed`: a subscription of this node will hear it. */
  published(topic: TopicSpec, message: unknown, subscribed: boolean): void {
    const latched = topic.qos.durability === 'transient-local';
    if (!subscribed && !latched) return;
    const key = echoKey(message);
    if (latched) {
      const kept = this.#latched.get(topic.name) ?? [];
      kept.push(key);
      if (kept.length > topic.qos.depth) kept.shift();
      this.#latched.set(topic.name, kept);
    }
    if (subscribed) this.#push(topic.name, [key]);
  }

  /** This node subscribes to `topic` now: on a latched topic it will hear its own last messages. */
  subscribed(topic: TopicSpec): void {
    this.#push(topic.name, this.#latched.get(topic.name) ?? []);
  }

  /** Whether `message`, heard on `topic`, is one this node published (else another node sent it). */
  isOwn(topic: TopicSpec, message: unknown, info?: MessageInfoLike): boolean {
    const gid = info?.publisherGid && info.publisherGid.length > 0 ? hex(info.publisherGid) : null;
    const own = this.#own.get(topic.name);
    if (gid !== null && own !== undefined && gid !== own) return false;
    const pending = this.#pending.get(topic.name) ?? [];
    const i = pending.indexOf(echoKey(message));
    // Heard back: what was published before it and not heard was lost (a full queue), and is let go.
    if (i >= 0) pending.splice(0, i + 1);
    if (gid !== null && own !== undefined) return true;
    if (i >= 0 && gid !== null) this.#own.set(topic.name, gid);
    return i >= 0;
  }

  #push(topic: string, keys: readonly string[]): void {
    if (keys.length === 0) return;
    const pending = this.#pending.get(topic) ?? [];
    pending.push(...keys);
    if (pending.length > MAX_PENDING) pending.splice(0, pending.length - MAX_PENDING);
    this.#pending.set(topic, pending);
  }
}

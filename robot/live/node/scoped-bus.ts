// One session's view of a bus that lives longer than it (a lab day: `parceiro live` serving session
// after session on one bus, which on ROS 2 must not be made again). Everything the session's parts
// subscribe or tap through it is removed when it is closed, so a finished session's reactions never
// hear the next one. Publishing goes straight through, before and after (a finished session's runtime
// still answers the tables until the next one begins).
//
// A latched topic hands its last messages to a late subscriber; through a scope, messages published
// before the scope was opened (the previous session's game state, emotions...) are not handed over:
// the session starts as it would on a fresh bus. That is known only for messages this process
// published (`Epochs` marks them); a latched message from outside (another ROS 2 node's) is passed on.
// A message is known by its content, not by the object: on ROS 2 a subscriber gets a copy.

import type {
  Bus,
  BusEntry,
  NodeParameter,
  ParameterValues,
  TopicKey,
  TopicMessage,
  TopicSpec,
  Unsubscribe,
} from '../../bus/index.js';
import { TOPICS, messageKey } from '../../bus/index.js';

/**
 * How many of a latched topic's latest messages are remembered: more than its depth, for those still
 * on their way through ROS 2 when the next session begins.
 */
const REMEMBERED = 64;

/** Numbers the sessions of a bus and remembers in which one each latched message this process published was published. */
export class Epochs {
  #current = 0;
  /** By latched topic: the content of its latest messages, oldest first, with the epoch each was last published in. */
  readonly #of = new Map<string, Map<string, number>>();
  readonly #untap: Unsubscribe;

  constructor(bus: Bus) {
    this.#untap = bus.tap((e) => {
      if (e.direction !== 'out' || e.topic.qos.durability !== 'transient-local') return;
      let seen = this.#of.get(e.topic.name);
      if (!seen) this.#of.set(e.topic.name, (seen = new Map()));
      const key = messageKey(e.topic.message, e.message);
      seen.delete(key);
      seen.set(key, this.#current);
      if (seen.size > Math.max(REMEMBERED, e.topic.qos.depth)) seen.delete(seen.keys().next().value!);
    });
  }

  /** Begins a new epoch and returns it. */
  next(): number {
    return ++this.#current;
  }

  /** Whether `message` on `topic` was last published by this process before `epoch` began. */
  before(topic: TopicSpec, message: unknown, epoch: number): boolean {
    if (typeof message !== 'object' || message === null) return false;
    const e = this.#of.get(topic.name)?.get(messageKey(topic.message, message));
    return e !== undefined && e < epoch;
  }

  close(): void {
    this.#untap();
  }
}

export class ScopedBus implements Bus {
  readonly #inner: Bus;
  readonly #offs = new Set<Unsubscribe>();
  readonly #stale: ((topic: TopicSpec, message: unknown) => boolean) | null;
  #closed = false;

  /** `epochs`: leave out latched messages published before this scope's epoch (see the file's head). */
  constructor(inner: Bus, epochs?: Epochs) {
    this.#inner = inner;
    if (epochs) {
      const epoch = epochs.next();
      this.#stale = (topic, m) => epochs.before(topic, m, epoch);
    } else this.#stale = null;
  }

  get kind(): Bus['kind'] {
    return this.#inner.kind;
  }

  /** Subscriptions and taps still in place. */
  get size(): number {
    return this.#offs.size;
  }

  publish<K extends TopicKey>(key: K, message: TopicMessage<K>): void {
    this.#inner.publish(key, message);
  }

  subscribe<K extends TopicKey>(key: K, handler: (message: TopicMessage<K>) => void): Unsubscribe {
    if (this.#closed) return () => {};
    const stale = this.#stale;
    const topic = TOPICS[key] as TopicSpec;
    const latched = topic.qos.durability === 'transient-local';
    const h = stale && latched ? (m: TopicMessage<K>): void => void (stale(topic, m) || handler(m)) : handler;
    return this.#track(this.#inner.subscribe(key, h));
  }

  tap(handler: (entry: BusEntry) => void): Unsubscribe {
    if (this.#closed) return () => {};
    return this.#track(this.#inner.tap(handler));
  }

  parameters<P extends Record<string, NodeParameter>>(
    defaults: P,
    integers?: readonly (keyof P)[],
  ): ParameterValues<P> {
    return this.#inner.parameters(defaults, integers);
  }

  /** Removes this scope's subscriptions and taps; the bus itself stays open. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const off of [...this.#offs]) off();
    this.#offs.clear();
  }

  #track(off: Unsubscribe): Unsubscribe {
    const once = (): void => {
      if (!this.#offs.delete(once)) return;
      off();
    };
    this.#offs.add(once);
    return once;
  }
}

// The default bus: topics inside this process. Delivery is synchronous but queued, so a handler that
// publishes does not recurse: its message is delivered after the current one reaches everybody.

import type { Bus, BusEntry, BusErrorHandler, NodeParameter, ParameterValues, Unsubscribe } from './bus.js';
import type { TopicKey, TopicMessage, TopicSpec } from './topics.js';
import { TOPICS } from './topics.js';
import { plainMessage } from './shape.js';

type Handler = (message: unknown) => void;

export class InProcessBus implements Bus {
  readonly kind = 'in-process' as const;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly taps = new Set<(entry: BusEntry) => void>();
  /** Last messages of latched topics, up to their depth. */
  private readonly latched = new Map<string, unknown[]>();
  private readonly queue: { topic: TopicSpec; message: unknown; only?: Handler }[] = [];
  private draining = false;
  private closed = false;

  constructor(private readonly onError: BusErrorHandler = () => {}) {}

  publish<K extends TopicKey>(key: K, given: TopicMessage<K>): void {
    if (this.closed) return;
    const topic = TOPICS[key] as TopicSpec;
    // As ROS 2 carries it: a typed array given here reaches subscribers, taps and recordings as an array.
    const message = plainMessage(given);
    if (topic.qos.durability === 'transient-local') {
      const kept = this.latched.get(topic.name) ?? [];
      kept.push(message);
      if (kept.length > topic.qos.depth) kept.shift();
      this.latched.set(topic.name, kept);
    }
    for (const t of this.taps) this.safely(() => t({ topic, message, direction: 'out' }), topic);
    this.queue.push({ topic, message });
    this.drain();
  }

  subscribe<K extends TopicKey>(key: K, handler: (message: TopicMessage<K>) => void): Unsubscribe {
    const topic = TOPICS[key] as TopicSpec;
    const h = handler as Handler;
    let set = this.handlers.get(topic.name);
    if (!set) this.handlers.set(topic.name, (set = new Set()));
    set.add(h);
    for (const message of this.latched.get(topic.name) ?? []) this.queue.push({ topic, message, only: h });
    this.drain();
    return () => {
      set.delete(h);
    };
  }

  tap(handler: (entry: BusEntry) => void): Unsubscribe {
    this.taps.add(handler);
    return () => {
      this.taps.delete(handler);
    };
  }

  /** No ROS here: the settings are the config values given as defaults. */
  parameters<P extends Record<string, NodeParameter>>(defaults: P): ParameterValues<P> {
    return { ...defaults } as ParameterValues<P>;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.handlers.clear();
    this.taps.clear();
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) {
        const { topic, message, only } = item;
        const set = this.handlers.get(topic.name);
        if (!set) continue;
        if (only) {
          if (set.has(only)) this.safely(() => only(message), topic);
          continue;
        }
        for (const h of [...set]) this.safely(() => h(message), topic);
      }
    } finally {
      this.draining = false;
    }
  }

  private safely(f: () => void, topic: TopicSpec): void {
    try {
      f();
    } catch (e) {
      this.onError(e, topic);
    }
  }
}

// A bus that hands every call to another: the base of the buses a replay and a restart put in front
// of the real one, each changing one thing (the kind it says, or whether it publishes yet).

import type { Bus, BusEntry, NodeParameter, ParameterValues, Unsubscribe } from './bus.js';
import type { TopicKey, TopicMessage } from './topics.js';

export class ForwardingBus implements Bus {
  constructor(readonly inner: Bus) {}
  get kind(): Bus['kind'] {
    return this.inner.kind;
  }
  publish<K extends TopicKey>(key: K, message: TopicMessage<K>): void {
    this.inner.publish(key, message);
  }
  subscribe<K extends TopicKey>(key: K, handler: (message: TopicMessage<K>) => void): Unsubscribe {
    return this.inner.subscribe(key, handler);
  }
  tap(handler: (entry: BusEntry) => void): Unsubscribe {
    return this.inner.tap(handler);
  }
  parameters<P extends Record<string, NodeParameter>>(
    defaults: P,
    integers?: readonly (keyof P)[],
  ): ParameterValues<P> {
    return this.inner.parameters(defaults, integers);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

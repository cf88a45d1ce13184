// Idempotence across reconnections: per table id, the highest sequence number seen and the answers to
// the most recent events, so an event replayed after a reconnection gets its original answer and is
// not applied twice.

import type { EventAck } from './messages.js';

export type SeqCheck = { kind: 'new' } | { kind: 'duplicate'; ack: EventAck } | { kind: 'stale'; last: number };

export class SeqLedger {
  readonly #tables = new Map<string, { last: number; acks: Map<number, EventAck> }>();

  constructor(private readonly remember = 256) {}

  /** The highest sequence number answered for this table (0 when none). */
  last(table: string): number {
    return this.#tables.get(table)?.last ?? 0;
  }

  check(table: string, seq: number): SeqCheck {
    const t = this.#tables.get(table);
    if (!t || seq > t.last) return { kind: 'new' };
    const ack = t.acks.get(seq);
    return ack ? { kind: 'duplicate', ack } : { kind: 'stale', last: t.last };
  }

  record(table: string, seq: number, ack: EventAck): void {
    let t = this.#tables.get(table);
    if (!t) this.#tables.set(table, (t = { last: 0, acks: new Map() }));
    t.last = Math.max(t.last, seq);
    t.acks.set(seq, ack);
    // Maps iterate in insertion order, and seqs only grow: the first key is the oldest.
    while (t.acks.size > this.remember) t.acks.delete(t.acks.keys().next().value!);
  }
}

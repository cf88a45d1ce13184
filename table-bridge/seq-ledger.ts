// Idempotence across reconnections and restarts: per table id, the highest sequence number seen and
// the answers to the most recent events with what each event said, so an event sent again after a
// reconnection gets its original answer and is not applied twice, and a seq used again for another
// event is caught. A restarted runtime rebuilds it from its recording (robot/replay/resume.ts).

import type { EventAck } from './messages.js';

export type SeqCheck =
  | { kind: 'new' }
  | { kind: 'duplicate'; ack: EventAck }
  /** The seq was answered for a different event. */
  | { kind: 'reused'; ack: EventAck; was: string }
  /** Below the last seq, with no answer known: forgotten (older than those remembered) or never sent (a skipped number). */
  | { kind: 'stale'; last: number; skipped: boolean };

export class SeqLedger {
  readonly #tables = new Map<string, { last: number; acks: Map<number, { ack: EventAck; event: string }> }>();

  constructor(private readonly remember = 256) {}

  /** The highest sequence number answered for this table (0 when none). */
  last(table: string): number {
    return this.#tables.get(table)?.last ?? 0;
  }

  /** `event`: what the event says (eventFingerprint), to tell a resend from a seq used again. */
  check(table: string, seq: number, event: string): SeqCheck {
    const t = this.#tables.get(table);
    if (!t || seq > t.last) return { kind: 'new' };
    const known = t.acks.get(seq);
    if (!known) {
      const oldest = t.acks.keys().next().value;
      return { kind: 'stale', last: t.last, skipped: oldest !== undefined && seq > oldest };
    }
    return known.event === event ? { kind: 'duplicate', ack: known.ack } : { kind: 'reused', ack: known.ack, was: known.event };
  }

  record(table: string, seq: number, ack: EventAck, event: string): void {
    let t = this.#tables.get(table);
    if (!t) this.#tables.set(table, (t = { last: 0, acks: new Map() }));
    t.last = Math.max(t.last, seq);
    t.acks.set(seq, { ack, event });
    // Maps iterate in insertion order, and seqs only grow: the first key is the oldest.
    while (t.acks.size > this.remember) t.acks.delete(t.acks.keys().next().value!);
  }
}

// Idempotence across reconnections, restarts and sessions: per table id, the highest sequence number
// seen and the answers to the most recent events with what each event said, so an event sent again
// after a reconnection gets its original answer and is not applied twice, and a seq used again for
// another event is caught. A restarted runtime rebuilds it from its recording (robot/offline/replay/resume.ts):
// the table events of the session, on top of the ledger as it stood when the session began (saved in
// the session's metadata, `snapshot`/`restore`).

import type { EventAck } from './messages.js';

type SeqCheck =
  | { kind: 'new' }
  | { kind: 'duplicate'; ack: EventAck }
  /** The seq was answered for a different event. */
  | { kind: 'reused'; ack: EventAck; was: string }
  /**
   * At or below the last seq, with no answer known: forgotten (older than those remembered), or never
   * answered (a skipped number, or an event refused for its shape, which is not remembered).
   */
  | { kind: 'stale'; last: number; forgotten: boolean };

interface TableLedger {
  last: number;
  acks: Map<number, { ack: EventAck; event: string }>;
  /** Answers were dropped to keep `remember`: below the oldest kept one, an answer may be forgotten. */
  evicted: boolean;
}

/** The ledger as data (JSON-safe): per table, its last seq, whether answers were dropped, and the answers kept. */
export type LedgerSnapshot = Record<string, { last: number; evicted: boolean; acks: [number, EventAck, string][] }>;

export class SeqLedger {
  readonly #tables = new Map<string, TableLedger>();

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
      return { kind: 'stale', last: t.last, forgotten: t.evicted && (oldest === undefined || seq < oldest) };
    }
    return known.event === event
      ? { kind: 'duplicate', ack: known.ack }
      : { kind: 'reused', ack: known.ack, was: known.event };
  }

  record(table: string, seq: number, ack: EventAck, event: string): void {
    let t = this.#tables.get(table);
    if (!t) this.#tables.set(table, (t = { last: 0, acks: new Map(), evicted: false }));
    t.last = Math.max(t.last, seq);
    t.acks.set(seq, { ack, event });
    // Maps iterate in insertion order, and seqs only grow: the first key is the oldest.
    while (t.acks.size > this.remember) {
      t.acks.delete(t.acks.keys().next().value!);
      t.evicted = true;
    }
  }

  snapshot(): LedgerSnapshot {
    const out: LedgerSnapshot = {};
    for (const [id, t] of this.#tables)
      out[id] = { last: t.last, evicted: t.evicted, acks: [...t.acks].map(([seq, a]) => [seq, a.ack, a.event]) };
    return out;
  }

  /** Puts back a snapshot's tables (a restart, before the session's own events are restored on top). */
  restore(snapshot: LedgerSnapshot): void {
    for (const [id, t] of Object.entries(snapshot)) {
      this.#tables.set(id, {
        last: t.last,
        evicted: t.evicted,
        acks: new Map(t.acks.map(([seq, ack, event]) => [seq, { ack, event }])),
      });
    }
  }
}

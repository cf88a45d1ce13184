// Recorded table events fed back into a session runtime, as the table server would have delivered
// them, each table's seats known from its recorded hello.

import type { Seat } from '../../../game/index.js';
import { parseCard } from '../../../game/index.js';
import type {
  CardEvent,
  ControlEvent,
  RejectCode,
  TableEventName,
  TableInfo,
  Verdict,
} from '../../../table-bridge/index.js';
import { isTableQuestion } from '../../../table-bridge/index.js';
import type { TableEvent } from '../../bus/index.js';
import type { SessionRuntime } from '../../live/index.js';

/** The operator's pause and resume reach the session as a table event of this table (operator-controls.ts). */
export const OPERATOR_TABLE = 'operator';

/** A recorded card event (or the copies of one) as the runtime hears it. */
const cardEventOf = (m: TableEvent, table: TableInfo): CardEvent => ({
  table,
  seq: m.seq,
  zone: { area: m.zone === 'hand' ? 'hand' : 'play', seat: m.seat as Seat },
  card: parseCard(m.card),
  fiducial: m.fiducial === -1 ? null : m.fiducial,
});

/** A recorded control event (or the copies of one) as the runtime hears it. */
const controlEventOf = (m: TableEvent, table: TableInfo): ControlEvent =>
  m.action === 'new_game'
    ? {
        table,
        seq: m.seq,
        action: 'new-game',
        deal: m.dealer === -1 ? null : { dealer: m.dealer as Seat, trumpCard: parseCard(m.trump_card) },
      }
    : { table, seq: m.seq, action: m.action === 'pause' ? 'pause' : isTableQuestion(m.action) ? m.action : 'resume' };

/** A restart remembers at most this many answers per table anyway (the table server's rememberAcks). */
const REFUSED_AGAIN_RESTORED = 256;

/** Feeds recorded table events into a runtime, knowing each table's seats from its recorded hello. */
export class TableFeeder {
  readonly tables = new Map<string, TableInfo>();
  readonly guessed = new Set<string>();
  constructor(
    private readonly handler: Pick<
      SessionRuntime,
      'onHello' | 'onDisconnect' | 'onCardDetected' | 'onCardRemoved' | 'onControl' | 'onRefusedAgain'
    >,
    private readonly robotSeat: Seat,
  ) {}

  /**
   * Feeds one recorded event. `answered` hears each table event's answer (a restart rebuilds the
   * table server's seq ledger from them); events the operator made (table id `operator`, seq 0) are not
   * a table's.
   */
  feed(
    m: TableEvent,
    answered?: (table: string, name: TableEventName, event: CardEvent | ControlEvent, verdict: Verdict) => void,
  ): void {
    if (m.kind === 'hello') {
      const info: TableInfo = {
        id: m.table_id,
        name: m.table_name,
        kind: m.table_kind as TableInfo['kind'],
        seats: m.seats as Seat[],
      };
      this.tables.set(info.id, info);
      this.handler.onHello(info);
      return;
    }
    const table = this.#table(m.table_id);
    const answer = (name: TableEventName, e: CardEvent | ControlEvent, verdict: Verdict | Promise<Verdict>): void => {
      if (!answered || e.seq < 1 || table.id === OPERATOR_TABLE) return;
      // The session runtime answers at once; a handler that answers later is not a restart's.
      if (!(verdict instanceof Promise)) answered(table.id, name, e, verdict);
    };
    switch (m.kind) {
      case 'disconnect':
        this.handler.onDisconnect(table, m.reason);
        return;
      case 'card_detected':
      case 'card_removed': {
        const e = cardEventOf(m, table);
        if (m.kind === 'card_detected') answer('card:detected', e, this.handler.onCardDetected(e));
        else answer('card:removed', e, this.handler.onCardRemoved(e));
        return;
      }
      case 'control': {
        const e = controlEventOf(m, table);
        answer('game:control', e, this.handler.onControl(e));
        return;
      }
      case 'refused_again': {
        // Copies of a refused event the table bridge answered itself: on record again, and their
        // answers back in a restart's ledger (each seq when they were numbered one after another).
        const name = m.event as TableEventName;
        const e = name === 'game:control' ? controlEventOf(m, table) : cardEventOf(m, table);
        const verdict = { ok: false as const, code: m.code as RejectCode, reason: m.reason };
        this.handler.onRefusedAgain({ name, event: e, firstSeq: m.first_seq, count: m.repeats, verdict });
        const numbered = m.repeats === m.seq - m.first_seq + 1;
        for (
          let seq = numbered ? Math.max(m.first_seq, m.seq - REFUSED_AGAIN_RESTORED + 1) : m.seq;
          seq <= m.seq;
          seq++
        )
          answer(name, { ...e, seq }, verdict);
        return;
      }
    }
  }

  #table(id: string): TableInfo {
    let t = this.tables.get(id);
    if (!t) {
      // A recording made before hellos were recorded: the table is taken to host every human seat.
      t = { id, name: id, kind: 'simulated', seats: ([0, 1, 2, 3] as Seat[]).filter((s) => s !== this.robotSeat) };
      this.tables.set(id, t);
      this.guessed.add(id);
    }
    return t;
  }
}

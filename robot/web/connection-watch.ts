// Table connections onto the bus: wraps the session's TableHandler so every table that joins or leaves
// is published on the latched `connections` topic, where the dashboard (and the recording) see it.
// The handler itself is unchanged: every call is passed through.

import type {
  CardEvent,
  ControlEvent,
  RefusedAgain,
  SessionSnapshot,
  TableHandler,
  TableInfo,
  Verdict,
} from '../../table-bridge/index.js';
import type { Bus, ConnectionStateMessage } from '../bus/index.js';

const tableConnection = (table: TableInfo, connected: boolean, detail: string): ConnectionStateMessage => ({
  component: 'table',
  id: table.id,
  name: table.name,
  kind: table.kind,
  connected,
  detail,
});

export class ConnectionWatch implements TableHandler {
  constructor(
    private readonly inner: TableHandler,
    private readonly bus: Bus,
  ) {}

  onHello(table: TableInfo): Verdict {
    const verdict = this.inner.onHello(table);
    if (verdict.ok)
      this.bus.publish('connections', tableConnection(table, true, `seats ${table.seats.join(', ') || 'none'}`));
    return verdict;
  }

  onDisconnect(table: TableInfo, reason: string): void {
    this.inner.onDisconnect?.(table, reason);
    this.bus.publish('connections', tableConnection(table, false, reason));
  }

  onRefusedAgain(again: RefusedAgain): void {
    this.inner.onRefusedAgain?.(again);
  }

  onCardDetected(event: CardEvent): Verdict | Promise<Verdict> {
    return this.inner.onCardDetected(event);
  }

  onCardRemoved(event: CardEvent): Verdict | Promise<Verdict> {
    return this.inner.onCardRemoved(event);
  }

  onControl(event: ControlEvent): Verdict | Promise<Verdict> {
    return this.inner.onControl(event);
  }

  snapshot(): SessionSnapshot {
    return this.inner.snapshot();
  }
}

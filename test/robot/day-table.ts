// A table for lab-day tests, written from table-bridge/PROTOCOL.md alone: one socket.io connection
// that hosts the human seats, plays a legal card for each of them when it is their turn (the first
// that follows suit), asks for each game, and, when a session is over, may start the next one with a
// new-game. It keeps every state it was sent, so a test can check that versions never went back and
// which sessions it saw, all on one connection.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { EventAck, HelloAck, PromptMessage, TableState } from '../../table-bridge/index.js';
import { PROTOCOL_VERSION, TABLE_NAMESPACE } from '../../table-bridge/index.js';

export interface DayTableOptions {
  url: string;
  token: string;
  id?: string;
  seats?: number[];
  /** The kind of table it says it is (default simulated). */
  kind?: 'simulated' | 'virtual' | 'touch';
  /** New-games this table sends after a session is over (each starts the next one); default 0. */
  nextSessions?: number;
}

export class DayTable {
  readonly socket: Socket;
  /** Every state received, in order (the hello's answer's included). */
  readonly states: TableState[] = [];
  readonly prompts: PromptMessage[] = [];
  /** States older than one already received (by version): the protocol says never. */
  readonly wentBack: { had: number; got: number }[] = [];
  /** Events that got no answer (the connection dropped under them). */
  readonly failures: string[] = [];
  /** Answers that were refusals. */
  readonly refused: EventAck[] = [];
  /** Connections (each fires `connect`); hellos accepted. */
  connects = 0;
  joins = 0;
  /** The seqs it sent, in order. */
  readonly seqs: number[] = [];
  nextSessions: number;
  #seq = 0;
  #state: TableState | null = null;
  #busy = false;
  readonly #done = new Set<string>();
  readonly #waiters: { test: (s: TableState) => boolean; resolve: (s: TableState) => void }[] = [];
  readonly #o: Required<Omit<DayTableOptions, 'nextSessions'>>;

  constructor(o: DayTableOptions) {
    this.#o = {
      url: o.url,
      token: o.token,
      id: o.id ?? 'day-table',
      seats: o.seats ?? [1, 2, 3],
      kind: o.kind ?? 'simulated',
    };
    this.nextSessions = o.nextSessions ?? 0;
    this.socket = io(`${o.url}${TABLE_NAMESPACE}`, {
      autoConnect: false,
      forceNew: true,
      transports: ['websocket'],
      reconnection: false,
    });
    this.socket.on('state', (s: TableState) => this.#onState(s));
    this.socket.on('prompt', (p: PromptMessage) => this.prompts.push(p));
    this.socket.on('hand', (_m: unknown, ack: (r: { ok: boolean }) => void) => ack({ ok: true }));
    this.socket.on('robot:play', (_m: unknown, ack: (r: { ok: boolean }) => void) => ack({ ok: true }));
  }

  get state(): TableState | null {
    return this.#state;
  }

  /** The session ids it was shown, in order of first sight. */
  get sessions(): string[] {
    return [...new Set(this.states.map((s) => s.session.id))];
  }

  start(): Promise<Extract<HelloAck, { ok: true }>> {
    return new Promise((resolve, reject) => {
      this.socket.on('connect', () => {
        this.connects++;
        const hello = {
          protocol: PROTOCOL_VERSION,
          token: this.#o.token,
          table: { id: this.#o.id, name: 'lab-day test table', kind: this.#o.kind },
          seats: this.#o.seats,
        };
        this.socket.timeout(20_000).emit('hello', hello, (err: Error | null, ack: HelloAck) => {
          if (err) return reject(err);
          if (!ack.ok) return reject(new Error(`hello refused (${ack.code}): ${ack.reason}`));
          this.joins++;
          this.#seq = Math.max(this.#seq, ack.lastSeq);
          this.#onState(ack.state);
          resolve(ack);
        });
      });
      this.socket.connect();
    });
  }

  /** Resolves with the first state (the current one included) that passes `test`. */
  waitFor(test: (s: TableState) => boolean): Promise<TableState> {
    if (this.#state && test(this.#state)) return Promise.resolve(this.#state);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** Sends an event with the next seq; resolves with its answer. */
  async send(event: 'card:detected' | 'game:control', payload: Record<string, unknown>): Promise<EventAck> {
    const seq = ++this.#seq;
    this.seqs.push(seq);
    const ack = (await this.socket.timeout(60_000).emitWithAck(event, { seq, ...payload })) as EventAck;
    if (!ack.ok) this.refused.push(ack);
    return ack;
  }

  close(): void {
    this.socket.disconnect();
  }

  #onState(s: TableState): void {
    const had = this.#state?.version;
    if (had !== undefined && s.version !== undefined && s.version < had) {
      this.wentBack.push({ had, got: s.version });
      return;
    }
    this.states.push(s);
    this.#state = s;
    for (const w of [...this.#waiters]) {
      if (w.test(s)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(s);
      }
    }
    this.#pump();
  }

  #pump(): void {
    if (this.#busy) return;
    const action = this.#next();
    if (!action) return;
    this.#busy = true;
    // A runtime killed under it (a crash test) leaves its last event unanswered: noted, not thrown.
    void action()
      .catch((e: unknown) => this.failures.push(e instanceof Error ? e.message : String(e)))
      .finally(() => {
        this.#busy = false;
        this.#pump();
      });
  }

  #next(): (() => Promise<unknown>) | null {
    const s = this.#state;
    if (!s || s.paused) return null;
    const g = s.game;
    const once = (key: string, f: () => Promise<unknown>): (() => Promise<unknown>) | null => {
      if (this.#done.has(key)) return null;
      this.#done.add(key);
      return f;
    };
    if (s.session.complete) {
      if (this.nextSessions <= 0) return null;
      return once(`next:${s.session.id}`, () => {
        this.nextSessions--;
        return this.send('game:control', { action: 'new-game' });
      });
    }
    if (!g || g.status !== 'playing') {
      if (g && g.index >= s.session.played) return null;
      return once(`new:${s.session.id}:${s.session.played}`, () => this.send('game:control', { action: 'new-game' }));
    }
    const seat = g.toMove;
    if (seat === null || !this.#o.seats.includes(seat)) return null;
    return once(`play:${s.session.id}:${g.index}:${g.plays.length}`, () => {
      const hand = g.hands.find((h) => h.seat === seat)?.cards ?? [];
      const led = g.table[0]?.card.slice(-1);
      const card = hand.find((c) => c.slice(-1) === led) ?? hand[0];
      if (!card) return Promise.resolve();
      return this.send('card:detected', { zone: { area: 'play', seat }, card });
    });
  }
}

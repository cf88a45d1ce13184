// A table's connection to the runtime, as PROTOCOL.md asks of one: hello with the token, sequence
// numbers strictly increasing per table id and continuing above the hello answer's lastSeq, each event
// sent until it has an answer (again with the same seq after a reconnection), one event at a time so
// that a card's lifting and placing arrive in the order they happened. The seats a table hosts may
// depend on the robot's seat, which only the runtime knows: the link then first says hello with no
// seats, reads `robotSeat` from the answer, and says hello again with its seats (as the virtual table
// does when its person picks a seat). Unknown fields and prompt kinds are passed on, not refused.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Seat } from '../../game/index.js';
import type { TableLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { EventAck, HelloAck, RobotPlayMessage, TableKind, TableState, Zone } from '../messages.js';
import { robotPlaySchema, tableStateSchema, validateOutbound } from '../messages.js';
import type { ClientToServerEvents, ServerToClientEvents } from '../socket-events.js';
import {
  SeqNumbers,
  TABLE_NAMESPACE,
  answerCall,
  helloMessage,
  olderState,
  sayHello,
  sendEvent,
  tableSocketOptions,
} from '../table-client.js';

export type LinkEvent =
  | { event: 'card:detected' | 'card:removed'; body: { zone: Zone; fiducial: number } | { zone: Zone; card: string } }
  | {
      event: 'game:control';
      body:
        | { action: 'new-game'; deal?: { dealer: Seat; trump: { fiducial: number } | { card: string } } }
        | { action: 'pause' | 'resume' };
    };

/** A prompt as it comes: kinds this client does not know are shown like any other. */
interface LoosePrompt {
  kind: string;
  text: string;
  seat?: number;
  card?: string;
}

interface TableLinkOptions {
  /** The runtime's base URL, e.g. `http://127.0.0.1:7410`. */
  url: string;
  token: string;
  id: string;
  name: string;
  kind: TableKind;
  /** The seats this table hosts once the robot's seat is known; `() => []` for a table that only watches. */
  seatsFor: (robotSeat: Seat) => Seat[];
  /** Skips the first hello without seats when the robot's seat is known already. */
  robotSeat?: Seat;
  /** How long to wait for an answer before sending again (ms). Default 5000. */
  ackTimeoutMs?: number;
  logger?: TableLogger;
}

export class HelloRefused extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(`the runtime refused the table (${code}): ${reason}`);
    this.name = 'HelloRefused';
  }
}

type Pending = LinkEvent & { seq: number | null; resolve: (ack: EventAck) => void; reject: (e: Error) => void };
type Waiter = { test: (s: TableState) => boolean; resolve: (s: TableState) => void; reject: (e: Error) => void };

/** Codes after which saying hello again cannot help. */
const FATAL = new Set(['bad-token', 'wrong-version', 'invalid']);

export class TableLink {
  readonly #o: Required<Omit<TableLinkOptions, 'robotSeat' | 'logger'>>;
  readonly #log: TableLogger;
  readonly #socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  #robotSeat: Seat | null;
  #state: TableState | null = null;
  readonly #seqs = new SeqNumbers();
  #joined = false;
  #closed = false;
  #fatal: Error | null = null;
  /** Bumped on every disconnection, so that an answer to an earlier attempt is not taken for the current one. */
  #attempt = 0;
  #busy = false;
  readonly #outbox: Pending[] = [];
  readonly #waiters: Waiter[] = [];
  #started: { resolve: (s: TableState) => void; reject: (e: Error) => void } | null = null;
  readonly #listeners = {
    state: [] as ((s: TableState) => void)[],
    prompt: [] as ((p: LoosePrompt) => void)[],
    robotPlay: [] as ((m: RobotPlayMessage) => void)[],
    rejected: [] as ((m: { code: string; reason: string }) => void)[],
  };
  /** Hellos accepted with this table's seats (1 + reconnections). */
  joins = 0;

  constructor(options: TableLinkOptions) {
    this.#o = {
      url: options.url,
      token: options.token,
      id: options.id,
      name: options.name,
      kind: options.kind,
      seatsFor: options.seatsFor,
      ackTimeoutMs: options.ackTimeoutMs ?? 5000,
    };
    this.#robotSeat = options.robotSeat ?? null;
    this.#log = options.logger ?? silentLogger;
    this.#socket = io(
      `${options.url}${TABLE_NAMESPACE}`,
      tableSocketOptions({ autoConnect: false, reconnectionDelay: 100, reconnectionDelayMax: 2000 }),
    );
    this.#socket.on('connect', () => this.#hello());
    this.#socket.on('disconnect', (reason) => {
      this.#joined = false;
      this.#attempt++;
      this.#busy = false;
      if (this.#closed) return;
      this.#log.info({ table: this.#o.id, reason }, 'disconnected from the runtime');
      // socket.io comes back by itself unless the server closed the connection.
      if (reason === 'io server disconnect') this.#reconnectSoon();
    });
    this.#socket.on('state', (s) => this.#onState(s));
    this.#socket.on('prompt', (p) => {
      const prompt = p as unknown as LoosePrompt;
      if (typeof prompt?.text === 'string') for (const l of this.#listeners.prompt) l(prompt);
    });
    this.#socket.on('robot:play', (m, ack) => {
      const v = validateOutbound(robotPlaySchema, 'robot:play', m);
      if (v.ok) for (const l of this.#listeners.robotPlay) l(v.value);
      else this.#log.warn({ table: this.#o.id, reason: v.reason }, 'the runtime sent an unreadable robot:play');
      if (typeof ack === 'function') ack({ ok: v.ok });
    });
    // Runtime deals are not this table's business (a physical table deals real cards), but the answer is owed.
    this.#socket.on('hand', (_m, ack) => {
      if (typeof ack === 'function') ack({ ok: true });
    });
    this.#socket.on('rejected', (m) => {
      for (const l of this.#listeners.rejected) l(m);
    });
  }

  get id(): string {
    return this.#o.id;
  }
  get state(): TableState | null {
    return this.#state;
  }
  get robotSeat(): Seat | null {
    return this.#robotSeat;
  }
  get joined(): boolean {
    return this.#joined;
  }
  /** Events waiting for an answer. */
  get waiting(): number {
    return this.#outbox.length;
  }

  on(what: 'state', f: (s: TableState) => void): void;
  on(what: 'prompt', f: (p: LoosePrompt) => void): void;
  on(what: 'robotPlay', f: (m: RobotPlayMessage) => void): void;
  on(what: 'rejected', f: (m: { code: string; reason: string }) => void): void;
  on(what: 'state' | 'prompt' | 'robotPlay' | 'rejected', f: (x: never) => void): void {
    (this.#listeners[what] as unknown[]).push(f);
  }

  /** Connects; resolves with the state once the table has joined with its seats (rejects after `timeoutMs`, when given). */
  start(timeoutMs?: number): Promise<TableState> {
    const joined = new Promise<TableState>((resolve, reject) => (this.#started = { resolve, reject }));
    this.#socket.connect();
    if (timeoutMs === undefined) return joined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no runtime answered at ${this.#o.url} within ${Math.round(timeoutMs / 100) / 10} s`)),
        timeoutMs,
      );
    });
    return Promise.race([joined, late]).finally(() => clearTimeout(timer));
  }

  /** Sends an event; resolves with its answer, however many reconnections that takes. */
  send(e: LinkEvent): Promise<EventAck> {
    if (this.#closed) return Promise.reject(new Error(`${e.event}: the table link is closed`));
    return new Promise((resolve, reject) => {
      this.#outbox.push({ ...e, seq: null, resolve, reject });
      this.#pump();
    });
  }

  /** Resolves with the first state (the current one included) that passes `test`. */
  waitFor(test: (s: TableState) => boolean): Promise<TableState> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    if (this.#state && test(this.#state)) return Promise.resolve(this.#state);
    return new Promise((resolve, reject) => this.#waiters.push({ test, resolve, reject }));
  }

  /** Drops the connection and comes back (tests of resending). */
  reconnect(): void {
    this.#socket.disconnect();
    this.#socket.connect();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.disconnect();
    const err = new Error('the table link was closed');
    this.#started?.reject(err);
    for (const w of this.#waiters.splice(0)) w.reject(err);
    for (const p of this.#outbox.splice(0)) p.reject(err);
  }

  // ---- connection ------------------------------------------------------------------------------

  #reconnectSoon(): void {
    setTimeout(() => {
      if (!this.#closed && !this.#socket.connected) this.#socket.connect();
    }, 500).unref();
  }

  #hello(): void {
    const probing = this.#robotSeat === null;
    const seats = probing ? [] : this.#o.seatsFor(this.#robotSeat!);
    const hello = helloMessage({
      token: this.#o.token,
      table: { id: this.#o.id, name: this.#o.name, kind: this.#o.kind },
      seats,
    });
    const attempt = this.#attempt;
    sayHello(this.#socket, hello, this.#o.ackTimeoutMs, (answer: HelloAck | null) => {
      if (attempt !== this.#attempt || this.#closed) return;
      if (answer === null) {
        this.#log.warn({ table: this.#o.id }, 'no answer to hello in time; connecting again');
        this.#socket.disconnect();
        return this.#reconnectSoon();
      }
      if (!answer.ok) return this.#refused(answer.code, answer.reason, probing);
      this.#seqs.continueAbove(answer.lastSeq);
      this.#onState(answer.state);
      const robot = this.#state?.robotSeat ?? null;
      if (probing && robot !== null) {
        this.#robotSeat = robot;
        if (this.#o.seatsFor(robot).length > 0) {
          // Now that the robot's seat is known: hello again, with the seats.
          this.#socket.disconnect();
          this.#socket.connect();
          return;
        }
      }
      this.#joined = true;
      this.joins++;
      this.#log.info({ table: this.#o.id, seats, lastSeq: answer.lastSeq }, 'joined the runtime');
      if (this.#state) this.#started?.resolve(this.#state);
      this.#started = null;
      this.#pump();
    });
  }

  #refused(code: string, reason: string, probing: boolean): void {
    this.#log.warn({ table: this.#o.id, code, reason }, 'hello refused');
    if (FATAL.has(code)) {
      this.#fatal = new HelloRefused(code, reason);
      this.#started?.reject(this.#fatal);
      this.#started = null;
      for (const w of this.#waiters.splice(0)) w.reject(this.#fatal);
      for (const p of this.#outbox.splice(0)) p.reject(this.#fatal);
      this.#closed = true;
      this.#socket.disconnect();
      return;
    }
    // A seat taken may mean another robot seat (a different runtime): ask again.
    if (code === 'seat-taken' && !probing) this.#robotSeat = null;
    this.#reconnectSoon();
  }

  #onState(raw: unknown): void {
    const v = validateOutbound(tableStateSchema, 'state', raw);
    if (!v.ok)
      return void this.#log.error(
        { table: this.#o.id, reason: v.reason },
        'the runtime sent an unreadable state; kept the last one',
      );
    // Runtimes that number their states: an older one (an answer read after the state its event made) is not news.
    if (olderState(this.#state, v.value)) return;
    this.#state = v.value;
    for (const l of this.#listeners.state) l(v.value);
    for (const w of [...this.#waiters]) {
      if (w.test(v.value)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(v.value);
      }
    }
  }

  // ---- events ----------------------------------------------------------------------------------

  #pump(): void {
    if (this.#busy || !this.#joined || this.#closed) return;
    const next = this.#outbox[0];
    if (!next) return;
    this.#busy = true;
    next.seq ??= this.#seqs.next();
    const attempt = this.#attempt;
    const payload = { seq: next.seq, ...next.body };
    sendEvent(this.#socket, next.event, payload, this.#o.ackTimeoutMs, (err: Error | null, ack: EventAck) => {
      if (attempt !== this.#attempt || this.#closed) return;
      this.#busy = false;
      const call = answerCall(err ? null : ack);
      if (call.kind === 'unanswered') {
        this.#log.warn(
          { table: this.#o.id, event: next.event, seq: next.seq },
          'no answer in time; sending again with the same seq',
        );
      } else if (call.kind === 'hello-lost') {
        // The runtime lost this connection's hello (it restarted): say it again, then send again.
        this.#socket.disconnect();
        this.#socket.connect();
        return;
      } else if (call.kind === 'rate-limited') {
        // Nothing was applied: after the wait, the same event again as a new one.
        this.#busy = true;
        next.seq = null;
        setTimeout(() => {
          this.#busy = false;
          this.#pump();
        }, call.waitMs).unref();
        return;
      } else {
        this.#outbox.shift();
        next.resolve(call.ack);
      }
      this.#pump();
    });
  }
}

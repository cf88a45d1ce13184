// The runtime's side of the table protocol: a socket.io server on the /table namespace. It checks the
// token and version on hello, validates and maps every inbound event, answers duplicates from its
// ledger, and passes the rest, one at a time, to the TableHandler. It implements TableOutbox, so the
// handler can push state, the robot's plays, hands, prompts and rejections to the tables.
//
// Everything that goes out to a table (answers included) goes out in the order it was made, and only
// once the recording holds what caused it (`persist`): a table is never told of something a restart
// from the recording would not know.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io';
import type { Card, Seat } from '../game/index.js';
import { formatCard, parseCard } from '../game/index.js';
import type { FiducialMap } from './fiducials.js';
import { loadFiducials } from './fiducials.js';
import type { TableLogger } from './logger.js';
import { silentLogger } from './logger.js';
import type {
  CardRef,
  EventAck,
  HelloAck,
  InboundEvent,
  RejectCode,
  RobotBehaviourMessage,
  Seating,
  TableReply,
} from './messages.js';
import { PROTOCOL_VERSION, TABLE_NAMESPACE, validateInbound } from './messages.js';
import type { LedgerSnapshot } from './seq-ledger.js';
import { SeqLedger } from './seq-ledger.js';
import type { ClientToServerEvents, ServerToClientEvents } from './socket-events.js';
import type {
  CardEvent,
  ControlEvent,
  Delivery,
  Prompt,
  Rejection,
  TableEventName,
  TableHandler,
  TableInfo,
  TableOutbox,
  Verdict,
} from './table-handler.js';
import { eventFingerprint, isTableQuestion } from './table-handler.js';
import { seatingOf, tableState } from './table-state.js';
import { tokensEqual } from './token.js';
import type { ConnectionCaps } from './connection-guard.js';
import { DEFAULT_CONNECTION_CAPS, guardConnections } from './connection-guard.js';
import { pageOriginAllowed } from './page-origin.js';

const DEFAULT_TABLE_PORT = 7410;
/** The largest message the protocol takes (bytes of JSON); up to TRANSPORT_LIMIT it is refused with `too-large`. */
export const MESSAGE_LIMIT = 64 * 1024;
/** Beyond this socket.io closes the connection without reading the message. */
const TRANSPORT_LIMIT = 1024 * 1024;
const EVENTS: readonly string[] = ['hello', 'card:detected', 'card:removed', 'game:control'];

/** How many events a connection may send: `perSecond` sustained, `burst` at once (a token bucket). */
interface EventRate {
  perSecond: number;
  burst: number;
  /** Its events waiting for the runtime at most; more are answered `rate-limited` too. */
  waiting: number;
  /**
   * A connection with more events than this over the limit within a second keeps flooding: it is told
   * (`rejected`, rate-limited) and closed, and its address counts a refused hello (HelloLockout).
   */
  closeAfter: number;
}
// A person puts down a card a second at most, a camera table reads a few markers again a second; a
// simulated table with no pause plays a game's 30 cards well inside the burst.
const DEFAULT_EVENT_RATE: EventRate = { perSecond: 50, burst: 100, waiting: 32, closeAfter: 1000 };

/**
 * Refused tokens from one address: after `free` of them, a hello from it with a wrong token is
 * answered `too-many-attempts` only once `firstMs` have passed (the connection held meanwhile),
 * doubling with each further refusal up to `maxMs`; forgotten after `forgetMs` without one. A hello
 * with the right token is always answered at once: a page or program that guesses from the table's own
 * computer (every local program is 127.0.0.1) slows itself down, never the table. Guessing stays slow:
 * an address holds at most `unansweredPerAddress` connections without a hello (the oldest dropped),
 * so it can try that many tokens per lock, and a token is 64 bits or more.
 */
interface HelloLockout {
  free: number;
  firstMs: number;
  maxMs: number;
  forgetMs: number;
}
const DEFAULT_HELLO_LOCKOUT: HelloLockout = { free: 5, firstMs: 1000, maxMs: 60_000, forgetMs: 10 * 60_000 };

/**
 * socket.io connections that have not joined (no hello answered ok) at most, per address and in all;
 * over a cap the oldest of them is closed. A table says hello as soon as it connects, so it is the
 * newest when it would count, never the oldest.
 */
interface UnansweredCaps {
  perAddress: number;
  total: number;
}
const DEFAULT_UNANSWERED: UnansweredCaps = { perAddress: 16, total: 64 };

export interface TableServerOptions {
  /** The shared secret every table must present in its hello. */
  token: string;
  handler: TableHandler;
  /** Default: the shipped config/table/fiducials.yaml. */
  fiducials?: FiducialMap;
  /** Default 127.0.0.1: a table on another machine is an explicit choice. */
  host?: string;
  /** Default DEFAULT_TABLE_PORT; 0 picks a free port (tests). */
  port?: number;
  /** How long to wait for a table's answer to robot:play and hand (ms). Default 5000. */
  ackTimeoutMs?: number;
  /** A connection that has not said hello by then is closed (ms). Default 10000. */
  helloTimeoutMs?: number;
  /** Answers remembered per table for replayed events. Default 256. */
  rememberAcks?: number;
  /** Default DEFAULT_EVENT_RATE. */
  eventRate?: EventRate;
  /** Default DEFAULT_HELLO_LOCKOUT. */
  helloLockout?: HelloLockout;
  /** Default DEFAULT_UNANSWERED. */
  unanswered?: UnansweredCaps;
  /** Default DEFAULT_CONNECTION_CAPS (connection-guard.ts). */
  connectionCaps?: ConnectionCaps;
  /** Copies of a refused event are put on record (onRefusedAgain) at most this often (ms). Default 250. */
  refusedAgainMs?: number;
  /**
   * A connection that has not sent a whole request's headers by then is closed (ms; Node checks every
   * second). Default 10000: a request held open for ever would hold a file descriptor for ever.
   */
  headersTimeoutMs?: number;
  /** The clock of the rate limits (ms). Default performance.now. */
  now?: () => number;
  logger?: TableLogger;
}

type TableSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

interface Connection {
  socket: TableSocket;
  table: TableInfo | null;
  /** Superseded by a newer connection of the same table: its disconnect is not the table's. */
  replaced: boolean;
  /** Its hello was answered: states may go to it. */
  answered: boolean;
  /** Its hello asked for the robot's behaviour (`robot:behaviour`). */
  behaviour: boolean;
  helloTimer: NodeJS.Timeout | null;
  /** Where it comes from (refused tokens are counted per address). */
  address: string;
  /** The rate limit's bucket: events it may send now, as of `refilledAt`. */
  tokens: number;
  refilledAt: number;
  /** Its events waiting for the runtime. */
  waiting: number;
  /** Events refused `rate-limited` since the last log line about it, and when that was. */
  limited: number;
  limitedLoggedAt: number;
  /** The last event it sent, when the runtime refused it: copies of it are answered alike. */
  run: RefusalRun | null;
  /** A wrong token's answer held until its address's lock ends (HelloLockout). */
  heldAnswer: NodeJS.Timeout | null;
}

/**
 * A refused event sent again and again under new seqs: while the runtime's state has not changed
 * (`version`), each copy gets the first one's refusal from the bridge, and the copies not yet on
 * record wait in `batch` (their answers go out once the batch is recorded).
 */
interface RefusalRun {
  key: string;
  version: number;
  name: TableEventName;
  verdict: Extract<Verdict, { ok: false }>;
  batch: { first: number; last: CardEvent | ControlEvent; count: number; replies: (() => void)[] } | null;
  timer: NodeJS.Timeout | null;
}

const refusal = (code: RejectCode, reason: string, seq: number | null, retryAfterMs?: number): EventAck => ({
  ok: false,
  code,
  reason,
  seq,
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});
const ackOf = (seq: number, verdict: Verdict): EventAck =>
  verdict.ok
    ? { ok: true, seq, ...(verdict.note === undefined ? {} : { note: verdict.note }) }
    : refusal(verdict.code, verdict.reason, seq);
const seqOf = (payload: unknown): number | null => {
  const seq = (payload as { seq?: unknown } | null)?.seq;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
};

export class TableServer implements TableOutbox {
  readonly #options: Required<
    Omit<TableServerOptions, 'fiducials' | 'logger' | 'handler' | 'now' | 'headersTimeoutMs' | 'connectionCaps'>
  >;
  readonly #now: () => number;
  /** Refused tokens per address (see HelloLockout). */
  readonly #helloFailures = new Map<string, { failures: number; lockedUntil: number; lastAt: number }>();
  readonly #handler: TableHandler;
  readonly #fiducials: FiducialMap;
  readonly #log: TableLogger;
  readonly #ledger: SeqLedger;
  readonly #http: ReturnType<typeof createServer>;
  readonly #io: Server<ClientToServerEvents, ServerToClientEvents>;
  readonly #connections = new Set<Connection>();
  readonly #byTable = new Map<string, Connection>();
  /** Inbound events and hellos go to the handler one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();
  /** Outbound messages, in the order they were made, each after the recording holds its cause. */
  #out: Promise<void> = Promise.resolve();
  #persist: (() => Promise<void>) | null = null;
  #address: AddressInfo | null = null;
  /** The session's language, put in every state once the node has said it. */
  #language: string | undefined = undefined;
  /** The port the project's own pages (the virtual table) are served from; null: no page may connect. */
  #pagesPort: number | null = null;

  constructor(options: TableServerOptions) {
    if (!options.token) throw new Error('the table server needs a non-empty token');
    this.#options = {
      token: options.token,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? DEFAULT_TABLE_PORT,
      ackTimeoutMs: options.ackTimeoutMs ?? 5000,
      helloTimeoutMs: options.helloTimeoutMs ?? 10_000,
      rememberAcks: options.rememberAcks ?? 256,
      eventRate: options.eventRate ?? DEFAULT_EVENT_RATE,
      helloLockout: options.helloLockout ?? DEFAULT_HELLO_LOCKOUT,
      unanswered: options.unanswered ?? DEFAULT_UNANSWERED,
      refusedAgainMs: options.refusedAgainMs ?? 250,
    };
    this.#now = options.now ?? (() => performance.now());
    const headersTimeout = options.headersTimeoutMs ?? 10_000;
    this.#http = createServer({
      headersTimeout,
      requestTimeout: Math.max(headersTimeout, 20_000),
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    });
    this.#handler = options.handler;
    this.#fiducials = options.fiducials ?? loadFiducials();
    this.#log = options.logger ?? silentLogger;
    this.#ledger = new SeqLedger(this.#options.rememberAcks);
    this.#io = new Server<ClientToServerEvents, ServerToClientEvents>(this.#http, {
      serveClient: false,
      // Table messages are small; a megabyte of JSON is a fault, not a card. Messages between the
      // protocol's limit and this one are read, so they can be answered (`too-large`).
      maxHttpBufferSize: TRANSPORT_LIMIT,
      // A page of another site must not reach the tables' port from a browser on the lab's computer.
      allowRequest: (req, callback) => callback(null, this.#originAllowed(req.headers.origin, req.headers.host)),
    });
    // After socket.io, which takes over the server's request listeners (the guard must see them all).
    guardConnections(this.#http, options.connectionCaps ?? DEFAULT_CONNECTION_CAPS, this.#log, 'table server');
    // Anything but socket.io (an operator opening the address in a browser) gets a page saying what
    // this is, at once: a request left unanswered holds a connection for ever.
    this.#http.on('request', (req, res) => {
      if (req.url?.startsWith('/socket.io/')) return;
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(
        'Parceiro table server: card tables connect here with socket.io 4, namespace /table, and a token (see table-bridge/PROTOCOL.md). The operator dashboard has its own address: parceiro live prints it.\n',
      );
    });
    this.#io.of(TABLE_NAMESPACE).on('connection', (socket) => this.#accept(socket));
    // Anything connecting to another namespace is not speaking this protocol.
    this.#io.of('/').on('connection', (socket) => socket.disconnect(true));
  }

  /** Starts listening; resolves with the address (the real port when 0 was asked). */
  async listen(): Promise<{ host: string; port: number; url: string }> {
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#options.port, this.#options.host, () => {
        this.#http.off('error', reject);
        resolve();
      });
    });
    this.#address = this.#http.address() as AddressInfo;
    const { address, port } = this.#address;
    this.#log.info({ host: address, port, namespace: TABLE_NAMESPACE }, 'table server listening');
    return { host: address, port, url: this.url };
  }

  /** The base URL tables connect to (add the /table namespace). */
  get url(): string {
    if (!this.#address) throw new Error('the table server is not listening');
    const host = this.#address.family === 'IPv6' ? `[${this.#address.address}]` : this.#address.address;
    return `http://${host}:${this.#address.port}`;
  }

  /**
   * What must be on record before anything goes out to a table (the node passes the recorder's
   * persist); null for none.
   */
  setPersist(persist: (() => Promise<void>) | null): void {
    this.#persist = persist;
  }

  /**
   * A restarted runtime's answers to the events it restored from its recording: the tables' seqs and
   * duplicate suppression carry on as before the restart.
   */
  restoreAnswer(table: string, name: TableEventName, event: CardEvent | ControlEvent, verdict: Verdict): void {
    this.#ledger.record(table, event.seq, ackOf(event.seq, verdict), eventFingerprint(name, event));
  }

  /** The tables' seqs and remembered answers, as data (a session of a lab day saves them as it begins). */
  ledgerSnapshot(): LedgerSnapshot {
    return this.#ledger.snapshot();
  }

  /** Puts back the seqs and answers a session began with (a restart, before restoring its own events). */
  restoreLedger(snapshot: LedgerSnapshot): void {
    this.#ledger.restore(snapshot);
  }

  /**
   * The project's pages (the virtual table) are served on `port` (the dashboard's): a browser page
   * from there may connect; a page from anywhere else is refused at the handshake. Programs that are
   * not browsers send no Origin and are not concerned.
   */
  allowPagesFrom(port: number | null): void {
    this.#pagesPort = port;
  }

  #originAllowed(origin: string | undefined, host: string | undefined): boolean {
    if (origin === undefined) return true;
    const ok = this.#pagesPort !== null && pageOriginAllowed(origin, this.#pagesPort, host);
    if (!ok) this.#log.warn({ origin }, 'a page of another origin refused');
    return ok;
  }

  /** The tables that said hello and are connected now. */
  tables(): TableInfo[] {
    return [...this.#byTable.values()].map((c) => c.table!);
  }

  async close(): Promise<void> {
    for (const c of this.#connections) {
      if (c.helloTimer) clearTimeout(c.helloTimer);
      if (c.heldAnswer) clearTimeout(c.heldAnswer);
      // Refused copies not yet on record are recorded (and answered) before the server goes.
      this.#enqueue(() => this.#endRun(c));
    }
    await this.#queue;
    await this.#out;
    await new Promise<void>((resolve) => {
      void this.#io.close(() => resolve());
      this.#http.closeAllConnections();
    });
  }

  /** Sends once what came before has gone and the recording holds what caused it. */
  #send(task: () => void): void {
    this.#out = this.#out
      .then(async () => {
        if (this.#persist) await this.#persist();
      })
      .catch((err: unknown) => this.#log.error({ err }, 'the recording could not be written before sending'))
      .then(task)
      .catch((err: unknown) => this.#log.error({ err }, 'a message to a table failed'));
  }

  // ---- inbound ----------------------------------------------------------------------------------

  #accept(socket: TableSocket): void {
    const conn: Connection = {
      socket,
      table: null,
      replaced: false,
      answered: false,
      behaviour: false,
      helloTimer: null,
      address: socket.handshake.address,
      tokens: this.#options.eventRate.burst,
      refilledAt: this.#now(),
      waiting: 0,
      limited: 0,
      limitedLoggedAt: -Infinity,
      run: null,
      heldAnswer: null,
    };
    this.#connections.add(conn);
    this.#capUnanswered(conn);
    conn.helloTimer = setTimeout(() => {
      this.#log.warn({ socket: socket.id }, 'no hello in time; closing the connection');
      socket.disconnect(true);
    }, this.#options.helloTimeoutMs);
    conn.helloTimer.unref();

    socket.on('hello', (payload: unknown, ack: unknown) => {
      if (this.#tooLarge(conn, 'hello', payload, ack)) return;
      this.#enqueue(() => this.#hello(conn, payload, ack));
    });
    for (const event of ['card:detected', 'card:removed', 'game:control'] as const) {
      socket.on(event, (payload: unknown, ack: unknown) => {
        if (!this.#admit(conn, event, payload, ack) || this.#tooLarge(conn, event, payload, ack)) return;
        this.#onEvent(conn, event, payload, ack);
      });
    }
    // Every event gets one answer, even one this protocol does not have.
    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (typeof event === 'string' && EVENTS.includes(event)) return;
      const ack = args.at(-1);
      const name = typeof event === 'string' ? event.slice(0, 64) : String(event);
      if (!this.#admit(conn, name, args[0], ack)) return;
      const reason = `unknown event "${name}": this protocol has hello, card:detected, card:removed and game:control`;
      this.#log.warn({ socket: socket.id, event: name }, 'unknown event');
      const seq = seqOf(args[0]);
      if (typeof ack === 'function')
        this.#send(() => (ack as (r: EventAck) => void)(refusal('unknown-event', reason, seq)));
      else
        this.#send(() =>
          socket.emit('rejected', { code: 'unknown-event', reason, event: name, ...(seq === null ? {} : { seq }) }),
        );
    });
    socket.on('disconnect', (reason) => {
      if (conn.helloTimer) clearTimeout(conn.helloTimer);
      if (conn.heldAnswer) clearTimeout(conn.heldAnswer);
      this.#connections.delete(conn);
      // Its refused copies not yet on record are recorded all the same.
      this.#enqueue(() => this.#endRun(conn));
      const table = conn.table;
      if (!table || conn.replaced) return;
      this.#byTable.delete(table.id);
      this.#log.info({ table: table.id, reason }, 'table disconnected');
      this.#enqueue(() => {
        this.#handler.onDisconnect?.(table, reason);
        // The others see the seat free again.
        this.pushState();
      });
    });
  }

  /**
   * Connections that have not joined are capped per address and in all (UnansweredCaps): over a cap,
   * the oldest of them is closed, so that held connections cannot crowd out a table that joins.
   */
  #capUnanswered(fresh: Connection): void {
    const caps = this.#options.unanswered;
    const waiting = [...this.#connections].filter((c) => !c.table);
    const ofAddress = waiting.filter((c) => c.address === fresh.address);
    const victim =
      ofAddress.length > caps.perAddress ? ofAddress[0] : waiting.length > caps.total ? waiting[0] : undefined;
    if (!victim) return;
    this.#log.warn(
      { socket: victim.socket.id, address: victim.address, waiting: waiting.length },
      'too many connections without a hello: the oldest closed',
    );
    this.#connections.delete(victim);
    victim.socket.disconnect(true);
  }

  /**
   * The rate limit: an event over it is answered `rate-limited` at once and goes no further (not to
   * the runtime, not on record), so a table that floods costs the node little and delays nobody else.
   */
  #admit(conn: Connection, event: string, payload: unknown, ack: unknown): boolean {
    const rate = this.#options.eventRate;
    const now = this.#now();
    conn.tokens = Math.min(rate.burst, conn.tokens + ((now - conn.refilledAt) * rate.perSecond) / 1000);
    conn.refilledAt = now;
    if (conn.tokens >= 1 && conn.waiting < rate.waiting) {
      conn.tokens -= 1;
      return true;
    }
    const retryAfterMs = Math.max(1, Math.ceil(((1 - Math.min(conn.tokens, 0)) * 1000) / rate.perSecond));
    const reason =
      conn.tokens >= 1
        ? `${event}: ${conn.waiting} events from this connection are still waiting for the runtime; nothing was applied: send it again in ${retryAfterMs} ms, as a new event`
        : `${event}: more than ${rate.perSecond} events a second from this connection (${rate.burst} at once); nothing was applied: send it again in ${retryAfterMs} ms, as a new event`;
    // One log line a second at most, with the count of the second before.
    if (now - conn.limitedLoggedAt >= 1000) {
      if (conn.limited)
        this.#log.warn(
          { socket: conn.socket.id, table: conn.table?.id, limited: conn.limited },
          'events over the rate limit refused in a second',
        );
      conn.limited = 0;
      conn.limitedLoggedAt = now;
    }
    conn.limited++;
    if (conn.limited === 1)
      this.#log.warn({ socket: conn.socket.id, table: conn.table?.id, event }, 'an event over the rate limit refused');
    if (conn.limited > rate.closeAfter) {
      if (conn.limited === rate.closeAfter + 1) {
        this.#log.warn(
          { socket: conn.socket.id, table: conn.table?.id, address: conn.address },
          'a connection kept flooding: closed',
        );
        this.#helloFailed(conn.address);
        // After the answers to the events it sent before (handled in turn, then sent in turn).
        this.#enqueue(() =>
          this.#send(() => {
            conn.socket.emit('rejected', {
              code: 'rate-limited',
              reason: `more than ${rate.closeAfter} events over the rate limit in a second: this connection is closed (${rate.perSecond} events a second at most)`,
              retryAfterMs: 1000,
            });
            conn.socket.disconnect(true);
          }),
        );
      }
      return false;
    }
    const seq = seqOf(payload);
    try {
      if (typeof ack === 'function') (ack as (r: EventAck) => void)(refusal('rate-limited', reason, seq, retryAfterMs));
      else
        conn.socket.emit('rejected', {
          code: 'rate-limited',
          reason,
          event,
          retryAfterMs,
          ...(seq === null ? {} : { seq }),
        });
    } catch (err) {
      this.#log.warn({ err, event }, 'could not send an acknowledgement');
    }
    return false;
  }

  /** A message over the protocol's limit is answered `too-large` and not read further. */
  #tooLarge(conn: Connection, event: string, payload: unknown, ack: unknown): boolean {
    let size = 0;
    try {
      size = Buffer.byteLength(JSON.stringify(payload) ?? '');
    } catch {
      return false; // left to the schema, which says what is wrong with it
    }
    if (size <= MESSAGE_LIMIT) return false;
    const reason = `${event}: the message is ${size} bytes; the protocol takes at most ${MESSAGE_LIMIT}`;
    this.#log.warn({ socket: conn.socket.id, event, size }, 'message too large');
    const seq = seqOf(payload);
    if (typeof ack === 'function') this.#send(() => (ack as (r: EventAck) => void)(refusal('too-large', reason, seq)));
    else
      this.#send(() =>
        conn.socket.emit('rejected', { code: 'too-large', reason, event, ...(seq === null ? {} : { seq }) }),
      );
    return true;
  }

  #enqueue(task: () => unknown): void {
    this.#queue = this.#queue
      .then(async () => {
        await task();
      })
      .catch((err: unknown) => this.#log.error({ err }, 'table task failed'));
  }

  #hello(conn: Connection, payload: unknown, ack: unknown): void {
    const { socket } = conn;
    const reply = (r: HelloAck): void => {
      if (typeof ack === 'function') (ack as (r: HelloAck) => void)(r);
    };
    const refuseHello = (code: RejectCode, reason: string, retryAfterMs?: number): void => {
      this.#log.warn({ socket: socket.id, code, reason }, 'hello refused');
      // A namespace disconnect packet goes out after the ack, so the table reads why before it is cut.
      this.#send(() => {
        reply({ ok: false, code, reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
        socket.disconnect();
      });
    };
    if (typeof ack !== 'function') return refuseHello('invalid', 'hello: an acknowledgement callback is required');
    if (conn.heldAnswer) return; // its earlier hello's answer is still held: it is closed then
    if (conn.table)
      return refuseHello(
        'invalid',
        `hello: this connection already joined as table ${conn.table.id}; to say hello again (other seats, say), connect again`,
      );
    // The version first: a future hello may have another shape, and deserves the real reason.
    const version = (payload as { protocol?: unknown } | null)?.protocol;
    if (typeof payload === 'object' && payload !== null && version !== PROTOCOL_VERSION) {
      return refuseHello(
        'wrong-version',
        `this runtime speaks table protocol ${PROTOCOL_VERSION}, the table sent ${JSON.stringify(version) ?? 'none'}`,
      );
    }
    const v = validateInbound('hello', payload);
    if (!v.ok) return refuseHello('invalid', v.reason);
    const hello = v.value;
    if (!tokensEqual(hello.token, this.#options.token)) {
      const lockedMs = this.#helloFailed(conn.address);
      if (lockedMs <= 0) return refuseHello('bad-token', "the token does not match this runtime's");
      // Held: the answer goes out when the address's lock ends. The right token is never held.
      if (conn.helloTimer) clearTimeout(conn.helloTimer);
      conn.helloTimer = null;
      conn.heldAnswer = setTimeout(() => {
        conn.heldAnswer = null;
        refuseHello(
          'too-many-attempts',
          `too many hellos with a wrong token from ${conn.address}: this one was answered after ${Math.ceil(lockedMs / 1000)} s, and each further wrong one waits longer (a hello with the right token is answered at once)`,
          lockedMs,
        );
      }, lockedMs);
      conn.heldAnswer.unref();
      return;
    }
    // The operator's own pause and resume are recorded as this table's (robot/live/node/operator-controls.ts).
    if (hello.table.id === 'operator')
      return refuseHello(
        'invalid',
        'hello.table.id: "operator" is reserved for the operator dashboard; choose another id',
      );

    const table: TableInfo = { id: hello.table.id, name: hello.table.name, kind: hello.table.kind, seats: hello.seats };
    let verdict: Verdict;
    try {
      verdict = this.#handler.onHello(table);
    } catch (err) {
      this.#log.error({ err, table: table.id }, 'the handler failed on hello');
      verdict = { ok: false, code: 'internal', reason: 'the runtime failed to admit the table' };
    }
    if (!verdict.ok) return refuseHello(verdict.code, verdict.reason);

    const previous = this.#byTable.get(table.id);
    if (previous && previous !== conn) {
      // The same table came back while its old connection still looked alive (a half-open socket):
      // the newest connection is the table. The old one is told why before it is closed.
      previous.replaced = true;
      const old = previous.socket;
      this.#send(() => {
        old.emit('rejected', {
          code: 'replaced',
          reason: `table ${table.id} said hello on another connection; this one is closed`,
        });
        old.disconnect(true);
      });
      this.#log.info({ table: table.id }, 'table reconnected; the old connection is closed');
    }
    if (conn.helloTimer) clearTimeout(conn.helloTimer);
    conn.helloTimer = null;
    conn.table = table;
    conn.behaviour = hello.behaviour === true;
    this.#byTable.set(table.id, conn);
    this.#log.info(
      { table: table.id, kind: table.kind, seats: table.seats, lastSeq: this.#ledger.last(table.id) },
      'table joined',
    );
    const snapshot = this.#handler.snapshot();
    const seating = this.#seating(snapshot.robotSeat);
    const answer: HelloAck = {
      ok: true,
      protocol: PROTOCOL_VERSION,
      session: snapshot.session.id,
      table: table.id,
      lastSeq: this.#ledger.last(table.id),
      state: tableState(snapshot, table.seats, seating, this.#language),
    };
    this.#send(() => {
      reply(answer);
      conn.answered = true;
    });
    // The other tables see the seats it took.
    this.#pushTo(
      [...this.#byTable.values()].filter((c) => c !== conn),
      snapshot,
      seating,
    );
  }

  /** One more refused token from `address`; how long its answer is held (ms; 0: answered at once). */
  #helloFailed(address: string): number {
    const lock = this.#options.helloLockout;
    const now = this.#now();
    // Forgotten after a quiet while; the map never holds more than the addresses of the last while.
    for (const [a, f] of this.#helloFailures) if (now - f.lastAt > lock.forgetMs) this.#helloFailures.delete(a);
    const f = this.#helloFailures.get(address) ?? { failures: 0, lockedUntil: 0, lastAt: now };
    f.failures++;
    f.lastAt = now;
    if (f.failures > lock.free)
      f.lockedUntil = now + Math.min(lock.maxMs, lock.firstMs * 2 ** Math.min(30, f.failures - lock.free - 1));
    this.#helloFailures.set(address, f);
    return Math.max(0, f.lockedUntil - now);
  }

  #onEvent(conn: Connection, event: Exclude<InboundEvent, 'hello'>, payload: unknown, ack: unknown): void {
    if (typeof ack !== 'function') {
      // Idempotence and refusals both travel in the ack: an event without one is not applied.
      const seq = seqOf(payload);
      conn.socket.emit('rejected', {
        code: 'invalid',
        reason: `${event}: an acknowledgement callback is required`,
        event,
        ...(seq === null ? {} : { seq }),
      });
      return;
    }
    const reply = (r: EventAck): void => {
      try {
        (ack as (r: EventAck) => void)(r);
      } catch (err) {
        this.#log.warn({ err, event }, 'could not send an acknowledgement');
      }
    };
    // The answer goes out after what the event caused at once (its state, a forced robot card).
    conn.waiting++;
    this.#enqueue(async () => {
      try {
        const answer = await this.#handle(conn, event, payload, reply);
        if (answer) this.#send(() => reply(answer));
      } finally {
        conn.waiting--;
      }
    });
  }

  /** The answer to an event, or null when it waits in a batch of refused copies (see RefusalRun). */
  async #handle(
    conn: Connection,
    event: Exclude<InboundEvent, 'hello'>,
    payload: unknown,
    reply: (r: EventAck) => void,
  ): Promise<EventAck | null> {
    const table = conn.table;
    if (!table) return refusal('no-hello', `${event}: say hello first`, seqOf(payload));
    const log = (ack: EventAck): EventAck => {
      if (!ack.ok)
        this.#log.warn({ table: table.id, event, code: ack.code, reason: ack.reason, seq: ack.seq }, 'event refused');
      return ack;
    };

    let mapped: CardEvent | ControlEvent;
    if (event === 'game:control') {
      const v = validateInbound(event, payload);
      if (!v.ok) return log(refusal('invalid', v.reason, seqOf(payload)));
      const m = v.value;
      if (m.action === 'new-game') {
        let deal: { dealer: Seat; trumpCard: Card } | null = null;
        if (m.deal) {
          const trump = this.#cardOf(m.deal.trump, `${event}.deal.trump`);
          if (!trump.ok) return log(refusal('unknown-fiducial', trump.reason, m.seq));
          deal = { dealer: m.deal.dealer, trumpCard: trump.card };
        }
        mapped = { table, seq: m.seq, action: 'new-game', deal };
      } else mapped = { table, seq: m.seq, action: m.action };
    } else {
      const v = validateInbound(event, payload);
      if (!v.ok) return log(refusal('invalid', v.reason, seqOf(payload)));
      const m = v.value;
      const card = this.#cardOf(m, event);
      if (!card.ok) return log(refusal('unknown-fiducial', card.reason, m.seq));
      mapped = {
        table,
        seq: m.seq,
        zone: { area: m.zone.area, seat: m.zone.seat },
        card: card.card,
        fiducial: m.fiducial ?? null,
      };
    }

    const said = eventFingerprint(event, mapped);
    const dup = this.#seqCheck(table.id, mapped.seq, said);
    if (dup) return log(dup);
    const denied = this.#denied(table, event, mapped);
    if (denied) {
      const ack = refusal(denied.code, denied.reason, mapped.seq);
      this.#ledger.record(table.id, mapped.seq, ack, said);
      return log(ack);
    }
    // A copy of the refused event before it, nothing having changed since: refused alike, by the bridge.
    const key = `${event} ${said}`;
    const run = conn.run;
    if (run && run.key === key && run.version === this.#handler.snapshot().version) {
      const ack = ackOf(mapped.seq, run.verdict);
      this.#ledger.record(table.id, mapped.seq, ack, said);
      if (run.batch) {
        run.batch.last = mapped;
        run.batch.count++;
        run.batch.replies.push(() => reply(ack));
      } else {
        run.batch = { first: mapped.seq, last: mapped, count: 1, replies: [() => reply(ack)] };
        run.timer = setTimeout(() => this.#enqueue(() => this.#recordRun(conn)), this.#options.refusedAgainMs);
      }
      return null;
    }
    this.#endRun(conn);
    let verdict: Verdict;
    try {
      verdict = await (event === 'card:detected'
        ? this.#handler.onCardDetected(mapped as CardEvent)
        : event === 'card:removed'
          ? this.#handler.onCardRemoved(mapped as CardEvent)
          : this.#handler.onControl(mapped as ControlEvent));
    } catch (err) {
      // Not recorded: the table may retry the same seq once the fault is gone.
      this.#log.error({ err, table: table.id, event }, 'the handler failed');
      return refusal('internal', `${event}: the runtime failed to handle the event`, mapped.seq);
    }
    const ack = ackOf(mapped.seq, verdict);
    this.#ledger.record(table.id, mapped.seq, ack, said);
    if (!verdict.ok)
      conn.run = { key, version: this.#handler.snapshot().version, name: event, verdict, batch: null, timer: null };
    return log(ack);
  }

  /**
   * What a table may not do whatever the game: a table hosting no seat only watches; a card counts
   * for the seats a table hosts (and the robot's, whose cards people place and gather in a physical
   * deal). The runtime never hears of these, so nothing is recorded.
   */
  #denied(
    table: TableInfo,
    event: Exclude<InboundEvent, 'hello'>,
    e: CardEvent | ControlEvent,
  ): { code: RejectCode; reason: string } | null {
    // Asking the robot a question changes nothing: a table that only watches may ask too.
    if (!table.seats.length && !('action' in e && isTableQuestion(e.action))) {
      return {
        code: 'display-only',
        reason: `${event}: table ${table.id} hosts no seat: it shows the game and cannot change it (a table that plays says hello with its seats)`,
      };
    }
    if ('zone' in e && !table.seats.includes(e.zone.seat) && e.zone.seat !== this.#handler.snapshot().robotSeat) {
      return {
        code: 'not-your-seat',
        reason: `${event}: table ${table.id} does not host seat ${e.zone.seat}; nothing changed`,
      };
    }
    return null;
  }

  /** Puts the batch of refused copies on record; their answers go out once it is (in the queue). */
  #recordRun(conn: Connection): void {
    const run = conn.run;
    if (!run?.batch || !conn.table) return;
    const { batch } = run;
    run.batch = null;
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    this.#log.warn(
      {
        table: conn.table.id,
        event: run.name,
        code: run.verdict.code,
        copies: batch.count,
        seqs: [batch.first, batch.last.seq],
      },
      'the same event refused again',
    );
    try {
      this.#handler.onRefusedAgain?.({
        name: run.name,
        event: batch.last,
        firstSeq: batch.first,
        count: batch.count,
        verdict: run.verdict,
      });
    } catch (err) {
      this.#log.error({ err, table: conn.table.id }, 'the handler failed on refused copies');
    }
    this.#send(() => {
      for (const r of batch.replies) r();
    });
  }

  /** The run of refused copies is over (another event came, or the connection went): its batch goes on record. */
  #endRun(conn: Connection): void {
    this.#recordRun(conn);
    conn.run = null;
  }

  /** The answer to an event sent again, a refusal of a seq used again, or null for a new one. */
  #seqCheck(table: string, seq: number, said: string): EventAck | null {
    const c = this.#ledger.check(table, seq, said);
    if (c.kind === 'new') return null;
    if (c.kind === 'duplicate') {
      this.#log.info({ table, seq }, 'duplicate event answered from the ledger');
      return { ...c.ack, ...(c.ack.ok ? { duplicate: true as const } : {}) };
    }
    if (c.kind === 'reused')
      return refusal(
        'seq-reused',
        `seq ${seq} was already used for another event (${c.was}); nothing was applied: number each new event above ${this.#ledger.last(table)}`,
        seq,
      );
    if (!c.forgotten)
      return refusal(
        'stale-seq',
        `seq ${seq} is not above ${c.last}, the last one from this table, and no answer was given to it (skipped, or refused for its shape); nothing was applied: number each new event above ${c.last}`,
        seq,
      );
    return refusal(
      'stale-seq',
      `seq ${seq} is not above ${c.last}, the last one from this table, and its answer is no longer known`,
      seq,
    );
  }

  #cardOf(ref: CardRef, where: string): { ok: true; card: Card } | { ok: false; reason: string } {
    // The schema already checked the notation: this parse cannot fail.
    if (ref.card !== undefined) return { ok: true, card: parseCard(ref.card) };
    const card = this.#fiducials.cardOf(ref.fiducial!);
    return card === undefined
      ? { ok: false, reason: `${where}.fiducial: unknown fiducial ${ref.fiducial}` }
      : { ok: true, card };
  }

  // ---- outbound (TableOutbox) ------------------------------------------------------------------

  pushState(): void {
    if (!this.#byTable.size) return;
    const snapshot = this.#handler.snapshot();
    this.#pushTo([...this.#byTable.values()], snapshot, this.#seating(snapshot.robotSeat));
  }

  /** Each table its own projection of the snapshot, as it is now (states are made here, sent in turn). */
  #pushTo(conns: readonly Connection[], snapshot: ReturnType<TableHandler['snapshot']>, seating: Seating): void {
    for (const c of conns) {
      const state = tableState(snapshot, c.table!.seats, seating, this.#language);
      // A table whose hello is not answered yet gets its state in the answer.
      this.#send(() => {
        if (c.answered) c.socket.emit('state', state);
      });
    }
  }

  #seating(robotSeat: Seat): Seating {
    return seatingOf(
      robotSeat,
      [...this.#byTable.values()].map((c) => c.table!),
    );
  }

  announceRobotPlay(play: { game: number; trick: number; seat: Seat; card: Card }): Promise<Delivery[]> {
    const msg = {
      game: play.game,
      trick: play.trick,
      seat: play.seat,
      card: formatCard(play.card),
      fiducial: this.#fiducials.idOf(play.card),
    };
    return this.#deliverAll([...this.#byTable.values()], (s) => s.emitWithAck('robot:play', msg));
  }

  sendHand(game: number, seat: Seat, cards: readonly Card[]): Promise<Delivery[]> {
    const msg = { game, seat, cards: cards.map(formatCard) };
    return this.#deliverAll(
      [...this.#byTable.values()].filter((c) => c.table!.seats.includes(seat)),
      (s) => s.emitWithAck('hand', msg),
    );
  }

  prompt(prompt: Prompt, to?: string): void {
    const msg = {
      kind: prompt.kind,
      text: prompt.text,
      ...(prompt.seat === undefined ? {} : { seat: prompt.seat }),
      ...(prompt.card === undefined ? {} : { card: formatCard(prompt.card) }),
      ...(prompt.withinMs === undefined ? {} : { withinMs: prompt.withinMs }),
    };
    for (const c of this.#targets(to)) this.#send(() => c.socket.emit('prompt', msg));
  }

  /**
   * What the robot shows (its face, gaze, speech, feeling), to the tables whose hello asked for it, in
   * order with everything else a table is told.
   */
  robotBehaviour(msg: RobotBehaviourMessage): void {
    for (const c of this.#byTable.values()) {
      if (c.behaviour) this.#send(() => c.socket.emit('robot:behaviour', msg));
    }
  }

  /** The session's language (BCP 47): every state carries it from now on; the tables get a state at once. */
  setLanguage(language: string): void {
    if (language === this.#language) return;
    this.#language = language;
    if (this.#byTable.size)
      this.#pushTo(
        [...this.#byTable.values()],
        this.#handler.snapshot(),
        this.#seating(this.#handler.snapshot().robotSeat),
      );
  }

  reject(rejection: Rejection, to?: string): void {
    for (const c of this.#targets(to)) this.#send(() => c.socket.emit('rejected', { ...rejection }));
  }

  /** Sends in turn, then waits for every answer. */
  #deliverAll(
    conns: readonly Connection[],
    send: (s: ReturnType<TableSocket['timeout']>) => Promise<TableReply>,
  ): Promise<Delivery[]> {
    return new Promise((resolve) => {
      this.#send(() => resolve(Promise.all(conns.map((c) => this.#deliver(c, send)))));
    });
  }

  #targets(to: string | undefined): Connection[] {
    if (to === undefined) return [...this.#byTable.values()];
    const c = this.#byTable.get(to);
    return c ? [c] : [];
  }

  async #deliver(
    c: Connection,
    send: (s: ReturnType<TableSocket['timeout']>) => Promise<TableReply>,
  ): Promise<Delivery> {
    const table = c.table!.id;
    try {
      const reply = await send(c.socket.timeout(this.#options.ackTimeoutMs));
      return { table, result: reply?.ok === true ? 'ok' : 'refused' };
    } catch {
      this.#log.warn({ table }, 'no answer from the table in time');
      return { table, result: 'timeout' };
    }
  }
}

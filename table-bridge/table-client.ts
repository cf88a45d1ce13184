// What every table client does the same way when it speaks the table protocol (PROTOCOL.md): the
// socket to the /table namespace, the hello (token, who the table is, its seats) and its answer, in
// time or not, the sequence numbers of its events (strictly increasing per table id, continuing above
// the hello answer's lastSeq), what an event's answer calls for when a table sends until it has one,
// and which of two states is the newer. Its clients: the simulated table (simulated-table.ts), the
// camera table's link (tuio/table-link.ts) and the virtual table's page
// (robot/web/pages/virtual-table.ts). The page is bundled for the browser and type-checked without
// Node's types, and messages.ts takes its constants from here: so this file imports nothing, and
// restates the messages' types as far as a client reads them (messages.ts would bring zod and game/
// into the page).

export const PROTOCOL_VERSION = 1;
/** The socket.io namespace of the table protocol. */
export const TABLE_NAMESPACE = '/table';

/**
 * The options of a table's socket.io-client connection to `url + TABLE_NAMESPACE`, with `more` (its
 * own reconnection delays): a new connection each time, never one shared with another table of the
 * same process or page; WebSocket only, since a table server may be on another origin and sends no
 * CORS headers for polling.
 */
export function tableSocketOptions<O extends object>(more: O): { forceNew: boolean; transports: string[] } & O {
  return { forceNew: true, transports: ['websocket'], ...more };
}

/** A table's hello, as PROTOCOL.md has it. */
interface HelloMessage<S extends number = number, K extends string = string> {
  protocol: number;
  token: string;
  /** `id` stable across reconnections: the runtime resyncs a returning table by it. */
  table: { id: string; name: string; kind: K };
  /** The seats whose players sit at this table; none for a table that only shows the game. */
  seats: S[];
  /** true: the table also gets the robot's behaviour (`robot:behaviour`). */
  behaviour?: boolean;
}

export function helloMessage<S extends number, K extends string>(o: {
  /** Default PROTOCOL_VERSION (another only to test the runtime's version check). */
  protocol?: number;
  token: string;
  table: { id: string; name: string; kind: K };
  seats: readonly S[];
  behaviour?: boolean;
}): HelloMessage<S, K> {
  return {
    protocol: o.protocol ?? PROTOCOL_VERSION,
    token: o.token,
    table: { id: o.table.id, name: o.table.name, kind: o.table.kind },
    seats: [...o.seats],
    ...(o.behaviour === undefined ? {} : { behaviour: o.behaviour }),
  };
}

/** A refusal, as far as a client reads one. */
interface Refusal {
  ok: false;
  code: string;
  reason: string;
  /** rate-limited, too-many-attempts: the wait before sending again (ms). */
  retryAfterMs?: number | undefined;
}

/** The hello's answer, as far as a client reads it: `S` is the client's own reading of the state. */
type HelloAnswer<S> = { ok: true; lastSeq: number; state: S } | Refusal;

/**
 * What a client emits through: socket.io-client's socket, with or without its typed events. The
 * events' types are the caller's business (the typed maps take no event name that is a variable).
 */
interface EmittingSocket {
  emit(...args: never[]): unknown;
  timeout(ms: number): { emit(...args: never[]): unknown };
}

/** The same socket, emitting as this file does. */
type Emitter = (event: string, payload: unknown, ack: (...answer: never[]) => void) => unknown;
const emitter = (socket: EmittingSocket, timeoutMs?: number): Emitter => {
  const s = timeoutMs === undefined ? socket : socket.timeout(timeoutMs);
  return (s.emit as Emitter).bind(s);
};

/**
 * Says hello on a socket just connected; `answered` gets the answer, or null when none came within
 * `timeoutMs` (without it, the answer is waited for as long as the connection lasts). A callback, not
 * emitWithAck: the answer is handled as it is read, before any `state` pushed right behind it, whose
 * place a promise's continuation would take (and put the answer's older state back over it).
 */
export function sayHello<A extends HelloAnswer<unknown>>(
  socket: EmittingSocket,
  hello: HelloMessage,
  timeoutMs: number,
  answered: (answer: A | null) => void,
): void;
export function sayHello<A extends HelloAnswer<unknown>>(
  socket: EmittingSocket,
  hello: HelloMessage,
  timeoutMs: undefined,
  answered: (answer: A) => void,
): void;
export function sayHello<A extends HelloAnswer<unknown>>(
  socket: EmittingSocket,
  hello: HelloMessage,
  timeoutMs: number | undefined,
  answered: (answer: A | null) => void,
): void {
  if (timeoutMs === undefined) emitter(socket)('hello', hello, (answer: A) => answered(answer));
  else emitter(socket, timeoutMs)('hello', hello, (err: Error | null, answer: A) => answered(err ? null : answer));
}

/** Emits a table event (numbered by the caller); `answered` gets its answer, or an error when none came within `timeoutMs`. */
export function sendEvent<A>(
  socket: EmittingSocket,
  event: string,
  payload: unknown,
  timeoutMs: number,
  answered: (err: Error | null, answer: A) => void,
): void {
  emitter(socket, timeoutMs)(event, payload, answered);
}

/** Where a table keeps the last sequence number it used. */
interface SeqStore {
  read(): number;
  write(n: number): void;
}

/**
 * A table's sequence numbers: each event's is one more than the last, and after a hello they continue
 * above the answer's lastSeq (what the runtime has from this table id, perhaps from before a restart
 * of either side). Kept in memory by default; the virtual table keeps them in the browser's storage,
 * so that a reload continues them.
 */
export class SeqNumbers {
  readonly #store: SeqStore;

  constructor(store?: SeqStore) {
    let last = 0;
    this.#store = store ?? { read: () => last, write: (n) => void (last = n) };
  }

  /** The next event's number. */
  next(): number {
    const n = this.#store.read() + 1;
    this.#store.write(n);
    return n;
  }

  /** After an accepted hello: continue above its answer's lastSeq. */
  continueAbove(lastSeq: number): void {
    this.#store.write(Math.max(lastSeq, this.#store.read()));
  }
}

/** The wait after `rate-limited` when the runtime names none (ms). */
const RATE_LIMIT_WAIT_MS = 100;

/**
 * What an event's answer calls for, for a table that sends each event until it has an answer:
 * - `answered`: the runtime's answer (accepted or refused): done;
 * - `unanswered`: none in time: send it again with the same seq (the runtime answers a repeat from its
 *   ledger and applies it once);
 * - `hello-lost`: the runtime does not know this connection's hello (it restarted): hello again, then
 *   send it again;
 * - `rate-limited`: nothing was applied: after `waitMs`, send it again as a new event (a new seq).
 */
type AnswerCall<A> =
  | { kind: 'answered'; ack: A }
  | { kind: 'unanswered' }
  | { kind: 'hello-lost' }
  | { kind: 'rate-limited'; waitMs: number };

/** `ack`: the event's answer, or null when none came in time. */
export function answerCall<A extends { ok: true } | Refusal>(ack: A | null): AnswerCall<A> {
  if (ack === null) return { kind: 'unanswered' };
  if (!ack.ok && ack.code === 'no-hello') return { kind: 'hello-lost' };
  if (!ack.ok && ack.code === 'rate-limited')
    return { kind: 'rate-limited', waitMs: ack.retryAfterMs ?? RATE_LIMIT_WAIT_MS };
  return { kind: 'answered', ack };
}

/**
 * A state older than the one held (both numbered, `version`): not news. A runtime's answer to a hello
 * or an event may be read after the state that followed it; an older state never replaces a newer one.
 */
export function olderState(
  held: { version?: number | undefined } | null | undefined,
  next: { version?: number | undefined },
): boolean {
  return held?.version !== undefined && next.version !== undefined && next.version < held.version;
}

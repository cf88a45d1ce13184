// A table made of code: a socket.io client that speaks the table protocol like a touch table, with
// seeded bots in the three human seats. It says hello, receives its seats' hands, plays its bots'
// cards in the play area by fiducial id when it is their turn, shows the robot's announced cards, and
// injects the faults of a real table on request. It is driven by the `state` messages alone, so a
// reconnection (a fresh state on hello) is just another state.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Card, Player, PlayerFactory, Seat } from '../game/index.js';
import { DECK, Game, RandomPlayer, RulePlayer, SEATS, SeatView, deriveSeed, formatCard, parseCard, suitOf } from '../game/index.js';
import type { FiducialMap } from './fiducials.js';
import { loadFiducials } from './fiducials.js';
import type { TableLogger } from './logger.js';
import { silentLogger } from './logger.js';
import type { CardDetectedMessage, EventAck, GameControlMessage, GameState, HandMessage, HelloAck, PromptMessage, RejectedMessage, RobotPlayMessage, TableKind, TableState } from './messages.js';
import { PROTOCOL_VERSION, TABLE_NAMESPACE, handSchema, robotPlaySchema, tableStateSchema, validateOutbound } from './messages.js';
import type { ClientToServerEvents, ServerToClientEvents } from './socket-events.js';

export type BotKind = 'rule' | 'random';

/** The faults of a real table, injected at the simulated table's next suitable turn. */
export const FAULTS = [
  'out-of-turn', // a card for a hosted seat whose turn it is not
  'unknown-fiducial', // a marker the mapping does not know
  'already-played', // a card this seat played in an earlier trick
  'renounce', // a card of another suit while holding the led suit
  'same-card-twice', // the card just played is detected again
  'lift-and-replace', // the card just played is lifted and put back
  'replay-seq', // the event just sent is sent again with the same seq
  'disconnect', // the connection drops mid-trick; the table reconnects and resends its last event
] as const;
export type Fault = (typeof FAULTS)[number];

export interface FaultReport {
  fault: Fault;
  game: number;
  trick: number;
  seat: Seat;
  /** The answers to the fault's events, in order (for faults after a play, the play's answer first). */
  acks: EventAck[];
  /** The answer to the hello on reconnection (disconnect only). */
  hello?: HelloAck;
}

export interface SimulatedTableOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:7410`. */
  url: string;
  token: string;
  seed: number;
  /** Stable across reconnections. Default `sim`. */
  id?: string;
  name?: string;
  kind?: TableKind;
  /** The three human seats; default those other than seat 0. */
  seats?: readonly Seat[];
  /** Default `rule`. */
  bots?: BotKind | PlayerFactory;
  /** Must be the server's mapping; default the shipped one. */
  fiducials?: FiducialMap;
  /** Name cards in notation instead of by fiducial. */
  byCard?: boolean;
  /** Ask for the next game when none is being played (default true). */
  autoNewGame?: boolean;
  /** Play the bots' cards on their turns (default true); false leaves the table to the test. */
  autoPlay?: boolean;
  /** Sent in hello (tests of the version check). */
  protocol?: number;
  /** How long to wait for the server's acknowledgements (ms). Default 10000. */
  ackTimeoutMs?: number;
  logger?: TableLogger;
}

export class HelloRefusedError extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(`hello refused (${code}): ${reason}`);
    this.name = 'HelloRefusedError';
  }
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Armed = { fault: Fault; resolve: (r: FaultReport) => void; reject: (e: Error) => void };
type Waiter = { test: (s: TableState) => boolean; resolve: (s: TableState) => void; reject: (e: Error) => void };

const UNKNOWN_FIDUCIAL_BASE = 900;

export class SimulatedTable {
  readonly id: string;
  readonly seats: readonly Seat[];
  /** What the table was shown, in order: the robot's cards, hands, prompts, refusals. */
  readonly robotPlays: RobotPlayMessage[] = [];
  readonly hands: HandMessage[] = [];
  readonly prompts: PromptMessage[] = [];
  readonly rejections: RejectedMessage[] = [];
  /** The final state of each finished game, by index. */
  readonly results: GameState[] = [];
  /** Hellos accepted (1 + reconnections). */
  joins = 0;

  readonly #o: Required<Omit<SimulatedTableOptions, 'logger' | 'fiducials' | 'bots'>> & { bots: BotKind | PlayerFactory };
  readonly #fiducials: FiducialMap;
  readonly #log: TableLogger;
  readonly #socket: ClientSocket;
  #seq = 0;
  #state: TableState | null = null;
  #joined = false;
  #joinWaiters: ((ack: HelloAck) => void)[] = [];
  #busy = false;
  #closed = false;
  #failure: Error | null = null;
  readonly #done = new Set<string>();
  readonly #bots = new Map<string, Player>();
  readonly #armed: Armed[] = [];
  readonly #waiters: Waiter[] = [];

  constructor(options: SimulatedTableOptions) {
    this.id = options.id ?? 'sim';
    this.seats = [...(options.seats ?? [1, 2, 3])];
    if (this.seats.length !== 3 || new Set(this.seats).size !== 3) throw new Error('a simulated table hosts three distinct seats (the robot has the fourth)');
    this.#o = {
      url: options.url,
      token: options.token,
      seed: options.seed,
      id: this.id,
      name: options.name ?? `simulated table ${this.id}`,
      kind: options.kind ?? 'simulated',
      seats: this.seats,
      bots: options.bots ?? 'rule',
      byCard: options.byCard ?? false,
      autoNewGame: options.autoNewGame ?? true,
      autoPlay: options.autoPlay ?? true,
      protocol: options.protocol ?? PROTOCOL_VERSION,
      ackTimeoutMs: options.ackTimeoutMs ?? 10_000,
    };
    this.#fiducials = options.fiducials ?? loadFiducials();
    this.#log = options.logger ?? silentLogger;
    this.#socket = io(`${options.url}${TABLE_NAMESPACE}`, {
      autoConnect: false,
      forceNew: true,
      transports: ['websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 1000,
    });
    this.#socket.on('connect', () => void this.#hello());
    this.#socket.on('disconnect', (reason) => {
      this.#joined = false;
      this.#log.info({ table: this.id, reason }, 'disconnected');
    });
    this.#socket.on('state', (s) => this.#onState(s));
    this.#socket.on('robot:play', (m, ack) => {
      const v = validateOutbound(robotPlaySchema, 'robot:play', m);
      if (v.ok) this.robotPlays.push(v.value);
      else this.#fail(new Error(`the server sent a bad message: ${v.reason}`));
      ack({ ok: v.ok });
    });
    this.#socket.on('hand', (m, ack) => {
      const v = validateOutbound(handSchema, 'hand', m);
      if (v.ok) this.hands.push(v.value);
      else this.#fail(new Error(`the server sent a bad message: ${v.reason}`));
      ack({ ok: v.ok });
    });
    this.#socket.on('prompt', (m) => this.prompts.push(m));
    this.#socket.on('rejected', (m) => this.rejections.push(m));
  }

  /** Connects and says hello; resolves with the server's answer, rejects with HelloRefusedError. */
  start(): Promise<Extract<HelloAck, { ok: true }>> {
    const joined = this.#nextJoin();
    this.#socket.connect();
    return joined.then((ack) => {
      if (!ack.ok) throw new HelloRefusedError(ack.code, ack.reason);
      return ack;
    });
  }

  get state(): TableState | null {
    return this.#state;
  }
  get connected(): boolean {
    return this.#joined;
  }

  /** Resolves with the first state (the current one included) that passes `test`. */
  waitFor(test: (s: TableState) => boolean): Promise<TableState> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#state && test(this.#state)) return Promise.resolve(this.#state);
    return new Promise((resolve, reject) => this.#waiters.push({ test, resolve, reject }));
  }

  /** Resolves when the session is complete, with its final state. */
  finished(): Promise<TableState> {
    return this.waitFor((s) => s.session.complete);
  }

  /** Arms a fault for the next turn of one of this table's bots where it can happen. */
  inject(fault: Fault): Promise<FaultReport> {
    return new Promise((resolve, reject) => {
      this.#armed.push({ fault, resolve, reject });
      this.#pump();
    });
  }

  /** Drops the connection and comes back with the same table id; resolves with the hello answer. */
  async reconnect(): Promise<HelloAck> {
    const joined = this.#nextJoin();
    this.#socket.disconnect();
    this.#socket.connect();
    return joined;
  }

  /** Sends any event as this table would (tests of the server's validation). */
  send(event: 'card:detected' | 'card:removed' | 'game:control', payload: unknown): Promise<EventAck> {
    return (this.#socket.timeout(this.#o.ackTimeoutMs).emitWithAck as (e: string, p: unknown) => Promise<EventAck>)(event, payload);
  }

  /** The next sequence number (continuing above what the server has seen from this table id). */
  nextSeq(): number {
    return ++this.#seq;
  }

  close(): void {
    this.#closed = true;
    this.#socket.disconnect();
    for (const w of this.#joinWaiters.splice(0)) w({ ok: false, code: 'internal', reason: 'the simulated table was closed' });
    const err = new Error('the simulated table was closed');
    for (const w of this.#waiters.splice(0)) w.reject(err);
    for (const a of this.#armed.splice(0)) a.reject(err);
  }

  // ---- connection ------------------------------------------------------------------------------

  #nextJoin(): Promise<HelloAck> {
    return new Promise((resolve) => this.#joinWaiters.push(resolve));
  }

  async #hello(): Promise<void> {
    let ack: HelloAck;
    try {
      ack = await this.#socket.timeout(this.#o.ackTimeoutMs).emitWithAck('hello', {
        protocol: this.#o.protocol,
        token: this.#o.token,
        table: { id: this.id, name: this.#o.name, kind: this.#o.kind },
        seats: [...this.seats],
      });
    } catch {
      ack = { ok: false, code: 'internal', reason: 'no answer to hello in time' };
    }
    if (ack.ok) {
      this.#joined = true;
      this.joins++;
      this.#seq = Math.max(this.#seq, ack.lastSeq);
    } else this.#log.warn({ table: this.id, code: ack.code, reason: ack.reason }, 'hello refused');
    for (const w of this.#joinWaiters.splice(0)) w(ack);
    if (ack.ok) this.#onState(ack.state);
  }

  #onState(raw: unknown): void {
    const v = validateOutbound(tableStateSchema, 'state', raw);
    if (!v.ok) return this.#fail(new Error(`the server sent a bad state: ${v.reason}`));
    const s = v.value;
    this.#state = s;
    const g = s.game;
    if (g && g.status !== 'playing' && !this.results[g.index]) this.results[g.index] = g;
    for (const w of [...this.#waiters]) {
      if (w.test(s)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(s);
      }
    }
    this.#pump();
  }

  #fail(err: Error): void {
    this.#failure ??= err;
    this.#log.error({ table: this.id, err: err.message }, 'simulated table failed');
    for (const w of this.#waiters.splice(0)) w.reject(err);
    for (const a of this.#armed.splice(0)) a.reject(err);
  }

  // ---- playing ---------------------------------------------------------------------------------

  /** Runs the next action the state calls for, one at a time. */
  #pump(): void {
    if (this.#busy || !this.#joined || this.#closed || this.#failure) return;
    const action = this.#nextAction();
    if (!action) return;
    this.#busy = true;
    action()
      .catch((err: unknown) => this.#fail(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        this.#busy = false;
        this.#pump();
      });
  }

  #nextAction(): (() => Promise<void>) | null {
    const s = this.#state;
    if (!s || s.session.complete || s.paused) return null;
    const g = s.game;
    if (!g || g.status !== 'playing') {
      const key = `new:${s.session.played}`;
      if (!this.#o.autoNewGame || this.#done.has(key) || (g && g.index >= s.session.played)) return null;
      this.#done.add(key);
      return async () => {
        const ack = await this.#emit('game:control', { seq: this.nextSeq(), action: 'new-game' });
        if (!ack.ok) throw new Error(`new-game refused: ${ack.reason}`);
      };
    }
    const seat = g.toMove;
    if (!this.#o.autoPlay || seat === null || !this.seats.includes(seat)) return null;
    const key = `play:${g.index}:${g.plays.length}`;
    if (this.#done.has(key)) return null;
    this.#done.add(key);
    return () => this.#turn(g, seat);
  }

  async #turn(g: GameState, seat: Seat): Promise<void> {
    const game = this.#rebuild(g);
    const card = this.#bot(g.index, seat).choose(new SeatView(game, seat));
    const armed = this.#armed[0];
    if (armed) {
      const report = await this.#fault(armed.fault, g, game, seat, card);
      if (report) {
        this.#armed.shift();
        armed.resolve(report);
        return;
      }
    }
    const ack = await this.#play(seat, card);
    if (!ack.ok) throw new Error(`seat ${seat}'s ${formatCard(card)} was refused: ${ack.reason}`);
  }

  /** The fault's events around this turn, or null when it cannot happen at this turn (it stays armed). */
  async #fault(fault: Fault, g: GameState, game: Game, seat: Seat, card: Card): Promise<FaultReport | null> {
    const report = (acks: EventAck[], hello?: HelloAck): FaultReport => ({ fault, game: g.index, trick: g.trick, seat, acks, ...(hello ? { hello } : {}) });
    const leading = g.table.length === 0;
    switch (fault) {
      case 'unknown-fiducial': {
        let id = UNKNOWN_FIDUCIAL_BASE;
        while (this.#fiducials.cardOf(id) !== undefined) id++;
        const bad = await this.#emit('card:detected', { seq: this.nextSeq(), zone: { area: 'play', seat }, fiducial: id });
        return report([bad, await this.#mustPlay(seat, card)]);
      }
      case 'out-of-turn': {
        const other = this.seats.find((s) => s !== seat && (g.hands.find((h) => h.seat === s)?.cards.length ?? 0) > 0);
        if (other === undefined) return null;
        const wrong = parseCard(g.hands.find((h) => h.seat === other)!.cards[0]);
        const bad = await this.#play(other, wrong);
        return report([bad, await this.#mustPlay(seat, card)]);
      }
      case 'already-played': {
        const earlier = g.plays.slice(0, g.plays.length - g.table.length).find((p) => p.seat === seat);
        if (!earlier) return null;
        const bad = await this.#play(seat, parseCard(earlier.card));
        return report([bad, await this.#mustPlay(seat, card)]);
      }
      case 'renounce': {
        const led = g.table[0] ? suitOf(parseCard(g.table[0].card)) : -1;
        const hand = game.hand(seat);
        if (led === -1 || !hand.some((c) => suitOf(c) === led)) return null;
        const off = hand.find((c) => suitOf(c) !== led);
        if (off === undefined) return null;
        return report([await this.#play(seat, off)]);
      }
      // The rest follow a play; leading keeps the trick open after it (only the robot may add a card).
      case 'same-card-twice': {
        if (!leading) return null;
        const first = await this.#mustPlay(seat, card);
        return report([first, await this.#play(seat, card)]);
      }
      case 'lift-and-replace': {
        if (!leading) return null;
        const first = await this.#mustPlay(seat, card);
        const lifted = await this.#emit('card:removed', this.#cardMessage(seat, card));
        return report([first, lifted, await this.#play(seat, card)]);
      }
      case 'replay-seq': {
        if (!leading) return null;
        const msg = this.#cardMessage(seat, card);
        const first = await this.#emit('card:detected', msg);
        if (!first.ok) throw new Error(`seat ${seat}'s ${formatCard(card)} was refused: ${first.reason}`);
        return report([first, await this.#emit('card:detected', msg)]);
      }
      case 'disconnect': {
        if (!leading) return null;
        const msg = this.#cardMessage(seat, card);
        const first = await this.#emit('card:detected', msg);
        if (!first.ok) throw new Error(`seat ${seat}'s ${formatCard(card)} was refused: ${first.reason}`);
        // A table that lost its connection cannot know whether its last event arrived: it sends it again.
        const hello = await this.reconnect();
        return report([first, await this.#emit('card:detected', msg)], hello);
      }
    }
  }

  #cardMessage(seat: Seat, card: Card): CardDetectedMessage {
    const ref = this.#o.byCard ? { card: formatCard(card) } : { fiducial: this.#fiducials.idOf(card) };
    return { seq: this.nextSeq(), zone: { area: 'play', seat }, ...ref };
  }

  #play(seat: Seat, card: Card): Promise<EventAck> {
    return this.#emit('card:detected', this.#cardMessage(seat, card));
  }

  async #mustPlay(seat: Seat, card: Card): Promise<EventAck> {
    const ack = await this.#play(seat, card);
    if (!ack.ok) throw new Error(`seat ${seat}'s ${formatCard(card)} was refused: ${ack.reason}`);
    return ack;
  }

  #emit(event: 'card:detected' | 'card:removed', msg: CardDetectedMessage): Promise<EventAck>;
  #emit(event: 'game:control', msg: GameControlMessage): Promise<EventAck>;
  async #emit(event: 'card:detected' | 'card:removed' | 'game:control', msg: CardDetectedMessage | GameControlMessage): Promise<EventAck> {
    // As the protocol asks of a table: an event without an answer is sent again, with the same seq,
    // once the table is back; the runtime answers a repeat from its ledger and applies it once.
    for (;;) {
      if (this.#closed) throw new Error(`${event}: the simulated table was closed`);
      if (!this.#joined) {
        await this.#nextJoin();
        continue;
      }
      try {
        const ack = await this.send(event, msg);
        if (ack.ok || ack.code !== 'no-hello') return ack;
      } catch {
        this.#log.warn({ table: this.id, event, seq: msg.seq }, 'no answer in time; sending again');
      }
    }
  }

  /**
   * The game as the deal and the public plays make it. The table knows its three seats' hands, so the
   * robot's hand is the rest of the deck; the bots still see only their own seat (SeatView).
   */
  #rebuild(g: GameState): Game {
    const hands: Card[][] = [[], [], [], []];
    for (const h of g.hands) hands[h.seat] = h.cards.map(parseCard);
    for (const p of g.plays) if (this.seats.includes(p.seat)) hands[p.seat]!.push(parseCard(p.card));
    const known = new Set(hands.flat());
    const missing = SEATS.find((s) => !this.seats.includes(s))!;
    hands[missing] = DECK.filter((c) => !known.has(c));
    const game = new Game({ dealer: g.dealer, trumpCard: parseCard(g.trumpCard), hands });
    for (const p of g.plays) game.play(parseCard(p.card), p.seat);
    return game;
  }

  #bot(index: number, seat: Seat): Player {
    const key = `${index}:${seat}`;
    let bot = this.#bots.get(key);
    if (!bot) {
      const options = { seat, seed: deriveSeed(this.#o.seed, index, seat) };
      const kind = this.#o.bots;
      bot = typeof kind === 'function' ? kind(options) : kind === 'random' ? new RandomPlayer(options) : new RulePlayer(options);
      this.#bots.set(key, bot);
    }
    return bot;
  }
}

// A table made of code: a socket.io client that speaks the table protocol like a touch table, with
// seeded bots in the human seats it hosts (one, two or all three: people at other tables, virtual or
// touch, may hold the rest). It says hello, receives its seats' hands, plays its bots'
// cards in the play area by fiducial id when it is their turn, shows the robot's announced cards, and
// injects the faults of a real table on request. It is driven by the `state` messages alone, so a
// reconnection (a fresh state on hello) is just another state.
// With `physicalDeal` it plays people dealing real cards instead: it shuffles with its seed, asks for
// the game with the dealer and the trump card, reads the robot's ten cards into the robot's hand area,
// plays its bots from the hands it dealt (the runtime knows none of them), and puts the robot's
// announced card on the robot's spot.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Card, Deal, Player, PlayerFactory, Seat, Suit } from '../game/index.js';
import {
  Game,
  RandomPlayer,
  RulePlayer,
  SEATS,
  SeatView,
  createRng,
  deriveSeed,
  formatCard,
  parseCard,
  suitOf,
} from '../game/index.js';
import type { FiducialMap } from './fiducials.js';
import { loadFiducials } from './fiducials.js';
import { handNow, tableDeal } from './table-deal.js';
import type { TableLogger } from './logger.js';
import { silentLogger } from './logger.js';
import type {
  CardDetectedMessage,
  EventAck,
  GameControlMessage,
  GameState,
  HandMessage,
  HelloAck,
  PromptMessage,
  RejectedMessage,
  RobotPlayMessage,
  TableKind,
  TableState,
} from './messages.js';
import { handSchema, robotPlaySchema, tableStateSchema, validateOutbound } from './messages.js';
import type { ClientToServerEvents, ServerToClientEvents } from './socket-events.js';
import {
  PROTOCOL_VERSION,
  SeqNumbers,
  TABLE_NAMESPACE,
  answerCall,
  helloMessage,
  olderState,
  sayHello,
  tableSocketOptions,
} from './table-client.js';

export type BotKind = 'rule' | 'random';

/** The faults of a real table, injected at the simulated table's next suitable turn. */
export const FAULTS = [
  'out-of-turn', // a card for a hosted seat whose turn it is not
  'unknown-fiducial', // a marker the mapping does not know
  'already-played', // a card this seat played in an earlier trick
  'renounce', // a card of another suit while holding the led suit (physical deal: found when the seat later shows the suit)
  'same-card-twice', // the card just played is detected again
  'lift-and-replace', // the card just played is lifted and put back
  'replay-seq', // the event just sent is sent again with the same seq
  'disconnect', // the connection drops mid-trick; the table reconnects and resends its last event
  'robot-card-mismatch', // physical deal: another card is put on the robot's spot first, then the announced one
] as const;
export type Fault = (typeof FAULTS)[number];

export interface FaultReport {
  fault: Fault;
  game: number;
  trick: number;
  seat: Seat;
  /**
   * The answers to the fault's events, in order (for faults after a play, the play's answer first; a
   * renounce in a physical deal: the renounce, then the later card that shows it).
   */
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
  /** The human seats this table's bots play (one to three); default 1, 2 and 3. */
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
  /**
   * Deal real cards (default false): shuffle with the seed, send `new-game` with the dealer and the
   * turned-up card, put the robot's ten cards in its hand area, play the bots from the dealt hands, and
   * put the robot's announced card on its spot. The table hosts the seats it plays; it deals all four.
   */
  physicalDeal?: boolean;
  /** Physical deals: the dealer of game 0 (default 0); the next seat deals each next game. */
  firstDealer?: Seat;
  /** A pause before each bot card (ms), so that people at other tables can follow. Default 0. */
  thinkMs?: number;
  /**
   * The share of cards (0..1) a bot hesitates over, as people do: it then thinks 3 to 5 times as
   * long. Which cards is seeded. Default 0.
   */
  hesitate?: number;
  /**
   * A pause after a game ends before the next is asked for (ms), as people gather the cards and deal:
   * the robot has its moment for the result. Default 0.
   */
  betweenGamesMs?: number;
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
/** A renounce made unseen (physical deal), to be shown at the seat's next turn. */
type Unseen = { armed: Armed; seat: Seat; suit: Suit; game: number; trick: number; ack: EventAck };

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
  /** The highest seq the runtime has answered (what a restarted runtime's lastSeq must not fall below). */
  lastAnswered = 0;

  readonly #o: Required<Omit<SimulatedTableOptions, 'logger' | 'fiducials' | 'bots'>> & {
    bots: BotKind | PlayerFactory;
  };
  readonly #fiducials: FiducialMap;
  readonly #log: TableLogger;
  readonly #socket: ClientSocket;
  readonly #seqs = new SeqNumbers();
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
  readonly #deals = new Map<number, Deal>();
  #unseen: Unseen | null = null;

  constructor(options: SimulatedTableOptions) {
    this.id = options.id ?? 'sim';
    this.seats = [...(options.seats ?? [1, 2, 3])];
    const bad = this.seats.find((s) => !SEATS.includes(s));
    if (bad !== undefined) throw new Error(`a simulated table's seats are 0..3, got ${JSON.stringify(bad)}`);
    if (this.seats.length === 0 || this.seats.length > 3 || new Set(this.seats).size !== this.seats.length) {
      throw new Error(
        `a simulated table hosts one to three distinct seats (the robot has another), got [${this.seats.join(', ')}]`,
      );
    }
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
      thinkMs: options.thinkMs ?? 0,
      hesitate: options.hesitate ?? 0,
      betweenGamesMs: options.betweenGamesMs ?? 0,
      physicalDeal: options.physicalDeal ?? false,
      firstDealer: options.firstDealer ?? 0,
      protocol: options.protocol ?? PROTOCOL_VERSION,
      ackTimeoutMs: options.ackTimeoutMs ?? 10_000,
    };
    this.#fiducials = options.fiducials ?? loadFiducials();
    this.#log = options.logger ?? silentLogger;
    this.#socket = io(
      `${options.url}${TABLE_NAMESPACE}`,
      tableSocketOptions({ autoConnect: false, reconnectionDelay: 100, reconnectionDelayMax: 1000 }),
    );
    this.#socket.on('connect', () => this.#hello());
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
  async send(event: 'card:detected' | 'card:removed' | 'game:control', payload: unknown): Promise<EventAck> {
    const ack = await (
      this.#socket.timeout(this.#o.ackTimeoutMs).emitWithAck as (e: string, p: unknown) => Promise<EventAck>
    )(event, payload);
    // `no-hello` was not the runtime's answer to the event: it never saw it.
    if (typeof ack.seq === 'number' && !(ack.ok === false && ack.code === 'no-hello'))
      this.lastAnswered = Math.max(this.lastAnswered, ack.seq);
    return ack;
  }

  /** The next sequence number (continuing above what the server has seen from this table id). */
  nextSeq(): number {
    return this.#seqs.next();
  }

  close(): void {
    this.#closed = true;
    this.#socket.disconnect();
    for (const w of this.#joinWaiters.splice(0))
      w({ ok: false, code: 'internal', reason: 'the simulated table was closed' });
    const err = new Error('the simulated table was closed');
    for (const w of this.#waiters.splice(0)) w.reject(err);
    for (const a of this.#armed.splice(0)) a.reject(err);
    this.#unseen?.armed.reject(err);
  }

  // ---- connection ------------------------------------------------------------------------------

  #nextJoin(): Promise<HelloAck> {
    return new Promise((resolve) => this.#joinWaiters.push(resolve));
  }

  #hello(): void {
    const hello = helloMessage({
      protocol: this.#o.protocol,
      token: this.#o.token,
      table: { id: this.id, name: this.#o.name, kind: this.#o.kind },
      seats: this.seats,
    });
    sayHello(this.#socket, hello, this.#o.ackTimeoutMs, (answer: HelloAck | null) => {
      const ack: HelloAck =
        answer === null ? { ok: false, code: 'internal', reason: 'no answer to hello in time' } : answer;
      if (ack.ok) {
        this.#joined = true;
        this.joins++;
        this.#seqs.continueAbove(ack.lastSeq);
      } else this.#log.warn({ table: this.id, code: ack.code, reason: ack.reason }, 'hello refused');
      for (const w of this.#joinWaiters.splice(0)) w(ack);
      if (ack.ok) this.#onState(ack.state);
    });
  }

  #onState(raw: unknown): void {
    const v = validateOutbound(tableStateSchema, 'state', raw);
    if (!v.ok) return this.#fail(new Error(`the server sent a bad state: ${v.reason}`));
    const s = v.value;
    // As the protocol asks: an older state never replaces a newer one (the hello's answer may be read late).
    if (olderState(this.#state, s)) return;
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
    // After close() the table's own unfinished business is not a failure.
    if (this.#closed) return;
    this.#failure ??= err;
    this.#log.error({ table: this.id, err: err.message }, 'simulated table failed');
    for (const w of this.#waiters.splice(0)) w.reject(err);
    for (const a of this.#armed.splice(0)) a.reject(err);
    this.#unseen?.armed.reject(err);
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
        if (g && this.#o.betweenGamesMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, this.#o.betweenGamesMs));
          if (this.#closed) return;
          // Paused meanwhile: asked again when the state calls for it.
          if (this.#state?.paused) return void this.#done.delete(key);
        }
        const ack = await this.#emit('game:control', {
          seq: this.nextSeq(),
          action: 'new-game',
          ...this.#physicalDealOf(s.session.played),
        });
        // Another table (a person at the virtual table) may have asked first: that game is ours too.
        if (!ack.ok && ack.code !== 'game-in-progress') throw new Error(`new-game refused: ${ack.reason}`);
      };
    }
    const physical = this.#physicalAction(s, g);
    if (physical) return physical;
    const seat = g.toMove;
    if (!this.#o.autoPlay || seat === null || !this.seats.includes(seat)) return null;
    const key = `play:${g.index}:${g.plays.length}`;
    if (this.#done.has(key)) return null;
    this.#done.add(key);
    return () => this.#turn(g, seat, key);
  }

  /** How long a bot thinks over card `plays` of game `game`: its think time, longer when it hesitates. */
  #thinkTime(game: number, plays: number): number {
    const { thinkMs, hesitate } = this.#o;
    if (hesitate <= 0) return thinkMs;
    const rng = createRng(deriveSeed(this.#o.seed, game, plays, 0x4e51));
    return rng.next() < hesitate ? Math.round(thinkMs * (3 + 2 * rng.next())) : thinkMs;
  }

  async #turn(g: GameState, seat: Seat, key: string): Promise<void> {
    if (this.#o.thinkMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.#thinkTime(g.index, g.plays.length)));
      // Paused, or moved on, while thinking: the turn is taken again when the state calls for it.
      const now = this.#state;
      if (this.#closed) return;
      if (!now || now.paused || now.game?.index !== g.index || now.game.plays.length !== g.plays.length)
        return void this.#done.delete(key);
    }
    if (this.#unseen?.seat === seat && this.#unseen.game === g.index) return this.#showRenounce(this.#unseen, g);
    const game = this.#rebuild(g, seat);
    const card = this.#bot(g.index, seat).choose(new SeatView(game, seat));
    const armed = this.#armed[0];
    if (armed) {
      const report = await this.#fault(armed.fault, g, game, seat, card);
      if (report === 'later') return void this.#armed.shift();
      if (report) {
        this.#armed.shift();
        armed.resolve(report);
        return;
      }
    }
    const ack = await this.#play(seat, card);
    // Paused by another table or the operator as the card went out: played again on resume.
    if (!ack.ok && ack.code === 'paused') return void this.#done.delete(key);
    if (!ack.ok) throw new Error(`seat ${seat}'s ${formatCard(card)} was refused: ${ack.reason}`);
  }

  /**
   * The fault's events around this turn, or null when it cannot happen at this turn (it stays armed),
   * or 'later' when it is reported at a later turn (a renounce in a physical deal).
   */
  async #fault(fault: Fault, g: GameState, game: Game, seat: Seat, card: Card): Promise<FaultReport | null | 'later'> {
    const report = (acks: EventAck[], hello?: HelloAck): FaultReport => ({
      fault,
      game: g.index,
      trick: g.trick,
      seat,
      acks,
      ...(hello ? { hello } : {}),
    });
    const leading = g.table.length === 0;
    switch (fault) {
      case 'unknown-fiducial': {
        let id = UNKNOWN_FIDUCIAL_BASE;
        while (this.#fiducials.cardOf(id) !== undefined) id++;
        const bad = await this.#emit('card:detected', {
          seq: this.nextSeq(),
          zone: { area: 'play', seat },
          fiducial: id,
        });
        return report([bad, await this.#mustPlay(seat, card)]);
      }
      case 'out-of-turn': {
        const other = this.seats.find((s) => s !== seat && this.#handNow(g, s).length > 0);
        if (other === undefined) return null;
        const wrong = this.#handNow(g, other)[0]!;
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
        if (g.deal !== 'physical') return report([await this.#play(seat, off)]);
        // Nobody can see it yet: it is shown at this seat's next turn, so there must be one. (A dealer
        // not following trump while the turned-up card is unplayed would be seen at once: not this fault.)
        if (g.trick >= 9 || (seat === g.dealer && led === suitOf(parseCard(g.trumpCard)) && !g.trumpCardPlayed))
          return null;
        const ack = await this.#play(seat, off);
        if (!ack.ok) throw new Error(`seat ${seat}'s renounce ${formatCard(off)} was refused: ${ack.reason}`);
        this.#unseen = { armed: this.#armed[0]!, seat, suit: led, game: g.index, trick: g.trick, ack };
        return 'later';
      }
      case 'robot-card-mismatch':
        return null; // at the robot's card (#placeRobotCard), not at a bot's turn
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

  // ---- physical deals ----------------------------------------------------------------------------

  /** The `deal` of a new-game this table sends: its own shuffle, in physical-deal mode. */
  #physicalDealOf(index: number): Pick<GameControlMessage & { action: 'new-game' }, 'deal'> {
    if (!this.#o.physicalDeal) return {};
    const dealer = ((this.#o.firstDealer + index) & 3) as Seat;
    const deal = tableDeal(this.#o.seed, index, dealer);
    this.#deals.set(index, deal);
    return { deal: { dealer, trump: this.#ref(deal.trumpCard) } };
  }

  /** This table's deal of a physical game, or null when someone else dealt it (its hands are unknown here). */
  #dealOf(g: GameState): Deal | null {
    if (g.deal !== 'physical') return null;
    let deal = this.#deals.get(g.index);
    if (!deal && this.#o.physicalDeal) this.#deals.set(g.index, (deal = tableDeal(this.#o.seed, g.index, g.dealer)));
    return deal && formatCard(deal.trumpCard) === g.trumpCard && deal.dealer === g.dealer ? deal : null;
  }

  /** A seat's cards now: the runtime's word for them, or after a physical deal what this table dealt it. */
  #handNow(g: GameState, seat: Seat): Card[] {
    if (g.deal !== 'physical') return (g.hands.find((h) => h.seat === seat)?.cards ?? []).map(parseCard);
    const deal = this.#dealOf(g);
    return deal ? handNow(deal, seat, g.plays) : [];
  }

  /** What a physical deal calls for now: the robot's cards into its hand area, or its card onto its spot. */
  #physicalAction(s: TableState, g: GameState): (() => Promise<void>) | null {
    if (!this.#o.autoPlay || g.deal !== 'physical' || !this.#dealOf(g)) return null;
    const robot = s.robotSeat;
    if ((g.robotCards ?? 10) < 10) {
      const key = `robot-hand:${g.index}`;
      if (this.#done.has(key)) return null;
      this.#done.add(key);
      return () => this.#dealRobotHand(g, robot, key);
    }
    if (!g.awaiting) return null;
    const key = `place:${g.index}:${g.plays.length}`;
    if (this.#done.has(key)) return null;
    this.#done.add(key);
    return () => this.#placeRobotCard(g, robot, parseCard(g.awaiting!.card), key);
  }

  async #dealRobotHand(g: GameState, robot: Seat, key: string): Promise<void> {
    for (const card of this.#dealOf(g)!.hands[robot]!) {
      const ack = await this.#emit('card:detected', this.#zoneMessage('hand', robot, card));
      if (!ack.ok && ack.code === 'paused') return void this.#done.delete(key);
      if (!ack.ok) throw new Error(`the robot's ${formatCard(card)} was refused in its hand area: ${ack.reason}`);
    }
  }

  /** Someone puts the robot's announced card on its spot (with the armed mismatch, another card first). */
  async #placeRobotCard(g: GameState, robot: Seat, card: Card, key: string): Promise<void> {
    const armed = this.#armed[0];
    // Paused as the card went down: put down again on resume.
    const place = async (): Promise<EventAck | null> => {
      const ack = await this.#emit('card:detected', this.#zoneMessage('play', robot, card));
      if (ack.ok) return ack;
      if (ack.code !== 'paused')
        throw new Error(`the robot's ${formatCard(card)} was refused on its spot: ${ack.reason}`);
      this.#done.delete(key);
      return null;
    };
    if (armed?.fault !== 'robot-card-mismatch') return void (await place());
    const held = handNow(this.#dealOf(g)!, robot, g.plays);
    // The wrong card picked up: another of the robot's cards, or when it has no other, any other card.
    const wrong =
      held.find((c) => c !== card) ?? [...new Set(SEATS.flatMap((s) => this.#handNow(g, s)))].find((c) => c !== card);
    if (wrong === undefined) return void (await place());
    const bad = await this.#emit('card:detected', this.#zoneMessage('play', robot, wrong));
    const good = await place();
    if (!good) return;
    this.#armed.shift();
    armed.resolve({ fault: armed.fault, game: g.index, trick: g.trick, seat: robot, acks: [bad, good] });
  }

  /** The seat that renounced unseen shows the suit it claimed to lack: the renounce is found. */
  async #showRenounce(u: Unseen, g: GameState): Promise<void> {
    this.#unseen = null;
    // It kept a card of the suit when it renounced, and has not played it since.
    const card = this.#handNow(g, u.seat).find((c) => suitOf(c) === u.suit);
    if (card === undefined) return u.armed.reject(new Error(`seat ${u.seat} no longer holds the suit it renounced`));
    const ack = await this.#play(u.seat, card);
    u.armed.resolve({ fault: 'renounce', game: u.game, trick: u.trick, seat: u.seat, acks: [u.ack, ack] });
  }

  #ref(card: Card): { card: string } | { fiducial: number } {
    return this.#o.byCard ? { card: formatCard(card) } : { fiducial: this.#fiducials.idOf(card) };
  }

  #zoneMessage(area: 'hand' | 'play', seat: Seat, card: Card): CardDetectedMessage {
    return { seq: this.nextSeq(), zone: { area, seat }, ...this.#ref(card) };
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
  async #emit(
    event: 'card:detected' | 'card:removed' | 'game:control',
    msg: CardDetectedMessage | GameControlMessage,
  ): Promise<EventAck> {
    // As the protocol asks of a table: an event without an answer is sent again, with the same seq,
    // once the table is back; the runtime answers a repeat from its ledger and applies it once.
    for (;;) {
      if (this.#closed) throw new Error(`${event}: the simulated table was closed`);
      if (!this.#joined) {
        await this.#nextJoin();
        continue;
      }
      let ack: EventAck | null;
      try {
        ack = await this.send(event, msg);
      } catch {
        ack = null;
      }
      const call = answerCall(ack);
      switch (call.kind) {
        case 'answered':
          return call.ack;
        case 'unanswered':
          this.#log.warn({ table: this.id, event, seq: msg.seq }, 'no answer in time; sending again');
          break;
        case 'rate-limited':
          // Nothing was applied: after the wait, the same event again as a new one.
          await new Promise((resolve) => setTimeout(resolve, call.waitMs));
          msg = { ...msg, seq: this.nextSeq() };
          break;
        case 'hello-lost':
          // The runtime never saw it: sent again (after the next hello, if the connection dropped meanwhile).
          break;
      }
    }
  }

  /**
   * The game as `seat` may know it: its own cards (its hand in the state, with those it has played)
   * and, for every other seat, only the cards that seat has played, so that every play replays and no
   * hidden card of another seat is in it. Hand sizes, voids and points come from the plays, as at a
   * live table; the bot sees the game through a SeatView of its own seat only.
   */
  #rebuild(g: GameState, seat: Seat): Game {
    const hands: Card[][] = [[], [], [], []];
    hands[seat] = this.#handNow(g, seat);
    for (const p of g.plays) hands[p.seat]!.push(parseCard(p.card));
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
      bot =
        typeof kind === 'function'
          ? kind(options)
          : kind === 'random'
            ? new RandomPlayer(options)
            : new RulePlayer(options);
      this.#bots.set(key, bot);
    }
    return bot;
  }
}

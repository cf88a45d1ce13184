// The people at a camera table, made of code, for checking a lab's setup without cards: they deal real
// cards (a seeded shuffle), turn the trump card up in the trump area, lay the robot's ten cards in its
// hand area, play their own cards with the rule-based player (put straight on their spot, or slid there
// from their hand area), put the robot's announced card on its spot, and gather each trick. Everything
// they do reaches the runtime only as markers seen by a TuioCamera, through the TUIO adapter. They
// follow the game as a table that only watches (hello with no seats), so they see what a person sees.

import type { Card, Player, Seat } from '../../game/index.js';
import { Game, RulePlayer, SeatView, createRng, deriveSeed, formatCard, parseCard } from '../../game/index.js';
import type { FiducialMap } from '../fiducials.js';
import type { TableLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { GameState, TableState } from '../messages.js';
import { handNow, tableDeal } from '../table-deal.js';
import { dealerDue } from './card-reports.js';
import type { Point, Polygon } from './polygons.js';
import { centroid, contains } from './polygons.js';
import { TableLink } from './table-link.js';
import type { TuioCamera } from './tuio-camera.js';
import type { TableGeometry } from './tuio-config.js';
import { firstDealerFor } from './tuio-config.js';

interface TuioPlayersOptions {
  /** The runtime, which the people watch as a table with no seats. */
  url: string;
  token: string;
  seed: number;
  camera: TuioCamera;
  /** Must be the adapter's, so that the cards land where it looks. */
  geometry: TableGeometry;
  fiducials: FiducialMap;
  /** The adapter's first dealer setting, to turn up the card of the seat that will deal. */
  firstDealer: Seat | 'after-robot';
  /** Stop after this many games (default: when the session is over). */
  games?: number;
  /** A person's pause before each card (ms). Default 500. */
  thinkMs?: number;
  /** The share of people's cards slid from their hand area to their spot rather than put down (0..1). Default 0.3. */
  slides?: number;
  /** How long to wait for the runtime to take a card (ms) before giving up. Default 30000. */
  patienceMs?: number;
  /** How long to wait for the runtime to answer at all (ms). Default: for ever. */
  joinTimeoutMs?: number;
  logger?: TableLogger;
  /** A line per game, for people watching. */
  say?: (line: string) => void;
}

export interface TuioPlayersSummary {
  games: number;
  victories: [number, number];
  points: [number, number][];
  /** People's cards played, of which slid from a hand area. */
  cards: number;
  slid: number;
  robotCards: number;
  tricksGathered: number;
  frames: number;
  dropouts: number;
}

/** How many frames a card takes to slide from a hand area to a spot. */
const SLIDE_FRAMES = 8;

export class TuioPlayers {
  readonly link: TableLink;
  readonly #o: Required<Omit<TuioPlayersOptions, 'logger' | 'say' | 'games' | 'joinTimeoutMs'>> & {
    games: number | null;
    joinTimeoutMs?: number;
  };
  readonly #log: TableLogger;
  readonly #say: (line: string) => void;
  readonly #cam: TuioCamera;
  readonly #bots = new Map<string, Player>();
  /** Cards lying on play spots, by fiducial: whose spot. */
  readonly #onSpots = new Map<number, Seat>();
  #deal: { index: number; dealer: Seat; hands: Card[][] } | null = null;
  /** Games whose end is in the summary. */
  readonly #counted = new Set<number>();
  #closed = false;
  readonly summary: TuioPlayersSummary = {
    games: 0,
    victories: [0, 0],
    points: [],
    cards: 0,
    slid: 0,
    robotCards: 0,
    tricksGathered: 0,
    frames: 0,
    dropouts: 0,
  };

  constructor(options: TuioPlayersOptions) {
    this.#o = {
      url: options.url,
      token: options.token,
      seed: options.seed,
      camera: options.camera,
      geometry: options.geometry,
      fiducials: options.fiducials,
      firstDealer: options.firstDealer,
      games: options.games ?? null,
      thinkMs: options.thinkMs ?? 500,
      slides: options.slides ?? 0.3,
      patienceMs: options.patienceMs ?? 30_000,
      ...(options.joinTimeoutMs === undefined ? {} : { joinTimeoutMs: options.joinTimeoutMs }),
    };
    this.#log = options.logger ?? silentLogger;
    this.#say = options.say ?? (() => {});
    this.#cam = options.camera;
    this.link = new TableLink({
      url: options.url,
      token: options.token,
      id: 'tuio-sim',
      name: 'TUIO simulation (watching)',
      kind: 'simulated',
      seatsFor: () => [],
      logger: this.#log,
    });
  }

  /** Plays until the session is over (or the games asked for are played); resolves with the summary. */
  async run(): Promise<TuioPlayersSummary> {
    this.#cam.start();
    let s = await this.link.start(this.#o.joinTimeoutMs);
    for (;;) {
      if (this.#closed) throw new Error('the simulated people were stopped');
      const g = s.game;
      if (g && g.status !== 'playing' && !this.#counted.has(g.index)) this.#gameOver(g, s);
      if (s.session.complete || (this.#o.games !== null && this.summary.games >= this.#o.games && !this.#playing(s)))
        break;
      const acted = await this.#act(s);
      s = acted ? this.link.state! : await this.#nextState(s);
    }
    await this.#gather(s);
    this.summary.frames = this.#cam.counts.frames;
    this.summary.dropouts = this.#cam.counts.dropouts;
    return this.summary;
  }

  close(): void {
    this.#closed = true;
    this.link.close();
  }

  #playing(s: TableState): boolean {
    return s.game?.status === 'playing';
  }

  #nextState(current: TableState): Promise<TableState> {
    return this.link.waitFor((s) => s !== current);
  }

  /** Waits for a state that passes `test`, or fails after the patience runs out, saying what it waited for. */
  async #until(test: (s: TableState) => boolean, what: string): Promise<TableState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`waited ${this.#o.patienceMs} ms for ${what}`)), this.#o.patienceMs);
    });
    try {
      return await Promise.race([this.link.waitFor(test), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Does the next thing the state calls for; false when there is nothing to do but wait. */
  async #act(s: TableState): Promise<boolean> {
    const g = s.game;
    if (await this.#gather(s)) return true;
    if (!g || g.status !== 'playing') {
      await this.#dealNext(s);
      return true;
    }
    if (g.deal !== 'physical' || !this.#deal || this.#deal.index !== g.index)
      throw new Error(`game ${g.index + 1} was not dealt at this table (deal ${g.deal})`);
    if ((g.robotCards ?? 0) < 10) return false;
    if (g.awaiting) {
      await this.#placeRobotCard(s, g, parseCard(g.awaiting.card));
      return true;
    }
    const seat = g.toMove;
    if (seat === null || seat === s.robotSeat) return false;
    await this.#play(g, seat);
    return true;
  }

  #gameOver(g: GameState, state: TableState): void {
    this.#counted.add(g.index);
    this.summary.games++;
    this.summary.points.push([g.points[0], g.points[1]]);
    this.summary.victories = [state.session.victories[0], state.session.victories[1]];
    this.#say(
      `Game ${g.index + 1} over: points A ${g.points[0]} - B ${g.points[1]}${g.status === 'renounce' ? ' (a renounce)' : ''}; victories A ${state.session.victories[0]} - B ${state.session.victories[1]}.`,
    );
  }

  // ---- dealing ---------------------------------------------------------------------------------

  async #dealNext(s: TableState): Promise<void> {
    const index = s.session.played;
    const robot = s.robotSeat;
    const predicted = dealerDue(s, firstDealerFor(this.#o.firstDealer, robot));
    const deal = tableDeal(this.#o.seed, index, predicted);
    const trump = this.#o.fiducials.idOf(deal.trumpCard);
    const slots = handSlots(this.#o.geometry.seats[robot].hand, 10);
    const slotOf = new Map(deal.hands[robot]!.map((c, i) => [this.#o.fiducials.idOf(c), slots[i]!]));
    const layRobotCards = (cards: readonly Card[]): void => {
      for (const card of cards) {
        const id = this.#o.fiducials.idOf(card);
        if (id !== trump && !this.#cam.where(id))
          this.#cam.place(id, slotOf.get(id) ?? centroid(this.#o.geometry.seats[robot].hand));
      }
    };
    if (s.game) await this.#pause(this.#o.thinkMs * 2);
    // Every other game people lay the robot's cards before the trump card is shown, as a dealer may.
    const early = index % 2 === 1;
    if (early) layRobotCards(deal.hands[robot]!);
    this.#cam.place(trump, centroid(this.#o.geometry.trump));
    const started = await this.#until(
      (st) => st.game?.index === index && st.game.status === 'playing',
      `game ${index + 1} to start from the trump card ${formatCard(deal.trumpCard)}`,
    );
    const g = started.game!;
    const hands = deal.hands.map((h) => [...h]);
    if (g.dealer !== predicted) {
      // Another dealer than foreseen (the runtime's state said otherwise): the turned-up card goes to them.
      const from = hands[predicted]!;
      const to = hands[g.dealer]!;
      const given = to.pop()!;
      from.splice(from.indexOf(deal.trumpCard), 1, given);
      to.push(deal.trumpCard);
      // A card laid early that is no longer the robot's goes back.
      for (const id of slotOf.keys())
        if (!hands[robot]!.some((c) => this.#o.fiducials.idOf(c) === id)) this.#cam.lift(id);
    }
    this.#deal = { index, dealer: g.dealer, hands };
    this.#say(`Game ${index + 1}: seat ${g.dealer} deals and turns up ${g.trumpCard}.`);
    // The dealer takes the turned-up card into their hand; when the robot dealt, into the robot's hand area.
    if (g.dealer === robot) {
      await this.#cam.slide(trump, slotOf.get(trump) ?? slots[9]!, SLIDE_FRAMES);
      // When the robot dealt, its tenth card must be the turned-up one: it is read before the rest.
      if (!early)
        await this.#until(
          (st) => st.game?.index === index && (st.game.robotCards ?? 0) >= 1,
          `the turned-up ${g.trumpCard} to be read in the robot's hand area`,
        );
    } else this.#cam.lift(trump);
    layRobotCards(hands[robot]!);
    await this.#until(
      (st) => st.game?.index === index && (st.game.robotCards ?? 0) >= 10,
      `the robot's ten cards to be read from its hand area (game ${index + 1})`,
    );
  }

  // ---- playing ---------------------------------------------------------------------------------

  async #placeRobotCard(s: TableState, g: GameState, card: Card): Promise<void> {
    const id = this.#o.fiducials.idOf(card);
    await this.#pause(this.#o.thinkMs / 2);
    // Someone slides it from the robot's hand area onto its spot.
    const spot = centroid(this.#o.geometry.seats[s.robotSeat].play);
    if (this.#cam.where(id)) await this.#cam.slide(id, spot, SLIDE_FRAMES);
    else this.#cam.place(id, spot);
    this.#onSpots.set(id, s.robotSeat);
    this.summary.robotCards++;
    await this.#played(g, card);
  }

  async #play(g: GameState, seat: Seat): Promise<void> {
    await this.#pause(this.#o.thinkMs);
    const deal = this.#deal!;
    const game = this.#rebuild(g, seat, deal.hands);
    const card = this.#bot(g.index, seat).choose(new SeatView(game, seat));
    const id = this.#o.fiducials.idOf(card);
    const zones = this.#o.geometry.seats[seat];
    const rng = createRng(deriveSeed(this.#o.seed, g.index, g.plays.length, 0x511de));
    if (rng.next() < this.#o.slides) {
      this.#cam.place(id, centroid(zones.hand));
      await this.#cam.frames(4);
      await this.#cam.slide(id, centroid(zones.play), SLIDE_FRAMES);
      this.summary.slid++;
    } else this.#cam.place(id, centroid(zones.play));
    this.#onSpots.set(id, seat);
    this.summary.cards++;
    await this.#played(g, card);
  }

  #played(g: GameState, card: Card): Promise<TableState> {
    const name = formatCard(card);
    return this.#until(
      (s) => s.game?.index === g.index && s.game.plays.some((p) => p.card === name),
      `${name} to be played in game ${g.index + 1}`,
    );
  }

  /** Lifts the cards of finished tricks off the spots; true when there were any. */
  async #gather(s: TableState): Promise<boolean> {
    const current = new Set((s.game?.status === 'playing' ? s.game.table : []).map((p) => p.card));
    const done = [...this.#onSpots.keys()].filter((id) => !current.has(formatCard(this.#o.fiducials.cardOf(id)!)));
    if (done.length === 0) return false;
    // A moment to see the trick, then it is gathered.
    await this.#pause(this.#o.thinkMs);
    for (const id of done) {
      this.#cam.lift(id);
      this.#onSpots.delete(id);
    }
    this.summary.tricksGathered++;
    await this.#cam.frames(3);
    return true;
  }

  #pause(ms: number): Promise<void> {
    return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
  }

  /** The game as `seat` knows it: its own cards and the cards played (as the simulated table does). */
  #rebuild(g: GameState, seat: Seat, hands: readonly Card[][]): Game {
    const known: Card[][] = [[], [], [], []];
    known[seat] = handNow(
      { dealer: g.dealer, trumpCard: parseCard(g.trumpCard), hands: hands as Card[][] },
      seat,
      g.plays,
    );
    for (const p of g.plays) known[p.seat]!.push(parseCard(p.card));
    const game = new Game({ dealer: g.dealer, trumpCard: parseCard(g.trumpCard), hands: known });
    for (const p of g.plays) game.play(parseCard(p.card), p.seat);
    return game;
  }

  #bot(index: number, seat: Seat): Player {
    const key = `${index}:${seat}`;
    let bot = this.#bots.get(key);
    if (!bot) this.#bots.set(key, (bot = new RulePlayer({ seat, seed: deriveSeed(this.#o.seed, index, seat) })));
    return bot;
  }
}

/** `n` places for cards spread along a hand area's longest side, each inside it. */
export function handSlots(area: Polygon, n: number): Point[] {
  const c = centroid(area);
  let best: [Point, Point] = [area[0]!, area[1]!];
  for (let i = 0; i < area.length; i++) {
    const a = area[i]!;
    const b = area[(i + 1) % area.length]!;
    if (Math.hypot(b[0] - a[0], b[1] - a[1]) > Math.hypot(best[1][0] - best[0][0], best[1][1] - best[0][1]))
      best = [a, b];
  }
  const dx = best[1][0] - best[0][0];
  const dy = best[1][1] - best[0][1];
  return Array.from({ length: n }, (_, i) => {
    const t = n === 1 ? 0 : (i / (n - 1) - 0.5) * 0.7;
    const p: Point = [c[0] + dx * t, c[1] + dy * t];
    return contains(area, p) ? p : c;
  });
}

// The TUIO table adapter: a camera table (reacTIVision or any TUIO 1.1 / 2.0 tracker) as a `touch`
// table of the protocol. TUIO frames over UDP -> the markers on the table (MarkerBoard) -> cards placed
// in and lifted from zones, flicker and slides absorbed (CardPlacements) -> protocol events given the
// session's state (cardReport) -> the runtime, through a TableLink that hosts every seat but the robot's.

import type { Seat } from '../../game/index.js';
import { formatCard } from '../../game/index.js';
import type { FiducialMap } from '../fiducials.js';
import { loadFiducials } from '../fiducials.js';
import type { TableLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { EventAck, TableState } from '../messages.js';
import { cardReport } from './card-reports.js';
import { MarkerBoard } from './marker-board.js';
import type { PlacementEvent } from './placements.js';
import { CardPlacements, zoneAt, zoneName } from './placements.js';
import type { LinkEvent } from './table-link.js';
import { TableLink } from './table-link.js';
import type { TuioSettings } from './tuio-config.js';
import { firstDealerFor } from './tuio-config.js';
import { TuioListener } from './tuio-listener.js';
import type { TuioFrame } from './tuio-packets.js';

interface TuioTableOptions {
  /** The runtime's base URL, e.g. `http://127.0.0.1:7410`. */
  url: string;
  token: string;
  settings: TuioSettings;
  /** Override the settings' UDP address (0: a free port). */
  host?: string;
  port?: number;
  /** Default: the settings' fiducials file. */
  fiducials?: FiducialMap;
  /** Stable across reconnections. Default `tuio`. */
  id?: string;
  name?: string;
  /** When known (the node that runs the adapter knows it), the first hello already names the seats. */
  robotSeat?: Seat;
  /** Milliseconds, for flicker and settling. Default Date.now. */
  now?: () => number;
  logger?: TableLogger;
  /** Lines for the operator: markers the mapping does not know, refused cards, what people must do. */
  notify?: (line: string) => void;
}

/** One event sent and its answer (tests and summaries). */
interface SentReport {
  event: LinkEvent;
  ack: EventAck;
}

export class TuioTable {
  readonly link: TableLink;
  readonly listener: TuioListener;
  /** Every event sent, with its answer, in order. */
  readonly sent: SentReport[] = [];
  readonly #o: TuioTableOptions;
  readonly #fiducials: FiducialMap;
  readonly #log: TableLogger;
  readonly #notify: (line: string) => void;
  readonly #now: () => number;
  readonly #board = new MarkerBoard();
  readonly #placements: CardPlacements;
  readonly #unknownSeen = new Set<number>();
  /** Placements before the table has joined: reported once the state is known. */
  readonly #backlog: PlacementEvent[] = [];
  /** The game index a new-game was sent for and not yet answered, so a trump card seen twice asks once. */
  #askedGame: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** The game whose robot hand area was read at its start (session id and index). */
  #handRead: string | null = null;

  constructor(options: TuioTableOptions) {
    this.#o = options;
    const s = options.settings;
    this.#fiducials = options.fiducials ?? loadFiducials(s.fiducialsFile);
    this.#log = options.logger ?? silentLogger;
    this.#notify = options.notify ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#placements = new CardPlacements({ geometry: s.geometry, flickerMs: s.flickerMs, settleMs: s.settleMs });
    this.listener = new TuioListener({
      host: options.host ?? s.host,
      port: options.port ?? s.port,
      onFrame: (f) => this.#frame(f),
      logger: this.#log,
    });
    this.link = new TableLink({
      url: options.url,
      token: options.token,
      id: options.id ?? 'tuio',
      name: options.name ?? 'TUIO camera table',
      kind: 'touch',
      // The people's seats: every seat but the robot's.
      seatsFor: (robot) => ([0, 1, 2, 3] as Seat[]).filter((seat) => seat !== robot),
      ...(options.robotSeat === undefined ? {} : { robotSeat: options.robotSeat }),
      logger: this.#log,
    });
    this.link.on('prompt', (p) => {
      this.#log.info({ kind: p.kind, seat: p.seat, card: p.card }, p.text);
      // Whose turn it is and which trick to gather people see on the table; the rest is for them to act on.
      if (p.kind !== 'turn' && p.kind !== 'gather') this.#notify(p.text);
    });
    this.link.on('robotPlay', (m) =>
      this.#log.info({ card: m.card, fiducial: m.fiducial, seat: m.seat }, 'the robot plays'),
    );
    this.link.on('rejected', (m) => {
      this.#log.warn({ code: m.code, reason: m.reason }, 'the runtime refused');
      this.#notify(`refused (${m.code}): ${m.reason}`);
    });
    this.link.on('state', (st) => {
      this.#readRobotHand(st);
      this.#drainBacklog();
    });
  }

  /** Binds the UDP port (first, so that a port in use is found before anything else), then joins the runtime. */
  async start(): Promise<{ host: string; port: number; state: TableState }> {
    const address = await this.listener.listen();
    const tickMs = Math.max(10, Math.min(this.#o.settings.flickerMs, this.#o.settings.settleMs || Infinity, 100) / 4);
    this.#timer = setInterval(() => this.#placed(this.#placements.tick(this.#now())), tickMs);
    this.#timer.unref();
    let state: TableState;
    try {
      state = await this.link.start();
    } catch (e) {
      await this.close();
      throw e;
    }
    return { ...address, state };
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.link.close();
    await this.listener.close();
  }

  /** The cards lying in zones now (as reported). */
  lying(): ReturnType<CardPlacements['lying']> {
    return this.#placements.lying();
  }

  #frame(frame: TuioFrame): void {
    if (!this.#board.apply(frame)) return;
    const markers = this.#board.present();
    for (const m of markers) {
      if (this.#fiducials.cardOf(m.fiducial) !== undefined || this.#unknownSeen.has(m.fiducial)) continue;
      this.#unknownSeen.add(m.fiducial);
      const zone = zoneAt(this.#o.settings.geometry, [m.x, m.y]);
      const line = `marker ${m.fiducial} at (${m.x.toFixed(3)}, ${m.y.toFixed(3)})${zone ? ` in ${zoneName(zone)}` : ', in no zone,'} is not a card of ${this.#o.settings.fiducialsFile}`;
      this.#log.warn({ fiducial: m.fiducial, x: m.x, y: m.y }, line);
      this.#notify(line);
    }
    this.#placed(this.#placements.observe(markers, this.#now()));
  }

  #placed(events: PlacementEvent[]): void {
    if (events.length === 0) return;
    this.#backlog.push(...events);
    this.#drainBacklog();
  }

  #drainBacklog(): void {
    const state = this.link.state;
    if (!state) return;
    for (const e of this.#backlog.splice(0)) this.#report(e, state);
  }

  /**
   * When a physically dealt game starts, the cards already lying in the robot's hand area (people deal
   * before the trump card is shown) are read, once per game.
   */
  #readRobotHand(state: TableState): void {
    const g = state.game;
    if (!g || g.deal !== 'physical' || g.status !== 'playing' || (g.robotCards ?? 10) >= 10) return;
    const key = `${state.session.id}:${g.index}`;
    if (this.#handRead === key) return;
    this.#handRead = key;
    for (const c of this.#placements.lying()) {
      if (c.zone.area !== 'hand' || c.zone.seat !== state.robotSeat) continue;
      this.#report({ type: 'placed', ...c }, state);
    }
  }

  #name(fiducial: number): string {
    const card = this.#fiducials.cardOf(fiducial);
    return card === undefined ? `marker ${fiducial}` : `${formatCard(card)} (marker ${fiducial})`;
  }

  #report(e: PlacementEvent, state: TableState): void {
    const what = `${this.#name(e.fiducial)} ${e.type === 'placed' ? 'placed in' : 'lifted from'} ${zoneName(e.zone)}`;
    // The runtime refused the marker when it was placed; its lifting is no news.
    if (e.type === 'lifted' && this.#fiducials.cardOf(e.fiducial) === undefined)
      return void this.#log.info({ fiducial: e.fiducial }, `${what}: not reported (not a card)`);
    const report = cardReport(e, state, firstDealerFor(this.#o.settings.firstDealer, state.robotSeat));
    if ('ignore' in report)
      return void this.#log.info(
        { fiducial: e.fiducial, x: e.at[0], y: e.at[1] },
        `${what}: not reported (${report.ignore})`,
      );
    const ev = report.send;
    if (ev.event === 'game:control') {
      if (this.#askedGame === state.session.played)
        return void this.#log.info({ fiducial: e.fiducial }, `${what}: the next game is already asked for`);
      this.#askedGame = state.session.played;
    }
    this.#log.info({ event: ev.event, ...ev.body, x: e.at[0], y: e.at[1] }, what);
    this.link.send(ev).then(
      (ack) => {
        if (ev.event === 'game:control') this.#askedGame = null;
        this.sent.push({ event: ev, ack });
        if (ack.ok) {
          if (ack.note) this.#log.info({ seq: ack.seq, note: ack.note }, `${what}: ${ack.note}`);
          return;
        }
        const line = `${what}: refused (${ack.code}): ${ack.reason}`;
        this.#log.warn({ seq: ack.seq, code: ack.code, fiducial: e.fiducial, x: e.at[0], y: e.at[1] }, line);
        this.#notify(line);
      },
      (err: unknown) => this.#log.warn({ err: err instanceof Error ? err.message : String(err) }, `${what}: not sent`),
    );
  }
}

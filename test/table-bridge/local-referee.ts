// A minimal TableHandler for the bridge's tests: it deals each game from a seed, keeps the Game, plays
// the robot's seat with a rule-based player, and refuses illegal or out-of-turn cards with the engine's
// reasons. It lets the bridge be run and tested end to end without the session machine in robot/; it
// has no clock, no speech and no physical deals.

import type { Card, GameEvent, Player, PlayerFactory, Seat, SessionScore } from '../../game/index.js';
import {
  Game,
  PlayError,
  PlayResult,
  RulePlayer,
  SeatView,
  addGame,
  createRng,
  dealCards,
  dealEvent,
  deriveSeed,
  emptySessionScore,
  eventsOfPlay,
  formatCard,
  nextSeat,
} from '../../game/index.js';
import type {
  CardEvent,
  ControlEvent,
  SessionSnapshot,
  TableHandler,
  TableInfo,
  TableLogger,
  TableOutbox,
  Verdict,
} from '../../table-bridge/index.js';
import { accept, refuse, silentLogger } from '../../table-bridge/index.js';

export interface LocalRefereeOptions {
  /** Every deal and the robot's player derive from it. */
  seed: number;
  /** Games in the session. */
  games: number;
  robotSeat?: Seat;
  /** Dealer of the first game; the next seat deals the next game. Default 0. */
  firstDealer?: Seat;
  sessionId?: string;
  /** The robot's player; default the rule-based player. */
  robotPlayer?: PlayerFactory;
  logger?: TableLogger;
}

interface Current {
  index: number;
  game: Game;
  robot: Player;
}

export class LocalReferee implements TableHandler {
  readonly #seed: number;
  readonly #games: number;
  readonly #robotSeat: Seat;
  readonly #firstDealer: Seat;
  readonly #sessionId: string;
  readonly #robotPlayer: PlayerFactory;
  readonly #log: TableLogger;
  readonly #tables = new Map<string, TableInfo>();
  #version = 0;
  #outbox: TableOutbox | null = null;
  #score: SessionScore = emptySessionScore();
  #current: Current | null = null;
  #paused = false;
  /** Cards of the current trick lifted from the play area and not yet put back. */
  readonly #lifted = new Set<Card>();

  constructor(options: LocalRefereeOptions) {
    this.#seed = options.seed;
    this.#games = options.games;
    this.#robotSeat = options.robotSeat ?? 0;
    this.#firstDealer = options.firstDealer ?? 0;
    this.#sessionId = options.sessionId ?? `local-${options.seed}`;
    this.#robotPlayer = options.robotPlayer ?? ((o) => new RulePlayer(o));
    this.#log = options.logger ?? silentLogger;
  }

  /** Where the referee sends state, plays and prompts (the TableServer). */
  attach(outbox: TableOutbox): this {
    this.#outbox = outbox;
    return this;
  }

  get score(): SessionScore {
    return this.#score;
  }

  // ---- TableHandler ----------------------------------------------------------------------------

  onHello(table: TableInfo): Verdict {
    if (table.seats.includes(this.#robotSeat))
      return refuse('seat-taken', `seat ${this.#robotSeat} is the robot's; the runtime plays it`);
    for (const other of this.#tables.values()) {
      const shared = other.id === table.id ? [] : table.seats.filter((s) => other.seats.includes(s));
      if (shared.length) return refuse('seat-taken', `seat ${shared[0]} is hosted by table ${other.id}`);
    }
    this.#tables.set(table.id, table);
    // Who holds the seats changed: the server sends everyone the state.
    this.#version++;
    return accept();
  }

  onDisconnect(table: TableInfo): void {
    this.#tables.delete(table.id);
    this.#version++;
  }

  onControl(event: ControlEvent): Verdict {
    switch (event.action) {
      case 'pause':
        if (this.#paused) return accept('already paused');
        this.#paused = true;
        this.#out().prompt({ kind: 'info', text: 'The game is paused.' });
        this.#changed();
        return accept();
      case 'resume':
        if (!this.#paused) return accept('not paused');
        this.#paused = false;
        this.#robotTurns();
        this.#changed();
        return accept();
      case 'new-game':
        return this.#newGame(event);
      case 'why':
      case 'review':
        // No robot here to ask: said, not refused (nothing is wrong with the table).
        return accept(`this referee has no robot to answer ${event.action}`);
    }
  }

  onCardDetected(event: CardEvent): Verdict {
    const cur = this.#current;
    if (!cur) return refuse('no-game', 'no game is being played; start one with game:control new-game');
    if (event.zone.area === 'hand') return accept('hand areas are not tracked: this referee deals the cards itself');
    const { game } = cur;
    const { seat } = event.zone;
    const name = formatCard(event.card);
    if (this.#onTable(game, seat) === event.card) {
      // Seen again where it already lies: a second read, or a lifted card put back. Nothing changes.
      this.#lifted.delete(event.card);
      return accept(`${name} is already on seat ${seat}'s spot`);
    }
    if (game.isOver) return refuse('game-over', `the game is over; ${name} cannot be played`);
    if (this.#paused) return refuse('paused', `the game is paused; ${name} was not played`);
    if (seat === this.#robotSeat)
      return refuse('not-your-seat', `seat ${seat} is the robot's; the runtime plays its cards`);
    if (!event.table.seats.includes(seat))
      return refuse('not-your-seat', `table ${event.table.id} does not host seat ${seat}`);

    const trickBefore = game.trick;
    let result: PlayResult;
    try {
      result = game.play(event.card, seat);
    } catch (err) {
      if (err instanceof PlayError) return refuse(err.code, err.message);
      throw err;
    }
    this.#afterPlay(cur, seat, event.card, result, trickBefore);
    this.#robotTurns();
    this.#changed();
    return accept();
  }

  onCardRemoved(event: CardEvent): Verdict {
    const cur = this.#current;
    if (!cur || event.zone.area === 'hand') return accept();
    if (this.#onTable(cur.game, event.zone.seat) !== event.card || cur.game.isOver) return accept();
    // A played card stays played: taking it back is not allowed, so ask for it to be put back.
    this.#lifted.add(event.card);
    this.#out().prompt(
      {
        kind: 'put-back',
        seat: event.zone.seat,
        card: event.card,
        text: `${formatCard(event.card)} was played: put it back.`,
      },
      event.table.id,
    );
    return accept(`${formatCard(event.card)} was played and stays played: put it back`);
  }

  snapshot(): SessionSnapshot {
    const s = this.#score;
    const cur = this.#current;
    return {
      version: this.#version,
      session: {
        id: this.#sessionId,
        games: this.#games,
        played: s.games,
        victories: [s.victories[0], s.victories[1]],
        draws: s.draws,
        complete: s.games >= this.#games,
      },
      robotSeat: this.#robotSeat,
      paused: this.#paused,
      game: cur ? { index: cur.index, deal: 'runtime', game: cur.game, awaiting: null } : null,
    };
  }

  // ---- the game --------------------------------------------------------------------------------

  /** Every change the tables see bumps the state's version. */
  #changed(): void {
    this.#version++;
    this.#out().pushState();
  }

  #out(): TableOutbox {
    if (!this.#outbox) throw new Error('the local referee is not attached to a table server');
    return this.#outbox;
  }

  #newGame(event: Extract<ControlEvent, { action: 'new-game' }>): Verdict {
    if (this.#score.games >= this.#games) return refuse('session-over', `the session of ${this.#games} games is over`);
    if (this.#current && !this.#current.game.isOver)
      return refuse('game-in-progress', `game ${this.#current.index + 1} is still being played`);
    if (event.deal)
      return refuse('unsupported', 'this referee deals the cards itself; a physical deal needs the session machine');
    if (this.#paused) return refuse('paused', 'the session is paused');

    const index = this.#score.games;
    const deal = dealCards(createRng(this.#seed, index), nextSeat(this.#firstDealer, index));
    const game = new Game(deal);
    const robot = this.#robotPlayer({
      seat: this.#robotSeat,
      seed: deriveSeed(this.#seed, index, 1 + this.#robotSeat),
    });
    this.#current = { index, game, robot };
    this.#lifted.clear();
    robot.observe?.(dealEvent(deal, this.#robotSeat));
    this.#log.info({ game: index, dealer: deal.dealer, trump: formatCard(deal.trumpCard) }, 'new game dealt');
    for (const seat of [0, 1, 2, 3] as Seat[]) {
      if (seat !== this.#robotSeat) void this.#out().sendHand(index, seat, deal.hands[seat]!);
    }
    this.#robotTurns();
    this.#changed();
    return accept();
  }

  #afterPlay(cur: Current, seat: Seat, card: Card, result: PlayResult, trickBefore: number): void {
    const events: GameEvent[] = eventsOfPlay(cur.game, seat, card, result, trickBefore);
    for (const e of events) cur.robot.observe?.(e);
    if (result !== PlayResult.Continue) this.#lifted.clear();
    if (!cur.game.isOver) {
      const next = cur.game.toMove;
      if (next !== this.#robotSeat) this.#out().prompt({ kind: 'turn', seat: next, text: `Seat ${next} to play.` });
      return;
    }
    this.#score = addGame(this.#score, cur.game.outcome!);
    const o = cur.game.outcome!;
    const text =
      o.winner === 'draw'
        ? 'The game is a draw.'
        : `Team ${o.winner} wins ${o.victories} ${o.victories === 1 ? 'victory' : 'victories'}.`;
    this.#log.info({ game: cur.index, outcome: o, renounce: cur.game.renounce }, 'game over');
    this.#out().prompt({ kind: 'game-over', text });
    const done = this.#score.games >= this.#games;
    this.#out().prompt(
      done ? { kind: 'session-over', text: 'The session is over.' } : { kind: 'new-game', text: 'Deal the next game.' },
    );
  }

  /** Plays the robot's seat while it is its turn (it may win a trick and lead the next). */
  #robotTurns(): void {
    const cur = this.#current;
    while (cur && !cur.game.isOver && !this.#paused && cur.game.toMove === this.#robotSeat) {
      const card = cur.robot.choose(new SeatView(cur.game, this.#robotSeat));
      const trick = cur.game.trick;
      const result = cur.game.play(card, this.#robotSeat);
      void this.#out().announceRobotPlay({ game: cur.index, trick, seat: this.#robotSeat, card });
      this.#afterPlay(cur, this.#robotSeat, card, result, trick);
    }
  }

  /** The card `seat` has on the table in the current trick, if any. */
  #onTable(game: Game, seat: Seat): Card | undefined {
    const i = (seat - game.leader) & 3;
    return i < game.cardsInTrick ? game.trickCard(i) : undefined;
  }
}

// The session machine behind the table bridge: SessionRuntime implements TableHandler, so a
// TableServer drives it exactly as it drives the tests' LocalReferee. Each table event is published on the
// bus (tableEvents), sent to the machine, and answered with the verdict the machine kept. The machine's
// actions are pure: what they emit (SessionEffect) is carried out here, in order, once each step is
// taken (bus, tables, the robot's player). After every change the tables get their state and the bus
// the latched gameState. Code outside reads the session through `view()` and `gameState()`.

import type { Actor, SnapshotFrom } from 'xstate';
import { createActor, fromPromise } from 'xstate';
import { systemClock } from '../../../behaviours/index.js';
import type { Clock, Decision, Game, Seat, SeatView, SessionScore } from '../../../game/index.js';
import { RulePlayer } from '../../../game/index.js';
import type {
  CardEvent,
  ControlEvent,
  RefusedAgain,
  SessionSnapshot,
  TableHandler,
  TableInfo,
  TableOutbox,
  Verdict,
} from '../../../table-bridge/index.js';
import { accept, isTableQuestion, refuse } from '../../../table-bridge/index.js';
import type { Bus, GameStateMessage } from '../../bus/index.js';
import type { SessionStatus } from './bus-messages.js';
import {
  cardTableEvent,
  controlTableEvent,
  disconnectTableEvent,
  gameStateMessage,
  helloTableEvent,
  refusedAgainTableEvent,
} from './bus-messages.js';
import type { RobotPlayer } from './robot-player.js';
import { syncRobotPlayer } from './robot-player.js';
import type { CurrentGame, SessionConfig, SessionEffect, SessionEvent } from './session-machine.js';
import { HAND_SIZE, collectingRobotHand } from './judge.js';
import { sessionMachine } from './session-machine.js';
import { loadSessionSettings } from './session-settings.js';

export interface SessionRuntimeOptions {
  seed: number;
  games: number;
  bus: Bus;
  robotSeat?: Seat;
  /** Default 0. */
  firstDealer?: Seat;
  sessionId?: string;
  /** Default: the rule-based player on this thread. The live robot uses poolRobotPlayer. */
  player?: RobotPlayer;
  /** Default systemClock. Tests pass xstate's SimulatedClock, which fits Clock. */
  clock?: Clock;
  /** Minimum time of an unforced robot play (ms). Default: config/session.yaml. */
  minThinkMs?: number;
  /** Grace time to put back a lifted played card (ms). Default: config/session.yaml. */
  liftGraceMs?: number;
  warn?: (detail: Record<string, unknown>, message: string) => void;
  /**
   * Hears each table that joins, once its hello is on the bus and before the session takes it: a
   * direct call, so that a replay (which feeds the hellos in) hears them at the same place.
   */
  joined?: (table: TableInfo) => void;
}

type SessionActor = Actor<typeof sessionMachine>;
type SessionMachineSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The session as code outside it reads it (the node, advice, restore): no machine internals. */
export interface SessionView {
  /** Bumped by every change the tables and the bus must see. */
  readonly version: number;
  readonly status: SessionStatus;
  readonly score: SessionScore;
  readonly paused: boolean;
  /**
   * The game in play, or the last one. `game` is the engine's live object, played by the machine's
   * actions only: read it (a SeatView over it...), never play on it.
   */
  readonly current: { readonly index: number; readonly game: Game; readonly physical: boolean } | null;
}

export class SessionRuntime implements TableHandler {
  readonly config: SessionConfig;
  readonly #bus: Bus;
  readonly #clock: Clock;
  readonly #player: RobotPlayer;
  readonly #warn: NonNullable<SessionRuntimeOptions['warn']>;
  readonly #joined: SessionRuntimeOptions['joined'];
  #actor: SessionActor | null = null;
  #published = -1;

  constructor(options: SessionRuntimeOptions) {
    const robotSeat = options.robotSeat ?? 0;
    this.config = {
      sessionId: options.sessionId ?? `session-${options.seed}`,
      seed: options.seed,
      games: options.games,
      robotSeat,
      firstDealer: options.firstDealer ?? 0,
      minThinkMs: options.minThinkMs ?? loadSessionSettings().minThinkMs,
      liftGraceMs: options.liftGraceMs ?? loadSessionSettings().liftGraceMs,
    };
    this.#bus = options.bus;
    this.#clock = options.clock ?? systemClock;
    this.#player = options.player ?? syncRobotPlayer((o) => new RulePlayer(o), { seat: robotSeat, seed: options.seed });
    this.#warn = options.warn ?? (() => {});
    this.#joined = options.joined;
  }

  /** Starts the machine, sending through `outbox` (the TableServer). */
  attach(outbox: TableOutbox): this {
    if (this.#actor) throw new Error('the session runtime is already attached');
    const player = this.#player;
    const machine = sessionMachine.provide({
      actors: { decide: fromPromise<Decision, { view: SeatView }>(({ input }) => player.decide(input.view)) },
    });
    const actor = createActor(machine, { input: { config: this.config, clock: this.#clock }, clock: this.#clock });
    this.#actor = actor;
    // Before the observers: a step's effects are carried out before its state is pushed (as they always were).
    actor.on('*', (effect) => this.#carryOut(effect, outbox));
    actor.subscribe({
      next: (snap) => this.#afterChange(snap, outbox),
      error: (err) => this.#warn({ error: String(err) }, 'the session machine failed'),
    });
    actor.start();
    this.#afterChange(actor.getSnapshot(), outbox, true);
    return this;
  }

  /** The running machine (for tests: the states it waits in). Code outside reads `view()`. */
  get actor(): SessionActor {
    if (!this.#actor) throw new Error('the session runtime is not attached to a table server');
    return this.#actor;
  }

  get score(): SessionScore {
    return this.actor.getSnapshot().context.score;
  }

  /** What the session is now: see SessionView. */
  view(): SessionView {
    const snap = this.actor.getSnapshot();
    const c = snap.context;
    return {
      version: c.version,
      status: statusOf(snap),
      score: c.score,
      paused: c.paused,
      current: c.current && { index: c.current.index, game: c.current.game, physical: c.current.physical !== null },
    };
  }

  /** The latched game state as the bus has it after the last change. */
  gameState(): GameStateMessage {
    return gameStateOf(this.actor.getSnapshot());
  }

  get status(): SessionStatus {
    return statusOf(this.actor.getSnapshot());
  }

  stop(): void {
    this.#actor?.stop();
  }

  // ---- TableHandler ----------------------------------------------------------------------------

  onHello(table: TableInfo): Verdict {
    // On the bus (and so in the recording) like every table event: a replay must know which seats each table hosts.
    this.#bus.publish('tableEvents', helloTableEvent(table));
    this.#joined?.(table);
    return this.#send({ type: 'hello', table });
  }

  onDisconnect(table: TableInfo, reason: string): void {
    this.#bus.publish('tableEvents', disconnectTableEvent(table, reason));
    this.#send({ type: 'disconnect', table, reason });
  }

  onCardDetected(event: CardEvent): Verdict {
    this.#bus.publish('tableEvents', cardTableEvent('card_detected', event));
    return this.#send({ type: 'card.detected', event });
  }

  onCardRemoved(event: CardEvent): Verdict {
    this.#bus.publish('tableEvents', cardTableEvent('card_removed', event));
    return this.#send({ type: 'card.removed', event });
  }

  onControl(event: ControlEvent): Verdict {
    this.#bus.publish('tableEvents', controlTableEvent(event));
    if (event.action === 'new-game') return this.#send({ type: 'control.new-game', event });
    // A question for the robot, not the session: on the bus (the node answers it), nothing changes.
    if (isTableQuestion(event.action)) return accept();
    return this.#send({ type: event.action === 'pause' ? 'control.pause' : 'control.resume', event });
  }

  /** On record only: the copies changed nothing, and the machine never hears of them. */
  onRefusedAgain(again: RefusedAgain): void {
    this.#bus.publish('tableEvents', refusedAgainTableEvent(again));
  }

  snapshot(): SessionSnapshot {
    const { context: c } = this.actor.getSnapshot();
    const s = c.score;
    return {
      version: c.version,
      session: {
        id: c.config.sessionId,
        games: c.config.games,
        played: s.games,
        victories: [s.victories[0], s.victories[1]],
        draws: s.draws,
        complete: s.games >= c.config.games,
      },
      robotSeat: c.config.robotSeat,
      paused: c.paused,
      game: c.current ? gameSnapshot(c.current, c.config.robotSeat) : null,
    };
  }

  // ---- edges ---------------------------------------------------------------------------------

  #send(event: SessionEvent): Verdict {
    const actor = this.actor;
    if (actor.getSnapshot().status !== 'active') return refuse('internal', 'the session machine is not running');
    try {
      actor.send(event);
    } catch (err) {
      this.#warn({ error: String(err), event: event.type }, 'the session machine failed on an event');
      return refuse('internal', `the runtime failed on ${event.type}; nothing changed`);
    }
    const snap = actor.getSnapshot();
    if (snap.status !== 'active') return refuse('internal', `the session machine stopped: ${String(snap.error)}`);
    return snap.context.verdict;
  }

  /** An effect the machine emitted, carried out. */
  #carryOut(effect: SessionEffect, outbox: TableOutbox): void {
    try {
      switch (effect.type) {
        case 'publish':
          // One call per topic: the bus's publish is typed by its key.
          if (effect.key === 'tableOutput') this.#bus.publish(effect.key, effect.message);
          else if (effect.key === 'gameEvents') this.#bus.publish(effect.key, effect.message);
          else this.#bus.publish(effect.key, effect.message);
          return;
        case 'prompt':
          outbox.prompt(effect.prompt, effect.to);
          return;
        case 'reject':
          outbox.reject(effect.rejection, effect.to);
          return;
        case 'sendHand':
          void outbox.sendHand(effect.game, effect.seat, effect.cards);
          return;
        case 'announceRobotPlay':
          void outbox.announceRobotPlay(effect.play).then((deliveries) => {
            const missed = deliveries.filter((x) => x.result !== 'ok');
            if (missed.length) this.#warn({ missed }, "some tables did not confirm the robot's card");
          });
          return;
        case 'playerNewGame':
          this.#player.newGame?.(effect.game);
          return;
        case 'playerObserve':
          this.#player.observe?.(effect.event);
          return;
        case 'warn':
          this.#warn(effect.detail, effect.message);
          return;
      }
    } catch (err) {
      // The step is taken: an effect that fails is reported, and the session goes on.
      this.#warn({ error: String(err), effect: effect.type }, 'a session effect failed');
    }
  }

  #afterChange(snap: SessionMachineSnapshot, outbox: TableOutbox, force = false): void {
    const c = snap.context;
    if (!force && c.version === this.#published) return;
    this.#published = c.version;
    outbox.pushState();
    this.#bus.publish('gameState', gameStateOf(snap));
  }
}

/** The latched game state on the bus, from the machine's snapshot. */
function gameStateOf(snap: SessionMachineSnapshot): GameStateMessage {
  const c = snap.context;
  return gameStateMessage({
    sessionId: c.config.sessionId,
    games: c.config.games,
    score: c.score,
    status: statusOf(snap),
    robotSeat: c.config.robotSeat,
    index: c.current?.index ?? null,
    game: c.current?.game ?? null,
    // While a physical deal's robot hand is being read, the cards read so far (the engine has none yet).
    ...(collectingRobotHand(c.current) ? { robotHand: c.current!.physical!.robotHand } : {}),
  });
}

/** The game as the tables may be shown it (table-state.ts projects it per table). */
function gameSnapshot(cur: CurrentGame, robotSeat: Seat): NonNullable<SessionSnapshot['game']> {
  const p = cur.physical;
  if (!p) return { index: cur.index, deal: 'runtime', game: cur.game, awaiting: null };
  return {
    index: cur.index,
    deal: 'physical',
    game: cur.game,
    awaiting: p.awaiting === null ? null : { seat: robotSeat, card: p.awaiting },
    robotCards: Math.min(p.robotHand.length, HAND_SIZE),
    spots: p.spots,
  };
}

function statusOf(snap: SessionMachineSnapshot): SessionStatus {
  if (snap.matches({ control: 'paused' })) return 'paused';
  if (snap.matches({ flow: 'sessionOver' })) return 'session_over';
  if (snap.matches({ flow: { game: 'dealing' } }) || snap.matches({ flow: { game: 'collecting' } })) return 'dealing';
  if (snap.matches({ flow: 'game' })) return 'playing';
  return snap.context.current ? 'game_over' : 'waiting';
}

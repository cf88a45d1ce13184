// The session as an xstate machine. Two regions: `flow` (waiting for a game, the game's dealing, trump,
// turns, trick and game ends, session over) and `control` (running or paused). Table events arrive as
// machine events; each is judged by a pure function (judge.ts) and the verdict is kept in the context
// for the table's acknowledgement.
//
// Effects at the edge: the actions only compute the next context and emit what the world must be told
// or asked (SessionEffect: bus messages, table prompts, hands, the robot's player), as data built when
// the action runs; the runtime (SessionRuntime) carries them out, in the order emitted, once the step is
// taken. Timers are the actor's delayed events, on its clock. Two impurities are kept on purpose: the
// Game is the engine's mutable object, played only by actions (never by effects, which carry copies),
// and the robot's think time reads the clock in the context (a time source, not an effect).
//
// Two kinds of deal. The runtime's own (virtual and simulated tables): it shuffles, sends each hosted
// seat its hand, and the robot's card is played when it is announced. A physical deal (people dealt
// real cards, `new-game` with `deal`): the runtime knows no hand but the robot's, whose ten cards are
// read from the robot's hand area before anyone may play (`collecting`); people are taken at their
// word (a renounce is caught when it shows, by the engine); and the robot's announced card counts
// only once someone has put it on the robot's spot (`placing`).

import { and, assign, enqueueActions, fromPromise, not, setup } from 'xstate';
import type {
  Card,
  Clock,
  Decision,
  GameEvent,
  PlayResult as PlayResultT,
  Seat,
  SessionScore,
} from '../../../game/index.js';
import {
  Game,
  PlayResult,
  SeatView,
  addGame,
  createRng,
  dealCards,
  dealEvent,
  emptySessionScore,
  eventsOfPlay,
  formatCard,
  nextSeat,
  forcedDecision,
} from '../../../game/index.js';
import type { CardEvent, ControlEvent, Prompt, Rejection, TableInfo, Verdict } from '../../../table-bridge/index.js';
import { accept } from '../../../table-bridge/index.js';
import type { TopicKey, TopicMessage } from '../../bus/index.js';
import {
  decisionMessage,
  gameEventMessage,
  promptOutput,
  rejectedOutput,
  robotPlayOutput,
  sessionEndMessage,
} from './bus-messages.js';
import {
  HAND_SIZE,
  collectingRobotHand,
  dropsRobotCard,
  gathersCard,
  judgeCard,
  judgeHello,
  judgeNewGame,
  judgeRemoved,
  onSpot,
} from './judge.js';

export interface SessionConfig {
  sessionId: string;
  /** Every deal derives from it: game i is dealt by createRng(seed, i). */
  seed: number;
  games: number;
  robotSeat: Seat;
  /** Dealer of game 0; the next seat deals each next game. */
  firstDealer: Seat;
  /** Unforced robot plays take at least this long from its turn (ms, on the injected clock). */
  minThinkMs: number;
  /** A played card lifted from its spot must be back within this time (ms), or the table is told. */
  liftGraceMs: number;
}

type Publication<K extends TopicKey> = { type: 'publish'; key: K; message: TopicMessage<K> };

/**
 * What the machine asks of the world, emitted by its actions in order and carried out by the runtime
 * after each step. Plain data, made when the action ran: nothing in it is read later from the Game.
 */
export type SessionEffect =
  | Publication<'tableOutput'>
  | Publication<'gameEvents'>
  | Publication<'decision'>
  /** To one table by id, or to all (undefined). */
  | { type: 'prompt'; prompt: Prompt; to: string | undefined }
  | { type: 'reject'; rejection: Rejection; to: string }
  /** A seat's private hand, to the tables hosting it. */
  | { type: 'sendHand'; game: number; seat: Seat; cards: readonly Card[] }
  /** The robot's card to every table; a table that does not confirm it is warned of. */
  | { type: 'announceRobotPlay'; play: { game: number; trick: number; seat: Seat; card: Card } }
  | { type: 'playerNewGame'; game: number }
  | { type: 'playerObserve'; event: GameEvent }
  /** Problems that are not the table's fault (the robot's player failed...). */
  | { type: 'warn'; detail: Record<string, unknown>; message: string };

export interface CurrentGame {
  index: number;
  game: Game;
  /** Null when the runtime dealt. */
  physical: PhysicalProgress | null;
}

/** How far a physical deal has come. */
interface PhysicalProgress {
  /** The robot's cards read from its hand area, in order; its hand at the deal once there are ten. */
  robotHand: readonly Card[];
  /** The robot's announced card, until it is detected on its spot. */
  awaiting: Card | null;
  /**
   * The physical cards lying on the play spots, with the trick each was played in: real cards stay
   * there after their trick until someone gathers them, and a lifted one is not there.
   */
  spots: readonly LyingCard[];
}

interface LyingCard {
  seat: Seat;
  card: Card;
  trick: number;
}

/** The spots with `card` put down by `seat` in `trick` (physical deals; null otherwise). */
const putDown = (p: PhysicalProgress | null, seat: Seat, card: Card, trick: number): PhysicalProgress | null =>
  p && { ...p, spots: [...p.spots.filter((x) => x.card !== card), { seat, card, trick }] };
const takenUp = (p: PhysicalProgress | null, card: Card): PhysicalProgress | null =>
  p && { ...p, spots: p.spots.filter((x) => x.card !== card) };

interface Lifted {
  seat: Seat;
  table: string;
  /** The card:removed event that lifted it: the rejection after the grace time names it. */
  seq: number;
  game: number;
  trick: number;
}

export interface SessionContext {
  config: SessionConfig;
  /** The actor's clock, read for the robot's think time only. */
  clock: Clock;
  score: SessionScore;
  current: CurrentGame | null;
  tables: ReadonlyMap<string, TableInfo>;
  lifted: ReadonlyMap<Card, Lifted>;
  /** Mirrors the control region (paused), for the pure judges. */
  paused: boolean;
  /** The answer to the last table event. */
  verdict: Verdict;
  /** When the robot's turn began (clock ms), and its decision once made. */
  thinkStart: number;
  decision: Decision | null;
  /** What the last play did (for the trick and game ends). */
  lastResult: PlayResultT;
  /** Bumped by every change the tables and the bus must see. */
  version: number;
}

export type SessionEvent =
  | { type: 'hello'; table: TableInfo }
  | { type: 'disconnect'; table: TableInfo; reason: string }
  | { type: 'card.detected'; event: CardEvent }
  | { type: 'card.removed'; event: CardEvent }
  | { type: 'control.new-game'; event: Extract<ControlEvent, { action: 'new-game' }> }
  | { type: 'control.pause'; event: ControlEvent }
  | { type: 'control.resume'; event: ControlEvent }
  | { type: 'lift.expired'; card: Card; game: number; trick: number };

interface SessionInput {
  config: SessionConfig;
  /** The clock the actor runs on (its delayed events): the think time is measured on it too. */
  clock: Clock;
}

/** Where an action puts its effects: the machine's `emit`, in order. */
type Emit = (effect: SessionEffect) => void;
/** The emit of an enqueueActions action. */
const emitter =
  (enqueue: { emit(effect: SessionEffect): void }): Emit =>
  (effect) =>
    enqueue.emit(effect);

const tableOutput = (message: TopicMessage<'tableOutput'>): SessionEffect => ({
  type: 'publish',
  key: 'tableOutput',
  message,
});

/** A prompt to the tables (one by id, or all), and on the bus. */
function tellTables(emit: Emit, prompt: Prompt, to?: string): void {
  emit({ type: 'prompt', prompt, to });
  emit(tableOutput(promptOutput(prompt)));
}

/** Game `index`'s events to the robot's player and the bus (each event: the player first, as it was always told). */
function publishEvents(emit: Emit, index: number, events: readonly GameEvent[], score: SessionScore): void {
  for (const e of events) {
    emit({ type: 'playerObserve', event: e });
    for (const m of gameEventMessage(e, index, score)) emit({ type: 'publish', key: 'gameEvents', message: m });
  }
}

/**
 * Plays `card` for `seat` on the current game (the one mutation of the Game, in an action) and emits what
 * it did; returns the result.
 */
function applyPlay(ctx: SessionContext, emit: Emit, seat: Seat, card: Card): PlayResultT {
  const { game, index } = ctx.current!;
  const trickBefore = game.trick;
  const result = game.play(card, seat);
  const score = game.isOver ? addGame(ctx.score, game.outcome!) : ctx.score;
  publishEvents(emit, index, eventsOfPlay(game, seat, card, result, trickBefore), score);
  return result;
}

/** The verdict's refusal, told to the operator over the bus (the table has it in its ack). */
function reportVerdict(emit: Emit, v: Verdict, seat: Seat | -1 = -1, card: Card | null = null): void {
  if (!v.ok) emit(tableOutput(rejectedOutput({ code: v.code, reason: v.reason }, seat, card)));
}

/** The robot's card to the bus and to every table (which show it). */
function announce(ctx: SessionContext, emit: Emit, card: Card, trick: number): void {
  const seat = ctx.config.robotSeat;
  emit(tableOutput(robotPlayOutput(seat, card)));
  emit({ type: 'announceRobotPlay', play: { game: ctx.current!.index, trick, seat, card } });
}

export const sessionMachine = setup({
  types: {} as { context: SessionContext; events: SessionEvent; input: SessionInput; emitted: SessionEffect },
  actors: {
    // Provided by the runtime (machine.provide), which asks the robot's player.
    decide: fromPromise<Decision, { view: SeatView }>(() =>
      Promise.reject(new Error("no robot player: the runtime provides the session machine's decide actor")),
    ),
  },
  delays: {
    /** What is left of the robot's minimum think time. */
    thinkRemaining: ({ context }) => Math.max(0, context.thinkStart + context.config.minThinkMs - context.clock.now()),
  },
  guards: {
    helloOk: ({ context, event }) => event.type === 'hello' && judgeHello(context, event.table).ok,
    newGameOk: ({ context, event }) =>
      event.type === 'control.new-game' && judgeNewGame(context, event.event, context.paused).ok,
    playOk: ({ context, event }) =>
      event.type === 'card.detected' && judgeCard(context, event.event, context.paused).apply,
    physicalDeal: ({ event }) => event.type === 'control.new-game' && event.event.deal !== null,
    physical: ({ context }) => context.current?.physical != null,
    robotHandCardOk: ({ context, event }) =>
      event.type === 'card.detected' && judgeCard(context, event.event, context.paused).robotHand,
    robotHandCardLifted: ({ context, event }) => event.type === 'card.removed' && dropsRobotCard(context, event.event),
    robotHandComplete: ({ context }) => !collectingRobotHand(context.current),
    robotCardPlaced: ({ context, event }) =>
      event.type === 'card.detected' && judgeCard(context, event.event, context.paused).robotCard,
    paused: ({ context }) => context.paused,
    robotToMove: ({ context }) => context.current!.game.toMove === context.config.robotSeat,
    /** The minimum think time has already passed (no timer needed). */
    thinkDone: ({ context }) => context.clock.now() - context.thinkStart >= context.config.minThinkMs,
    forced: ({ context }) => new SeatView(context.current!.game, context.config.robotSeat).legalCards().length === 1,
    trickEnded: ({ context }) => context.lastResult !== PlayResult.Continue && context.current!.game.cardsInTrick === 0,
    gameOver: ({ context }) => context.current!.game.isOver,
    sessionDone: ({ context }) => context.score.games >= context.config.games,
  },
  actions: {
    judgeHello: assign(({ context, event }) => {
      if (event.type !== 'hello') return {};
      const verdict = judgeHello(context, event.table);
      // Who holds the seats is in the state: the tables see the change.
      return verdict.ok
        ? { verdict, tables: new Map(context.tables).set(event.table.id, event.table), version: context.version + 1 }
        : { verdict };
    }),
    forgetTable: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'disconnect') return;
      const tables = new Map(context.tables);
      tables.delete(event.table.id);
      enqueue.emit(
        tableOutput({
          kind: 'prompt',
          seat: -1,
          card: '',
          code: 'info',
          text: `table ${event.table.id} disconnected (${event.reason}); it resyncs when it says hello again`,
        }),
      );
      enqueue.assign({ tables, verdict: accept(), version: context.version + 1 });
    }),
    refuseNewGame: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'control.new-game') return;
      const verdict = judgeNewGame(context, event.event, context.paused);
      reportVerdict(emitter(enqueue), verdict);
      enqueue.assign({ verdict });
    }),
    judgeCard: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'card.detected') return;
      const j = judgeCard(context, event.event, context.paused);
      reportVerdict(emitter(enqueue), j.verdict, event.event.zone.seat, event.event.card);
      if (j.putBack) {
        const lifted = new Map(context.lifted);
        lifted.delete(event.event.card);
        const cur = context.current!;
        const { seat } = event.event.zone;
        const current = { ...cur, physical: putDown(cur.physical, seat, event.event.card, cur.game.trick) };
        enqueue.assign({ verdict: j.verdict, lifted, current, version: context.version + 1 });
        return;
      }
      enqueue.assign({ verdict: j.verdict });
    }),
    humanPlay: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'card.detected') return;
      const { seat } = event.event.zone;
      const cur = context.current!;
      const current = { ...cur, physical: putDown(cur.physical, seat, event.event.card, cur.game.trick) };
      const lastResult = applyPlay({ ...context, current }, emitter(enqueue), seat, event.event.card);
      enqueue.assign({ verdict: accept(), lastResult, current, version: context.version + 1 });
    }),
    cardRemoved: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'card.removed') return;
      const e = event.event;
      const verdict = judgeRemoved(context, e);
      const cur = context.current;
      // A finished trick's card gathered: expected, it only leaves its spot.
      if (cur && gathersCard(context, e)) {
        enqueue.assign({
          verdict,
          current: { ...cur, physical: takenUp(cur.physical, e.card) },
          version: context.version + 1,
        });
        return;
      }
      if (!cur || e.zone.area !== 'play' || cur.game.isOver || onSpot(cur.game, e.zone.seat) !== e.card) {
        enqueue.assign({ verdict });
        return;
      }
      // A played card of the trick in progress lifted: it stays played. Ask for it back, and tell the
      // table again if it is not back in time.
      const lifted = new Map(context.lifted).set(e.card, {
        seat: e.zone.seat,
        table: e.table.id,
        seq: e.seq,
        game: cur.index,
        trick: cur.game.trick,
      });
      const grace = context.config.liftGraceMs;
      tellTables(
        emitter(enqueue),
        {
          kind: 'put-back',
          seat: e.zone.seat,
          card: e.card,
          withinMs: grace,
          text: `${formatCard(e.card)} was played in this trick: put it back on seat ${e.zone.seat}'s spot (within ${Math.round(grace / 100) / 10} s).`,
        },
        e.table.id,
      );
      // The grace time on the actor's clock, scheduled after the prompt (as it always was); each lift its
      // own timer (the id), so a card lifted twice is checked twice.
      enqueue.raise(
        { type: 'lift.expired', card: e.card, game: cur.index, trick: cur.game.trick },
        { delay: grace, id: `lift:${e.table.id}:${e.seq}:${e.card}` },
      );
      enqueue.assign({
        verdict,
        lifted,
        current: { ...cur, physical: takenUp(cur.physical, e.card) },
        version: context.version + 1,
      });
    }),
    liftExpired: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'lift.expired') return;
      const l = context.lifted.get(event.card);
      if (!l || l.game !== event.game || l.trick !== event.trick) return;
      const rejection: Rejection = {
        code: 'already-played',
        reason: `${formatCard(event.card)} was lifted from seat ${l.seat}'s spot and not put back within ${context.config.liftGraceMs} ms: it stays played`,
        event: 'card:removed',
        seq: l.seq,
      };
      enqueue.emit({ type: 'reject', rejection, to: l.table });
      enqueue.emit(tableOutput(rejectedOutput(rejection, l.seat, event.card)));
    }),
    pause: enqueueActions(({ context, enqueue }) => {
      tellTables(emitter(enqueue), { kind: 'info', text: 'The game is paused.' });
      enqueue.assign({ paused: true, verdict: accept(), version: context.version + 1 });
    }),
    resume: enqueueActions(({ context, enqueue }) => {
      tellTables(emitter(enqueue), { kind: 'info', text: 'The game goes on.' });
      enqueue.assign({ paused: false, verdict: accept(), version: context.version + 1 });
    }),
    alreadyPaused: assign({ verdict: () => accept('already paused') }),
    notPaused: assign({ verdict: () => accept('not paused') }),
    deal: enqueueActions(({ context, enqueue }) => {
      const emit = emitter(enqueue);
      const index = context.score.games;
      const deal = dealCards(createRng(context.config.seed, index), nextSeat(context.config.firstDealer, index));
      const game = new Game(deal);
      emit({ type: 'playerNewGame', game: index });
      const current: CurrentGame = { index, game, physical: null };
      publishEvents(emit, index, [dealEvent(deal, context.config.robotSeat)], context.score);
      for (const seat of [0, 1, 2, 3] as Seat[]) {
        // A copy: the effect is carried out after the step, and must not see later plays.
        if (seat !== context.config.robotSeat)
          emit({ type: 'sendHand', game: index, seat, cards: [...deal.hands[seat]!] });
      }
      enqueue.assign({ current, lifted: new Map(), verdict: accept(), version: context.version + 1 });
    }),
    startPhysicalDeal: assign(({ context, event }) => {
      if (event.type !== 'control.new-game' || !event.event.deal) return {};
      const { dealer, trumpCard } = event.event.deal;
      // Nothing is known yet but the dealer and the trump card; the robot's hand comes from its hand area.
      const current: CurrentGame = {
        index: context.score.games,
        game: new Game({ dealer, trumpCard, hands: null }),
        physical: { robotHand: [], awaiting: null, spots: [] },
      };
      // The judge's note (a dealer out of turn) goes back to the table with the answer.
      const judged = judgeNewGame(context, event.event, context.paused);
      return { current, lifted: new Map(), verdict: judged.ok ? judged : accept(), version: context.version + 1 };
    }),
    promptRobotHand: enqueueActions(({ context, enqueue }) => {
      const robot = context.config.robotSeat;
      const { dealer, trumpCard } = context.current!.game;
      const trump = dealer === robot ? `, the trump card ${formatCard(trumpCard)} among them` : '';
      tellTables(emitter(enqueue), {
        kind: 'info',
        seat: robot,
        text: `Put the robot's ${HAND_SIZE} cards in its hand area (seat ${robot})${trump}; play starts when it has them.`,
      });
    }),
    takeRobotCard: assign(({ context, event }) => {
      if (event.type !== 'card.detected') return {};
      const cur = context.current!;
      const robotHand = [...cur.physical!.robotHand, event.event.card];
      return {
        current: { ...cur, physical: { ...cur.physical!, robotHand } },
        verdict: accept(),
        version: context.version + 1,
      };
    }),
    dropRobotCard: assign(({ context, event }) => {
      if (event.type !== 'card.removed') return {};
      const cur = context.current!;
      const robotHand = cur.physical!.robotHand.filter((c) => c !== event.event.card);
      return {
        current: { ...cur, physical: { ...cur.physical!, robotHand } },
        verdict: accept(),
        version: context.version + 1,
      };
    }),
    /** The robot holds its ten cards: the game proper starts, with the robot's hand known to the engine. */
    completePhysicalDeal: enqueueActions(({ context, enqueue }) => {
      const emit = emitter(enqueue);
      const cur = context.current!;
      const robot = context.config.robotSeat;
      const { dealer, trumpCard } = cur.game;
      const hand = [...cur.physical!.robotHand].sort((a, b) => a - b);
      const game = new Game({
        dealer,
        trumpCard,
        hands: ([0, 1, 2, 3] as Seat[]).map((s) => (s === robot ? hand : null)),
      });
      const current: CurrentGame = { ...cur, game };
      emit({ type: 'playerNewGame', game: cur.index });
      // The event's own copy of the hand: the engine's may change before the effect is carried out.
      publishEvents(
        emit,
        cur.index,
        [{ type: 'deal', seat: robot, dealer, trumpCard, hand: [...hand] }],
        context.score,
      );
      tellTables(emit, { kind: 'info', seat: robot, text: `The robot has its ${HAND_SIZE} cards.` });
      enqueue.assign({ current, version: context.version + 1 });
    }),
    announceTrump: enqueueActions(({ context, enqueue }) => {
      const { game } = context.current!;
      tellTables(emitter(enqueue), {
        kind: 'info',
        card: game.trumpCard,
        text: `Seat ${game.dealer} deals; the trump card is ${formatCard(game.trumpCard)}.`,
      });
    }),
    promptTurn: enqueueActions(({ context, enqueue }) => {
      const seat = context.current!.game.toMove;
      tellTables(emitter(enqueue), { kind: 'turn', seat, text: `Seat ${seat} to play.` });
    }),
    startThinking: assign({ thinkStart: ({ context }) => context.clock.now(), decision: () => null }),
    forcedDecision: assign({
      decision: ({ context }) => {
        const view = new SeatView(context.current!.game, context.config.robotSeat);
        return forcedDecision(view.legalCards()[0]!, view.trick);
      },
    }),
    fallbackDecision: enqueueActions(({ context, event, enqueue }) => {
      // The player failed: play the first legal card, and say so.
      const view = new SeatView(context.current!.game, context.config.robotSeat);
      enqueue.emit({
        type: 'warn',
        detail: { error: String((event as { error?: unknown }).error) },
        message: "the robot's player failed; playing its first legal card",
      });
      enqueue.assign({ decision: { card: view.legalCards()[0]! } });
    }),
    robotPlay: enqueueActions(({ context, enqueue }) => {
      const emit = emitter(enqueue);
      const seat = context.config.robotSeat;
      const d = context.decision!;
      const trick = context.current!.game.trick;
      emit({ type: 'publish', key: 'decision', message: decisionMessage(seat, d) });
      const lastResult = applyPlay(context, emit, seat, d.card);
      announce(context, emit, d.card, trick);
      enqueue.assign({ lastResult, decision: null, version: context.version + 1 });
    }),
    /** Physical deal: the robot says its card; it is played when someone puts it on the robot's spot. */
    announceRobotCard: enqueueActions(({ context, enqueue }) => {
      const emit = emitter(enqueue);
      const cur = context.current!;
      const seat = context.config.robotSeat;
      const d = context.decision!;
      emit({ type: 'publish', key: 'decision', message: decisionMessage(seat, d) });
      announce(context, emit, d.card, cur.game.trick);
      tellTables(emit, {
        kind: 'place-robot-card',
        seat,
        card: d.card,
        text: `Put the robot's ${formatCard(d.card)} on its spot (seat ${seat}).`,
      });
      enqueue.assign({
        current: { ...cur, physical: { ...cur.physical!, awaiting: d.card } },
        decision: null,
        version: context.version + 1,
      });
    }),
    placeRobotCard: enqueueActions(({ context, enqueue }) => {
      const cur = context.current!;
      const card = cur.physical!.awaiting!;
      const current: CurrentGame = {
        ...cur,
        physical: putDown({ ...cur.physical!, awaiting: null }, context.config.robotSeat, card, cur.game.trick),
      };
      const lastResult = applyPlay({ ...context, current }, emitter(enqueue), context.config.robotSeat, card);
      enqueue.assign({ current, lastResult, verdict: accept(), version: context.version + 1 });
    }),
    trickEnd: enqueueActions(({ context, enqueue }) => {
      const cur = context.current!;
      if (cur.physical) {
        // Real cards stay where they were played: whoever takes the trick gathers them, when they like.
        const { game } = cur;
        const k = game.trick - 1;
        const winner = game.trickWinner(k);
        tellTables(emitter(enqueue), {
          kind: 'gather',
          seat: winner,
          text: `Seat ${winner} takes trick ${k + 1}: gather its four cards from the spots (the next card may be played before).`,
        });
      }
      enqueue.assign({ lifted: new Map(), version: context.version + 1 });
    }),
    gameEnd: enqueueActions(({ context, enqueue }) => {
      const emit = emitter(enqueue);
      const cur = context.current!;
      const o = cur.game.outcome!;
      const score = addGame(context.score, o);
      const r = cur.game.renounce;
      const why = r
        ? `: seat ${r.seat} renounced in trick ${r.trick + 1} (${formatCard(r.card)} while holding the suit led)`
        : '';
      const text =
        o.winner === 'draw'
          ? 'The game is a draw.'
          : `Team ${o.winner} wins ${o.victories} ${o.victories === 1 ? 'victory' : 'victories'}${why}.`;
      tellTables(emit, { kind: 'game-over', text });
      const done = score.games >= context.config.games;
      if (done) emit({ type: 'publish', key: 'gameEvents', message: sessionEndMessage(cur.index, score) });
      tellTables(
        emit,
        done
          ? { kind: 'session-over', text: 'The session is over.' }
          : { kind: 'new-game', text: 'Deal the next game.' },
      );
      enqueue.assign({ score, lifted: new Map(), version: context.version + 1 });
    }),
  },
}).createMachine({
  id: 'session',
  type: 'parallel',
  context: ({ input }) => ({
    config: input.config,
    clock: input.clock,
    score: emptySessionScore(),
    current: null,
    tables: new Map(),
    lifted: new Map(),
    paused: false,
    verdict: accept(),
    thinkStart: 0,
    decision: null,
    lastResult: PlayResult.Continue,
    version: 0,
  }),
  states: {
    control: {
      initial: 'running',
      states: {
        running: {
          on: { 'control.pause': { target: 'paused', actions: 'pause' }, 'control.resume': { actions: 'notPaused' } },
        },
        paused: {
          on: {
            'control.resume': { target: 'running', actions: 'resume' },
            'control.pause': { actions: 'alreadyPaused' },
          },
        },
      },
    },
    flow: {
      initial: 'waiting',
      on: {
        hello: { actions: 'judgeHello' },
        disconnect: { actions: 'forgetTable' },
        'card.detected': { actions: 'judgeCard' },
        'card.removed': { actions: 'cardRemoved' },
        'control.new-game': { actions: 'refuseNewGame' },
        'lift.expired': { actions: 'liftExpired' },
      },
      states: {
        /** Session start, and between games: waiting for new-game. */
        waiting: {
          on: {
            'control.new-game': [
              { guard: and(['newGameOk', not('paused'), 'physicalDeal']), target: 'game.collecting' },
              { guard: and(['newGameOk', not('paused')]), target: 'game' },
              { actions: 'refuseNewGame' },
            ],
          },
        },
        game: {
          initial: 'dealing',
          states: {
            dealing: { entry: 'deal', always: 'trump' },
            /** Physical deal: the robot's ten cards are read from its hand area; nobody plays until then. */
            collecting: {
              entry: ['startPhysicalDeal', 'announceTrump', 'promptRobotHand'],
              on: {
                'card.detected': [{ guard: 'robotHandCardOk', actions: 'takeRobotCard' }, { actions: 'judgeCard' }],
                'card.removed': [
                  { guard: 'robotHandCardLifted', actions: 'dropRobotCard' },
                  { actions: 'cardRemoved' },
                ],
              },
              always: { guard: 'robotHandComplete', target: 'turn', actions: 'completePhysicalDeal' },
            },
            trump: { entry: 'announceTrump', always: 'turn' },
            /** Whose turn: the robot's, a person's, or the game is over. */
            turn: {
              always: [
                { guard: 'gameOver', target: 'over' },
                { guard: 'robotToMove', target: 'robot' },
                { target: 'human', actions: 'promptTurn' },
              ],
            },
            human: {
              on: {
                'card.detected': [
                  { guard: 'playOk', target: 'afterPlay', actions: 'humanPlay' },
                  { actions: 'judgeCard' },
                ],
              },
            },
            robot: {
              entry: 'startThinking',
              initial: 'deciding',
              states: {
                deciding: {
                  always: [{ guard: 'forced', target: 'ready', actions: 'forcedDecision' }, { target: 'thinking' }],
                },
                thinking: {
                  invoke: {
                    src: 'decide',
                    input: ({ context }) => ({
                      view: new SeatView(context.current!.game.clone(), context.config.robotSeat),
                    }),
                    onDone: { target: 'decided', actions: assign({ decision: ({ event }) => event.output }) },
                    onError: { target: 'decided', actions: 'fallbackDecision' },
                  },
                },
                /** A human-like pause: unforced plays take at least minThinkMs from the turn. */
                /** Decided: played at once if the minimum time is over, else when its timer fires. */
                decided: { always: [{ guard: 'thinkDone', target: 'ready' }, { target: 'minimumTime' }] },
                // Only the timer ends the wait: were any event to end it once the time is up (an eventless
                // guard on the clock), the card would go down with whatever event came first after the
                // due time in the live session, and a replay, which fires timers when their outputs are
                // due, would play it in another order (a table's disconnect and the robot's card in one
                // state live, in two in the replay).
                minimumTime: { after: { thinkRemaining: 'ready' } },
                /** Decided; played (or, after a physical deal, announced) as soon as the session is not paused. */
                ready: {
                  always: [
                    { guard: and([not('paused'), 'physical']), target: 'placing', actions: 'announceRobotCard' },
                    { guard: not('paused'), target: '#session.flow.game.afterPlay', actions: 'robotPlay' },
                  ],
                },
                /** Physical deal: waiting for the announced card on the robot's spot. */
                placing: {
                  on: {
                    'card.detected': [
                      { guard: 'robotCardPlaced', target: '#session.flow.game.afterPlay', actions: 'placeRobotCard' },
                      { actions: 'judgeCard' },
                    ],
                  },
                },
              },
            },
            afterPlay: {
              always: [
                { guard: 'trickEnded', target: 'trickEnd' },
                { guard: 'gameOver', target: 'over' },
                { target: 'turn' },
              ],
            },
            trickEnd: { entry: 'trickEnd', always: 'turn' },
            over: {
              entry: 'gameEnd',
              always: [
                { guard: 'sessionDone', target: '#session.flow.sessionOver' },
                { target: '#session.flow.waiting' },
              ],
            },
          },
        },
        sessionOver: {},
      },
    },
  },
});

// How the robot reacts: at once to each event, in order, with what it knows then (the last
// expectation): the appraisal, the `emotions` message, then the behaviour plan carried out by the
// scheduler. A quick estimate of the position after the event (a deal, any player's card, the
// robot's own included) runs meanwhile on its worker;
// when it comes back the appraisal takes it as a reappraisal of that event (hope, fear, joy, distress
// may change, and the face with them). One estimate at a time, of the newest position: an event that
// arrives while one runs replaces any position still waiting, which is then never estimated.
//
// Estimates are time-bound, so each goes on the bus (`expectation`) with the event it belongs to and
// the event after which it took effect; a replay answers with the recorded ones at their recorded
// places. Events come from the session runtime as the robot's seat sees them (through its player,
// see player-tap.ts); everything the reactions produce goes onto the bus.

import type { Appraiser, EmotionReport, Expectation, FeltEmotion, GameContext } from '../../../appraisal/index.js';
import { PRIOR_EXPECTATION } from '../../../appraisal/index.js';
import type {
  BehaviourEvent,
  BehaviourScheduler,
  BehaviourSetup,
  BehaviourState,
  EmotionalStateInput,
  ToggleBoard,
} from '../../../behaviours/index.js';
import { initialBehaviourState, momentAfter, planBehaviour } from '../../../behaviours/index.js';
import type {
  Beliefs,
  Card,
  Decision,
  GameEvent,
  HandAssessment,
  HandAssessor,
  InfoSet,
  Rng,
  Seat,
} from '../../../game/index.js';
import { combineEstimates, createRng, forcedDecision, suitOf } from '../../../game/index.js';
import type { Bus, ExpectationMessage } from '../../bus/index.js';
import { ownPlayCategory, withCardSaid, withoutCardLines } from './card-line.js';
import { emotionalStateMessage } from './emotion-message.js';
import type { Estimate, ExpectationSource, PlayToJudge } from './expectation-estimator.js';
import type { NodeLogger } from './logger.js';
import type { SeatPredictions } from './prediction.js';
import type { ReactionInstant } from './reaction-instant.js';
import { RobotView } from './robot-view.js';

interface ReactionsOptions {
  bus: Bus;
  robotSeat: Seat;
  games: number;
  seed: number;
  appraiser: Appraiser;
  /** Null: no estimates; the last expectation stands between the robot's decisions. */
  estimator: ExpectationSource | null;
  /**
   * The knowledge-based estimate of the robot's hand at each deal (game/assessment, after Marincic et
   * al.'s Tarok bidding): taken at once as the deal's expectation (the first hope or fear, and what
   * stands when no estimate comes back), then combined with the estimate of the deal, `searchWeight` of
   * it. Absent or null: none.
   */
  handModel?: { assessor: HandAssessor; searchWeight: number } | null;
  /**
   * The other seats' cards predicted before each is played (prediction.ts): the prediction goes on the
   * bus after the reaction to the event before the card, and the card's surprise into its appraisal.
   * Absent or null: none.
   */
  predictions?: SeatPredictions | null;
  setup: BehaviourSetup;
  toggles: ToggleBoard;
  scheduler: BehaviourScheduler;
  /** The instant of each reaction, shared with the appraiser's clock. */
  instant: ReactionInstant;
  log: NodeLogger;
}

interface Pending {
  event: GameEvent;
  beliefs: Beliefs | undefined;
  /** Another seat is to play after this event (a person, who may be nudged if they hesitate). */
  turn: Seat | null;
}

/** A position to estimate: the robot's information set just after an event. */
interface EstimateRequest {
  /** The event's index among the events observed this session, from 0. */
  index: number;
  event: GameEvent;
  info: InfoSet;
  /** The appraisal's game context just after the event; set when the event is reacted to (always before its estimate is taken). */
  context: GameContext | null;
  /** When the event is a play: whose, which card, the suit led. */
  play?: PlayToJudge;
  /** The deal or play before it (tricks and ends change no position): the estimate it continues from. */
  previous: number;
  /** When the event is another seat's card: how unexpected it was (0..1); set when the event is reacted to. */
  surprise?: number;
}

type EstimateOutcome =
  { status: 'ok'; expectation: Estimate } | { status: 'none' } | { status: 'failed'; detail: string };

export class RobotReactions {
  readonly #o: ReactionsOptions;
  readonly #view: RobotView;
  readonly #rng: Rng;
  #state: BehaviourState;
  /** The behaviours in force; the operator may switch the language during the session. */
  #setup: BehaviourSetup;
  /** Reactions and estimates taken, one at a time, in order (each a microtask after the code that queued it). */
  #queue: Promise<void> = Promise.resolve();
  #decision: Decision | null = null;
  #deals = 0;
  #ends = 0;
  #victories: [number, number] = [0, 0];
  /** Events observed, and reacted to (the same once the queue has run). */
  #observed = 0;
  #reacted = 0;
  /** The newest position waiting for an estimate, and the estimate running (at most one). */
  #next: EstimateRequest | null = null;
  #inFlight: Promise<void> | null = null;
  /** Estimates of events before this index are overtaken: a newer expectation is in force (a game's end, or a new deal). */
  #floor = 0;
  /**
   * The event whose estimate the expectation in force came from. An estimate of the next position
   * (the next deal or play) measures that event alone; one that comes after a gap (positions
   * overtaken or not estimated) spans several players' cards. A deal starts from an even game.
   */
  #expectationFrom = -1;
  /** The last deal or play observed: the last event that made a new position to estimate. */
  #lastPosition = -1;
  /** The robot's cards played this game (its view's), and a card it has already said at its announcement. */
  readonly #ownPlayed = new Set<Card>();
  #saidCard: Card | null = null;
  /** The hand model's estimate of this deal, until the next one (combined with the deal's own estimate). */
  #dealModel: { index: number; assessment: HandAssessment } | null = null;
  /** Counts of what was done, for the summary, the bench and tests. */
  readonly stats = {
    events: 0,
    estimates: 0,
    estimateFailures: 0,
    estimatesApplied: 0,
    estimatesOvertaken: 0,
    estimatesSkipped: 0,
  };

  constructor(o: ReactionsOptions) {
    this.#o = o;
    this.#view = new RobotView(o.robotSeat);
    this.#rng = createRng(o.seed ^ 0x5eed);
    this.#state = initialBehaviourState(o.robotSeat);
    this.#setup = o.setup;
  }

  /** The expectation the robot's appraisal holds now (its team's final points and win probability). */
  get expectation(): Expectation {
    return this.#o.appraiser.state.expectation;
  }

  /** The other seats' cards predicted (their stats: how many, what they cost), or null when off. */
  get predictions(): SeatPredictions | null {
    return this.#o.predictions ?? null;
  }

  /** The hand model's estimate of the deal in play, or null (no model, or no deal yet). */
  get handAssessment(): HandAssessment | null {
    return this.#dealModel?.assessment ?? null;
  }

  /** Speaks from another library (a language change); effective at the next event. */
  useSetup(setup: BehaviourSetup): void {
    this.#setup = setup;
  }

  /** The session begins (greeting, look at the partner). */
  sessionStart(): void {
    this.#enqueue(() =>
      this.#o.instant.at((atMs) => {
        // The state it starts in goes on the bus like every reaction's, with the reaction's instant.
        const report = this.#o.appraiser.report();
        this.#o.bus.publish('emotions', emotionalStateMessage(report));
        this.#behave(
          { type: 'session-start', robotSeat: this.#o.robotSeat, games: this.#o.games },
          raised(report, []),
          atMs,
        );
      }),
    );
  }

  /**
   * The game is paused (the operator, or a study holding the table): nobody is hesitating, so a
   * nudge waiting for its time is dropped, and the planner no longer keeps its place. Like every
   * reaction it goes on the bus with its instant, so a replay drops it at the same point.
   */
  paused(): void {
    this.#enqueue(() =>
      this.#o.instant.at((atMs) => {
        this.#o.bus.publish('emotions', emotionalStateMessage(this.#o.appraiser.report()));
        this.#o.scheduler.dropNudges('paused');
        const nudge = this.#state.speech.nudge;
        // One already being said is the voice's until it ends.
        if (nudge && nudge.startMs > atMs)
          this.#state = { ...this.#state, speech: { ...this.#state.speech, nudge: null } };
        this.#freeVoice();
      }),
    );
  }

  /**
   * The game goes on: whoever is to play (another seat) is thinking again, from now, and may be
   * nudged if they hesitate, as at the start of their turn.
   */
  resumed(): void {
    this.#enqueue(() =>
      this.#o.instant.at((atMs) => {
        const report = this.#o.appraiser.report();
        this.#o.bus.publish('emotions', emotionalStateMessage(report));
        const g = this.#view.game;
        if (g && !g.isOver && g.toMove !== this.#o.robotSeat)
          this.#behave({ type: 'turn', seat: g.toMove }, raised(report, []), atMs);
      }),
    );
  }

  /** The robot's player decided; its play event follows. */
  decided(decision: Decision): void {
    this.#decision = decision;
  }

  /**
   * The robot announced its card to the table. When the runtime dealt, the card is played at the same
   * moment (its play event came first) and is said with it. After a physical deal it is played only
   * once someone puts it on the robot's spot, so the robot says it now: that is how people know which
   * card to place.
   */
  announced(card: Card): void {
    if (this.#ownPlayed.has(card) || !this.#view.game) return;
    const g = this.#view.game;
    const trick: Card[] = [];
    for (let i = 0; i < g.cardsInTrick; i++) trick.push(g.trickCard(i));
    trick.push(card);
    const forced = this.#view.legalCount() === 1;
    this.#saidCard = card;
    this.#enqueue(() =>
      this.#o.instant.at((nowMs) => {
        this.#o.bus.publish('emotions', emotionalStateMessage(this.#o.appraiser.report()));
        const toggles = this.#o.toggles.get();
        this.#freeVoice();
        const category = ownPlayCategory(card, trick, this.#state.trump, forced);
        // Worth saying until the card after it is down (people may place it before the robot speaks).
        const until = this.#state.moment + 2;
        const r = withCardSaid(this.#setup, { event: 'play', atMs: nowMs, moment: null, commands: [] }, this.#state, {
          card,
          category,
          speech: toggles.speech,
          nowMs,
          always: true,
          until,
          seat: this.#o.robotSeat,
          moment: this.#state.moment + 1,
        });
        this.#state = r.state;
        this.#o.scheduler.run(r.plan);
      }),
    );
  }

  /** A game event as the robot's seat sees it, at the moment it happens. */
  observe(event: GameEvent): void {
    const index = this.#observed++;
    const own = event.type === 'play' && event.seat === this.#o.robotSeat;
    if (event.type === 'deal') this.#ownPlayed.clear();
    if (own) this.#ownPlayed.add(event.card);
    const before = this.#view.game;
    // The suit led, so the estimate can tell whether the card was its player's only legal one.
    const play: PlayToJudge | undefined =
      event.type === 'play' && before
        ? { seat: event.seat, card: event.card, led: before.cardsInTrick > 0 ? suitOf(before.trickCard(0)) : null }
        : undefined;
    // A single legal card is played by the runtime without asking the player: say it was forced.
    const forced = own && this.#view.legalCount() === 1 ? forcedDecision(event.card, event.trick).beliefs : undefined;
    try {
      this.#view.apply(event);
    } catch (e) {
      // A replica that cannot follow only loses its estimates; the reactions go on.
      this.#o.log.warn({ err: String(e) }, "the robot's view of the game could not follow an event");
    }
    const beliefs = own && this.#decision?.card === event.card ? this.#decision.beliefs : forced;
    if (own) this.#decision = null;

    // Which position to estimate next is decided here, in event order, so a replay decides the same.
    // Every play is estimated the same way, the robot's own included: its search values positions
    // with perfect information in each world (optimistic), the quick estimate by rule-based playouts,
    // so comparing one with the other made every own play look like good news and the next estimate
    // like bad news (the mood drifted up and blame fell on the next player). One estimator, one scale.
    let request: EstimateRequest | null = null;
    if (event.type === 'end') {
      // The game's end says more than any estimate of an earlier position.
      this.#floor = index + 1;
      this.#skipWaiting();
    } else if (event.type === 'deal') this.#floor = index;
    const info = this.#o.estimator && (event.type === 'deal' || event.type === 'play') ? this.#view.infoSet() : null;
    const previous = this.#lastPosition;
    if (event.type === 'deal' || event.type === 'play') this.#lastPosition = index;
    if (info) {
      request = { index, event, info, context: null, previous, ...(play ? { play } : {}) };
      this.#skipWaiting();
      this.#next = request;
    }
    // Whose turn it is now, when it is another seat's: after a deal, a trick, or a card that leaves
    // the trick open (the trick's own event follows a fourth card).
    const g = this.#view.game;
    const opens =
      event.type === 'deal' || event.type === 'trick' || (event.type === 'play' && g !== null && g.cardsInTrick > 0);
    const turn = g && !g.isOver && opens && g.toMove !== this.#o.robotSeat ? g.toMove : null;
    this.#enqueue(() => this.#o.instant.at((atMs) => this.#react({ event, beliefs, turn }, request, atMs)));
    // That seat's card predicted from what the robot sees now, just after the reaction (never before it).
    const predictions = this.#o.predictions;
    if (predictions) {
      if (event.type === 'deal' || event.type === 'end') this.#enqueue(() => predictions.clear());
      const seen = turn !== null ? this.#view.infoSet() : null;
      if (seen && turn !== null) this.#enqueue(() => predictions.predict(seen, turn, this.#deals));
    }
    this.#startNext();
  }

  /** Resolves when every event so far has been reacted to, and no estimate is running or waiting. */
  async idle(): Promise<void> {
    for (;;) {
      const queue = this.#queue;
      const running = this.#inFlight;
      await Promise.all([queue, running]);
      if (queue === this.#queue && this.#inFlight === null && this.#next === null) return;
    }
  }

  /** A task that returns a promise holds the queue until it settles (a prediction by a network in onnxruntime). */
  #enqueue(task: () => void | Promise<void>): void {
    this.#queue = this.#queue
      .then(task)
      .catch((e: unknown) => this.#o.log.error({ err: e instanceof Error ? e.stack : String(e) }, 'a reaction failed'));
  }

  /**
   * The planner places each line after those it planned before; when the game overtook those and the
   * scheduler dropped them, the voice is free now, and the next line need not wait for them.
   */
  #freeVoice(): void {
    if (this.#state.speech.busyUntilMs !== null && this.#o.scheduler.voiceFree())
      this.#state = { ...this.#state, speech: { ...this.#state.speech, busyUntilMs: null } };
  }

  /** A waiting position overtaken by a newer one is never estimated. */
  #skipWaiting(): void {
    if (!this.#next) return;
    this.#next = null;
    this.stats.estimatesSkipped++;
  }

  /** Starts estimating the newest waiting position, unless an estimate is running. */
  #startNext(): void {
    const estimator = this.#o.estimator;
    const req = this.#next;
    if (!estimator || !req || this.#inFlight) return;
    this.#next = null;
    this.#inFlight = (async () => {
      let outcome: EstimateOutcome;
      try {
        const expectation = await estimator.estimate(req.info, req.index, req.play);
        outcome = expectation ? { status: 'ok', expectation } : { status: 'none' };
      } catch (err) {
        outcome = { status: 'failed', detail: err instanceof Error ? err.message : String(err) };
      }
      // Taken on the queue, so always after the reaction to its own event.
      this.#enqueue(() => this.#take(req, outcome));
    })();
  }

  /**
   * Takes an estimate once every event observed so far has been reacted to. An answer can come back
   * in the same turn as the next event (the robot's own play follows its decision in promise
   * callbacks): queued before that event's reaction but run after the event was seen, it would take
   * effect between the two, where a replay, which answers after the recorded events before the
   * answer, cannot put it (at_event one short, the reappraisal before the reaction instead of after).
   */
  #take(req: EstimateRequest, outcome: EstimateOutcome): void {
    if (this.#reacted < this.#observed) this.#enqueue(() => this.#take(req, outcome));
    else this.#o.instant.at((atMs) => this.#takeEstimate(req, outcome, atMs));
  }

  #react(p: Pending, request: EstimateRequest | null, atMs: number): void {
    const { event: e } = p;
    this.#reacted++;
    this.stats.events++;
    if (e.type === 'deal')
      this.#behave(
        { type: 'game-start', game: ++this.#deals, dealer: e.dealer },
        raised(this.#o.appraiser.report(), []),
        atMs,
      );
    // A renounce found out ends the game: it is appraised as what it is, someone's fault (reproach,
    // gloating, pity toward the renouncer), before the end it causes.
    const renounce =
      e.type === 'end' && e.renounce ? this.#o.appraiser.perceive({ type: 'renounce', renounce: e.renounce }).felt : [];
    // At once, with no change of expectation (the estimate of the position after it comes later),
    // except at a deal: the robot reads its hand there and then (the hand model), hoping or fearing.
    const model = e.type === 'deal' ? this.#assessHand(e) : null;
    // Another seat's card against the robot's prediction of it: how unexpected it was.
    const surprise =
      e.type === 'play' && e.seat !== this.#o.robotSeat ? (this.#o.predictions?.played(e.seat, e.card) ?? 0) : 0;
    const { report, state, felt, frame } = this.#o.appraiser.perceive(
      e,
      model ? { before: PRIOR_EXPECTATION, after: model } : undefined,
      surprise,
    );
    if (request) {
      request.context = state.game;
      if (surprise > 0) request.surprise = surprise;
    }
    this.#o.bus.publish('emotions', emotionalStateMessage(report));
    this.#behave(
      e,
      { ...raised(report, [...renounce, ...felt]), ...(frame.surprise > 0 ? { surprise: frame.surprise } : {}) },
      atMs,
      p,
    );
    if (p.turn !== null) this.#behave({ type: 'turn', seat: p.turn }, raised(report, []), atMs);
    if (e.type !== 'end') return;
    if (e.outcome.winner !== 'draw') this.#victories[e.outcome.winner === 'A' ? 0 : 1] += e.outcome.victories;
    if (++this.#ends < this.#o.games) return;
    const victories: [number, number] = [this.#victories[0], this.#victories[1]];
    const last = this.#o.appraiser.perceive({ type: 'session-end', victories, games: this.#ends });
    this.#o.bus.publish('emotions', emotionalStateMessage(last.report));
    this.#behave({ type: 'session-end', victories }, raised(last.report, last.felt), atMs);
  }

  /**
   * The robot's first look at its hand: the hand model's estimate, in microseconds, taken as the deal's
   * expectation at once (hope or fear before any search), and standing if no estimate comes back.
   */
  #assessHand(e: Extract<GameEvent, { type: 'deal' }>): HandAssessment | null {
    const model = this.#o.handModel;
    this.#dealModel = null;
    if (!model || e.seat !== this.#o.robotSeat || e.hand.length !== 10) return null;
    const assessment = model.assessor.assess(e.hand, e.seat, e.dealer, e.trumpCard);
    this.#dealModel = { index: this.#reacted - 1, assessment };
    this.#expectationFrom = this.#reacted - 1;
    return assessment;
  }

  /** An estimate came back: it goes on the bus, and the appraisal takes it unless it was overtaken. */
  #takeEstimate(req: EstimateRequest, outcome: EstimateOutcome, atMs: number): void {
    this.#inFlight = null;
    const applied = outcome.status === 'ok' && req.index >= this.#floor && req.context !== null;
    const message: ExpectationMessage = {
      status: outcome.status,
      expected_points: outcome.status === 'ok' ? outcome.expectation.expectedPoints : -1,
      win_probability: outcome.status === 'ok' ? outcome.expectation.winProbability : -1,
      choice: outcome.status === 'ok' ? (outcome.expectation.choice ?? -1) : -1,
      points_se: outcome.status === 'ok' ? (outcome.expectation.pointsSe ?? -1) : -1,
      win_se: outcome.status === 'ok' ? (outcome.expectation.winSe ?? -1) : -1,
      detail: outcome.status === 'failed' ? outcome.detail : '',
      event_index: req.index,
      at_event: this.#reacted - 1,
      applied,
    };
    this.#o.bus.publish('expectation', message);
    if (outcome.status === 'failed') {
      this.stats.estimateFailures++;
      this.#o.log.warn({ err: outcome.detail }, 'an expectation estimate failed; the last expectation stands');
    } else this.stats.estimates++;
    if (applied && outcome.status === 'ok') {
      this.stats.estimatesApplied++;
      // Praise, blame and others' fortunes only for a change that one event made.
      const attributable = req.event.type === 'deal' || req.previous === this.#expectationFrom;
      this.#expectationFrom = req.index;
      // The deal's own estimate is combined with the hand model's, as Marincic et al. combine
      // simulation with their model.
      const model = this.#dealModel?.index === req.index ? this.#dealModel.assessment : null;
      const expectation = model
        ? combinedWithModel(model, outcome.expectation, this.#o.handModel!.searchWeight)
        : outcome.expectation;
      const r = this.#o.appraiser.reappraise(req.event, req.context!, expectation, {
        attributable,
        ...(expectation.choice === undefined ? {} : { choice: expectation.choice }),
        ...(req.surprise === undefined ? {} : { surprise: req.surprise }),
      });
      this.#o.bus.publish('emotions', emotionalStateMessage(r.report));
      // A follow-up only when the estimate made the robot feel something new.
      if (r.felt.length > 0)
        this.#behave({ type: 'reappraisal', of: req.event.type, event: req.event }, raised(r.report, r.felt), atMs);
    } else if (outcome.status === 'ok') this.stats.estimatesOvertaken++;
    this.#startNext();
  }

  #behave(event: BehaviourEvent, report: EmotionalStateInput, nowMs: number, p?: Pending): void {
    const toggles = this.#o.toggles.get();
    // The lines this event leaves behind go first, so the planner sees the voice as it now is.
    this.#o.scheduler.reach(momentAfter(this.#state.moment, this.#state.game, event));
    this.#freeVoice();
    const r = planBehaviour(this.#setup, {
      event,
      emotions: report,
      beliefs: p?.beliefs ?? null,
      toggles,
      state: this.#state,
      rng: this.#rng,
      nowMs,
    });
    let { plan, state } = r;
    const saidAlready = event.type === 'play' && this.#saidCard === event.card;
    if (event.type === 'play' && event.seat === this.#o.robotSeat) this.#saidCard = null;
    // Said at its announcement (a physical deal): not again once it is put down. A line left out
    // is not said, so the planner's memory goes back to before it (the next line need not wait).
    // When the runtime deals, the table shows the robot's card: the robot names it only when its
    // own play lines do (naming every card was most of what it said).
    if (saidAlready) {
      plan = withoutCardLines(this.#setup, plan, event.card);
      if (plan !== r.plan && !plan.commands.some((c) => c.kind === 'speech'))
        state = { ...state, speech: this.#state.speech };
    }
    this.#state = state;
    this.#o.scheduler.run(plan);
  }
}

/**
 * What the behaviours react to: the emotions this event raised (at their intensity now, reinforced
 * where one was felt already) and the mood. Not every emotion still felt: a joy left from a rich
 * trick some seconds before would otherwise show on the face, and choose the words, at the game's
 * end that was lost.
 */
export function raised(report: EmotionReport, felt: readonly FeltEmotion[]): EmotionalStateInput {
  const keys = new Set(felt.map((f) => `${f.type}/${String(f.target)}`));
  return { emotions: report.emotions.filter((e) => keys.has(`${e.type}/${String(e.target)}`)), mood: report.mood };
}

/** The deal's estimate combined with the hand model's (a fixed function of the hand): searchWeight of its noise is left. */
function combinedWithModel(model: HandAssessment, estimate: Estimate, searchWeight: number): Estimate {
  const k = Math.min(1, Math.max(0, searchWeight));
  const out: Estimate = { ...estimate, ...combineEstimates(model, estimate, k) };
  if (estimate.pointsSe !== undefined) out.pointsSe = k * estimate.pointsSe;
  if (estimate.winSe !== undefined) out.winSe = k * estimate.winSe;
  return out;
}

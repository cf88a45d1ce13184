// How the robot reacts, one event at a time and in order: the expectation after the event (its own
// decision's beliefs, else a quick estimate from its information set), the appraisal, the `emotions`
// message, then the behaviour plan carried out by the scheduler. Events come from the session
// runtime as the robot's seat sees them (through its player, see player-tap.ts); everything the
// reactions produce goes onto the bus.

import type { Appraiser, EmotionReport, Expectation } from '../../appraisal/index.js';
import { expectationOf } from '../../appraisal/index.js';
import type { BehaviourEvent, BehaviourScheduler, BehaviourSetup, BehaviourState, Clock, ToggleBoard } from '../../behaviours/index.js';
import { initialBehaviourState, planBehaviour } from '../../behaviours/index.js';
import type { Beliefs, Card, Decision, GameEvent, InfoSet, Rng, Seat } from '../../game/index.js';
import { createRng, forcedDecision } from '../../game/index.js';
import type { Bus } from '../bus/bus.js';
import { ownPlayCategory, withCardSaid } from './card-line.js';
import { emotionalStateMessage } from './emotion-message.js';
import type { ExpectationSource } from './expectation-estimator.js';
import type { NodeLogger } from './logger.js';
import { RobotView } from './robot-view.js';

export interface ReactionsOptions {
  bus: Bus;
  robotSeat: Seat;
  games: number;
  seed: number;
  appraiser: Appraiser;
  /** Null: no estimates; the last expectation stands between the robot's decisions. */
  estimator: ExpectationSource | null;
  setup: BehaviourSetup;
  toggles: ToggleBoard;
  scheduler: BehaviourScheduler;
  /** The scheduler's clock. */
  clock: Clock;
  log: NodeLogger;
}

interface Pending {
  event: GameEvent;
  /** The robot's information set just after the event, when an estimate is wanted. */
  info: InfoSet | null;
  beliefs: Beliefs | undefined;
  /** For the robot's own play: the cards of the trick with it, and the trump suit. */
  trick: Card[];
}

export class RobotReactions {
  readonly #o: ReactionsOptions;
  readonly #view: RobotView;
  readonly #rng: Rng;
  #state: BehaviourState;
  /** The behaviours in force; the operator may switch the language during the session. */
  #setup: BehaviourSetup;
  #queue: Promise<void> = Promise.resolve();
  #decision: Decision | null = null;
  #deals = 0;
  #ends = 0;
  #victories: [number, number] = [0, 0];
  /** Counts of what was done, for the summary and tests. */
  readonly stats = { events: 0, estimates: 0, estimateFailures: 0 };

  constructor(o: ReactionsOptions) {
    this.#o = o;
    this.#view = new RobotView(o.robotSeat);
    this.#rng = createRng(o.seed ^ 0x5eed);
    this.#state = initialBehaviourState(o.robotSeat);
    this.#setup = o.setup;
  }

  /** Speaks from another library (a language change); effective at the next event. */
  useSetup(setup: BehaviourSetup): void {
    this.#setup = setup;
  }

  /** The session begins (greeting, look at the partner). */
  sessionStart(): void {
    this.#enqueue(async () => this.#behave({ type: 'session-start', robotSeat: this.#o.robotSeat, games: this.#o.games }, this.#o.appraiser.report()));
  }

  /** The robot's player decided; its play event follows. */
  decided(decision: Decision): void {
    this.#decision = decision;
  }

  /** A game event as the robot's seat sees it, at the moment it happens. */
  observe(event: GameEvent): void {
    const own = event.type === 'play' && event.seat === this.#o.robotSeat;
    // The trick as the robot's card joins it (read before the view moves on, which may close it).
    const trick: Card[] = [];
    const before = this.#view.game;
    if (own && before) for (let i = 0; i < before.cardsInTrick; i++) trick.push(before.trickCard(i));
    if (own) trick.push(event.card);
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
    const searched = expectationOf(beliefs) !== undefined;
    const wantsEstimate = this.#o.estimator !== null && !searched && (event.type === 'deal' || event.type === 'play');
    this.#enqueue(() => this.#react({ event, info: wantsEstimate ? this.#view.infoSet() : null, beliefs, trick }));
  }

  /** Resolves when every event so far has been reacted to. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((e: unknown) => this.#o.log.error({ err: e instanceof Error ? e.stack : String(e) }, 'a reaction failed'));
  }

  async #react(p: Pending): Promise<void> {
    const { event: e } = p;
    this.stats.events++;
    let after: Expectation | undefined = expectationOf(p.beliefs);
    if (!after && p.info && this.#o.estimator) {
      // Each estimate goes on the bus: it is time-bound, so a replay answers with the recorded one.
      try {
        after = await this.#o.estimator.estimate(p.info);
        this.stats.estimates++;
        this.#o.bus.publish('expectation', after ? { status: 'ok', expected_points: after.expectedPoints, win_probability: after.winProbability, detail: '' } : { status: 'none', expected_points: -1, win_probability: -1, detail: '' });
      } catch (err) {
        this.stats.estimateFailures++;
        this.#o.bus.publish('expectation', { status: 'failed', expected_points: -1, win_probability: -1, detail: err instanceof Error ? err.message : String(err) });
        this.#o.log.warn({ err: String(err) }, 'an expectation estimate failed; the last expectation stands');
      }
    }
    if (e.type === 'deal') this.#behave({ type: 'game-start', game: ++this.#deals, dealer: e.dealer }, this.#o.appraiser.report());
    const { report } = this.#o.appraiser.perceive(e, after ? { after } : undefined);
    this.#o.bus.publish('emotions', emotionalStateMessage(report));
    this.#behave(e, report, p);
    if (e.type !== 'end') return;
    if (e.outcome.winner !== 'draw') this.#victories[e.outcome.winner === 'A' ? 0 : 1] += e.outcome.victories;
    if (++this.#ends < this.#o.games) return;
    const victories: [number, number] = [this.#victories[0], this.#victories[1]];
    const last = this.#o.appraiser.perceive({ type: 'session-end', victories, games: this.#ends });
    this.#o.bus.publish('emotions', emotionalStateMessage(last.report));
    this.#behave({ type: 'session-end', victories }, last.report);
  }

  #behave(event: BehaviourEvent, report: EmotionReport, p?: Pending): void {
    const nowMs = this.#o.clock.now();
    const toggles = this.#o.toggles.get();
    const r = planBehaviour(this.#setup, { event, emotions: report, beliefs: p?.beliefs ?? null, toggles, state: this.#state, rng: this.#rng, nowMs });
    let { plan, state } = r;
    if (event.type === 'play' && event.seat === this.#o.robotSeat && p) {
      const category = ownPlayCategory(event.card, p.trick, state.trump, p.beliefs?.fallback === 'forced');
      ({ plan, state } = withCardSaid(this.#setup, plan, state, { card: event.card, category, speech: toggles.speech, nowMs }));
    }
    this.#state = state;
    this.#o.scheduler.run(plan);
  }
}

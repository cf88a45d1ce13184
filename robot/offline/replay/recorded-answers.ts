// The answers a replay cannot recompute, taken from the recording: the robot's decisions (its search
// is time-bound) and the quick estimates behind the appraisal (time-bound too). Each is released by
// the replay driver when it reaches the recorded message, so it arrives at its recorded time; a
// question the recording has no answer for, or one asked for another seat or position, is reported.

import type { Expectation } from '../../../appraisal/index.js';
import type { Beliefs, Card, Decision, GameEvent, InfoSet, Recollection, Seat, SeatView } from '../../../game/index.js';
import { formatCard, parseCard } from '../../../game/index.js';
import { reasonOfMessage } from '../../live/index.js';
import type { DecisionMessage, ExpectationMessage } from '../../bus/index.js';
import type { ExpectationSource, RobotPlayer } from '../../live/index.js';

/** A recorded decision of the robot, with where it was made (from the play event that followed it). */
export interface RecordedDecision {
  seat: Seat;
  /** Game index (0-based) and trick (0-based) of the play. */
  game: number;
  trick: number;
  decision: Decision;
  /** The runtime played it without asking the player (a single legal card). */
  forced: boolean;
  time: number;
}

const NO_BELIEFS = 'the player reports no beliefs';

/** The decision a `decision` message describes: the inverse of decisionMessage (bus-messages.ts). */
export function decisionOf(m: DecisionMessage): Decision {
  const card = parseCard(m.card);
  if (m.explanation === NO_BELIEFS) return { card };
  const beliefs: Beliefs = {
    moves: m.moves.map((x) => ({ card: parseCard(x.card), mean: x.mean, sd: x.sd, winProbability: x.win_probability })),
    worlds: m.worlds,
    nodes: m.nodes,
    timeMs: m.time_ms,
    // decisionMessage writes -1 for "not known" (NaN).
    winProbability: m.win_probability === -1 ? NaN : m.win_probability,
    exactFromTrick: m.exact_from_trick,
  };
  if (m.fallback === 'rule' || m.fallback === 'forced') beliefs.fallback = m.fallback;
  if (m.inference_trust >= 0)
    beliefs.inference = {
      trust: m.inference_trust,
      candidates: m.inference_candidates,
      effective: m.inference_effective,
    };
  if (m.objective === 'points' || m.objective === 'victories') beliefs.objective = m.objective;
  if (m.points_from === 'exact' || m.points_from === 'bounds') beliefs.points = m.points_from;
  if (m.move_victories.length === beliefs.moves.length)
    beliefs.moves.forEach((x, i) => (x.victories = m.move_victories[i]!));
  const reason = reasonOfMessage(m);
  if (reason) beliefs.reason = reason;
  return { card, beliefs };
}

const where = (game: number, trick: number, seat: Seat): string => `game ${game + 1}, trick ${trick + 1}, seat ${seat}`;

interface RecordedPlayerOptions {
  /** Answers questions the recording has none for (a restart goes on live); default: the first legal card, reported. At a level of play it is given what the robot recalls. */
  fallback?: RobotPlayer & { decide(view: SeatView, recollection?: Recollection): Promise<Decision> };
  /** Every recorded answer is available at once (a restart), instead of released one by one (a replay). */
  immediate?: RecordedDecision[];
}

/** The robot's player in a replay: answers with the recorded card and beliefs. */
export class RecordedRobotPlayer implements RobotPlayer {
  readonly kind = 'recorded';
  /** Questions answered from the recording. */
  answered = 0;
  /** Where the runtime asked something the recording does not answer. */
  readonly differences: string[] = [];
  readonly #released: RecordedDecision[];
  readonly #fallback: RecordedPlayerOptions['fallback'];
  #game = -1;
  #fallbackNow = false;
  #pending: {
    view: SeatView;
    recollection: Recollection | undefined;
    resolve: (d: Decision | Promise<Decision>) => void;
  } | null = null;

  constructor(o: RecordedPlayerOptions = {}) {
    this.#fallback = o.fallback;
    this.#released = [...(o.immediate ?? [])];
  }

  newGame(game: number): void {
    this.#game = game;
    this.#fallback?.newGame?.(game);
  }

  observe(event: GameEvent): void {
    this.#fallback?.observe?.(event);
  }

  /** The recorded answer; `recollection` (a level of play) is handed to the fallback when it decides. */
  decide(view: SeatView, recollection?: Recollection): Promise<Decision> {
    return new Promise((resolve) => {
      this.#pending = { view, recollection, resolve };
      this.#answer();
    });
  }

  /** The driver reached this recorded decision: it is the answer to the question asked (or the next one). */
  release(d: RecordedDecision): void {
    this.#released.push(d);
    this.#answer();
  }

  /** Recorded answers not asked for. */
  get unused(): number {
    return this.#released.length;
  }

  /** No more answers will come: a question waiting, or asked later, is answered by the fallback (or the first legal card). */
  finish(): void {
    this.#fallbackNow = true;
    this.#released.length = 0;
    const p = this.#pending;
    if (!p) return;
    this.#pending = null;
    p.resolve(this.#otherwise(p.view, 'the recording has no decision for it', p.recollection));
  }

  #answer(): void {
    const p = this.#pending;
    if (!p) return;
    const d = this.#released[0];
    if (!d) {
      // After the recorded answers (a restart goes live; a replay has finished), the fallback decides.
      if (this.#fallbackNow) {
        this.#pending = null;
        p.resolve(this.#otherwise(p.view, 'the recording has no decision for it', p.recollection));
      }
      return;
    }
    this.#released.shift();
    this.#pending = null;
    const { view } = p;
    const asked = where(this.#game, view.trick, view.seat);
    const legal = view.legalCards();
    if (d.game !== this.#game || d.trick !== view.trick || d.seat !== view.seat) {
      this.differences.push(
        `the runtime asked for a decision at ${asked}, the recording has the next one at ${where(d.game, d.trick, d.seat)}`,
      );
    }
    if (!legal.includes(d.decision.card)) {
      p.resolve(
        this.#otherwise(view, `the recorded ${formatCard(d.decision.card)} is not legal there`, p.recollection),
      );
      return;
    }
    this.answered++;
    p.resolve(d.decision);
  }

  /** A restart has given every recorded answer: the fallback (the live player) decides from now on. */
  goLive(): void {
    this.#fallbackNow = true;
    this.#released.length = 0;
    this.#answer();
  }

  #otherwise(view: SeatView, why: string, recollection?: Recollection): Decision | Promise<Decision> {
    if (this.#fallback) return this.#fallback.decide(view, recollection);
    const card: Card = view.legalCards()[0]!;
    this.differences.push(
      `the runtime asked for a decision at ${where(this.#game, view.trick, view.seat)}: ${why}; it played ${formatCard(card)}, its first legal card`,
    );
    return { card };
  }
}

/**
 * The estimates in a replay: the recorded ones, in order, each released at its recorded place. A
 * recording names the event each estimate was for (`event_index`), and an estimate asked for another
 * event is reported; older recordings do not (-1), and are answered in order.
 */
export class RecordedEstimator implements ExpectationSource {
  answered = 0;
  readonly differences: string[] = [];
  readonly #released: ExpectationMessage[] = [];
  readonly #pending: {
    info: InfoSet;
    event: number;
    resolve: (e: Expectation | undefined) => void;
    reject: (e: Error) => void;
  }[] = [];
  #fallback: ExpectationSource | null = null;
  #finished = false;

  constructor(immediate: ExpectationMessage[] = []) {
    for (const m of immediate) this.#released.push(m);
  }

  estimate(info: InfoSet, event: number): Promise<Expectation | undefined> {
    if (this.#fallback && !this.#released.length) return this.#fallback.estimate(info, event);
    if (this.#finished) {
      this.differences.push(`the reactions asked for an estimate after event ${event} the recording does not have`);
      return Promise.reject(new Error('the recording has no estimate for this event'));
    }
    return new Promise((resolve, reject) => {
      this.#pending.push({ info, event, resolve, reject });
      this.#answer();
    });
  }

  release(m: ExpectationMessage): void {
    this.#released.push(m);
    this.#answer();
  }

  get unused(): number {
    return this.#released.length;
  }

  /** From now on, questions with no recorded answer go to `live` (a restart); null: no estimate. */
  goLive(live: ExpectationSource | null): void {
    this.#fallback = live ?? { estimate: () => Promise.resolve(undefined) };
    this.#released.length = 0;
    for (const p of this.#pending.splice(0)) this.#fallback.estimate(p.info, p.event).then(p.resolve, p.reject);
  }

  finish(): void {
    this.#finished = true;
    for (const p of this.#pending.splice(0)) {
      this.differences.push(`the reactions asked for an estimate after event ${p.event} the recording does not have`);
      p.reject(new Error('the recording has no estimate for this event'));
    }
  }

  #answer(): void {
    while (this.#pending.length && this.#released.length) {
      const p = this.#pending.shift()!;
      const m = this.#released.shift()!;
      this.answered++;
      if (m.event_index !== -1 && m.event_index !== p.event) {
        this.differences.push(
          `the reactions asked for an estimate after event ${p.event}, the recording has the next one for event ${m.event_index}`,
        );
      }
      if (m.status === 'ok') {
        p.resolve({
          expectedPoints: m.expected_points,
          winProbability: m.win_probability,
          ...(m.choice >= 0 ? { choice: m.choice } : {}),
          ...(m.points_se >= 0 ? { pointsSe: m.points_se } : {}),
          ...(m.win_se >= 0 ? { winSe: m.win_se } : {}),
        });
      } else if (m.status === 'none') p.resolve(undefined);
      else p.reject(new Error(m.detail || 'the estimate failed'));
    }
  }
}

// The end-of-game review (as Yano and Onisawa's poker partner remarks on a game at its end): when a
// game ends the robot looks back on it with all cards in view (game/explain/review.ts, on a worker
// thread) and publishes the review on the bus (/parceiro/review), where the dashboard shows it and the
// recording keeps it. A table may ask for it (game:control `review`, "como correu o jogo?"): the robot
// then tells it aloud, in the session's language, to the person at that table when it hosts one seat. Told only when asked: a review names the others'
// slips, which nobody wants unasked.
//
// A replay does not review again: it feeds the recorded reviews in their place, so an answer to a
// question asked before the review was ready ("still looking back") replays as it was said.

import { builtModule } from '../../../config/index.js';
import { Piscina } from 'piscina';
import type { BehaviourScheduler, BehaviourSetup, Clock } from '../../../behaviours/index.js';
import { reviewText } from '../../../behaviours/index.js';
import type { Card, GameReview, PlayedGame, Seat } from '../../../game/index.js';
import { parseCard } from '../../../game/index.js';
import type { Bus, GameReviewMessage, Unsubscribe } from '../../bus/index.js';
import { reviewMessage, reviewOfMessage } from '../session/bus-messages.js';
import { workersLoaded } from '../search/workers-loaded.js';
import type { NodeLogger } from './logger.js';
import { sayNow } from './say-now.js';

// The review as a bus message and back: pure, with the session's other messages (the dashboard reads them too).
export { reviewMessage, reviewOfMessage };

/** Reviews a finished game; the live node's runs on a worker thread. */
export interface GameReviewer {
  review(game: PlayedGame): Promise<GameReview>;
  close(): Promise<void>;
}

/** A worker thread of its own, started at the first game's end (most sessions' first minutes need none). */
export class WorkerReviewer implements GameReviewer {
  #pool: Piscina<PlayedGame, GameReview> | null = null;
  #loaded: Promise<void> = Promise.resolve();

  review(game: PlayedGame): Promise<GameReview> {
    if (!this.#pool) {
      this.#pool = new Piscina({
        filename: builtModule('robot', 'live', 'node', 'review-worker.js').href,
        minThreads: 1,
        maxThreads: 1,
      });
      this.#loaded = workersLoaded(this.#pool);
    }
    return this.#pool.run(game);
  }

  async close(): Promise<void> {
    if (!this.#pool) return;
    await this.#loaded;
    await this.#pool.destroy();
  }
}

interface ReviewsOptions {
  bus: Bus;
  /** null in a replay: the recorded reviews are fed in instead. */
  reviewer: GameReviewer | null;
  log: NodeLogger;
}

/**
 * Reviews each game as it ends, from the game events on the bus (the deal, every play, a renounce),
 * and publishes the review. `idle()` resolves once every review started has been published.
 */
export function startReviews(o: ReviewsOptions): { idle(): Promise<void>; close(): Promise<void> } {
  let game: {
    dealer: Seat;
    trumpCard: Card;
    plays: Card[];
    renounce: NonNullable<PlayedGame['renounce']> | null;
  } | null = null;
  const pending = new Set<Promise<void>>();
  const off = o.bus.subscribe('gameEvents', (m) => {
    if (m.type === 'deal') game = { dealer: m.seat as Seat, trumpCard: parseCard(m.card), plays: [], renounce: null };
    else if (!game) return;
    else if (m.type === 'play') game.plays.push(parseCard(m.card));
    else if (m.type === 'renounce') game.renounce = { seat: m.seat as Seat, card: parseCard(m.card), trick: m.trick };
    else if (m.type === 'end' && o.reviewer) {
      const played: PlayedGame = game;
      const number = m.game;
      game = null;
      const done = o.reviewer
        .review(played)
        .then(
          (r) => o.bus.publish('review', reviewMessage(number, r)),
          (e: unknown) => {
            o.log.warn({ game: number, err: e }, 'the end-of-game review failed');
            o.bus.publish('review', {
              game: number,
              status: 'failed',
              dealt_points: -1,
              final_points: -1,
              changes: 0,
              values: [],
              moments: [],
              nodes: 0,
              detail: e instanceof Error ? e.message : String(e),
            });
          },
        )
        .finally(() => pending.delete(done));
      pending.add(done);
    }
  });
  const idle = async (): Promise<void> => {
    while (pending.size) await Promise.all([...pending]);
  };
  return {
    idle,
    close: async () => {
      off();
      await idle();
      await o.reviewer?.close();
    },
  };
}

interface ReviewQuestionsOptions {
  bus: Bus;
  scheduler: BehaviourScheduler;
  setups: ReadonlyMap<string, BehaviourSetup>;
  language: string;
  robotSeat: Seat;
  clock: Clock;
  log: NodeLogger;
}

/** Answers a table's `review` question aloud with the review of the last game that ended. */
export function listenForReview(o: ReviewQuestionsOptions): Unsubscribe {
  let language = o.language;
  /** The last game that ended, and the last review published. */
  let ended = -1;
  let last: GameReviewMessage | null = null;
  let asked = 0;
  /** The seats each table hosts, from its hello: a table of one seat is one person, spoken to as such. */
  const hosts = new Map<string, readonly number[]>();
  const answer = (listener: Seat | null): string | null => {
    const library = (o.setups.get(language) ?? [...o.setups.values()][0]!).utterances;
    const words = library.review;
    if (!words) return null;
    if (ended < 0) return words.noGame;
    if (!last || last.game !== ended) return words.pending;
    const review = reviewOfMessage(last);
    return (review && reviewText(library, review, o.robotSeat, listener)) ?? words.unavailable;
  };
  const offs = [
    o.bus.subscribe('language', (m) => void (language = m.language)),
    o.bus.subscribe('gameEvents', (m) => {
      if (m.type === 'end') ended = m.game;
    }),
    o.bus.subscribe('review', (m) => void (last = m)),
    o.bus.subscribe('tableEvents', (m) => {
      if (m.kind === 'hello') hosts.set(m.table_id, m.seats);
      if (m.kind !== 'control' || m.action !== 'review') return;
      // Asked from one person's table: the partner hears "jogaste", and the opponents named as they see them.
      const seats = hosts.get(m.table_id) ?? [];
      const asker = seats.length === 1 ? (seats[0] as Seat) : null;
      const text = answer(asker);
      if (!text)
        return void o.log.warn(
          { language },
          `asked for the game's review, but the ${language} utterances have no review section: nothing said`,
        );
      sayNow(o.scheduler, o.setups.get(language) ?? [...o.setups.values()][0]!, o.clock, {
        id: `review#${++asked}`,
        category: 'asked.review',
        askedBy: asker,
        text,
        language,
      });
    }),
  ];
  return () => offs.forEach((off) => off());
}

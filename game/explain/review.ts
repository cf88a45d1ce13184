// The end-of-game review (as Yano and Onisawa's poker partner remarks on a game at its end): once a
// game is over every card is known, so the game can be looked back on with all cards in view. The value
// of each position along the game as played, with best play by everyone from there (the exact solver,
// "double dummy"), changes only when the seat to play chose a card worse for its team than its best:
// those changes are the moments that turned the game, whose they were is the seat that played, and the
// card that kept the value is what would have been better. At the deal that value is what the cards
// alone were worth; the sum of the changes is how far the play moved the game from it. Pure and
// deterministic: a game's review is a function of its cards.
//
// Hindsight, said as such: a seat could not see the others' cards, so a "better" card here is better
// with all cards in view, not always one a player could have found.

import type { Card } from '../cards.js';
import { Game } from '../game.js';
import { victoriesFor } from '../scoring.js';
import type { Seat } from '../seats.js';
import { teamOf } from '../seats.js';
import type { Position } from '../solver/position.js';
import { Solver } from '../solver/solver.js';
import { positionOf } from '../search/world.js';

/** A game as it was played: who dealt, the card turned up, the cards in order of play. */
export interface PlayedGame {
  dealer: Seat;
  trumpCard: Card;
  /** Every card played, in order (the seat of each follows from the rules). */
  plays: readonly Card[];
  /** The renounce that ended the game, when one did (found at once or claimed later). */
  renounce?: { seat: Seat; card: Card; trick: number } | null;
}

/** One play that changed the game's value with all cards in view. Points are team A's final points. */
export interface ReviewMoment {
  /** Index of the card among the game's plays (0..39). */
  play: number;
  /** 0..9. */
  trick: number;
  seat: Seat;
  card: Card;
  /** A card the seat held that kept the value for its team (null for a renounce). */
  better: Card | null;
  /** Team A's final points with best play from here: before the card (what `better` keeps) and after it. */
  before: number;
  after: number;
}

export interface GameReview {
  /**
   * reviewed: every card was played and the game was valued along its course; renounce: the game
   * ended on a renounce (its one moment); incomplete: not every card was played and none renounced.
   */
  status: 'reviewed' | 'renounce' | 'incomplete';
  /** Team A's final points with best play by everyone from the deal (null unless reviewed). */
  dealt: number | null;
  /** Team A's final points as played (null unless reviewed). */
  final: number | null;
  /** How many plays changed the value (each one a card worse than its player's best, in hindsight). */
  changes: number;
  /** Team A's final points with best play by everyone before each card, and as played after the last (41 values; empty unless reviewed). */
  values: number[];
  /** The moments that changed the outcome most, up to `moments`, in the order they were played. */
  moments: ReviewMoment[];
  /** Solver nodes spent (the review's cost, machine-independent). */
  nodes: number;
}

interface ReviewOptions {
  /** Moments kept at most (default 3). */
  moments?: number;
  /** A change that moves no victory counts only from this many points (default 5): a few points are not a turn. */
  minPoints?: number;
}

const REVIEW_MOMENTS = 3;
const REVIEW_MIN_POINTS = 5;

/** The seat that played each card, by the rules (tricks won by the highest trump, else the highest of the suit led). */
function seatsOf(g: PlayedGame): Seat[] | null {
  const game = new Game({ dealer: g.dealer, trumpCard: g.trumpCard, hands: null });
  const seats: Seat[] = [];
  for (const card of g.plays) {
    if (game.isOver) return null;
    seats.push(game.toMove);
    game.play(card);
  }
  return seats;
}

/**
 * A card that keeps the value the moment's seat lost: the first of its legal cards (in the solver's
 * order) whose team's final points reach the value before, by one zero-window test each.
 */
function keeper(solver: Solver, p: Position, m: ReviewMoment): Card {
  solver.load(p);
  const team = teamOf(m.seat);
  const target = team === 0 ? m.before : 120 - m.before;
  for (const card of solver.legalCards(m.seat)) {
    if (card !== m.card && solver.testAfter(m.seat, card, p.points[team]!, target)) return card;
  }
  throw new Error(
    `no card of seat ${m.seat} keeps ${target} points at play ${m.play}: the values along the game are wrong`,
  );
}

/** How much a change matters: the victories it moves first, then its points. */
const weight = (m: ReviewMoment): number =>
  Math.abs(victoriesFor(m.after) - victoriesFor(m.before)) * 1000 + Math.abs(m.after - m.before);

/**
 * Reviews a finished game with all cards in view. Throws PlayError (game.ts) for plays that cannot
 * happen. `solver` may be shared between reviews (its table only speeds it up).
 */
export function reviewGame(g: PlayedGame, solver: Solver = new Solver(), o: ReviewOptions = {}): GameReview {
  const keep = o.moments ?? REVIEW_MOMENTS;
  const minPoints = o.minPoints ?? REVIEW_MIN_POINTS;
  const start = solver.nodes;
  const seats = seatsOf(g);
  const renounced = (r: { seat: Seat; card: Card; trick: number }): GameReview => ({
    status: 'renounce',
    dealt: null,
    final: null,
    changes: 0,
    values: [],
    moments: [
      {
        play: Math.max(0, g.plays.indexOf(r.card)),
        trick: r.trick,
        seat: r.seat,
        card: r.card,
        better: null,
        before: -1,
        after: -1,
      },
    ],
    nodes: solver.nodes - start,
  });
  if (g.renounce) return renounced(g.renounce);
  if (!seats || g.plays.length !== 40)
    return { status: 'incomplete', dealt: null, final: null, changes: 0, values: [], moments: [], nodes: 0 };

  // Every card was played: each seat's hand at the deal is the cards it played.
  const hands: Card[][] = [[], [], [], []];
  g.plays.forEach((c, i) => hands[seats[i]!]!.push(c));
  const game = new Game({ dealer: g.dealer, trumpCard: g.trumpCard, hands });
  const positions: Position[] = [];
  for (let i = 0; i < 40; i++) {
    positions.push(positionOf(game));
    game.play(g.plays[i]!, seats[i]!);
    // Hands known from the deal: a card that does not follow suit while holding it ends the game here.
    if (game.renounce) return renounced({ seat: seats[i]!, card: g.plays[i]!, trick: Math.floor(i / 4) });
  }
  // Valued from the end back to the deal: each position's value is most often the next one's (the
  // card played was its player's best), so it is the guess that settles it in a search or two, and the
  // later positions' table entries are the earlier ones' subtrees. Forward, the first search (the
  // whole deal, from the middle) took most of the time: 26.9 M nodes for the worst of 50 games.
  const values = new Array<number>(41);
  values[40] = game.points(0);
  for (let i = 39; i >= 0; i--) {
    const { toMove, value } = solver.solve(positions[i]!, values[i + 1]);
    values[i] = teamOf(toMove) === 0 ? value : 120 - value;
  }

  const changed: ReviewMoment[] = [];
  for (let i = 0; i < 40; i++) {
    const before = values[i]!;
    const after = values[i + 1]!;
    if (after !== before)
      changed.push({
        play: i,
        trick: Math.floor(i / 4),
        seat: seats[i]!,
        card: g.plays[i]!,
        better: null,
        before,
        after,
      });
  }
  const moments = changed
    .filter((m) => victoriesFor(m.after) !== victoriesFor(m.before) || Math.abs(m.after - m.before) >= minPoints)
    .sort((a, b) => weight(b) - weight(a) || a.play - b.play)
    .slice(0, keep)
    .sort((a, b) => a.play - b.play);
  for (const m of moments) m.better = keeper(solver, positions[m.play]!, m);
  return {
    status: 'reviewed',
    dealt: values[0]!,
    final: values[40]!,
    changes: changed.length,
    values,
    moments,
    nodes: solver.nodes - start,
  };
}

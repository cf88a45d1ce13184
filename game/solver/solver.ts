// The exact double-dummy solver: the points each team takes from the remaining cards under best play
// by both, for any perfect-information position (mid-trick too).
//
// How it gets fast (ideas from DDS and bridge-solver, adapted to a game scored in points):
// - The search value is team A's points from the remaining cards; team A's seats maximize, B's
//   minimize. MTD(f) drives zero-window alpha-beta searches, which prune far more than wide windows;
//   its steps grow while they fail the same way, then it bisects, since fail-soft bounds in points
//   can be loose.
// - A transposition table at trick boundaries. Its key is, per suit, the owners of the remaining
//   cards from high to low: absolute ranks do not matter, only order, so positions that differ only
//   in cards of no consequence share an entry. Which of them carry points is kept in the entry, and a
//   position that differs only in those reads the stored bounds widened by the points that differ
//   (quasi-symmetry, tt.ts). The three side suits are sorted, so positions that differ by a
//   permutation of them share an entry too. The leader is in the key.
// - Sure points at trick boundaries (quick tricks adapted to points: top trumps, the leader's cashes,
//   a lead to the partner's master) bound the value from both sides and may decide a zero window
//   without a search.
// - The last two tricks are solved directly (at most 16 lines), through a small cache of exact values
//   that stays in the processor's cache: cheaper there than keys and table probes.
// - Cards of equal power: two cards of one hand with no live card (in any hand or on the table)
//   between them differ only in points. When the team taking the current trick is fixed whatever the
//   later seats play, only the one with the most points (that team's) or the fewest is searched
//   (dominance); otherwise their values differ by at most their points' difference, which can settle
//   one against the window from the other's value (see generate).
// - Victory classes: a game is scored in victories (61, 91 and 120 points), so a few zero-window tests
//   at the class thresholds tell a move's class at a fraction of an exact value's cost (classesAfter).
// - Move ordering by simple card-play sense (lead winners that cannot be ruffed, lead points to the
//   partner's winner, win cheaply, give points to a partner sure to win, throw nothing away to
//   opponents), the table's best lead, and the lead that last caused a cutoff at the same depth (a
//   killer move); the remaining points bound every value.
// - Everything in typed arrays and integers; no allocation inside the search.

import type { Card } from '../cards.js';
import { MASK_COUNT, RANK_POINTS, pointsOf, rankOf, suitOf } from '../cards.js';
import { victoriesFor } from '../scoring.js';
import type { Seat } from '../seats.js';
import type { Position } from './position.js';
import { checkPosition, toMoveOf } from './position.js';
import { TranspositionTable } from './tt.js';

interface MoveValue {
  card: Card;
  /** Final game points of the mover's team (points already won included) under best play. */
  value: number;
}

/**
 * The thresholds between victory classes, as "the team's final points are at least t": 1 (no longer
 * -4), 30 (-1 instead of -2), 60 (a draw), 61 (a win), 91 (2 victories), 120 (4).
 */
export const CLASS_THRESHOLDS: readonly number[] = [1, 30, 60, 61, 91, 120];

interface MoveClass {
  card: Card;
  /** Victories of the mover's team under best play (see victoriesFor). */
  victories: number;
  /** Bounds the proof found on the mover's team's final points (at least the class's interval, often tighter). */
  lower: number;
  upper: number;
}

interface SolverOptions {
  /** log2 of the transposition table's entries (default 20: 1 M entries, 16 MB). */
  ttBits?: number;
}

/** Thrown out of a search whose deadline passed; the solver is left ready for the next search. */
export class SearchAborted extends Error {
  constructor() {
    super('search aborted at its deadline');
    this.name = 'SearchAborted';
  }
}

const POINTS = new Int32Array(40);
for (let c = 0; c < 40; c++) POINTS[c] = pointsOf(c as Card);
const MAX_PLY = 41;
const MAX_MOVES = 10;
/** Suit, rank and rank bit of each card id (cheaper than dividing by 10 in the hot paths). */
const SUIT = new Int32Array(40);
const RANK = new Int32Array(40);
const BIT = new Int32Array(40);
for (let c = 0; c < 40; c++) {
  SUIT[c] = (c / 10) | 0;
  RANK[c] = c % 10;
  BIT[c] = 1 << (c % 10);
}
/**
 * MTD(f) from a guess: while every search has failed the same way, the next window moves 1, 2, 4...
 * points further (fail-soft bounds in points are often loose, and stepping one point at a time
 * crawls); once the value is bracketed, it bisects.
 */
const STRIDE = 2;
/** Added to the score of a lead that caused a cutoff at the same ply last time (killer heuristic). */
const KILLER_BONUS = 1 << 28;
/** log2 of the entries of the last-two-tricks cache (16 K entries, 128 KB: it stays in the processor's cache). */
const TWO_BITS = 14;
const TWO_MASK = (1 << TWO_BITS) - 1;
/** LOW_POINTS[k * 1024 + m]: the points of the k lowest cards of suit mask m (all of them if fewer). */
const LOW_POINTS = new Uint8Array(11 * 1024);
for (let m = 0; m < 1024; m++) {
  let sum = 0;
  let k = 0;
  for (let r = 0; r < 10; r++) {
    if (m & (1 << r)) {
      k++;
      sum += RANK_POINTS[r]!;
      LOW_POINTS[k * 1024 + m] = sum;
    }
  }
  for (k++; k <= 10; k++) LOW_POINTS[k * 1024 + m] = sum;
}
/** PEXT5[live * 32 + m]: the bits of `m` at the set bits of `live` (5-bit masks), packed low. */
const PEXT5 = new Uint8Array(1024);
const POP5 = new Uint8Array(32);
for (let live = 0; live < 32; live++) {
  let n = 0;
  for (let r = 0; r < 5; r++) if (live & (1 << r)) n++;
  POP5[live] = n;
  for (let m = 0; m < 32; m++) {
    let out = 0;
    let j = 0;
    for (let r = 0; r < 5; r++) {
      if (live & (1 << r)) {
        if (m & (1 << r)) out |= 1 << j;
        j++;
      }
    }
    PEXT5[live * 32 + m] = out;
  }
}

export class Solver {
  private readonly tt: TranspositionTable;
  private readonly hands = new Int32Array(16);
  private trump = 0;
  private leader = 0;
  private readonly table = new Int8Array(4);
  /** Per suit, the cards not yet in a completed trick (in hands or on the table). */
  private readonly inPlay = new Int32Array(4);
  private tableSize = 0;
  /** Index in `table` of the card winning the trick so far. */
  private best = 0;
  private tablePoints = 0;
  private handPoints = 0;
  private cardsInHands = 0;
  private readonly moves = new Int8Array(MAX_PLY * MAX_MOVES);
  private readonly scores = new Int32Array(MAX_PLY * MAX_MOVES);
  /** Per generated move, its run (the run's highest card) when it may differ from a sibling by its points only; -1 when it stands alone. */
  private readonly runOf = new Int8Array(MAX_PLY * MAX_MOVES);
  /** Per generated move, the value its search returned (seen from the node), for its run's siblings. */
  private readonly values = new Int32Array(MAX_PLY * MAX_MOVES);
  private readonly savedBest = new Int8Array(MAX_PLY);
  private readonly savedLeader = new Int8Array(MAX_PLY);
  private readonly savedTablePoints = new Int32Array(MAX_PLY);
  /** The cards of a trick completed at each ply: the next trick overwrites `table`. */
  private readonly savedTable = new Int8Array(MAX_PLY * 4);
  /** lastTwo: each seat's two cards (from the leader), and the index in twoCards of the card each plays first. */
  private readonly twoCards = new Int8Array(8);
  private readonly twoPick = new Int8Array(4);
  /** lastTwo's cache: two int32s per entry, the cards, leader and trump (k1, k2) and the value in k2's top bits. */
  private readonly twoCache = new Int32Array(2 << TWO_BITS);
  /** Killer moves: the last card that caused a cutoff at each ply (-1: none). */
  private readonly killer = new Int8Array(MAX_PLY).fill(-1);
  /** The lead suggested by the transposition table for the node being generated (-1: none). */
  private hintCard = -1;
  /** Set by sureBounds. */
  private sureLower = 0;
  private sureUpper = 0;
  /** The key of the last boundary hashed (see computeKey). */
  private h1 = 0;
  private h2 = 0;
  /** The live point cards of the last boundary hashed, per canonical suit slot (see tt.ts). */
  private pattern = 0;
  /** Per ply, each suit's slot in the canonical suit order (side suits sorted by key, trump last). */
  private readonly slotOfSuit = new Int8Array(MAX_PLY * 4);
  /** The suit in each canonical slot at the last boundary hashed. */
  private readonly suitOfSlot = new Int8Array(4);
  /** Nodes visited since the solver was made (callers take differences). */
  nodes = 0;
  private deadline = Infinity;
  private clock: (() => number) | null = null;

  constructor(options: SolverOptions = {}) {
    this.tt = new TranspositionTable(options.ttBits ?? 20);
  }

  /** Forget every stored position (values stay valid across positions and worlds; this only frees room). */
  clearTable(): void {
    this.tt.clear();
    this.twoCache.fill(0);
    this.killer.fill(-1);
  }

  /** Makes searches throw SearchAborted once `clock()` passes `deadline` (checked every 1024 nodes). */
  setDeadline(deadline: number, clock: () => number): void {
    this.deadline = deadline;
    this.clock = clock;
  }

  clearDeadline(): void {
    this.deadline = Infinity;
    this.clock = null;
  }

  /**
   * The value of the position for the team to move, in its final game points. `guessA`: team A's
   * final points if something close is known (the value of a neighbouring position): MTD(f) then
   * needs a search or two at the value instead of closing in on it from the middle.
   */
  solve(p: Position, guessA?: number): { toMove: Seat; value: number; nodes: number } {
    const start = this.nodes;
    this.load(p);
    const toMove = toMoveOf(p);
    const remaining = this.handPoints + this.tablePoints;
    const guess = guessA === undefined ? remaining >> 1 : Math.min(remaining, Math.max(0, guessA - p.points[0]));
    const a = this.mtdf(guess, remaining);
    return { toMove, value: this.finalFor(toMove, p, a), nodes: this.nodes - start };
  }

  /** Every legal move of the seat to move with its value (final points of the mover's team). */
  moveValues(p: Position): { toMove: Seat; moves: MoveValue[]; nodes: number } {
    const start = this.nodes;
    this.load(p);
    const toMove = toMoveOf(p);
    const moves: MoveValue[] = [];
    const legal = this.legalCards(toMove);
    let guess = (this.handPoints + this.tablePoints) >> 1;
    let prev = -1;
    for (const card of legal) {
      // A card with the points and power of the previous one (no live card between) has its value.
      if (prev >= 0 && POINTS[prev] === POINTS[card] && this.samePower(prev as Card, card)) {
        moves.push({ card, value: moves[moves.length - 1]!.value });
        prev = card;
        continue;
      }
      const a = this.valueAfter(toMove, card, guess);
      guess = a;
      prev = card;
      moves.push({ card, value: this.finalFor(toMove, p, a) });
    }
    return { toMove, moves, nodes: this.nodes - start };
  }

  /**
   * The victory class of every legal move of the seat to move: a handful of zero-window tests at
   * the class thresholds instead of an exact value (several times fewer nodes).
   */
  moveClasses(p: Position): { toMove: Seat; moves: MoveClass[]; nodes: number } {
    const start = this.nodes;
    this.load(p);
    const toMove = toMoveOf(p);
    const legal = this.legalCards(toMove);
    const bounds = new Int32Array(2 * legal.length);
    this.classesAfter(toMove, legal, p.points[toMove & 1]!, bounds);
    const moves = legal.map((card, i) => ({
      card,
      victories: victoriesFor(bounds[2 * i]!),
      lower: bounds[2 * i]!,
      upper: bounds[2 * i + 1]!,
    }));
    return { toMove, moves, nodes: this.nodes - start };
  }

  /**
   * The victory class of each of `cards` for `seat` (to move in the loaded position), whose team has
   * already won `won` points: `bounds[2i]` and `bounds[2i + 1]` get bounds on its team's final points
   * after card i, inside one class. A card of the same power as one already classed is settled without
   * a search when the other's bounds, widened by the points between them, stay inside one class.
   */
  classesAfter(seat: number, cards: readonly Card[], won: number, bounds: Int32Array): void {
    const most = won + this.handPoints + this.tablePoints;
    let guess = won + ((this.handPoints + this.tablePoints) >> 1);
    for (let i = 0; i < cards.length; i++) {
      const card = cards[i]!;
      let lower = -1;
      let upper = -1;
      for (let j = 0; j < i && lower < 0; j++) {
        const other = cards[j]!;
        if (!this.samePower(other, card)) continue;
        const d = POINTS[card]! - POINTS[other]!;
        const lo = Math.max(won, bounds[2 * j]! - (d < 0 ? -d : d));
        const hi = Math.min(most, bounds[2 * j + 1]! + (d < 0 ? -d : d));
        if (victoriesFor(lo) === victoriesFor(hi)) {
          lower = lo;
          upper = hi;
        }
      }
      if (lower < 0) {
        this.classify(seat, card, won, guess);
        lower = this.classLower;
        upper = this.classUpper;
        guess = (lower + upper) >> 1;
      }
      bounds[2 * i] = lower;
      bounds[2 * i + 1] = upper;
    }
  }

  /** Set by classOf and testAfter: bounds on the final points of the team asked about. */
  classLower = 0;
  classUpper = 0;

  /** The victory class of a position for the team to move: bounds on its final points into classLower and classUpper. */
  classOf(p: Position, guess?: number): void {
    this.load(p);
    const toMove = toMoveOf(p);
    const won = p.points[toMove & 1]!;
    this.classify(toMove, -1, won, guess ?? won + ((this.handPoints + this.tablePoints) >> 1));
  }

  /**
   * One zero-window test: are the final points of `seat`'s team at least `t` after it plays `card`?
   * True if so. classLower/classUpper get the bounds the test proved (fail-soft, often beyond t).
   */
  testAfter(seat: number, card: Card, won: number, t: number): boolean {
    return this.test(seat, card, won, t);
  }

  /**
   * Bounds on the final points of `seat`'s team, narrow enough to tell its victory class, after it
   * plays `card` (>= 0) from the loaded position, or in the loaded position with `seat` to move (-1).
   * `guess` is where the value probably lies: the tests start next to it.
   */
  private classify(seat: number, card: number, won: number, guess: number): void {
    let lower = won;
    let upper = won + this.handPoints + this.tablePoints;
    while (victoriesFor(lower) !== victoriesFor(upper)) {
      // The class threshold inside (lower, upper] nearest the guess.
      let t = -1;
      for (let i = 0; i < CLASS_THRESHOLDS.length; i++) {
        const x = CLASS_THRESHOLDS[i]!;
        if (x <= lower || x > upper) continue;
        if (t < 0 || Math.abs(x - guess) < Math.abs(t - guess)) t = x;
      }
      this.test(seat, card, won, t);
      if (this.classLower > lower) lower = this.classLower;
      if (this.classUpper < upper) upper = this.classUpper;
    }
    this.classLower = lower;
    this.classUpper = upper;
  }

  /** testAfter, or with `card` = -1 the same test on the loaded position with `seat` to move. */
  private test(seat: number, card: number, won: number, t: number): boolean {
    const ours = seat & 1;
    const moved = card >= 0;
    const total = this.handPoints + this.tablePoints; // the points in play before the card
    const gain = moved ? this.play(seat, card, 0) : -1;
    // Team A's points a from the cards in play are what it took with the card (if it completed the
    // trick) plus its share of the rest.
    const g0 = gain > 0 ? gain : 0;
    const most = g0 + this.handPoints + this.tablePoints;
    let g: number;
    // A's final points >= t when a >= t - won; B's when a <= total + won - t, that is a < total + won - t + 1.
    const beta = ours === 0 ? t - won : total + won - t + 1;
    try {
      g = beta <= g0 ? g0 : beta > most ? most : g0 + this.ab(beta - g0 - 1, beta - g0, moved ? 1 : 0);
    } finally {
      if (moved) this.undo(seat, card, 0, gain >= 0);
    }
    // g is fail-soft: a >= g when g >= beta, a <= g otherwise.
    const high = g >= beta;
    if (ours === 0) {
      this.classLower = high ? won + g : won;
      this.classUpper = high ? won + total : won + g;
    } else {
      this.classLower = high ? won : won + total - g;
      this.classUpper = high ? won + total - g : won + total;
    }
    return ours === 0 ? high : !high;
  }

  /**
   * Two cards of one hand in the loaded position with no live card between them (in a hand or on the
   * table): the same power for the rest of the deal, so their values differ by at most their points'
   * difference (and not at all when their points are equal).
   */
  samePower(a: Card, b: Card): boolean {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const s = SUIT[hi]!;
    if (SUIT[lo] !== s) return false;
    const between = ((1 << RANK[hi]!) - 1) ^ ((1 << (RANK[lo]! + 1)) - 1);
    return (this.inPlay[s]! & between) === 0;
  }

  /**
   * Team A's points from the cards in play (hands and table) after the seat to move plays `card`
   * from the loaded position. For players that search many positions: load once, value each move.
   */
  valueAfter(seat: number, card: Card, guess: number): number {
    const ply = 0;
    const gain = this.play(seat, card, ply);
    const remaining = this.handPoints + this.tablePoints;
    let a: number;
    try {
      a =
        (gain > 0 ? gain : 0) +
        this.mtdf(Math.max(0, Math.min(remaining, guess - (gain > 0 ? gain : 0))), remaining, 1);
    } finally {
      this.undo(seat, card, ply, gain >= 0);
    }
    return a;
  }

  /** Sets up a position for searching (checked; throws PositionError). */
  load(p: Position): void {
    checkPosition(p);
    this.hands.fill(0);
    this.inPlay.fill(0);
    this.handPoints = 0;
    this.cardsInHands = 0;
    for (let s = 0; s < 4; s++) {
      for (const c of p.hands[s]!) {
        this.hands[s * 4 + suitOf(c)]! |= 1 << rankOf(c);
        this.inPlay[suitOf(c)]! |= 1 << rankOf(c);
        this.handPoints += POINTS[c]!;
        this.cardsInHands++;
      }
    }
    this.trump = p.trump;
    this.leader = p.leader;
    this.tableSize = 0;
    this.tablePoints = 0;
    this.best = 0;
    for (const c of p.trick) {
      this.table[this.tableSize] = c;
      this.inPlay[suitOf(c)]! |= 1 << rankOf(c);
      if (this.tableSize && this.beats(c, this.table[this.best]! as Card)) this.best = this.tableSize;
      this.tableSize++;
      this.tablePoints += POINTS[c]!;
    }
  }

  /** Legal cards of `seat` in the loaded position, in id order. */
  legalCards(seat: number): Card[] {
    const out: Card[] = [];
    const led = this.tableSize ? suitOf(this.table[0]! as Card) : -1;
    const follow = led >= 0 && this.hands[seat * 4 + led] !== 0;
    for (let s = 0; s < 4; s++) {
      if (follow && s !== led) continue;
      const m = this.hands[seat * 4 + s]!;
      for (let r = 0; r < 10; r++) if (m & (1 << r)) out.push((s * 10 + r) as Card);
    }
    return out;
  }

  private finalFor(toMove: Seat, p: Position, pointsA: number): number {
    const remaining = this.handPoints + this.tablePoints;
    return (toMove & 1) === 0 ? p.points[0] + pointsA : p.points[1] + (remaining - pointsA);
  }

  /** MTD(f): zero-window searches converging on team A's value from the current node. */
  private mtdf(guess: number, remaining: number, ply = 0): number {
    let lower = 0;
    let upper = remaining;
    let g = 0;
    let step = 1;
    let ups = 0;
    let downs = 0;
    let beta = guess < 1 ? 1 : guess > remaining ? remaining : guess;
    while (lower < upper) {
      g = this.ab(beta - 1, beta, ply);
      if (g < beta) {
        upper = g;
        downs++;
      } else {
        lower = g;
        ups++;
      }
      if (lower >= upper) break;
      if (ups && downs) beta = (lower + upper + 1) >> 1;
      else {
        beta = ups ? lower + step : upper - step + 1;
        step *= STRIDE;
        if (beta > upper) beta = upper;
        if (beta <= lower) beta = lower + 1;
      }
    }
    return g;
  }

  private beats(card: Card, best: Card): boolean {
    const s = SUIT[card]!;
    const bs = SUIT[best]!;
    return s === bs ? card > best : s === this.trump;
  }

  /** Plays `card` for `seat`; returns team A's gain if it completed the trick (0 or more), else -1. */
  private play(seat: number, card: number, ply: number): number {
    const s = SUIT[card]!;
    this.hands[seat * 4 + s]! ^= BIT[card]!;
    const pts = POINTS[card]!;
    this.handPoints -= pts;
    this.cardsInHands--;
    this.savedBest[ply] = this.best;
    this.table[this.tableSize] = card;
    if (this.tableSize === 0) this.best = 0;
    else if (this.beats(card as Card, this.table[this.best]! as Card)) this.best = this.tableSize;
    this.tableSize++;
    this.tablePoints += pts;
    if (this.tableSize < 4) return -1;
    const winner = (this.leader + this.best) & 3;
    const gain = (winner & 1) === 0 ? this.tablePoints : 0;
    this.savedLeader[ply] = this.leader;
    this.savedTablePoints[ply] = this.tablePoints;
    const t = ply * 4;
    for (let i = 0; i < 4; i++) {
      const c = this.table[i]!;
      this.savedTable[t + i] = c;
      this.inPlay[SUIT[c]!]! ^= BIT[c]!;
    }
    this.leader = winner;
    this.tableSize = 0;
    this.tablePoints = 0;
    return gain;
  }

  private undo(seat: number, card: number, ply: number, completed: boolean): void {
    if (completed) {
      this.leader = this.savedLeader[ply]!;
      this.tablePoints = this.savedTablePoints[ply]!;
      const t = ply * 4;
      for (let i = 0; i < 4; i++) {
        const c = this.savedTable[t + i]!;
        this.table[i] = c;
        this.inPlay[SUIT[c]!]! ^= BIT[c]!;
      }
      this.tableSize = 4;
    }
    this.tableSize--;
    const pts = POINTS[card]!;
    this.tablePoints -= pts;
    this.best = this.savedBest[ply]!;
    this.hands[seat * 4 + SUIT[card]!]! ^= BIT[card]!;
    this.handPoints += pts;
    this.cardsInHands++;
  }

  /** Fail-soft alpha-beta on team A's points from the cards in play. */
  private ab(alpha: number, beta: number, ply: number): number {
    const nodes = ++this.nodes;
    if ((nodes & 1023) === 0 && this.clock !== null && this.clock() > this.deadline) throw new SearchAborted();
    let h1 = 0;
    let h2 = 0;
    let pattern = 0;
    let alpha0 = alpha;
    let beta0 = beta;
    const atBoundary = this.tableSize === 0;
    if (atBoundary) {
      const remaining = this.handPoints;
      if (this.cardsInHands === 0) return 0;
      if (beta <= 0) return 0;
      if (alpha >= remaining) return remaining;
      if (this.cardsInHands === 4) return this.lastTrick();
      if (this.cardsInHands === 8) return this.lastTwo();
      this.computeKey(ply);
      h1 = this.h1;
      h2 = this.h2;
      pattern = this.pattern;
      let lower = 0;
      let upper = remaining;
      this.hintCard = -1;
      if (this.tt.probe(h1, h2, pattern)) {
        if (this.tt.move !== 255) this.hintCard = this.decodeLead(this.tt.move);
        lower = this.tt.lower;
        upper = this.tt.upper;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower === upper) return lower;
      }
      if (lower < beta && upper > alpha) {
        // Sure points (quick tricks) may decide the zero window without a search.
        this.sureBounds();
        if (this.sureLower >= beta) return this.sureLower;
        if (this.sureUpper <= alpha) return this.sureUpper;
      }
      if (lower > alpha) alpha = lower;
      if (upper < beta) beta = upper;
      alpha0 = alpha;
      beta0 = beta;
    } else {
      // The cards in play bound what either team can still take.
      const inPlay = this.handPoints + this.tablePoints;
      if (alpha >= inPlay) return inPlay;
      if (beta <= 0) return 0;
      // A decided trick is worth at most the table's points and 11 from each seat still to play: only
      // look when that could settle the window.
      const most = this.tablePoints + 11 * (4 - this.tableSize);
      const aWins = ((this.leader + this.best) & 1) === 0;
      if (aWins ? most >= beta : inPlay - most <= alpha) {
        const sure = this.trickDecided();
        if (sure >= 0) {
          // The card winning the trick cannot be beaten: its team takes at least the trick's points.
          if (aWins) {
            if (sure >= beta) return sure;
          } else if (inPlay - sure <= alpha) return inPlay - sure;
        }
      }
    }

    const seat = (this.leader + this.tableSize) & 3;
    const maximizing = (seat & 1) === 0;
    const n = this.generate(seat, ply);
    const base = ply * MAX_MOVES;
    let best = maximizing ? -1 : 1000;
    let bestMove = -1;
    for (let i = 0; i < n; i++) {
      const card = this.moves[base + i]!;
      const run = this.runOf[base + i]!;
      if (run >= 0) {
        // A card of the same power as siblings already searched differs from each by at most their
        // points' difference: that may settle it against the window without a search.
        const pts = POINTS[card]!;
        let bound = maximizing ? 1000 : -1;
        for (let j = 0; j < i; j++) {
          if (this.runOf[base + j] !== run) continue;
          const d = pts - POINTS[this.moves[base + j]!]!;
          const v = this.values[base + j]!;
          if (maximizing) {
            const b = v + (d < 0 ? -d : d);
            if (b < bound) bound = b;
          } else {
            const b = v - (d < 0 ? -d : d);
            if (b > bound) bound = b;
          }
        }
        if (maximizing ? bound <= alpha : bound >= beta) {
          if (maximizing ? bound > best : bound < best) best = bound;
          this.values[base + i] = bound;
          continue;
        }
      }
      const gain = this.play(seat, card, ply);
      let v: number;
      if (gain >= 0) v = gain + this.abChild(alpha - gain, beta - gain, ply + 1, seat, card, ply);
      else v = this.abChild(alpha, beta, ply + 1, seat, card, ply);
      this.undo(seat, card, ply, gain >= 0);
      this.values[base + i] = v;
      if (maximizing ? v > best : v < best) {
        best = v;
        bestMove = card;
        if (maximizing ? v > alpha : v < beta) {
          if (maximizing) alpha = v;
          else beta = v;
          if (alpha >= beta) {
            if (this.tableSize === 0) this.killer[ply] = card;
            break;
          }
        }
      }
    }

    if (atBoundary) {
      // The best lead only when it reached the window (after a fail-low every lead fell short, and the
      // one that fell least short is a poor hint): the table keeps the lead it knew.
      const move = bestMove >= 0 && best > alpha0 ? this.encodeLead(bestMove, ply) : 255;
      if (best <= alpha0) this.tt.store(h1, h2, 0, best, move, this.cardsInHands, pattern);
      else if (best >= beta0) this.tt.store(h1, h2, best, this.handPoints, move, this.cardsInHands, pattern);
      else this.tt.store(h1, h2, best, best, move, this.cardsInHands, pattern);
    }
    return best;
  }

  /** Searches a child, undoing the move if the search is aborted so the solver stays consistent. */
  private abChild(alpha: number, beta: number, childPly: number, seat: number, card: number, ply: number): number {
    if (this.clock === null) return this.ab(alpha, beta, childPly);
    try {
      return this.ab(alpha, beta, childPly);
    } catch (e) {
      if (e instanceof SearchAborted) this.undo(seat, card, ply, this.tableSize === 0);
      throw e;
    }
  }

  /**
   * Bounds on team A's points at a trick boundary from points each side is sure to take, into
   * `sureLower` and `sureUpper`:
   * - Top trumps: a trump with every higher live trump on its own side takes its points whenever it is
   *   played (the trick goes to a trump at least as high, all of them that side's).
   * - The leader's trump draw: leading its own top trumps first brings the opponents' lowest trumps
   *   and leaves an opponent with no more trumps than that unable to ruff.
   * - The leader's cashes: in a side suit where the leader holds the top live cards, the k-th of them
   *   wins the k-th round led if neither opponent can ruff it (each holds k cards of the suit or no
   *   trump). The leader keeps the lead while cashing as long as its partner has a card other than a
   *   trump for every round (else the partner must ruff and lead), and cashing never makes another
   *   cash ruffable (opponents only shed cards of a suit when following it), so cashes add up. Each round also
   *   brings the lowest card of the suit of every other seat still holding one.
   * - Then a lead to the partner's master: in a side suit where the leader holds a card and the partner
   *   the top live card, with each opponent holding the suit or no trump (after the draw), one more
   *   trick: the leader's lowest card of the suit, the master and the opponents' lowest. The leader's
   *   cashes never touch that suit, and the partner can keep its master through them.
   * The sides' counted cards are disjoint (trumps of one side; side suits only for the leader's side).
   */
  private sureBounds(): void {
    const h = this.hands;
    const trump = this.trump;
    const remaining = this.handPoints;
    let sureA = 0;
    let sureB = 0;
    // Top trumps.
    const t0 = h[trump]!;
    const t1 = h[4 + trump]!;
    const t2 = h[8 + trump]!;
    const t3 = h[12 + trump]!;
    let live = t0 | t1 | t2 | t3;
    if (live) {
      const sideA = t0 | t2;
      const mine = live & (1 << (31 - Math.clz32(live))) & sideA ? sideA : t1 | t3;
      let run = 0;
      while (live) {
        const bit = 1 << (31 - Math.clz32(live));
        if (!(mine & bit)) break;
        live ^= bit;
        run += RANK_POINTS[31 - Math.clz32(bit)]!;
      }
      if (mine === sideA) sureA = run;
      else sureB = run;
    }
    // The leader's cashes in the side suits.
    const L = this.leader;
    const o1 = (L + 1) & 3;
    const o2 = (L + 3) & 3;
    const pa = (L + 2) & 3;
    // Drawing trumps first: the leader's own top trumps (already counted in the run) bring the
    // opponents' lowest trumps, and strip the trumps of an opponent who holds no more than they.
    const ot1 = h[o1 * 4 + trump]!;
    const ot2 = h[o2 * 4 + trump]!;
    let cash = 0;
    let draw = 0;
    let lt = h[L * 4 + trump]!;
    let allT = t0 | t1 | t2 | t3;
    while (lt) {
      const top = 31 - Math.clz32(allT);
      if (!(lt & (1 << top))) break;
      lt ^= 1 << top;
      allT ^= 1 << top;
      draw++;
    }
    if (draw) cash += LOW_POINTS[draw * 1024 + ot1]! + LOW_POINTS[draw * 1024 + ot2]!;
    const o1NoTrump = MASK_COUNT[ot1]! <= draw;
    const o2NoTrump = MASK_COUNT[ot2]! <= draw;
    // The leader keeps the lead only while its partner has a card that is no trump for each round: a
    // partner left with trumps alone must ruff its leader's winner and take the lead (a partner with
    // only trumps against a 7H led: it ruffs, and must then lead a trump into the opponents' queen).
    // Every round the partner follows or discards, so its cards other than trumps (less those it
    // discarded on the trump draw) bound the rounds.
    let partnerPlain = 0;
    for (let s = 0; s < 4; s++) if (s !== trump) partnerPlain += MASK_COUNT[h[pa * 4 + s]!]!;
    partnerPlain -= Math.max(0, draw - MASK_COUNT[h[pa * 4 + trump]!]!);
    let rounds = 0;
    for (let s = 0; s < 4; s++) {
      if (s === trump) continue;
      let mine = h[L * 4 + s]!;
      if (!mine) continue;
      const a1 = h[o1 * 4 + s]!;
      const a2 = h[o2 * 4 + s]!;
      const p = h[pa * 4 + s]!;
      const others = a1 | a2 | p;
      const n1 = o1NoTrump ? 10 : MASK_COUNT[a1]!;
      const n2 = o2NoTrump ? 10 : MASK_COUNT[a2]!;
      let k = 0;
      // Round k + 1 is a sure winner while the leader's top card beats every other live card.
      while (mine && k < n1 && k < n2 && rounds < partnerPlain) {
        const top = 31 - Math.clz32(mine);
        if (others >> top) break;
        mine ^= 1 << top;
        cash += RANK_POINTS[top]!;
        k++;
        rounds++;
      }
      if (k) cash += LOW_POINTS[k * 1024 + a1]! + LOW_POINTS[k * 1024 + a2]! + LOW_POINTS[k * 1024 + p]!;
    }
    // Then one lead to the partner's master (the best such suit).
    let toPartner = 0;
    for (let s = 0; s < 4; s++) {
      if (s === trump) continue;
      const mine = h[L * 4 + s]!;
      const p = h[pa * 4 + s]!;
      if (!mine || !p) continue;
      const top = 31 - Math.clz32(mine | p | h[o1 * 4 + s]! | h[o2 * 4 + s]!);
      if (!((p >> top) & 1)) continue;
      const a1 = h[o1 * 4 + s]!;
      const a2 = h[o2 * 4 + s]!;
      if ((a1 === 0 && !o1NoTrump) || (a2 === 0 && !o2NoTrump)) continue;
      const v = RANK_POINTS[top]! + LOW_POINTS[1024 + mine]! + LOW_POINTS[1024 + a1]! + LOW_POINTS[1024 + a2]!;
      if (v > toPartner) toPartner = v;
    }
    cash += toPartner;
    if ((L & 1) === 0) sureA += cash;
    else sureB += cash;
    this.sureLower = sureA;
    this.sureUpper = remaining - sureB;
  }

  /**
   * Mid-trick: if no seat still to play can beat the card winning the trick, the least the trick will
   * be worth (the table's points and the lowest card of the led suit of each seat still to play that
   * holds it); otherwise -1.
   */
  private trickDecided(): number {
    const h = this.hands;
    const card = this.table[this.best]!;
    const s = SUIT[card]!;
    const trump = this.trump;
    const led = SUIT[this.table[0]!]!;
    const above = ~((BIT[card]! << 1) - 1);
    let pts = this.tablePoints;
    for (let i = this.tableSize; i < 4; i++) {
      const x = (this.leader + i) & 3;
      const follow = h[x * 4 + led]!;
      if (s === trump) {
        if (h[x * 4 + trump]! & above) return -1;
      } else if (follow & above || (follow === 0 && h[x * 4 + trump] !== 0)) return -1;
      pts += LOW_POINTS[1024 + follow]!;
    }
    return pts;
  }

  /** A lead as its suit's canonical slot * 16 + its rank among the live cards of its suit, from the top. */
  private encodeLead(card: number, ply: number): number {
    const s = SUIT[card]!;
    const h = this.hands;
    const live = h[s]! | h[4 + s]! | h[8 + s]! | h[12 + s]! | BIT[card]!;
    let above = live >> (RANK[card]! + 1);
    let n = 0;
    while (above) {
      above &= above - 1;
      n++;
    }
    return this.slotOfSuit[ply * 4 + s]! * 16 + n;
  }

  /** The card a stored lead stands for in the current position (-1 if the leader does not hold it). */
  private decodeLead(code: number): number {
    const s = this.suitOfSlot[code >> 4]!;
    const h = this.hands;
    let live = h[s]! | h[4 + s]! | h[8 + s]! | h[12 + s]!;
    for (let n = code & 15; n > 0 && live; n--) live ^= 1 << (31 - Math.clz32(live));
    if (!live) return -1;
    const r = 31 - Math.clz32(live);
    return h[this.leader * 4 + s]! & (1 << r) ? s * 10 + r : -1;
  }

  /** The last trick: every seat holds one card. */
  private lastTrick(): number {
    let bestCard = -1;
    let bestSeat = 0;
    let pts = 0;
    for (let i = 0; i < 4; i++) {
      const seat = (this.leader + i) & 3;
      let card = -1;
      for (let s = 0; s < 4; s++) {
        const m = this.hands[seat * 4 + s]!;
        if (m) card = s * 10 + (31 - Math.clz32(m));
      }
      pts += POINTS[card]!;
      if (bestCard < 0 || this.beats(card as Card, bestCard as Card)) {
        bestCard = card;
        bestSeat = seat;
      }
    }
    return (bestSeat & 1) === 0 ? pts : 0;
  }

  /**
   * The last two tricks, every seat holding two cards: a direct minimax over at most 16 lines
   * (cheaper than keys, table probes and nodes this close to the end).
   */
  private lastTwo(): number {
    const h = this.hands;
    const c = this.twoCards;
    const L = this.leader;
    for (let i = 0; i < 4; i++) {
      const seat = (L + i) & 3;
      let k = i * 2;
      for (let s = 0; s < 4; s++) {
        let m = h[seat * 4 + s]!;
        while (m) {
          const r = 31 - Math.clz32(m);
          m ^= 1 << r;
          c[k++] = s * 10 + r;
        }
      }
    }
    // A small cache of exact values (it stays in the processor's cache, unlike the table): the key
    // is every card, the leader and trump, compared in full.
    const k1 = c[0]! | (c[1]! << 6) | (c[2]! << 12) | (c[3]! << 18) | (L << 24) | (this.trump << 26) | (1 << 28);
    const k2 = c[4]! | (c[5]! << 6) | (c[6]! << 12) | (c[7]! << 18);
    let x = Math.imul(k1 ^ Math.imul(k2, 0x9e3779b1), 0x85ebca6b);
    x ^= x >>> 15;
    const i = (x & TWO_MASK) << 1;
    const cache = this.twoCache;
    if (cache[i] === k1 && (cache[i + 1]! & 0xffffff) === k2) return cache[i + 1]! >>> 24;
    const v = this.twoSeat(0, -1, 1000, 0, 0, 0);
    cache[i] = k1;
    cache[i + 1] = k2 | (v << 24);
    return v;
  }

  /**
   * Seat `i` (from the leader) of the first of the last two tricks chooses; see lastTwo. `w`, `wc` and
   * `pts`: the seat winning that trick so far (from the leader), its card, and the trick's points.
   */
  private twoSeat(i: number, alpha: number, beta: number, w: number, wc: number, pts: number): number {
    const c = this.twoCards;
    const pick = this.twoPick;
    const maximizing = ((this.leader + i) & 1) === 0;
    const x = c[i * 2]!;
    const y = c[i * 2 + 1]!;
    let from = 0;
    let to = 2;
    if (i > 0) {
      const led = SUIT[c[pick[0]!]!]!;
      const fx = SUIT[x] === led;
      const fy = SUIT[y] === led;
      if (fx !== fy) {
        // Holding one card of the led suit: it must be played.
        from = fx ? 0 : 1;
        to = from + 1;
      }
    }
    let best = maximizing ? -1 : 1000;
    for (let j = from; j < to; j++) {
      pick[i] = i * 2 + j;
      const card = j === 0 ? x : y;
      let nw = w;
      let nwc = wc;
      if (i === 0) {
        nw = 0;
        nwc = card;
      } else {
        const s = SUIT[card]!;
        if (s === SUIT[wc] ? card > wc : s === this.trump) {
          nw = i;
          nwc = card;
        }
      }
      const v =
        i === 3
          ? this.twoValue(nw, pts + POINTS[card]!)
          : this.twoSeat(i + 1, alpha, beta, nw, nwc, pts + POINTS[card]!);
      if (maximizing) {
        if (v > best) best = v;
        if (best > alpha) alpha = best;
      } else {
        if (v < best) best = v;
        if (best < beta) beta = best;
      }
      if (alpha >= beta) break;
    }
    return best;
  }

  /**
   * Team A's points from the last two tricks for the cards picked to the first (see lastTwo), whose
   * winner is seat `w` from the leader and whose points are `pts`.
   */
  private twoValue(w: number, pts: number): number {
    const c = this.twoCards;
    const pick = this.twoPick;
    const trump = this.trump;
    let value = ((this.leader + w) & 1) === 0 ? pts : 0;
    // Last trick: the other cards, led by the first trick's winner.
    let w2 = w;
    let wc2 = c[pick[w]! ^ 1]!;
    let pts2 = POINTS[wc2]!;
    for (let k = 1; k < 4; k++) {
      const i = (w + k) & 3;
      const card = c[pick[i]! ^ 1]!;
      pts2 += POINTS[card]!;
      const s = SUIT[card]!;
      const ws = SUIT[wc2]!;
      if (s === ws ? card > wc2 : s === trump) {
        w2 = i;
        wc2 = card;
      }
    }
    if (((this.leader + w2) & 1) === 0) value += pts2;
    return value;
  }

  /**
   * Legal moves of `seat`, best-looking first, one card per run where a run can be settled.
   *
   * A run is a set of cards of one hand and suit with no live card (in a hand or on the table)
   * between them: they have the same power for the rest of the deal, and differ only in points.
   * Swapping two of them maps every line after one onto a line after the other, the only difference
   * being which trick each one's points land in. So:
   * - when the team that takes the current trick is fixed whatever the later seats play (the last
   *   seat; a winning card no later seat of the other team can beat or ruff; a lead no opponent can
   *   beat or ruff),
   *   that team wants the card with the most points on it and the other team the one with the
   *   fewest: only that card is searched (dominance);
   * - otherwise one card per distinct points is searched, and two cards' values differ by at most
   *   their points' difference (`runOf` and `ab` use it to settle a sibling without a search).
   */
  private generate(seat: number, ply: number): number {
    const base = ply * MAX_MOVES;
    const h = this.hands;
    const size = this.tableSize;
    const led = size ? SUIT[this.table[0]!]! : -1;
    const follow = led >= 0 && h[seat * 4 + led] !== 0;
    if (follow) {
      const f = h[seat * 4 + led]!;
      if ((f & (f - 1)) === 0) {
        // A single card of the led suit: the only move.
        this.moves[base] = led * 10 + 31 - Math.clz32(f);
        this.runOf[base] = -1;
        return 1;
      }
    }
    const trump = this.trump;
    let bestCard = -1;
    let bestSuit = -1;
    let partnerWinning = false;
    if (size) {
      bestCard = this.table[this.best]!;
      bestSuit = SUIT[bestCard]!;
      partnerWinning = ((this.leader + this.best) & 3 & 1) === (seat & 1);
    }
    const last = size === 3;
    // Third to play behind a winning partner: is the trick safe from the last seat?
    let partnerSure = last;
    if (size === 2 && partnerWinning) {
      const next = (seat + 1) & 3;
      const nextLed = h[next * 4 + led]!;
      const above = ~((BIT[bestCard]! << 1) - 1);
      partnerSure =
        bestSuit === led
          ? (nextLed & above) === 0 && (nextLed !== 0 || h[next * 4 + trump] === 0)
          : nextLed !== 0 || (h[next * 4 + trump]! & above) === 0;
    }
    const o1 = (seat + 1) & 3;
    const o2 = (seat + 3) & 3;
    const o1Trumps = !size && h[o1 * 4 + trump] !== 0;
    const o2Trumps = !size && h[o2 * 4 + trump] !== 0;
    let n = 0;
    for (let s = 0; s < 4; s++) {
      if (follow && s !== led) continue;
      const mine = h[seat * 4 + s]!;
      if (!mine) continue;
      const live = this.inPlay[s]!;
      const top = 31 - Math.clz32(live);
      // Leads only: a side suit is safe to lead a winner in when neither opponent can ruff it.
      const safe = !size && (h[o1 * 4 + s] !== 0 || !o1Trumps) && (h[o2 * 4 + s] !== 0 || !o2Trumps);
      const partnerTop = !size && ((h[((seat + 2) & 3) * 4 + s]! >> top) & 1) !== 0;
      let m = mine;
      while (m) {
        // The next run, from its highest card down.
        const hi = 31 - Math.clz32(m);
        let run = 1 << hi;
        let low = hi;
        m ^= run;
        while (m) {
          const r = 31 - Math.clz32(m);
          if (live & ((1 << low) - 1) & ~((2 << r) - 1)) break;
          run |= 1 << r;
          m ^= 1 << r;
          low = r;
        }
        // Who takes the trick, if that is fixed whatever the later seats play: 1 us, 0 them, -1 open.
        const taker = this.runTaker(seat, s * 10 + hi, size, led, bestCard, partnerWinning, safe);
        // Dominance: the run's card with the most points (ours) or the fewest (theirs) only; the
        // points rise with the rank, so these are its highest and its lowest card.
        let pick = taker === 1 ? 1 << hi : taker === 0 ? 1 << low : run;
        let lastPts = -1;
        while (pick) {
          const r = 31 - Math.clz32(pick);
          pick ^= 1 << r;
          const pts = RANK_POINTS[r]!;
          if (pts === lastPts) continue; // same points, same power: the same move
          lastPts = pts;
          const card = s * 10 + r;
          let score: number;
          if (!size) {
            // Lead a sure winner (side suits no opponent can ruff first), or points to the partner's
            // winner, else something cheap.
            if (hi === top) score = (s === trump ? 200 : safe ? 300 : 150) + pts;
            else if (partnerTop && (safe || s === trump)) score = 250 + pts * 4 - r;
            else score = (s === trump ? 0 : 100) - pts * 4 - r;
          } else {
            const wins = s === bestSuit ? card > bestCard : s === trump;
            if (partnerWinning) {
              // Give points to a partner sure to take the trick (certainly when we play last).
              if (partnerSure) score = 300 + pts * 4 - (wins ? 50 : 0);
              else score = 100 + (wins ? 50 + pts : pts * 2 - r);
            } else if (wins) {
              // Take it: last to play, with the cheapest winner; otherwise with a strong card.
              score = last ? 300 - r - (s === trump && s !== led ? 20 : 0) + pts : 250 + r + pts;
            } else {
              score = 100 - pts * 4 - r; // cannot win: throw the least
            }
          }
          if (size === 0 && card === this.killer[ply]) score += KILLER_BONUS;
          if (card === this.hintCard && !size) score = 1 << 30;
          const runTag = taker >= 0 ? -1 : s * 10 + hi;
          // Insertion by score, highest first.
          let j = n++;
          while (j > 0 && this.scores[base + j - 1]! < score) {
            this.moves[base + j] = this.moves[base + j - 1]!;
            this.scores[base + j] = this.scores[base + j - 1]!;
            this.runOf[base + j] = this.runOf[base + j - 1]!;
            j--;
          }
          this.moves[base + j] = card;
          this.scores[base + j] = score;
          this.runOf[base + j] = runTag;
        }
      }
    }
    return n;
  }

  /**
   * Whether the team taking the current trick is fixed whatever the later seats play, if `seat`
   * plays a card of the run whose highest card is `card`: 1 its own team, 0 the other, -1 not fixed.
   */
  private runTaker(
    seat: number,
    card: number,
    size: number,
    led: number,
    bestCard: number,
    partnerWinning: boolean,
    safe: boolean,
  ): number {
    const s = SUIT[card]!;
    const trump = this.trump;
    const h = this.hands;
    if (size === 0) {
      // A lead no opponent can beat (the higher live cards, if any, are the partner's) or ruff.
      const above = ~((BIT[card]! << 1) - 1);
      if ((h[((seat + 1) & 3) * 4 + s]! | h[((seat + 3) & 3) * 4 + s]!) & above) return -1;
      return s === trump || safe ? 1 : -1;
    }
    const bestSuit = SUIT[bestCard]!;
    const wins = s === bestSuit ? card > bestCard : s === trump;
    const w = wins ? card : bestCard;
    const ours = wins || partnerWinning;
    if (size < 3) {
      // Only the other team's later seats matter: a card of the winning team that beats the winning
      // card keeps the trick with that team and is no easier for the others to beat.
      const ws = SUIT[w]!;
      const above = ~((BIT[w]! << 1) - 1);
      const takers = ours ? seat & 1 : (seat & 1) ^ 1;
      for (let i = size + 1; i < 4; i++) {
        const xs = (this.leader + i) & 3;
        if ((xs & 1) === takers) continue;
        const x = xs * 4;
        if (ws === trump) {
          if (h[x + trump]! & above) return -1;
        } else {
          const f = h[x + led]!;
          if (f & above || (f === 0 && h[x + trump] !== 0)) return -1;
        }
      }
    }
    return ours ? 1 : 0;
  }

  /**
   * Hashes the canonical position at a trick boundary into `h1`/`h2`. Each suit becomes a word: the
   * owners of its live cards from high to low (two 10-bit planes, compressed to the live cards) and how
   * many cards are live; which of them carry points goes to `pattern` (quasi-symmetry, tt.ts). The three side suits play the same
   * part, so their words are sorted: positions that differ by a permutation of side suits share an
   * entry (the trump suit's identity does not matter either). `slotOfSuit` records the permutation for
   * the stored best lead.
   */
  private computeKey(ply: number): void {
    const h = this.hands;
    const trump = this.trump;
    let k0 = 0;
    let k1 = 0;
    let k2 = 0;
    let kt = 0;
    let q0 = 0;
    let q1 = 0;
    let q2 = 0;
    let qt = 0;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let n = 0;
    for (let s = 0; s < 4; s++) {
      const b = h[4 + s]!;
      const c = h[8 + s]!;
      const d = h[12 + s]!;
      const live = h[s]! | b | c | d;
      const lo = live & 31;
      const hi = live >> 5;
      const shift = POP5[lo]!;
      const bd = b | d;
      const cd = c | d;
      const p1 = PEXT5[(lo << 5) | (bd & 31)]! | (PEXT5[(hi << 5) | (bd >> 5)]! << shift);
      const p2 = PEXT5[(lo << 5) | (cd & 31)]! | (PEXT5[(hi << 5) | (cd >> 5)]! << shift);
      // Owners by place and how many cards are live, not which carry points: that is the pattern's (tt.ts).
      const k = p1 | (p2 << 10) | ((shift + POP5[hi]!) << 25);
      if (s === trump) {
        kt = k;
        qt = hi;
      } else if (n === 0) {
        k0 = k;
        q0 = hi;
        s0 = s;
        n = 1;
      } else if (n === 1) {
        k1 = k;
        q1 = hi;
        s1 = s;
        n = 2;
      } else {
        k2 = k;
        q2 = hi;
        s2 = s;
      }
    }
    // Sort the side suits' words (three compare-exchanges); equal words by their point cards, so that
    // positions alike up to a permutation of side suits also match their patterns.
    let t: number;
    if (k0 > k1 || (k0 === k1 && q0 > q1)) {
      t = k0;
      k0 = k1;
      k1 = t;
      t = q0;
      q0 = q1;
      q1 = t;
      t = s0;
      s0 = s1;
      s1 = t;
    }
    if (k1 > k2 || (k1 === k2 && q1 > q2)) {
      t = k1;
      k1 = k2;
      k2 = t;
      t = q1;
      q1 = q2;
      q2 = t;
      t = s1;
      s1 = s2;
      s2 = t;
    }
    if (k0 > k1 || (k0 === k1 && q0 > q1)) {
      t = k0;
      k0 = k1;
      k1 = t;
      t = q0;
      q0 = q1;
      q1 = t;
      t = s0;
      s0 = s1;
      s1 = t;
    }
    this.pattern = q0 | (q1 << 5) | (q2 << 10) | (qt << 15);
    const o = ply * 4;
    this.slotOfSuit[o + s0] = 0;
    this.slotOfSuit[o + s1] = 1;
    this.slotOfSuit[o + s2] = 2;
    this.slotOfSuit[o + trump] = 3;
    this.suitOfSlot[0] = s0;
    this.suitOfSlot[1] = s1;
    this.suitOfSlot[2] = s2;
    this.suitOfSlot[3] = trump;
    let x = Math.imul(kt ^ (this.leader << 28), 0x9e3779b1);
    x = Math.imul(x ^ (x >>> 15) ^ k0, 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13) ^ k1, 0xc2b2ae35);
    x = Math.imul(x ^ (x >>> 16) ^ k2, 0x27d4eb2f);
    this.h1 = x ^ (x >>> 15);
    let y = Math.imul(k2 ^ (this.leader << 28), 0x5bd1e995);
    y = Math.imul(y ^ (y >>> 13) ^ kt, 0x01000193);
    y = Math.imul(y ^ (y >>> 15) ^ k1, 0x7feb352d);
    y = Math.imul(y ^ (y >>> 16) ^ k0, 0x846ca68b);
    this.h2 = y ^ (y >>> 13);
  }
}

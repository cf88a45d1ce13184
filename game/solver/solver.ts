// The exact double-dummy solver: the points each team takes from the remaining cards under best play
// by both, for any perfect-information position (mid-trick too).
//
// How it gets fast (ideas from DDS and bridge-solver, adapted to a game scored in points):
// - The search value is team A's points from the remaining cards; team A's seats maximize, B's
//   minimize. MTD(f) drives zero-window alpha-beta searches, which prune far more than wide windows.
// - A transposition table at trick boundaries. Its key is, per suit, the remaining cards from high to
//   low as (owner, point class): absolute ranks do not matter, only order and points, so positions
//   that differ only in cards of no consequence share an entry. The trump and the leader are in the key.
// - Equivalent cards: two cards of one hand are interchangeable when no live card (in any hand or on
//   the table) lies between them and they carry the same points. In Sueca only zero-point cards
//   (2 3 4 5 6) can be equivalent: Q J K 7 A all differ in points.
// - Move ordering by simple card-play sense (lead winners, win cheaply, give points to a winning
//   partner, throw nothing away to opponents) and bounds: the remaining points bound every value.
// - Everything in typed arrays and integers; no allocation inside the search.

import type { Card } from '../cards.js';
import { pointsOf, rankOf, suitOf } from '../cards.js';
import type { Seat } from '../seats.js';
import type { Position } from './position.js';
import { checkPosition, toMoveOf } from './position.js';
import { TranspositionTable } from './tt.js';

export interface MoveValue {
  card: Card;
  /** Final game points of the mover's team (points already won included) under best play. */
  value: number;
}

export interface SolverOptions {
  /** log2 of the transposition table's entries (default 20: about 10 MB). */
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
/** Point class by rank: the key only needs to tell point values apart. */
const POINT_CLASS = [0, 0, 0, 0, 0, 1, 2, 3, 4, 5];
const MAX_PLY = 41;
const MAX_MOVES = 10;

export class Solver {
  private readonly tt: TranspositionTable;
  private readonly hands = new Int32Array(16);
  private trump = 0;
  private leader = 0;
  private readonly table = new Int8Array(4);
  private tableSize = 0;
  /** Index in `table` of the card winning the trick so far. */
  private best = 0;
  private tablePoints = 0;
  private handPoints = 0;
  private cardsInHands = 0;
  private readonly moves = new Int8Array(MAX_PLY * MAX_MOVES);
  private readonly scores = new Int32Array(MAX_PLY * MAX_MOVES);
  private readonly savedBest = new Int8Array(MAX_PLY);
  private readonly savedLeader = new Int8Array(MAX_PLY);
  private readonly savedTablePoints = new Int32Array(MAX_PLY);
  /** The cards of a trick completed at each ply: the next trick overwrites `table`. */
  private readonly savedTable = new Int8Array(MAX_PLY * 4);
  /** History heuristic: how often a card caused a cutoff, by seat and card. */
  private readonly history = new Int32Array(160);
  /** The lead suggested by the transposition table for the node being generated (-1: none). */
  private hintCard = -1;
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

  /** The value of the position for the team to move, in its final game points. */
  solve(p: Position): { toMove: Seat; value: number; nodes: number } {
    const start = this.nodes;
    this.load(p);
    const toMove = toMoveOf(p);
    const remaining = this.handPoints + this.tablePoints;
    const a = this.mtdf(remaining >> 1, remaining);
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
    for (const card of legal) {
      const a = this.valueAfter(toMove, card, guess);
      guess = a;
      moves.push({ card, value: this.finalFor(toMove, p, a) });
    }
    return { toMove, moves, nodes: this.nodes - start };
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
      a = (gain > 0 ? gain : 0) + this.mtdf(Math.max(0, Math.min(remaining, guess - (gain > 0 ? gain : 0))), remaining, 1);
    } finally {
      this.undo(seat, card, ply, gain >= 0);
    }
    return a;
  }

  /** Sets up a position for searching (checked; throws PositionError). */
  load(p: Position): void {
    checkPosition(p);
    this.hands.fill(0);
    this.handPoints = 0;
    this.cardsInHands = 0;
    for (let s = 0; s < 4; s++) {
      for (const c of p.hands[s]!) {
        this.hands[s * 4 + suitOf(c)]! |= 1 << rankOf(c);
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
    let g = guess;
    while (lower < upper) {
      const beta = g === lower ? g + 1 : g;
      g = this.ab(beta - 1, beta, ply);
      if (g < beta) upper = g;
      else lower = g;
    }
    return g;
  }

  private beats(card: Card, best: Card): boolean {
    const s = (card / 10) | 0;
    const bs = (best / 10) | 0;
    return s === bs ? card > best : s === this.trump;
  }

  /** Plays `card` for `seat`; returns team A's gain if it completed the trick (0 or more), else -1. */
  private play(seat: number, card: number, ply: number): number {
    const s = (card / 10) | 0;
    this.hands[seat * 4 + s]! ^= 1 << card % 10;
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
    this.savedTable[t] = this.table[0]!;
    this.savedTable[t + 1] = this.table[1]!;
    this.savedTable[t + 2] = this.table[2]!;
    this.savedTable[t + 3] = this.table[3]!;
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
      this.table[0] = this.savedTable[t]!;
      this.table[1] = this.savedTable[t + 1]!;
      this.table[2] = this.savedTable[t + 2]!;
      this.table[3] = this.savedTable[t + 3]!;
      this.tableSize = 4;
    }
    this.tableSize--;
    const pts = POINTS[card]!;
    this.tablePoints -= pts;
    this.best = this.savedBest[ply]!;
    this.hands[seat * 4 + ((card / 10) | 0)]! ^= 1 << card % 10;
    this.handPoints += pts;
    this.cardsInHands++;
  }

  /** Fail-soft alpha-beta on team A's points from the cards in play. */
  private ab(alpha: number, beta: number, ply: number): number {
    const nodes = ++this.nodes;
    if ((nodes & 1023) === 0 && this.clock !== null && this.clock() > this.deadline) throw new SearchAborted();
    let h1 = 0;
    let h2 = 0;
    let alpha0 = alpha;
    let beta0 = beta;
    const atBoundary = this.tableSize === 0;
    if (atBoundary) {
      const remaining = this.handPoints;
      if (this.cardsInHands === 0) return 0;
      if (beta <= 0) return 0;
      if (alpha >= remaining) return remaining;
      if (this.cardsInHands === 4) return this.lastTrick();
      h1 = this.keyHash1();
      h2 = this.keyHash2();
      let lower = 0;
      let upper = remaining;
      this.hintCard = -1;
      if (this.tt.probe(h1, h2)) {
        if (this.tt.move !== 255) this.hintCard = this.decodeLead(this.tt.move);
        lower = this.tt.lower;
        upper = this.tt.upper;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower === upper) return lower;
      }
      if (lower > alpha) alpha = lower;
      if (upper < beta) beta = upper;
      alpha0 = alpha;
      beta0 = beta;
    } else {
      // The cards in play bound what either team can still take.
      const inPlay = this.handPoints + this.tablePoints;
      if (alpha >= inPlay) return inPlay;
    }

    const seat = (this.leader + this.tableSize) & 3;
    const maximizing = (seat & 1) === 0;
    const n = this.generate(seat, ply);
    const base = ply * MAX_MOVES;
    let best = maximizing ? -1 : 1000;
    let bestMove = -1;
    for (let i = 0; i < n; i++) {
      const card = this.moves[base + i]!;
      const gain = this.play(seat, card, ply);
      let v: number;
      if (gain >= 0) v = gain + this.abChild(alpha - gain, beta - gain, ply + 1, seat, card, ply);
      else v = this.abChild(alpha, beta, ply + 1, seat, card, ply);
      this.undo(seat, card, ply, gain >= 0);
      if (maximizing ? v > best : v < best) {
        best = v;
        bestMove = card;
        if (maximizing ? v > alpha : v < beta) {
          if (maximizing) alpha = v;
          else beta = v;
          if (alpha >= beta) {
            this.history[seat * 40 + card]! += 1;
            break;
          }
        }
      }
    }

    if (atBoundary) {
      const move = bestMove >= 0 ? this.encodeLead(bestMove) : 255;
      if (best <= alpha0) this.tt.store(h1, h2, 0, best, move);
      else if (best >= beta0) this.tt.store(h1, h2, best, this.handPoints, move);
      else this.tt.store(h1, h2, best, best, move);
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

  /** A lead as suit * 16 + its rank among the live cards of its suit, counted from the top. */
  private encodeLead(card: number): number {
    const s = (card / 10) | 0;
    const h = this.hands;
    const live = h[s]! | h[4 + s]! | h[8 + s]! | h[12 + s]! | (1 << card % 10);
    let above = live >> (card % 10 + 1);
    let n = 0;
    while (above) {
      above &= above - 1;
      n++;
    }
    return s * 16 + n;
  }

  /** The card a stored lead stands for in the current position (-1 if the leader does not hold it). */
  private decodeLead(code: number): number {
    const s = code >> 4;
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

  /** Legal moves of `seat`, one of each set of equivalent cards, best-looking first. */
  private generate(seat: number, ply: number): number {
    const base = ply * MAX_MOVES;
    const h = this.hands;
    const size = this.tableSize;
    const led = size ? ((this.table[0]! / 10) | 0) : -1;
    const follow = led >= 0 && h[seat * 4 + led] !== 0;
    const trump = this.trump;
    let bestCard = -1;
    let partnerWinning = false;
    if (size) {
      bestCard = this.table[this.best]!;
      partnerWinning = (((this.leader + this.best) & 3) & 1) === (seat & 1);
    }
    const last = size === 3;
    let n = 0;
    for (let s = 0; s < 4; s++) {
      if (follow && s !== led) continue;
      const mine = h[seat * 4 + s]!;
      if (!mine) continue;
      let live = h[s]! | h[4 + s]! | h[8 + s]! | h[12 + s]!;
      for (let i = 0; i < size; i++) {
        const c = this.table[i]!;
        if (((c / 10) | 0) === s) live |= 1 << c % 10;
      }
      const top = 31 - Math.clz32(live);
      let m = mine;
      let prev = -1;
      while (m) {
        const r = 31 - Math.clz32(m);
        m ^= 1 << r;
        // A zero-point card next to the previous one (no live card between) is the same move.
        if (prev >= 0 && r < 5 && prev < 5 && (live & (((1 << prev) - 1) ^ ((1 << (r + 1)) - 1))) === 0) {
          prev = r;
          continue;
        }
        prev = r;
        const card = s * 10 + r;
        const pts = POINTS[card]!;
        let score: number;
        if (!size) {
          // Lead a sure winner (side suits first, where it is safer), else something cheap.
          if (r === top) score = (s === trump ? 200 : 300) + pts;
          else score = (s === trump ? 0 : 100) - pts * 4 - r;
        } else {
          const wins = this.beats(card as Card, bestCard as Card);
          if (partnerWinning) {
            // Give points to a partner who holds the trick (certainly when we play last).
            if (last) score = 300 + pts * 4 - (wins ? 50 : 0);
            else score = 100 + (wins ? 50 + pts : pts * 2 - r);
          } else if (wins) {
            // Take it: last to play, with the cheapest winner; otherwise with a strong card.
            score = last ? 300 - r - (s === trump && s !== led ? 20 : 0) + pts : 250 + r + pts;
          } else {
            score = 100 - pts * 4 - r; // cannot win: throw the least
          }
        }
        score = score * 64 + Math.min(63, this.history[seat * 40 + card]!);
        if (card === this.hintCard && !size) score = 1 << 30;
        // Insertion by score, highest first.
        let j = n++;
        while (j > 0 && this.scores[base + j - 1]! < score) {
          this.moves[base + j] = this.moves[base + j - 1]!;
          this.scores[base + j] = this.scores[base + j - 1]!;
          j--;
        }
        this.moves[base + j] = card;
        this.scores[base + j] = score;
      }
    }
    return n;
  }

  /** Hash of the canonical position at a trick boundary: trump, leader, each suit's (owner, points) sequence. */
  private keyHash1(): number {
    const h = this.hands;
    let x = Math.imul(this.leader + 1, 0x9e3779b1) ^ Math.imul(this.trump + 1, 0x85ebca6b);
    for (let s = 0; s < 4; s++) {
      const a = h[s]!;
      const b = h[4 + s]!;
      const c = h[8 + s]!;
      const d = h[12 + s]!;
      let live = a | b | c | d;
      x = Math.imul(x ^ (s + 0x51), 0x01000193);
      while (live) {
        const r = 31 - Math.clz32(live);
        const bit = 1 << r;
        live ^= bit;
        const owner = a & bit ? 0 : b & bit ? 1 : c & bit ? 2 : 3;
        x = Math.imul(x ^ (owner | (POINT_CLASS[r]! << 2) | 0x40), 0x01000193);
      }
    }
    return x ^ (x >>> 15);
  }

  private keyHash2(): number {
    const h = this.hands;
    let x = Math.imul(this.trump + 7, 0xc2b2ae35) + this.leader * 0x27d4eb2f;
    for (let s = 0; s < 4; s++) {
      const a = h[s]!;
      const b = h[4 + s]!;
      const c = h[8 + s]!;
      const d = h[12 + s]!;
      let live = a | b | c | d;
      x = Math.imul(x + s + 0x3b, 0x5bd1e995) ^ (x >>> 13);
      while (live) {
        const r = 31 - Math.clz32(live);
        const bit = 1 << r;
        live ^= bit;
        const owner = a & bit ? 0 : b & bit ? 1 : c & bit ? 2 : 3;
        x = Math.imul(x + (owner | (POINT_CLASS[r]! << 2)) + 0x11, 0x5bd1e995) ^ (x >>> 13);
      }
    }
    return x;
  }
}


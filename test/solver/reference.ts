// An independent, deliberately simple reference for the double-dummy solver.
//
// Cards are plain strings ("AS", "7H"), hands and tricks are plain string arrays, and the rules (who
// must follow, who wins a trick, what a trick is worth) are written here again: nothing below calls
// the engine's Game, masks or rule code. The only link to the engine is the card encoding of the
// solver's API (id = suit * 10 + rank), which this file decodes with its own tables; reference.test.ts
// checks those tables against the engine's card notation.
//
// Two searches, both over "points team A wins from here on" (A maximises, B minimises):
// - `minimax`: plain minimax, every line to the end. Exponential; fine up to 3 tricks (and 4 at a pinch).
// - `alphabeta`: plain fail-soft alpha-beta over the same tree, in the same move order: no transposition
//   table, no move ordering, no merging of equivalent cards. reference.test.ts checks it equals `minimax`.
// Every root move is searched with a full window, so each move's value is exact, not a bound.

import type { Card, Seat, Suit } from '../../game/index.js';

export const REF_RANKS = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'] as const;
export const REF_SUITS = ['S', 'H', 'D', 'C'] as const;
const RANK_POINTS: Readonly<Record<string, number>> = { Q: 2, J: 3, K: 4, '7': 10, A: 11 };

/** The position handed to the solver (the same shape as game/solver's `Position`). */
export interface SolverPosition {
  trump: Suit;
  hands: Card[][];
  leader: Seat;
  trick: Card[];
  points: [number, number];
}

/** The same position in card strings: trump is a suit letter. */
export interface StrPosition {
  trump: string;
  hands: string[][];
  leader: number;
  trick: string[];
  points: [number, number];
}

export interface RefResult {
  toMove: number;
  /** The best move value (final points of the mover's team). */
  value: number;
  /** Final points of the mover's team after each legal card, keyed by card string. */
  moves: Record<string, number>;
  /** Nodes visited (every card played in the search counts one). */
  nodes: number;
}

// ---- cards ---------------------------------------------------------------------------------------

export const suitLetter = (card: string): string => card.slice(-1);
export const rankLetter = (card: string): string => card.slice(0, -1);
export const rankIndex = (card: string): number => REF_RANKS.indexOf(rankLetter(card) as (typeof REF_RANKS)[number]);
export const cardPoints = (card: string): number => RANK_POINTS[rankLetter(card)] ?? 0;
export const sumPoints = (cards: readonly string[]): number => cards.reduce((p, c) => p + cardPoints(c), 0);

/** Card id (suit * 10 + rank) to string, with this file's own tables. */
export function cardName(id: number): string {
  if (!Number.isInteger(id) || id < 0 || id >= 40) throw new Error(`reference: bad card id ${id}`);
  return REF_RANKS[id % 10]! + REF_SUITS[Math.floor(id / 10)]!;
}
export function cardId(name: string): Card {
  const r = rankIndex(name);
  const s = REF_SUITS.indexOf(suitLetter(name) as (typeof REF_SUITS)[number]);
  if (r < 0 || s < 0 || name.length !== 2) throw new Error(`reference: bad card ${JSON.stringify(name)}`);
  return (s * 10 + r) as Card;
}

export function toStrPosition(p: SolverPosition): StrPosition {
  return {
    trump: REF_SUITS[p.trump]!,
    hands: p.hands.map((h) => h.map(cardName)),
    leader: p.leader,
    trick: p.trick.map(cardName),
    points: [p.points[0], p.points[1]],
  };
}

export function fromStrPosition(s: StrPosition): SolverPosition {
  const trump = REF_SUITS.indexOf(s.trump as (typeof REF_SUITS)[number]);
  if (trump < 0) throw new Error(`reference: bad trump ${s.trump}`);
  return {
    trump: trump as Suit,
    hands: s.hands.map((h) => h.map(cardId)),
    leader: s.leader as Seat,
    trick: s.trick.map(cardId),
    points: [s.points[0], s.points[1]],
  };
}

/** Short text form, e.g. `trump H, leader 1, trick [AS], points 50/57 | 0: 4D | 1: 2H 3D | ...`. */
export function describePosition(p: SolverPosition | StrPosition): string {
  const s = typeof p.trump === 'number' ? toStrPosition(p as SolverPosition) : (p as StrPosition);
  const hands = s.hands.map((h, i) => `${i}: ${h.join(' ') || '-'}`).join(' | ');
  return `trump ${s.trump}, leader ${s.leader}, trick [${s.trick.join(' ')}], points ${s.points[0]}/${s.points[1]} | ${hands}`;
}

// ---- rules ---------------------------------------------------------------------------------------

/** Index (from the leader) of the card winning a trick: highest trump, else highest of the led suit. */
export function trickWinnerIndex(trick: readonly string[], trump: string): number {
  const led = suitLetter(trick[0]!);
  let best = 0;
  for (let i = 1; i < trick.length; i++) {
    const c = trick[i]!;
    const b = trick[best]!;
    const cs = suitLetter(c);
    const bs = suitLetter(b);
    if (
      cs === trump
        ? bs !== trump || rankIndex(c) > rankIndex(b)
        : bs !== trump && cs === led && rankIndex(c) > rankIndex(b)
    )
      best = i;
  }
  return best;
}

/** The cards a seat may play: the led suit if it holds any, else its whole hand. */
export function legalCards(hand: readonly string[], trick: readonly string[]): string[] {
  if (trick.length === 0) return [...hand];
  const led = suitLetter(trick[0]!);
  const follow = hand.filter((c) => suitLetter(c) === led);
  return follow.length ? follow : [...hand];
}

export const seatToMove = (p: { leader: number; trick: readonly unknown[] }): number => (p.leader + p.trick.length) % 4;

/** Throws unless the position is one a solver must accept: 0..3 cards on the table, sizes, distinct cards. */
export function checkPosition(s: StrPosition): void {
  if (s.trick.length > 3) throw new Error('reference: a trick on the table has 0..3 cards');
  const all = [...s.hands.flat(), ...s.trick];
  if (new Set(all).size !== all.length) throw new Error('reference: a card appears twice');
  const left = s.hands[s.leader]!.length + (s.trick.length > 0 ? 1 : 0);
  for (let i = 0; i < 4; i++) {
    const seat = (s.leader + i) % 4;
    const want = i < s.trick.length ? left - 1 : left;
    if (s.hands[seat]!.length !== want)
      throw new Error(`reference: seat ${seat} holds ${s.hands[seat]!.length} cards, expected ${want}`);
  }
  if (s.hands[seatToMove(s)]!.length === 0) throw new Error('reference: nothing left to play');
}

// ---- search --------------------------------------------------------------------------------------

interface Search {
  trump: string;
  nodes: number;
}

const without = (hands: readonly string[][], seat: number, card: string): string[][] =>
  hands.map((h, i) => (i === seat ? h.filter((c) => c !== card) : h));

/** Points team A wins from here on (the trick on the table included), by plain minimax. */
function minimaxGain(S: Search, hands: string[][], leader: number, trick: string[]): number {
  if (trick.length === 4) {
    const winner = (leader + trickWinnerIndex(trick, S.trump)) % 4;
    const won = winner % 2 === 0 ? sumPoints(trick) : 0;
    if (hands.every((h) => h.length === 0)) return won;
    return won + minimaxGain(S, hands, winner, []);
  }
  const seat = (leader + trick.length) % 4;
  const maximise = seat % 2 === 0;
  let best = maximise ? -Infinity : Infinity;
  for (const card of legalCards(hands[seat]!, trick)) {
    S.nodes++;
    const v = minimaxGain(S, without(hands, seat, card), leader, [...trick, card]);
    best = maximise ? Math.max(best, v) : Math.min(best, v);
  }
  return best;
}

/** The same value by plain fail-soft alpha-beta (same tree, same move order, nothing else). */
function alphabetaGain(
  S: Search,
  hands: string[][],
  leader: number,
  trick: string[],
  alpha: number,
  beta: number,
): number {
  if (trick.length === 4) {
    const winner = (leader + trickWinnerIndex(trick, S.trump)) % 4;
    const won = winner % 2 === 0 ? sumPoints(trick) : 0;
    if (hands.every((h) => h.length === 0)) return won;
    return won + alphabetaGain(S, hands, winner, [], alpha - won, beta - won);
  }
  const seat = (leader + trick.length) % 4;
  if (seat % 2 === 0) {
    let best = -Infinity;
    for (const card of legalCards(hands[seat]!, trick)) {
      S.nodes++;
      const v = alphabetaGain(S, without(hands, seat, card), leader, [...trick, card], alpha, beta);
      if (v > best) best = v;
      if (best > alpha) alpha = best;
      if (alpha >= beta) break;
    }
    return best;
  }
  let best = Infinity;
  for (const card of legalCards(hands[seat]!, trick)) {
    S.nodes++;
    const v = alphabetaGain(S, without(hands, seat, card), leader, [...trick, card], alpha, beta);
    if (v < best) best = v;
    if (best < beta) beta = best;
    if (alpha >= beta) break;
  }
  return best;
}

export type RefAlgorithm = 'minimax' | 'alphabeta';

/** Every legal move of the seat to move, valued in final points of its team, by the chosen search. */
export function referenceMoveValues(
  position: SolverPosition | StrPosition,
  algorithm: RefAlgorithm = 'alphabeta',
): RefResult {
  const s = typeof position.trump === 'number' ? toStrPosition(position as SolverPosition) : (position as StrPosition);
  checkPosition(s);
  const S: Search = { trump: s.trump, nodes: 0 };
  const remaining = sumPoints(s.hands.flat()) + sumPoints(s.trick);
  const seat = seatToMove(s);
  const team = seat % 2;
  const moves: Record<string, number> = {};
  let value = -Infinity;
  for (const card of legalCards(s.hands[seat]!, s.trick)) {
    S.nodes++;
    const hands = without(s.hands, seat, card);
    const trick = [...s.trick, card];
    const gainA =
      algorithm === 'minimax'
        ? minimaxGain(S, hands, s.leader, trick)
        : alphabetaGain(S, hands, s.leader, trick, -Infinity, Infinity);
    const v = team === 0 ? s.points[0] + gainA : s.points[1] + remaining - gainA;
    moves[card] = v;
    if (v > value) value = v;
  }
  return { toMove: seat, value, moves, nodes: S.nodes };
}

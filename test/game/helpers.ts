// An independent model of Sueca for the engine's tests. Cards are plain strings ("AS", "7H"), hands are
// plain arrays, and nothing here uses the engine's bit masks or rule code: only the engine's card
// notation at the boundary (formatCard / parseCard), which rules.test.ts checks on its own.

import { expect } from 'vitest';
import type { Card, DealSpec, Seat } from '../../game/index.js';
import { PlayError, formatCard, parseCard } from '../../game/index.js';

export const RANK_ORDER = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'] as const;
export const SUIT_LETTERS = ['S', 'H', 'D', 'C'] as const;
const POINTS: Readonly<Record<string, number>> = { A: 11, '7': 10, K: 4, J: 3, Q: 2 };

export const ALL_CARDS: readonly string[] = SUIT_LETTERS.flatMap((s) => RANK_ORDER.map((r) => r + s));

export const suitL = (c: string): string => c.slice(-1);
export const rankL = (c: string): string => c.slice(0, -1);
export const rankValue = (c: string): number => RANK_ORDER.indexOf(rankL(c) as (typeof RANK_ORDER)[number]);
export const cardPoints = (c: string): number => POINTS[rankL(c)] ?? 0;
export const seatAfter = (seat: number, steps = 1): Seat => ((seat + steps) % 4) as Seat;

/** Index (0..3, from the leader) of the card that wins a complete or partial trick. */
export function refTrickWinnerIndex(cards: readonly string[], trumpSuit: string): number {
  const led = suitL(cards[0]!);
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const c = cards[i]!;
    const b = cards[best]!;
    const cTrump = suitL(c) === trumpSuit;
    const bTrump = suitL(b) === trumpSuit;
    if (cTrump && !bTrump) best = i;
    else if (cTrump && bTrump && rankValue(c) > rankValue(b)) best = i;
    else if (!cTrump && !bTrump && suitL(c) === led && rankValue(c) > rankValue(b)) best = i;
  }
  return best;
}

export const refPoints = (cards: readonly string[]): number => cards.reduce((p, c) => p + cardPoints(c), 0);

/** The cards a seat may play: the led suit if it holds any, else anything it holds. */
export function refLegal(hand: readonly string[], table: readonly string[]): string[] {
  if (table.length === 0) return [...hand];
  const led = suitL(table[0]!);
  const follow = hand.filter((c) => suitL(c) === led);
  return follow.length ? follow : [...hand];
}

export function refOutcome(pointsA: number): { winner: 'A' | 'B' | 'draw'; victories: number } {
  if (pointsA === 60) return { winner: 'draw', victories: 0 };
  const winner = pointsA > 60 ? 'A' : 'B';
  const best = winner === 'A' ? pointsA : 120 - pointsA;
  if (best === 120) return { winner, victories: 4 };
  if (best >= 91) return { winner, victories: 2 };
  return { winner, victories: 1 };
}

export interface RefTrick {
  leader: Seat;
  cards: string[];
  winner: Seat | null;
  points: number | null;
}

/** A reference game with known hands: plays are applied without any legality check (tests check). */
export class RefGame {
  readonly hands: string[][];
  readonly trumpSuit: string;
  leader: Seat;
  table: string[] = [];
  readonly tricks: RefTrick[] = [];
  readonly points: [number, number] = [0, 0];
  readonly history: string[] = [];
  /** shownVoid[seat] = suits the seat has failed to follow (legitimately or not). */
  readonly shownVoid: Set<string>[] = [new Set(), new Set(), new Set(), new Set()];

  constructor(
    readonly dealer: Seat,
    readonly trumpCard: string,
    hands: readonly (readonly string[])[],
  ) {
    this.hands = hands.map((h) => [...h]);
    this.trumpSuit = suitL(trumpCard);
    this.leader = seatAfter(dealer);
  }

  get toMove(): Seat {
    return seatAfter(this.leader, this.table.length);
  }
  get trickIndex(): number {
    return this.tricks.filter((t) => t.winner !== null).length;
  }
  get done(): boolean {
    return this.history.length === 40;
  }
  legal(): string[] {
    return refLegal(this.hands[this.toMove]!, this.table);
  }
  /** Would playing `card` now be a renounce (not following while holding the led suit)? */
  isRenounce(card: string): boolean {
    if (!this.table.length) return false;
    const led = suitL(this.table[0]!);
    return suitL(card) !== led && this.hands[this.toMove]!.some((c) => suitL(c) === led);
  }

  /** Plays `card` for the seat to move; returns the completed trick, if any. */
  play(card: string): RefTrick | null {
    const seat = this.toMove;
    const hand = this.hands[seat]!;
    const i = hand.indexOf(card);
    if (i < 0) throw new Error(`ref: ${card} not in seat ${seat}'s hand ${hand.join(' ')}`);
    if (this.table.length && suitL(card) !== suitL(this.table[0]!)) this.shownVoid[seat]!.add(suitL(this.table[0]!));
    hand.splice(i, 1);
    this.table.push(card);
    this.history.push(card);
    if (this.table.length < 4) return null;
    const w = seatAfter(this.leader, refTrickWinnerIndex(this.table, this.trumpSuit));
    const trick: RefTrick = { leader: this.leader, cards: this.table, winner: w, points: refPoints(this.table) };
    this.tricks.push(trick);
    this.points[w % 2]! += trick.points!;
    this.leader = w;
    this.table = [];
    return trick;
  }

  /** Tricks including the one being played (winner and points null). */
  allTricks(): RefTrick[] {
    return this.table.length
      ? [...this.tricks, { leader: this.leader, cards: [...this.table], winner: null, points: null }]
      : [...this.tricks];
  }
}

/** A small seeded PRNG of our own (mulberry32), so test choices do not depend on the engine's rng. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(items: readonly T[], rand: () => number): T => {
  if (!items.length) throw new Error('pick from nothing');
  return items[Math.floor(rand() * items.length)]!;
};

/** A deal of our own: shuffle the 40 strings, ten to each seat; the dealer's last card is turned up. */
export function refDeal(seed: number): { dealer: Seat; trumpCard: string; hands: string[][] } {
  const rand = mulberry32(seed);
  const deck = [...ALL_CARDS];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  const dealer = Math.floor(rand() * 4) as Seat;
  const hands = [0, 1, 2, 3].map((s) => deck.slice(s * 10, s * 10 + 10));
  const trumpCard = hands[dealer]![Math.floor(rand() * 10)]!;
  return { dealer, trumpCard, hands };
}

export const toCards = (cards: readonly string[]): Card[] => cards.map((c) => parseCard(c));
export const toStrings = (cards: readonly Card[]): string[] => cards.map((c) => formatCard(c));
export const sorted = (cards: readonly string[]): string[] => [...cards].sort();

export function dealSpec(
  dealer: Seat,
  trumpCard: string,
  hands: readonly (readonly string[])[],
): DealSpec & { hands: Card[][] } {
  return { dealer, trumpCard: parseCard(trumpCard), hands: hands.map((h) => toCards(h)) };
}

/**
 * A full deal from fixed partial hands: the remaining cards are spread over the seats (backtracking),
 * never giving a seat a suit listed in `voids[seat]`. The trump card must be in fixed[dealer].
 */
export function completeDeal(
  fixed: readonly (readonly string[])[],
  voids: readonly (readonly string[])[] = [[], [], [], []],
): string[][] {
  const hands = [0, 1, 2, 3].map((s) => [...(fixed[s] ?? [])]);
  const used = new Set(hands.flat());
  if (used.size !== hands.flat().length) throw new Error('completeDeal: a card is fixed twice');
  const rest = ALL_CARDS.filter((c) => !used.has(c));
  const go = (i: number): boolean => {
    if (i === rest.length) return true;
    const c = rest[i]!;
    for (let s = 0; s < 4; s++) {
      const h = hands[s]!;
      if (h.length >= 10 || (voids[s] ?? []).includes(suitL(c))) continue;
      h.push(c);
      if (go(i + 1)) return true;
      h.pop();
    }
    return false;
  };
  if (!go(0)) throw new Error('completeDeal: no deal fits');
  return hands;
}

/**
 * Hands at the deal derived from a scripted game given trick by trick (cards in order of play from each
 * trick's leader), using the reference rules for the winners. Checks the script is legal.
 */
export function handsFromTricks(dealer: Seat, trumpSuit: string, tricks: readonly (readonly string[])[]): string[][] {
  const hands: string[][] = [[], [], [], []];
  let leader = seatAfter(dealer);
  for (const t of tricks) {
    t.forEach((c, i) => hands[seatAfter(leader, i)]!.push(c));
    leader = seatAfter(leader, refTrickWinnerIndex(t, trumpSuit));
  }
  if (new Set(hands.flat()).size !== 40 || hands.some((h) => h.length !== 10))
    throw new Error('handsFromTricks: not a full deal');
  // Legality: replay with the reference model.
  const ref = new RefGame(dealer, '2' + trumpSuit, hands);
  for (const t of tricks) {
    for (const c of t) {
      if (ref.isRenounce(c)) throw new Error(`handsFromTricks: ${c} is a renounce`);
      ref.play(c);
    }
  }
  return hands;
}

/**
 * Deal C: dealer 3, hearts trump (the dealer turned up 2H), seat 0 leads.
 * Seat 1 holds no spade; seats 2 and 3 hold no diamond.
 */
export const DEAL_C: { dealer: Seat; trumpCard: string; hands: string[][] } = {
  dealer: 3,
  trumpCard: '2H',
  hands: [
    ['AS', 'KS', 'JS', 'QS', '6S', 'AD', '7D', 'KD', 'JD', 'QD'],
    ['2D', '3D', '4D', '5D', '6D', '3H', '6H', '2C', '3C', '4C'],
    ['2S', '3S', '4S', '4H', 'QH', 'JH', '5C', '6C', 'QC', 'JC'],
    ['5S', '7S', '2H', '5H', 'KH', '7H', 'AH', 'KC', '7C', 'AC'],
  ],
};

/** The PlayError code `f` throws, 'no error' when it returns; rethrows anything else. */
export function playErrorCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof PlayError) return e.code;
    throw e;
  }
  return 'no error';
}

/** Deep equality, fast on the common path (JSON text), with vitest's diff when it differs. */
export function same(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}

/** Is `v` plain data (numbers, strings, booleans, null, plain arrays and objects), safe to send as JSON? */
export function isPlainData(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every(isPlainData);
  if (typeof v === 'object')
    return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(isPlainData);
  return false;
}

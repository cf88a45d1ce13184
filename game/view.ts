// The one projection of hidden state: what a seat may know. Players, the table and any future search
// see the game only through a SeatView, which holds the game in a true private field, so another
// seat's cards cannot leak by accident.

import type { Card, Suit } from './cards.js';
import { SUIT_MASK, suitOf } from './cards.js';
import type { Game } from './game.js';
import type { Seat, Team } from './seats.js';

/** A seat's information set as plain data (serializable: for logs, workers and tests). */
export interface InfoSet {
  seat: Seat;
  dealer: Seat;
  trump: Suit;
  trumpCard: Card;
  /** True while the trump card is unplayed: everyone knows it is in the dealer's hand. */
  trumpCardInDealerHand: boolean;
  hand: Card[];
  /** Cards neither in this seat's hand nor played: the ones held by the other three seats. */
  unseen: Card[];
  /** voids[s] lists the suits seat s has shown it lacks. */
  voids: Suit[][];
  /** Cards each seat still holds. */
  handSizes: [number, number, number, number];
  points: [number, number];
  trick: number;
  leader: Seat;
  /** Cards of the current trick, from the leader onward. */
  table: Card[];
  /** Every card played so far, in order. */
  plays: Card[];
}

export class SeatView {
  readonly #game: Game;
  readonly seat: Seat;

  constructor(game: Game, seat: Seat) {
    this.#game = game;
    this.seat = seat;
  }

  get dealer(): Seat {
    return this.#game.dealer;
  }
  get trump(): Suit {
    return this.#game.trump;
  }
  get trumpCard(): Card {
    return this.#game.trumpCard;
  }
  get trumpCardPlayed(): boolean {
    return this.#game.trumpCardPlayed;
  }
  get toMove(): Seat {
    return this.#game.toMove;
  }
  get trick(): number {
    return this.#game.trick;
  }
  get leader(): Seat {
    return this.#game.leader;
  }
  get cardsInTrick(): number {
    return this.#game.cardsInTrick;
  }
  trickCard(i: number): Card {
    return this.#game.trickCard(i);
  }
  get ledSuit(): Suit | -1 {
    return this.#game.ledSuit;
  }
  get winningSeat(): Seat | -1 {
    return this.#game.winningSeat;
  }
  get winningCard(): Card | -1 {
    return this.#game.winningCard;
  }
  get trickPoints(): number {
    return this.#game.trickPoints;
  }
  beatsTrick(card: Card): boolean {
    return this.#game.beatsTrick(card);
  }
  points(team: Team): number {
    return this.#game.points(team);
  }
  playedMask(suit: Suit): number {
    return this.#game.playedMask(suit);
  }
  isVoid(seat: Seat, suit: Suit): boolean {
    return this.#game.isVoid(seat, suit);
  }
  handSize(seat: Seat): number {
    return this.#game.handSize(seat);
  }

  /** This seat's own cards of `suit`, as a rank mask. */
  handMask(suit: Suit): number {
    return this.#game.handMask(this.seat, suit);
  }
  hand(): Card[] {
    return this.#game.hand(this.seat);
  }
  /** Ranks of `suit` that are neither played nor in this seat's hand. */
  unseenMask(suit: Suit): number {
    return SUIT_MASK & ~this.#game.playedMask(suit) & ~this.#game.handMask(this.seat, suit);
  }
  /** Legal cards when it is this seat's turn (none otherwise). */
  legalMoves(out: Card[] | Int8Array): number {
    return this.#game.toMove === this.seat ? this.#game.legalMoves(out) : 0;
  }
  legalCards(): Card[] {
    const out: Card[] = [];
    this.legalMoves(out);
    return out;
  }
  /** The legal ranks of `suit` when it is this seat's turn. */
  legalMask(suit: Suit): number {
    return this.#game.toMove === this.seat ? this.#game.legalMask(suit) : 0;
  }

  snapshot(): InfoSet {
    return infoSetOf(this.#game, this.seat, this.hand());
  }
}

/**
 * A seat's information set from the public game and the seat's own hand. The game's hands need not be
 * known (a live table): only plays, voids and points are read from it, so the robot's replica of a
 * live game and a SeatView of a simulated one give the same thing.
 */
export function infoSetOf(g: Game, seat: Seat, hand: readonly Card[]): InfoSet {
  const own = new Set(hand);
  const unseen: Card[] = [];
  for (let s = 0; s < 4; s++) {
    const m = SUIT_MASK & ~g.playedMask(s as Suit);
    for (let r = 0; r < 10; r++) if (m & (1 << r) && !own.has((s * 10 + r) as Card)) unseen.push((s * 10 + r) as Card);
  }
  const voids: Suit[][] = [[], [], [], []];
  for (let p = 0; p < 4; p++) for (let s = 0; s < 4; s++) if (g.isVoid(p as Seat, s as Suit)) voids[p]!.push(s as Suit);
  const table: Card[] = [];
  for (let i = 0; i < g.cardsInTrick; i++) table.push(g.trickCard(i));
  const plays: Card[] = [];
  for (let i = 0; i < g.plays; i++) plays.push(g.playAt(i));
  return {
    seat,
    dealer: g.dealer,
    trump: g.trump,
    trumpCard: g.trumpCard,
    trumpCardInDealerHand: !g.trumpCardPlayed,
    hand: [...hand].sort((a, b) => a - b),
    unseen,
    voids,
    handSizes: [g.handSize(0), g.handSize(1), g.handSize(2), g.handSize(3)],
    points: [g.points(0), g.points(1)],
    trick: g.trick,
    leader: g.leader,
    table,
    plays,
  };
}

/**
 * Is a full assignment of the other seats' hands consistent with an information set? Checks that the
 * other hands are exactly the unseen cards, have the right sizes, respect every shown void, and that
 * the dealer holds the trump card while it is unplayed.
 */
export function consistencyProblems(info: InfoSet, hands: readonly (readonly Card[])[]): string[] {
  const problems: string[] = [];
  const unseen = new Set(info.unseen);
  const seen = new Set<Card>();
  for (let s = 0; s < 4; s++) {
    const hand = hands[s] ?? [];
    if (s === info.seat) continue;
    if (hand.length !== info.handSizes[s])
      problems.push(`seat ${s} holds ${hand.length} cards, expected ${info.handSizes[s]}`);
    for (const c of hand) {
      if (!unseen.has(c)) problems.push(`seat ${s} holds card ${c}, which is not unseen by seat ${info.seat}`);
      if (info.voids[s]!.includes(suitOf(c))) problems.push(`seat ${s} holds card ${c} of a suit it showed void in`);
      seen.add(c);
    }
  }
  if (seen.size !== unseen.size)
    problems.push(`the other hands hold ${seen.size} distinct cards, ${unseen.size} are unseen`);
  if (info.trumpCardInDealerHand && info.seat !== info.dealer && !hands[info.dealer]?.includes(info.trumpCard)) {
    problems.push(`the dealer (seat ${info.dealer}) does not hold the trump card`);
  }
  return problems;
}

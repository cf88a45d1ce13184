// The encoding of one decision for a learned policy: what the seat to move knows, as a fixed vector of
// DECISION_FEATURES floats (features version FEATURES_VERSION). Read only from the seat's information set
// (its own hand and the public game: view.ts's one projection), so no other hand can leak into it.
// Seats are relative to the seat deciding: 0 = itself, 1 = the next to play, 2 = its partner,
// 3 = the one before it. The label of a decision is the card played (0..39, card order).
//
//   offset  size  block
//        0    40  hand: the seat's own cards
//       40    40  legal: the cards it may play (the network's output is masked by this block)
//       80   120  trick: the cards on the table, by the relative seat that played them (1, 2, 3: 40 each)
//      200   160  played: every card played so far (this trick included), by relative seat (0..3: 40 each)
//      360     4  trump suit
//      364    10  trick number (0..9)
//      374     2  points so far: the seat's team, the other team (divided by 120)
//      376    40  the dealer's turned-up card, while it is unplayed
//      416     4  the dealer's relative seat
//      420    12  suits shown void by relative seats 1..3 (4 each)
//      432     4  the suit led to this trick (none when leading)
//
// Changing any of this is a new FEATURES_VERSION: a model records the version it was trained on and
// is refused by code of another (mlp.ts).

import type { Card } from '../cards.js';
import { DECK_SIZE, SUIT_MASK, suitOf } from '../cards.js';
import { Game } from '../game.js';
import type { Seat } from '../seats.js';
import type { InfoSet } from '../view.js';

export const FEATURES_VERSION = 1;

export const DECISION_LAYOUT = {
  hand: 0,
  legal: 40,
  trick: 80,
  played: 200,
  trump: 360,
  trickNumber: 364,
  points: 374,
  trumpCard: 376,
  dealer: 416,
  voids: 420,
  led: 432,
} as const;

export const DECISION_FEATURES = 436;

/** The hand and legal blocks come first: a decision's features from here on are public, the same in every world. */
export const PRIVATE_FEATURES = DECISION_LAYOUT.trick;

/** What every seat knows: the public part of an information set (any seat's, the observer's included). */
export type PublicGame = Pick<
  InfoSet,
  | 'dealer'
  | 'trump'
  | 'trumpCard'
  | 'trumpCardInDealerHand'
  | 'voids'
  | 'points'
  | 'trick'
  | 'leader'
  | 'table'
  | 'plays'
>;

/** The seat that played each card of `plays`, in order (from the rules: the dealer, the trump and the cards alone). */
export function playSeats(dealer: Seat, trumpCard: Card, plays: readonly Card[]): Seat[] {
  const g = new Game({ dealer, trumpCard, hands: null });
  const seats: Seat[] = [];
  for (const c of plays) {
    if (g.isOver) break; // a renounce ends the game: no later play has a seat
    seats.push(g.toMove);
    g.play(c);
  }
  return seats;
}

/** The seat to move in a public game (the leader plus the cards on the table). */
const publicToMove = (p: PublicGame): Seat => ((p.leader + p.table.length) % 4) as Seat;

const rel = (seat: number, me: Seat): number => (seat - me + 4) % 4;

/**
 * Writes the public blocks (everything but hand and legal) for `seat` deciding in `p` into `out`
 * (from `offset`), and zeroes the hand and legal blocks. `seats` may give the seat of each play
 * (playSeats), when the caller encodes many positions of one game.
 */
export function encodePublic(p: PublicGame, seat: Seat, out: Float32Array, offset = 0, seats?: readonly Seat[]): void {
  if (publicToMove(p) !== seat)
    throw new RangeError(
      `seat ${seat} is not to move (seat ${publicToMove(p)} is): a decision is encoded for the seat to move`,
    );
  out.fill(0, offset, offset + DECISION_FEATURES);
  const by = seats ?? playSeats(p.dealer, p.trumpCard, p.plays);
  for (let i = 0; i < p.plays.length; i++)
    out[offset + DECISION_LAYOUT.played + rel(by[i]!, seat) * DECK_SIZE + p.plays[i]!] = 1;
  for (let i = 0; i < p.table.length; i++) {
    const r = rel(p.leader + i, seat);
    out[offset + DECISION_LAYOUT.trick + (r - 1) * DECK_SIZE + p.table[i]!] = 1;
  }
  out[offset + DECISION_LAYOUT.trump + p.trump] = 1;
  out[offset + DECISION_LAYOUT.trickNumber + Math.min(p.trick, 9)] = 1;
  const team = seat & 1;
  out[offset + DECISION_LAYOUT.points] = p.points[team]! / 120;
  out[offset + DECISION_LAYOUT.points + 1] = p.points[1 - team]! / 120;
  if (p.trumpCardInDealerHand) out[offset + DECISION_LAYOUT.trumpCard + p.trumpCard] = 1;
  out[offset + DECISION_LAYOUT.dealer + rel(p.dealer, seat)] = 1;
  for (let s = 0; s < 4; s++) {
    const r = rel(s, seat);
    if (r === 0) continue;
    for (const suit of p.voids[s]!) out[offset + DECISION_LAYOUT.voids + (r - 1) * 4 + suit] = 1;
  }
  if (p.table.length) out[offset + DECISION_LAYOUT.led + suitOf(p.table[0]!)] = 1;
}

/**
 * Writes the hand and legal blocks for a seat holding `hand` (four rank masks, index = suit) to a
 * trick led in `led` (-1: it leads); returns the number of legal cards.
 */
export function encodeHandMasks(hand: ArrayLike<number>, led: number, out: Float32Array, offset = 0): number {
  const follow = led >= 0 && hand[led] !== 0;
  let n = 0;
  for (let s = 0; s < 4; s++) {
    const m = hand[s]! & SUIT_MASK;
    const legal = !follow || s === led;
    for (let r = 0; r < 10; r++) {
      const bit = (m >> r) & 1;
      out[offset + DECISION_LAYOUT.hand + s * 10 + r] = bit;
      out[offset + DECISION_LAYOUT.legal + s * 10 + r] = legal ? bit : 0;
      if (legal && bit) n++;
    }
  }
  return n;
}

/** encodeHandMasks for a hand given as cards. */
function encodeHand(hand: readonly Card[], led: number, out: Float32Array, offset = 0): number {
  const masks = [0, 0, 0, 0];
  for (const c of hand) masks[suitOf(c)]! |= 1 << (c % 10);
  return encodeHandMasks(masks, led, out, offset);
}

/** The whole encoding of the decision of the seat whose information set `info` is (it must be to move). */
export function encodeInfoSet(
  info: InfoSet,
  out: Float32Array = new Float32Array(DECISION_FEATURES),
  offset = 0,
  seats?: readonly Seat[],
): Float32Array {
  encodePublic(info, info.seat, out, offset, seats);
  encodeHand(info.hand, info.table.length ? suitOf(info.table[0]!) : -1, out, offset);
  return out;
}

/** The legal cards in an encoding, in card order. */
export function legalCardsOf(x: Float32Array, offset = 0): Card[] {
  const cards: Card[] = [];
  for (let c = 0; c < DECK_SIZE; c++) if (x[offset + DECISION_LAYOUT.legal + c]) cards.push(c as Card);
  return cards;
}

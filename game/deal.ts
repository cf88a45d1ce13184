// Seeded shuffling and dealing.

import type { Card } from './cards.js';
import { DECK } from './cards.js';
import type { Rng } from './rng.js';
import { shuffleInPlace } from './rng.js';
import type { Seat } from './seats.js';
import { nextSeat } from './seats.js';
import type { DealSpec } from './game.js';

export interface Deal extends DealSpec {
  hands: Card[][];
}

/**
 * Shuffles and deals ten cards to each seat, starting with the seat after the dealer. The dealer's last
 * card is the one turned up: it fixes the trump suit and stays in the dealer's hand.
 */
export function dealCards(rng: Rng, dealer: Seat): Deal {
  const deck = shuffleInPlace(DECK.slice(), rng);
  const hands: Card[][] = [[], [], [], []];
  for (let i = 0; i < 4; i++) {
    const seat = nextSeat(dealer, i + 1);
    hands[seat] = deck.slice(i * 10, i * 10 + 10);
  }
  const trumpCard = deck[39]!;
  for (const h of hands) h.sort((a, b) => a - b);
  return { dealer, trumpCard, hands };
}

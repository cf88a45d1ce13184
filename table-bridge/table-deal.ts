// The cards a table deals itself: the simulated table's physical-deal mode, where it plays the people
// who shuffle and deal real cards. Each game's deal follows from the table's seed, the game's index and
// its dealer alone, so a table that reconnects, or restarts after the runtime did, deals the same cards.

import type { Card, Deal, Seat } from '../game/index.js';
import { createRng, dealCards, deriveSeed, formatCard } from '../game/index.js';

/** A stream of the table's seed apart from its bots' (deriveSeed(seed, game, seat)). */
const DEAL_STREAM = 0xdea1;

/** Game `index`'s deal by `dealer`, as the table shuffles it. */
export function tableDeal(seed: number, index: number, dealer: Seat): Deal {
  return dealCards(createRng(deriveSeed(seed, DEAL_STREAM), index), dealer);
}

/** What `seat` still holds of its dealt hand after `plays` (cards in notation, as in the state). */
export function handNow(deal: Deal, seat: Seat, plays: readonly { card: string }[]): Card[] {
  const played = new Set(plays.map((p) => p.card));
  return deal.hands[seat]!.filter((c) => !played.has(formatCard(c)));
}

// The cards a seat may play next as far as an observer knows: the cards it could hold (unseen by the
// observer, of no suit it has shown void in, not the dealer's known trump card unless it is the dealer),
// and of those only the led suit when it surely holds one (it cannot be void in the led suit in any
// deal consistent with what the observer has seen). A superset of what any consistent deal allows,
// so a model mixed with uniform over it never gives a possible card probability 0.

import type { Card, Suit } from '../cards.js';
import { suitOf } from '../cards.js';
import { createDealSampler } from '../sampler.js';
import type { Seat } from '../seats.js';
import type { InfoSet } from '../view.js';

/** The seat to move in an information set's game. */
export const seatToMove = (info: InfoSet): Seat => ((info.leader + info.table.length) & 3) as Seat;

/** The cards `seat` might play next, seen from `info` (its observer's information set), in card order. */
export function possiblePlays(info: InfoSet, seat: Seat): Card[] {
  const voids = info.voids[seat] ?? [];
  const pinnedElsewhere = info.trumpCardInDealerHand && info.dealer !== seat;
  const held = info.unseen.filter((c) => !voids.includes(suitOf(c)) && !(pinnedElsewhere && c === info.trumpCard));
  if (!info.table.length) return held.sort((a, b) => a - b);
  const led = suitOf(info.table[0]!);
  if (voids.includes(led)) return held.sort((a, b) => a - b);
  const follow = held.filter((c) => suitOf(c) === led);
  if (!follow.length) return held.sort((a, b) => a - b);
  // Could it be void in the led suit? Only if some consistent deal leaves it none.
  const asVoid: InfoSet = { ...info, voids: info.voids.map((v, s) => (s === seat ? [...v, led as Suit] : v)) };
  return (createDealSampler(asVoid).count > 0 ? held : follow).sort((a, b) => a - b);
}

// Warnings of the situation for a person who partners the robot, in the training mode: what
// a coach who sees both of its team's hands, and the cards played, knows about the other side. Never
// from the opponents' hands: only what follows from the two hands and the table.

import type { Card } from '../cards.js';
import { cardOf, suitOf } from '../cards.js';
import type { Game } from '../game.js';
import type { Seat } from '../seats.js';
import { partnerOf } from '../seats.js';

type SituationWarning =
  /** The partner holds the seven of trumps and the ace is on the other side: the seven is not yet a master. */
  | { kind: 'ace-with-them'; card: Card }
  /** Every trump not played is in the team's two hands: the partner's side-suit masters cannot be ruffed. */
  | { kind: 'no-trumps-with-them' };

/**
 * The warnings that hold for the robot's partner now (both hands known). A caller says each kind at
 * most once a game.
 */
export function situationWarnings(game: Game, robotSeat: Seat): SituationWarning[] {
  const partner = partnerOf(robotSeat);
  if (game.isOver || !game.knowsHand(partner) || !game.knowsHand(robotSeat)) return [];
  const ours = [...game.hand(partner), ...game.hand(robotSeat)];
  const partnerHand = game.hand(partner);
  const out: SituationWarning[] = [];
  const ace = cardOf(game.trump, 9);
  const seven = cardOf(game.trump, 8);
  if (partnerHand.includes(seven) && !game.isPlayed(ace) && !ours.includes(ace))
    out.push({ kind: 'ace-with-them', card: ace });
  // Worth saying while trumps are still out with us and the partner has a side suit to lead or keep.
  let withThem = 0;
  for (let r = 0; r < 10; r++) {
    const c = cardOf(game.trump, r);
    if (!game.isPlayed(c) && !ours.includes(c)) withThem++;
  }
  if (withThem === 0 && game.trick < 9 && partnerHand.some((c) => suitOf(c) !== game.trump))
    out.push({ kind: 'no-trumps-with-them' });
  return out;
}

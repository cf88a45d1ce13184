// Which plays of a game were forced: the seat had exactly one legal card and played it. Nobody's hand
// is on the bus except the robot's, but a game gives them back: every card a seat held is a card it
// plays later (all 40 are played in a complete game), and the trump card the dealer turned up stays
// in the dealer's hand until played. Where a recording ends early, a hand is only partly known, and
// a play is judged only when the known part decides it.

import type { Card } from '../../../game/index.js';
import { CardParseError, parseCard, suitOf } from '../../../game/index.js';
import type { GameTimeline } from './timeline.js';

const HAND = 10;

const cardOrNull = (s: string): Card | null => {
  try {
    return parseCard(s);
  } catch (e) {
    if (e instanceof CardParseError) return null;
    throw e;
  }
};

/**
 * For each play of `game`, in order: true when it was forced, false when the seat had a choice,
 * null when the recording does not tell (the seat's hand is not known well enough).
 */
export function forcedPlays(game: GameTimeline): (boolean | null)[] {
  const plays = game.plays.map((p) => ({
    seat: p.message.seat,
    card: cardOrNull(p.message.card),
    trick: p.message.trick,
  }));
  const dealer = game.deal?.message.seat ?? -1;
  const trump = game.deal ? cardOrNull(game.deal.message.card) : null;
  return plays.map((p, k) => {
    if (p.card === null) return null;
    const before = plays.slice(0, k).filter((q) => q.seat === p.seat);
    const size = HAND - before.length;
    // The seat's hand as far as the game shows it: this card and the ones it plays later, and the
    // turned-up trump card while its dealer has not played it.
    const known = new Set(
      plays
        .slice(k)
        .filter((q) => q.seat === p.seat && q.card !== null)
        .map((q) => q.card!),
    );
    if (p.seat === dealer && trump !== null && !before.some((q) => q.card === trump)) known.add(trump);
    const unknown = size - known.size;
    if (size === 1) return true;
    const first = plays.findIndex((q) => q.trick === p.trick);
    // The leader may play any card.
    if (first === k) return false;
    const led = plays[first]!.card;
    if (led === null) return null;
    const suit = suitOf(led);
    const following = [...known].filter((c) => suitOf(c) === suit);
    if (following.length >= 2) return false;
    if (unknown > 0) return null;
    // One card of the suit led, and it was played; none, and any of `size` (at least two) would do.
    return following.length === 1 && suitOf(p.card) === suit;
  });
}

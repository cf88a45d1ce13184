// A deal built for a test: the given cards in the given hands, the rest of the deck dealt in order to
// fill each hand to ten, the dealer holding the turned-up card; then the plays before the position.

import { DECK, Game, parseCard } from '../../game/index.js';
import type { Card, Seat } from '../../game/index.js';

export interface BuiltDeal {
  dealer: Seat;
  trumpCard: string;
  /** Cards by seat, space-separated ("AH 7H"). */
  hands: Partial<Record<Seat, string>>;
  /** Cards played from the deal, space-separated, in order. */
  plays?: string;
}

export function builtGame(o: BuiltDeal): Game {
  const hands: Card[][] = [0, 1, 2, 3].map((s) =>
    (o.hands[s as Seat] ?? '')
      .split(' ')
      .filter(Boolean)
      .map((c) => parseCard(c)),
  );
  const trump = parseCard(o.trumpCard);
  if (!hands[o.dealer]!.includes(trump)) hands[o.dealer]!.push(trump);
  const used = new Set(hands.flat());
  const rest = DECK.filter((c) => !used.has(c));
  for (const h of hands) while (h.length < 10) h.push(rest.shift()!);
  const game = new Game({ dealer: o.dealer, trumpCard: trump, hands });
  for (const c of (o.plays ?? '').split(' ').filter(Boolean)) game.play(parseCard(c));
  return game;
}

// Game events as a seat observes them, and how they follow from a game's plays. Players are told
// these; external players receive them as JSON.

import type { Card } from './cards.js';
import { pointsOf } from './cards.js';
import type { DealSpec, Game } from './game.js';
import { PlayResult } from './game.js';
import type { GameOutcome, Renounce } from './scoring.js';
import type { Seat } from './seats.js';

export type GameEvent =
  /** The deal as `seat` sees it: its own hand, the dealer and the turned-up trump card. */
  | { type: 'deal'; seat: Seat; dealer: Seat; trumpCard: Card; hand: Card[] }
  | { type: 'play'; seat: Seat; card: Card; trick: number }
  | { type: 'trick'; trick: number; leader: Seat; cards: Card[]; winner: Seat; points: number }
  | { type: 'end'; points: [number, number]; outcome: GameOutcome; renounce: Renounce | null };

/** The events every seat hears when `card` is played; the trick event only when it completes one. */
export function eventsOfPlay(game: Game, seat: Seat, card: Card, result: PlayResult, trickBefore: number): GameEvent[] {
  const events: GameEvent[] = [{ type: 'play', seat, card, trick: trickBefore }];
  if (result !== PlayResult.Continue && game.trick > trickBefore) {
    const cards: Card[] = [];
    let points = 0;
    for (let i = 0; i < 4; i++) {
      const c = game.playAt(trickBefore * 4 + i);
      cards.push(c);
      points += pointsOf(c);
    }
    events.push({
      type: 'trick',
      trick: trickBefore,
      leader: leaderOf(game, trickBefore),
      cards,
      winner: game.trickWinner(trickBefore),
      points,
    });
  }
  if (game.isOver) {
    events.push({
      type: 'end',
      points: [game.points(0), game.points(1)],
      outcome: game.outcome!,
      renounce: game.renounce,
    });
  }
  return events;
}

/** The seat that led trick `k`: the seat after the dealer for the first, the previous winner after. */
export function leaderOf(game: Game, k: number): Seat {
  return k === 0 ? (((game.dealer + 1) & 3) as Seat) : game.trickWinner(k - 1);
}

/** The deal event `seat` is told: its own hand (none when the deal does not say it), the dealer and the trump card. */
export function dealEvent(deal: DealSpec, seat: Seat): GameEvent {
  return { type: 'deal', seat, dealer: deal.dealer, trumpCard: deal.trumpCard, hand: [...(deal.hands?.[seat] ?? [])] };
}

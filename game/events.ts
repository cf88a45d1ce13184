// Game events as a seat observes them. Players are told these; external players receive them as JSON.

import type { Card } from './cards.js';
import type { GameOutcome, Renounce } from './scoring.js';
import type { Seat } from './seats.js';

export type GameEvent =
  /** The deal as `seat` sees it: its own hand, the dealer and the turned-up trump card. */
  | { type: 'deal'; seat: Seat; dealer: Seat; trumpCard: Card; hand: Card[] }
  | { type: 'play'; seat: Seat; card: Card; trick: number }
  | { type: 'trick'; trick: number; leader: Seat; cards: Card[]; winner: Seat; points: number }
  | { type: 'end'; points: [number, number]; outcome: GameOutcome; renounce: Renounce | null };

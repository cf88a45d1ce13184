// Decisions of played games as rows for training (launch/commands/dataset.ts writes them to a file).
// A row: the encoding of the decision (encode.ts, DECISION_FEATURES floats), then the label (the card
// played), the game's number in the dataset, the absolute seat and the index of who played it (the
// header's `who` list). The file: one JSON header line, then the rows as little-endian float32.

import type { Card } from '../cards.js';
import { Game } from '../game.js';
import type { Seat } from '../seats.js';
import { infoSetOf } from '../view.js';
import { FEATURES_VERSION, DECISION_FEATURES, encodeInfoSet, playSeats } from './encode.js';

export const DATASET_FORMAT = 'parceiro-decisions-1';

export interface DatasetHeader {
  format: typeof DATASET_FORMAT;
  featuresVersion: typeof FEATURES_VERSION;
  featureCount: typeof DECISION_FEATURES;
  /** Floats per row: DECISION_FEATURES, then label, game, seat, who. */
  rowFloats: number;
  rows: number;
  games: number;
  /** Who played, by the row's `who` index (a player spec, "person", "robot"...). */
  who: string[];
  /** What was exported, in words, and the command that did it. */
  source: string;
  command: string;
  seed: number | null;
}

export interface DecisionRow {
  features: Float32Array;
  label: Card;
  seat: Seat;
}

/**
 * The decisions of `seats` (null: all four) in a game whose hands at the deal and plays are known, in
 * order of play. Stops at the end of the plays (a game cut short, or ended by a renounce).
 */
export function* decisionRows(
  deal: { dealer: Seat; trumpCard: Card; hands: readonly (readonly Card[])[] },
  plays: readonly Card[],
  seats: ReadonlySet<Seat> | null,
): Generator<DecisionRow> {
  const game = new Game({ dealer: deal.dealer, trumpCard: deal.trumpCard, hands: deal.hands });
  const by = playSeats(deal.dealer, deal.trumpCard, plays.slice(0, 40));
  for (const card of plays) {
    if (game.isOver) break;
    const seat = game.toMove;
    if (!seats || seats.has(seat)) {
      const features = encodeInfoSet(
        infoSetOf(game, seat, game.hand(seat)),
        new Float32Array(DECISION_FEATURES),
        0,
        by,
      );
      yield { features, label: card, seat };
    }
    game.play(card, seat);
  }
}

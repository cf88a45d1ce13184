// The interface every player implements, built in or external. A player is made for one seat with
// a seed, is told the events of each game, and is asked for a card given its seat's view.

import type { Card } from '../cards.js';
import type { GameEvent } from '../events.js';
import type { Clock } from '../clock.js';
import type { Decision } from '../decision.js';
import type { LevelTable } from '../memory/levels.js';
import type { Seat } from '../seats.js';
import type { SeatView } from '../view.js';

export interface Player {
  /** The kind, as named on the command line (`random`, `rule`...). */
  readonly kind: string;
  /** Told every event of the game, as the seat sees it. Optional: simple players ignore events. */
  observe?(event: GameEvent): void;
  /** A legal card for the seat to move; called only on this player's turn. */
  choose(view: SeatView): Card;
  /** Like `choose`, with the beliefs behind the card (search players). */
  decide?(view: SeatView): Decision;
}

export interface PlayerOptions {
  seat: Seat;
  /** Every random choice of the player derives from this seed. */
  seed: number;
  /** The clock a player with a time budget reads (ms); injected so that search stays pure. */
  clock?: Clock['now'];
  /** Time budget per decision (ms) for anytime players. */
  budgetMs?: number;
  /** The settings of the levels of play (config/levels.yaml) for `level:` players; default: the embedded ones. */
  levels?: LevelTable;
}

export type PlayerFactory = (options: PlayerOptions) => Player;

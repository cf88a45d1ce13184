// Drives one game between four synchronous players. Events are built only when someone listens, so a
// tournament between simple players allocates almost nothing per play.

import type { Card } from './cards.js';
import { formatCard, isCard } from './cards.js';
import type { Clock } from './clock.js';
import type { Decision } from './decision.js';
import type { GameEvent } from './events.js';
import { dealEvent, eventsOfPlay } from './events.js';
import type { DealSpec } from './game.js';
import { Game } from './game.js';
import type { Player } from './players/player.js';
import type { Seat } from './seats.js';
import { SeatView } from './view.js';

export interface GameHooks {
  /** Measures each decision when given. */
  clock?: Clock['now'];
  onDecision?: (seat: Seat, elapsedMs: number) => void;
  /** Every event, including each seat's deal. */
  onEvent?: (event: GameEvent) => void;
  /** The decision of a player that explains itself (`decide`): the card and its beliefs. */
  onDecisionMade?: (seat: Seat, decision: Decision) => void;
}

/** A player broke the interface: a bug in that player, not a user error. */
export class PlayerContractError extends Error {
  constructor(
    readonly seat: Seat,
    readonly kind: string,
    card: unknown,
  ) {
    super(
      `player '${kind}' at seat ${seat} chose ${typeof card === 'number' && isCard(card) ? formatCard(card) : JSON.stringify(card)}, which is not legal`,
    );
    this.name = 'PlayerContractError';
  }
}

export function playGame(deal: DealSpec, players: readonly Player[], hooks: GameHooks = {}): Game {
  const game = new Game(deal);
  const views = [0, 1, 2, 3].map((s) => new SeatView(game, s as Seat));
  const listening = hooks.onEvent !== undefined || players.some((p) => p.observe);
  const tell = (e: GameEvent, only?: Seat): void => {
    for (let s = 0; s < 4; s++) if (only === undefined || only === s) players[s]!.observe?.(e);
    hooks.onEvent?.(e);
  };
  if (listening) for (let s = 0; s < 4; s++) tell(dealEvent(deal, s as Seat), s as Seat);

  const { clock, onDecision, onDecisionMade } = hooks;
  const choose = (player: Player, view: SeatView): Card => {
    if (!onDecisionMade || !player.decide) return player.choose(view);
    const decision = player.decide(view);
    onDecisionMade(view.seat, decision);
    return decision.card;
  };
  while (!game.isOver) {
    const seat = game.toMove;
    const player = players[seat]!;
    let card: Card;
    if (clock) {
      const t0 = clock();
      card = choose(player, views[seat]!);
      onDecision?.(seat, clock() - t0);
    } else {
      card = choose(player, views[seat]!);
    }
    if (!game.isLegal(card)) throw new PlayerContractError(seat, player.kind, card);
    const trickBefore = game.trick;
    const result = game.play(card);
    if (listening) for (const e of eventsOfPlay(game, seat, card, result, trickBefore)) tell(e);
  }
  return game;
}

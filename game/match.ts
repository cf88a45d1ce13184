// Drives one game between four synchronous players. Events are built only when someone listens, so a
// tournament between simple players allocates almost nothing per play.

import type { Card } from './cards.js';
import { formatCard, isCard, pointsOf } from './cards.js';
import type { GameEvent } from './events.js';
import type { DealSpec } from './game.js';
import { Game, PlayResult } from './game.js';
import type { Player } from './players/player.js';
import type { Decision } from './search/tally.js';
import type { Clock } from './clock.js';
import type { Seat } from './seats.js';
import { SeatView } from './view.js';

export interface GameHooks {
  /** Measures each decision when given (injected, so timing never leaks into the rules). */
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
    super(`player '${kind}' at seat ${seat} chose ${typeof card === 'number' && isCard(card) ? formatCard(card) : JSON.stringify(card)}, which is not legal`);
    this.name = 'PlayerContractError';
  }
}

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
    events.push({ type: 'trick', trick: trickBefore, leader: leaderOf(game, trickBefore), cards, winner: game.trickWinner(trickBefore), points });
  }
  if (game.isOver) {
    events.push({ type: 'end', points: [game.points(0), game.points(1)], outcome: game.outcome!, renounce: game.renounce });
  }
  return events;
}

/** The seat that led trick `k`: the seat after the dealer for the first, the previous winner after. */
export function leaderOf(game: Game, k: number): Seat {
  return k === 0 ? (((game.dealer + 1) & 3) as Seat) : game.trickWinner(k - 1);
}

export function dealEvent(deal: DealSpec, seat: Seat): GameEvent {
  return { type: 'deal', seat, dealer: deal.dealer, trumpCard: deal.trumpCard, hand: [...(deal.hands?.[seat] ?? [])] };
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

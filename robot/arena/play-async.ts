// One game between players that may answer asynchronously (external programs, remote seats). The same
// loop as game/match.ts playGame, awaiting each choice; the events are built by the engine's own
// eventsOfPlay and dealEvent. A player that could not answer properly reports a fault along with the
// (legal) card played in its place; the game goes on.

import type { Card, Clock, DealSpec, FaultKind, GameEvent, Player, Seat } from '../../game/index.js';
import { Game, PlayerContractError, SeatView, dealEvent, eventsOfPlay } from '../../game/index.js';

/** Why a player's own answer was not used: what the tournament statistics count. */
export interface PlayerFault {
  kind: FaultKind;
  detail: string;
}

export interface AsyncChoice {
  /** A legal card: the player's own, or the fallback's when `fault` is set. */
  card: Card;
  fault: PlayerFault | null;
}

/** A player whose choice is a promise. `deadlineMs` is the time allowed for the move, when there is one. */
export interface AsyncPlayerLike {
  readonly kind: string;
  observe?(event: GameEvent): void;
  choose(view: SeatView, deadlineMs?: number): Promise<AsyncChoice>;
}

interface AsyncGameHooks {
  /** Measures each decision when given. */
  clock?: Clock['now'];
  onDecision?: (seat: Seat, elapsedMs: number) => void;
  /** Every event, including each seat's deal. */
  onEvent?: (event: GameEvent) => void;
  /** A player's answer was replaced by a fallback card; `name` is the player's kind. */
  onFault?: (seat: Seat, name: string, fault: PlayerFault) => void;
  /** Passed to asynchronous players as the deadline of each move. */
  moveTimeoutMs?: number;
  /** Once aborted, the game ends before its next move (and after the pending one) by throwing the abort reason. */
  signal?: AbortSignal;
}

export async function playGameAsync(
  deal: DealSpec,
  players: ReadonlyArray<Player | AsyncPlayerLike>,
  hooks: AsyncGameHooks = {},
): Promise<Game> {
  if (players.length !== 4) throw new RangeError(`playGameAsync: expected 4 players, got ${players.length}`);
  const game = new Game(deal);
  const views = [0, 1, 2, 3].map((s) => new SeatView(game, s as Seat));
  const tell = (e: GameEvent, only?: Seat): void => {
    for (let s = 0; s < 4; s++) if (only === undefined || only === s) players[s]!.observe?.(e);
    hooks.onEvent?.(e);
  };
  for (let s = 0; s < 4; s++) tell(dealEvent(deal, s as Seat), s as Seat);

  const { clock, onDecision, onFault, moveTimeoutMs, signal } = hooks;
  while (!game.isOver) {
    signal?.throwIfAborted();
    const seat = game.toMove;
    const player = players[seat]!;
    const t0 = clock ? clock() : 0;
    // A synchronous Player ignores the deadline and answers a card; an asynchronous one answers a promise.
    const answer = (player as AsyncPlayerLike).choose(views[seat]!, moveTimeoutMs) as Card | Promise<AsyncChoice>;
    const { card, fault } = typeof answer === 'number' ? { card: answer, fault: null } : await answer;
    // A move answered by a player being stopped (its fallback's) is not played.
    signal?.throwIfAborted();
    if (clock) onDecision?.(seat, clock() - t0);
    if (fault) onFault?.(seat, player.kind, fault);
    if (!game.isLegal(card)) throw new PlayerContractError(seat, player.kind, card);
    const trickBefore = game.trick;
    const result = game.play(card);
    for (const e of eventsOfPlay(game, seat, card, result, trickBefore)) tell(e);
  }
  return game;
}

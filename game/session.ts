// A session: n games with the dealer rotating one seat each game and victories accumulating.

import type { Deal } from './deal.js';
import { dealCards } from './deal.js';
import type { Game } from './game.js';
import type { GameHooks } from './match.js';
import { playGame } from './match.js';
import type { Player } from './players/player.js';
import { createRng } from './rng.js';
import type { SessionScore } from './scoring.js';
import { addGame, emptySessionScore } from './scoring.js';
import type { Seat } from './seats.js';
import { nextSeat } from './seats.js';

export interface SessionOptions {
  games: number;
  seed: number;
  /** Dealer of the first game; the seat after deals the next game, and so on. */
  firstDealer: Seat;
  hooks?: GameHooks;
  /** Called before each game with its deal, and after it with the game and the running score. */
  onGameStart?: (index: number, deal: Deal) => void;
  onGameEnd?: (index: number, game: Game, score: SessionScore) => void;
}

const dealerOfGame = (firstDealer: Seat, index: number): Seat => nextSeat(firstDealer, index);

/** Plays a whole session with the same four players (they may remember earlier games). */
export function playSession(players: readonly Player[], options: SessionOptions): SessionScore {
  let score = emptySessionScore();
  for (let i = 0; i < options.games; i++) {
    const deal = dealCards(createRng(options.seed, i), dealerOfGame(options.firstDealer, i));
    options.onGameStart?.(i, deal);
    const game = playGame(deal, players, options.hooks);
    score = addGame(score, game.outcome!);
    options.onGameEnd?.(i, game, score);
  }
  return score;
}

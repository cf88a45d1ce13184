// A worker thread that reviews a finished game with all cards in view (game/explain/review.ts): the
// exact solver along the game takes from a few milliseconds to a few seconds, never on the thread that
// serves the table and the bus.

import type { GameReview, PlayedGame } from '../../../game/index.js';
import { Solver, reviewGame } from '../../../game/index.js';

const solver = new Solver({ ttBits: 20 });

export default function review(game: PlayedGame): GameReview {
  // Positions of another deal share no values with this one: only room is freed.
  solver.clearTable();
  return reviewGame(game, solver);
}

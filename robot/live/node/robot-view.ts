// What the robot's seat knows of the game in play, rebuilt from the game events it is told: the public
// game (plays, voids, points) plus its own hand. It gives the robot's information set for the
// estimates, never another seat's cards: the session's Game is not reached into.

import type { Card, GameEvent, InfoSet, Seat } from '../../../game/index.js';
import { Game, infoSetOf, suitOf } from '../../../game/index.js';

export class RobotView {
  #game: Game | null = null;
  #hand = new Set<Card>();

  constructor(readonly seat: Seat) {}

  /** The game being played, as far as the events went (null before the first deal). */
  get game(): Game | null {
    return this.#game;
  }

  apply(e: GameEvent): void {
    if (e.type === 'deal') {
      this.#game = new Game({ dealer: e.dealer, trumpCard: e.trumpCard, hands: null });
      this.#hand = new Set(e.hand);
    } else if (e.type === 'play' && this.#game && !this.#game.isOver) {
      this.#game.play(e.card, e.seat);
      if (e.seat === this.seat) this.#hand.delete(e.card);
    }
  }

  /** How many legal cards the robot has now (meaningful on its turn). */
  legalCount(): number {
    const g = this.#game;
    if (!g || g.cardsInTrick === 0) return this.#hand.size;
    const led = suitOf(g.trickCard(0));
    const follow = [...this.#hand].filter((c) => suitOf(c) === led).length;
    return follow > 0 ? follow : this.#hand.size;
  }

  /** The robot's information set now, or null when no game is in play. */
  infoSet(): InfoSet | null {
    const g = this.#game;
    if (!g || g.isOver) return null;
    return infoSetOf(g, this.seat, [...this.#hand]);
  }
}

// Worlds: full games consistent with one seat's information set. A sampled world gives each other
// seat its current hand; adding back the cards each seat has played rebuilds a deal, and replaying the
// public plays on it reaches the present with every rule (voids, the trump card) exactly as it was.

import type { Card } from '../cards.js';
import { Game } from '../game.js';
import type { Seat } from '../seats.js';
import type { Position } from '../solver/position.js';
import type { InfoSet } from '../view.js';

export class WorldBuilder {
  /** Cards each seat has played so far. */
  private readonly playedBy: Card[][] = [[], [], [], []];

  constructor(private readonly info: InfoSet) {
    // Who played each card follows from the rules; a public replay (hands unknown) tells it.
    const publicGame = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
    for (const c of info.plays) {
      this.playedBy[publicGame.toMove]!.push(c);
      publicGame.play(c);
    }
  }

  /** The game in the world where the seats now hold `hands`. */
  game(hands: readonly (readonly Card[])[]): Game {
    const g = new Game({
      dealer: this.info.dealer,
      trumpCard: this.info.trumpCard,
      hands: hands.map((h, s) => [...h, ...this.playedBy[s]!]),
    });
    for (const c of this.info.plays) g.play(c);
    return g;
  }
}

/** The perfect-information position of a game in progress. */
export function positionOf(game: Game): Position {
  const trick: Card[] = [];
  for (let i = 0; i < game.cardsInTrick; i++) trick.push(game.trickCard(i));
  return {
    trump: game.trump,
    hands: [0, 1, 2, 3].map((s) => game.hand(s as Seat)),
    leader: game.leader,
    trick,
    points: [game.points(0), game.points(1)],
  };
}

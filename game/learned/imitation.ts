// Direct imitation: plays the policy network's most probable legal card (ties: the lowest card). No
// search and no randomness; the seed is unused. For reference against the search players (direct
// imitation is known to be weak; the network's use is inside the search).

import type { Card } from '../cards.js';
import { DECK_SIZE } from '../cards.js';
import type { Player, PlayerOptions } from '../players/player.js';
import type { SeatView } from '../view.js';
import { DECISION_FEATURES, encodeInfoSet } from './encode.js';
import type { PolicyNet } from './mlp.js';

interface ImitationPlayerOptions extends PlayerOptions {
  net: PolicyNet;
  /** The kind as named on the command line. */
  name?: string;
}

export class ImitationPlayer implements Player {
  readonly kind: string;
  private readonly net: PolicyNet;
  private readonly x = new Float32Array(DECISION_FEATURES);
  private readonly p = new Float32Array(DECK_SIZE);

  constructor(o: ImitationPlayerOptions) {
    this.net = o.net;
    this.kind = o.name ?? 'imitation';
  }

  /** The network's probability of each of the 40 cards for the seat to move (0 for illegal ones). */
  probabilities(view: SeatView): Float32Array {
    encodeInfoSet(view.snapshot(), this.x);
    this.net.forward(this.x, 1, this.p);
    return this.p;
  }

  choose(view: SeatView): Card {
    const p = this.probabilities(view);
    const legal = view.legalCards();
    let best = legal[0]!;
    for (const c of legal) if (p[c]! > p[best]!) best = c;
    return best;
  }
}

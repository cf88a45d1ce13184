// Plays a uniformly random legal card.

import type { Card, Suit } from '../cards.js';
import { MASK_COUNT } from '../cards.js';
import type { Rng } from '../rng.js';
import { createRng } from '../rng.js';
import type { SeatView } from '../view.js';
import type { Player, PlayerOptions } from './player.js';
import { pickFromMasks } from './pick.js';

export class RandomPlayer implements Player {
  readonly kind = 'random';
  private readonly rng: Rng;
  private readonly masks = new Int32Array(4);

  constructor(options: PlayerOptions) {
    this.rng = createRng(options.seed);
  }

  choose(view: SeatView): Card {
    let n = 0;
    for (let s = 0; s < 4; s++) {
      const m = view.legalMask(s as Suit);
      this.masks[s] = m;
      n += MASK_COUNT[m]!;
    }
    return pickFromMasks(this.masks, this.rng.int(n));
  }
}

// The rule-based player of the Sueca robot paper (Correia et al. 2017, "The Rule-based player"): it
// stands for a non-professional human. For each suit it may play it looks at its highest card, and
// plays it when (i) no unplayed card of that suit is higher and (ii) it holds fewer than 5 cards of
// the suit (the trump suit excepted); otherwise it plays a random zero-point card.
//
// Where the paper is silent we chose what a casual player does:
// - Following suit, the top card is played only if it would win the trick now (a trick already cut
//   by a trump is not chased with an ace).
// - Unable to follow, the only suit that can win is trump: it cuts with its top trump when that is
//   the highest trump left. It does not throw the top card of a third suit, which cannot win.
// - Leading with several candidates, a side suit is preferred to trump (trumps are saved for
//   cutting), then the card worth most; a tie is broken at random.
// - With no zero-point card among the legal ones it gives away the cheapest card (Q, then J, K, 7,
//   A: point order equals rank order above the 6), choosing at random among suits.
//
// `literal: true` (player kind `rule-literal`) reads the paper word for word instead: every allowed
// suit's top card is a candidate, whether or not it can win the trick (so an ace may be thrown on a
// trick the opponents have cut). It exists to compare with the paper's baseline figures.

import type { Card, Suit } from '../cards.js';
import { MASK_COUNT, RANK_POINTS, SUIT_MASK, cardOf, highestRank, lowestRank } from '../cards.js';
import type { Rng } from '../rng.js';
import { createRng } from '../rng.js';
import type { SeatView } from '../view.js';
import type { Player, PlayerOptions } from './player.js';
import { pickFromMasks } from './pick.js';

/** Ranks 2 3 4 5 6: the cards worth nothing. */
const ZERO_POINT_RANKS = 0b11111;

interface RulePlayerOptions extends PlayerOptions {
  literal?: boolean;
}

export class RulePlayer implements Player {
  readonly kind: string;
  private readonly rng: Rng;
  private readonly masks = new Int32Array(4);
  private readonly literal: boolean;

  constructor(options: RulePlayerOptions) {
    this.rng = createRng(options.seed);
    this.literal = options.literal ?? false;
    this.kind = this.literal ? 'rule-literal' : 'rule';
  }

  choose(view: SeatView): Card {
    const sure = this.sureWinner(view);
    return sure >= 0 ? (sure as Card) : this.cheapest(view);
  }

  /** The card the rules say to play to win, or -1 when none qualifies. */
  private sureWinner(view: SeatView): number {
    const trump = view.trump;
    const led = view.ledSuit;
    if (led === -1 || (this.literal && view.handMask(led) === 0)) {
      let best = -1;
      let bestKey = -1;
      let ties = 0;
      for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) {
        const top = this.qualifyingTop(view, s, trump);
        if (top < 0) continue;
        // Side suits before trump, then points: key = (side suit) * 16 + points.
        const key = (s === trump ? 0 : 16) + RANK_POINTS[top]!;
        if (key > bestKey) {
          bestKey = key;
          best = cardOf(s, top);
          ties = 1;
        } else if (key === bestKey && this.rng.int(++ties) === 0) {
          best = cardOf(s, top);
        }
      }
      return best;
    }
    const follow = view.handMask(led) !== 0;
    const suit = follow ? led : trump;
    const top = this.qualifyingTop(view, suit, trump);
    if (top < 0) return -1;
    const card = cardOf(suit, top);
    return this.literal || view.beatsTrick(card) ? card : -1;
  }

  /** The rank of our top card of `suit` if it passes conditions (i) and (ii), else -1. */
  private qualifyingTop(view: SeatView, suit: Suit, trump: Suit): number {
    const mine = view.handMask(suit);
    if (!mine) return -1;
    const top = highestRank(mine);
    const highestUnplayed = highestRank(SUIT_MASK & ~view.playedMask(suit));
    if (top !== highestUnplayed) return -1;
    if (suit !== trump && MASK_COUNT[mine]! >= 5) return -1;
    return top;
  }

  /** A random zero-point legal card; without one, the cheapest legal card. */
  private cheapest(view: SeatView): Card {
    const masks = this.masks;
    let zeros = 0;
    let lowest = 10;
    for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) {
      const legal = view.legalMask(s);
      masks[s] = legal & ZERO_POINT_RANKS;
      zeros += MASK_COUNT[masks[s]!]!;
      if (legal) lowest = Math.min(lowest, lowestRank(legal));
    }
    if (zeros) return pickFromMasks(masks, this.rng.int(zeros));
    let n = 0;
    for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) {
      masks[s] = view.legalMask(s) & (1 << lowest);
      n += masks[s] ? 1 : 0;
    }
    return pickFromMasks(masks, this.rng.int(n));
  }
}

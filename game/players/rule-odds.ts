// The rule-based player's choice as a probability: how likely `rule` is to play a card, given the
// hand it holds and what is public. It mirrors RulePlayer.choose (non-literal) case for case, so that
// a search can ask "would a casual player have played this, holding that?" (see search/inference.ts).
// test/game/inference.test.ts checks the two agree: over random games every card the player chooses
// has a positive probability and the legal cards' sum to 1, and at sampled positions (leads with ties
// among them) the player's frequencies match.

import { MASK_COUNT, RANK_POINTS, SUIT_MASK, highestRank, lowestRank } from '../cards.js';

/** Ranks 2 3 4 5 6: the cards worth nothing. */
const ZERO_POINT_RANKS = 0b11111;

/**
 * The probability that the rule-based player plays `card`.
 * - `hand`: its four suit masks (rank bits) before the play, at `offset` (so a caller can keep all
 *   seats in one typed array).
 * - `played`: the four suit masks of every card played so far, the trick on the table included, at
 *   `playedOffset`.
 * - `led`: the suit led to this trick, or -1 when this seat leads; `winning`: the card winning the
 *   trick so far (ignored when leading).
 * The card must be in the hand; 0 is returned for a card the rules would never play.
 */
export function ruleProbability(
  hand: ArrayLike<number>,
  offset: number,
  played: ArrayLike<number>,
  playedOffset: number,
  trump: number,
  led: number,
  winning: number,
  card: number,
): number {
  const cs = (card / 10) | 0;
  const cr = card % 10;
  if (led < 0) {
    // Leading: the qualifying top card worth most, side suits before trump; ties at random.
    let bestKey = -1;
    let ties = 0;
    let mineIsBest = false;
    for (let s = 0; s < 4; s++) {
      const top = qualifyingTop(hand[offset + s]!, played[playedOffset + s]!, s, trump);
      if (top < 0) continue;
      const key = (s === trump ? 0 : 16) + RANK_POINTS[top]!;
      const mine = s === cs && top === cr;
      if (key > bestKey) {
        bestKey = key;
        ties = 1;
        mineIsBest = mine;
      } else if (key === bestKey) {
        ties++;
        if (mine) mineIsBest = true;
      }
    }
    if (ties) return mineIsBest ? 1 / ties : 0;
  } else {
    // Following (or unable to): the top card of the suit that can win, if it qualifies and wins now.
    const follow = hand[offset + led] !== 0;
    const suit = follow ? led : trump;
    const top = qualifyingTop(hand[offset + suit]!, played[playedOffset + suit]!, suit, trump);
    if (top >= 0) {
      const ws = (winning / 10) | 0;
      const beats = suit === ws ? top > winning % 10 : suit === trump;
      if (beats) return suit === cs && top === cr ? 1 : 0;
    }
  }
  // Otherwise a random zero-point legal card; without one, the cheapest, at random among suits.
  const followOnly = led >= 0 && hand[offset + led] !== 0;
  if (followOnly && cs !== led) return 0;
  let zeros = 0;
  let lowest = 10;
  for (let s = 0; s < 4; s++) {
    if (followOnly && s !== led) continue;
    const legal = hand[offset + s]!;
    if (!legal) continue;
    zeros += MASK_COUNT[legal & ZERO_POINT_RANKS]!;
    const low = lowestRank(legal);
    if (low < lowest) lowest = low;
  }
  if (zeros) return cr < 5 ? 1 / zeros : 0;
  if (cr !== lowest) return 0;
  let n = 0;
  for (let s = 0; s < 4; s++) {
    if (followOnly && s !== led) continue;
    if ((hand[offset + s]! >> lowest) & 1) n++;
  }
  return 1 / n;
}

/** The rank of the top card of `mine` if it is the highest unplayed card of its suit and, outside trump, the suit is shorter than 5; else -1. */
function qualifyingTop(mine: number, playedMask: number, suit: number, trump: number): number {
  if (!mine) return -1;
  const top = highestRank(mine);
  if (top !== highestRank(SUIT_MASK & ~playedMask)) return -1;
  if (suit !== trump && MASK_COUNT[mine]! >= 5) return -1;
  return top;
}

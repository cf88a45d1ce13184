// The worlds a seat that forgets believes in. It knows its own hand, the table, how many cards each
// seat holds and the score (the tricks lie in front of the teams), but not which played cards it has
// forgotten: to it, those could be anywhere. So the cards it may believe held (the pool) are the unseen
// cards and the forgotten ones, and a world is
//   1. the cards believed gone: as many as it forgot, carrying as many points (the points still out
//      are known from the score), drawn uniformly among such sets of the pool, and
//   2. the rest dealt to the three other seats uniformly, as the exact sampler does, respecting the
//      voids it recalls and the dealer's turned-up card while unplayed.
// So a forgotten ace may sit in an opponent's hand while another ace is believed played: a card
// misplaced as a person misplaces it. A card it recalls is never in a hand, nor a recalled void
// broken. The worlds are uniform over the gone sets, then over the deals: not exactly uniform over
// the (gone set, deal) pairs, which would weigh each gone set by its number of deals.
//
// A world is played out from where it stands (Game.fromPosition): the cards believed played are not
// the real ones, so no replay of the real plays leads there. The seat's own legal cards are the same
// in every world and in the real game (its hand and the table are known), so every card the search
// values is legal in the real game.

import type { Card } from '../cards.js';
import { pointsOf, suitOf } from '../cards.js';
import { Game } from '../game.js';
import type { Rng } from '../rng.js';
import type { DealSampler } from '../sampler.js';
import { createDealSampler } from '../sampler.js';
import type { WorldSource } from '../search/search.js';
import type { Suit } from '../cards.js';
import type { InfoSet } from '../view.js';
import type { Recollection } from './card-memory.js';

/** The seat's information set with only the voids it recalls: the one its worlds are drawn from. */
function rememberedInfo(info: InfoSet, recollection: Recollection): InfoSet {
  const voids: Suit[][] = [[], [], [], []];
  for (let v = 0; v < 16; v++) if (recollection.voids & (1 << v)) voids[v >> 2]!.push((v & 3) as Suit);
  return { ...info, voids };
}

/** The worlds of a seat that recalls `recollection` of the game `info` is in. */
export function believedWorlds(info: InfoSet, recollection: Recollection): WorldSource {
  const remembered = rememberedInfo(info, recollection);
  const sampler: DealSampler = recollection.forgotten.length
    ? new BelievedSampler(remembered, recollection.forgotten)
    : createDealSampler(remembered);
  return {
    sampler,
    game: (hands) =>
      Game.fromPosition({
        dealer: info.dealer,
        trumpCard: info.trumpCard,
        hands,
        trick: info.trick,
        leader: info.leader,
        table: info.table,
        points: info.points,
        voids: recollection.voids,
      }),
  };
}

/** Point values of the cards, the groups whose cards are interchangeable when counting gone sets. */
const POINT_VALUES = [0, 2, 3, 4, 10, 11] as const;
const GROUPS = POINT_VALUES.length;
const groupOf = (c: Card): number => POINT_VALUES.indexOf(pointsOf(c) as (typeof POINT_VALUES)[number]);
/** Gone sets drawn before falling back to the real one (a drawn set's remaining cards may not fit the voids). */
const TRIES = 64;
const TWO_POW = Float64Array.from({ length: 40 }, (_, c) => 2 ** c);

const BINOM: Float64Array[] = [];
for (let n = 0; n <= 40; n++) {
  const row = new Float64Array(n + 1);
  row[0] = 1;
  row[n] = 1;
  for (let k = 1; k < n; k++) row[k] = BINOM[n - 1]![k - 1]! + BINOM[n - 1]![k]!;
  BINOM.push(row);
}

class BelievedSampler implements DealSampler {
  /** The number of gone sets (each with at least one deal of the rest, or the real one). */
  readonly count: number;
  private readonly info: InfoSet;
  /** The cards it may believe held: the unseen and the forgotten ones. */
  private readonly pool: Card[];
  /** Cards that must be believed gone: of a suit every other seat is recalled void in. */
  private readonly forced: Card[] = [];
  /** The other pool cards that may be believed gone, by point group. */
  private readonly groups: Card[][] = Array.from({ length: GROUPS }, () => []);
  /** How many more to believe gone, and with how many points. */
  private readonly size: number;
  private readonly points: number;
  /** ways[(i * (size + 1) + g) * (points + 1) + p]: subsets of groups i.. with g cards and p points. */
  private readonly ways: Float64Array;
  /** Samplers of the rest, by gone set (the sum of 2^card); null when the rest fits no deal. */
  private readonly deals = new Map<number, DealSampler | null>();
  private readonly real: DealSampler;
  private readonly realKey: number;
  private readonly scratch: Card[] = [];
  private readonly gone: Card[] = [];

  constructor(info: InfoSet, forgotten: readonly Card[]) {
    this.info = info;
    const pinned = info.trumpCardInDealerHand && info.dealer !== info.seat ? info.trumpCard : -1;
    let voidEverywhere = 0xf;
    for (let s = 0; s < 4; s++) {
      if (s === info.seat) continue;
      let m = 0;
      for (const suit of info.voids[s]!) m |= 1 << suit;
      voidEverywhere &= m;
    }
    let size = forgotten.length;
    let points = 0;
    for (const c of forgotten) points += pointsOf(c);
    this.pool = [...info.unseen, ...forgotten];
    for (const c of this.pool) {
      if (voidEverywhere & (1 << suitOf(c))) {
        this.forced.push(c);
        size--;
        points -= pointsOf(c);
      } else if (c !== pinned) this.groups[groupOf(c)]!.push(c);
    }
    this.size = size;
    this.points = points;
    // Count the gone sets group by group: choose x cards of a group of n in C(n, x) ways.
    const stride = (size + 1) * (points + 1);
    const ways = new Float64Array((GROUPS + 1) * stride);
    ways[GROUPS * stride] = 1; // nothing left to choose, nothing left to carry
    for (let i = GROUPS - 1; i >= 0; i--) {
      const n = this.groups[i]!.length;
      const v = POINT_VALUES[i]!;
      for (let g = 0; g <= size; g++) {
        for (let p = 0; p <= points; p++) {
          let sum = 0;
          for (let x = 0; x <= n && x <= g && x * v <= p; x++)
            sum += BINOM[n]![x]! * ways[(i + 1) * stride + (g - x) * (points + 1) + (p - x * v)]!;
          ways[i * stride + g * (points + 1) + p] = sum;
        }
      }
    }
    this.ways = ways;
    this.count = ways[size * (points + 1) + points]!;
    // The real gone set, the forgotten cards, always fits (the real deal is one of its deals).
    this.real = this.dealsWithout(forgotten);
    this.realKey = keyOf(forgotten);
    this.deals.set(this.realKey, this.real);
  }

  sample(rng: Rng, out?: Card[][]): Card[][] {
    for (let t = 0; t < TRIES; t++) {
      const key = this.drawGone(rng);
      let deals = this.deals.get(key);
      if (deals === undefined) {
        const d = this.dealsWithout(this.gone);
        deals = d.count > 0 ? d : null;
        this.deals.set(key, deals);
      }
      if (deals) return deals.sample(rng, out);
    }
    return this.real.sample(rng, out);
  }

  /** A uniformly drawn gone set into `this.gone`; returns its key. */
  private drawGone(rng: Rng): number {
    const gone = this.gone;
    gone.length = 0;
    let key = 0;
    for (const c of this.forced) {
      gone.push(c);
      key += TWO_POW[c]!;
    }
    const stride = (this.size + 1) * (this.points + 1);
    let g = this.size;
    let p = this.points;
    for (let i = 0; i < GROUPS; i++) {
      const cards = this.groups[i]!;
      const n = cards.length;
      const v = POINT_VALUES[i]!;
      // How many of this group: x with probability C(n, x) * ways(rest) / ways(here).
      let u = rng.next() * this.ways[i * stride + g * (this.points + 1) + p]!;
      let x = 0;
      for (; x <= n && x <= g && x * v <= p; x++) {
        u -= BINOM[n]![x]! * this.ways[(i + 1) * stride + (g - x) * (this.points + 1) + (p - x * v)]!;
        if (u < 0) break;
      }
      // Rounding may leave u just above 0 after the last term: take the largest x with weight.
      while (
        x > 0 &&
        (x > n || x > g || x * v > p || this.ways[(i + 1) * stride + (g - x) * (this.points + 1) + (p - x * v)] === 0)
      )
        x--;
      // x cards of the group, uniformly: a partial Fisher-Yates.
      const scratch = this.scratch;
      for (let k = 0; k < n; k++) scratch[k] = cards[k]!;
      for (let k = 0; k < x; k++) {
        const j = k + rng.int(n - k);
        const c = scratch[j]!;
        scratch[j] = scratch[k]!;
        scratch[k] = c;
        gone.push(c);
        key += TWO_POW[c]!;
      }
      g -= x;
      p -= x * v;
    }
    return key;
  }

  /** The exact sampler of the deals of the pool without `gone` to the other seats. */
  private dealsWithout(gone: readonly Card[]): DealSampler {
    const out = new Set(gone);
    return createDealSampler({ ...this.info, unseen: this.pool.filter((c) => !out.has(c)) });
  }
}

const keyOf = (cards: readonly Card[]): number => cards.reduce((k, c) => k + TWO_POW[c]!, 0);

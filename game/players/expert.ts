// The expert player (kind `expert`): a heuristic Sueca player that plays the way a good club player
// does, from what its seat may know (the SeatView) and nothing else.
//
// What it knows, recomputed at every decision from the view:
// - counting: the cards played, the cards still unseen in each suit, which card is the master (the
//   highest live card) of each suit, how many trumps the others may still hold, the trump card the
//   dealer is known to hold until it is played, and every void shown by a failure to follow;
// - a simple card-location model: the chance that a seat holds one of a set of unseen cards, or none of
//   a suit, is the hypergeometric chance for its unknown slots among the seats not known to be void.
//
// How it chooses: every legal card gets a score, the best card is played (an exact tie is broken by the
// seeded Rng). The score is a one-trick look-ahead plus what the card is worth kept for later:
//     score(c) = (2 P(our team takes the trick | c) - 1) * (points on the table + points of c + the
//                points the seats after us are expected to add)  -  keep(c)  (+ lead bonuses)
// P comes from the chance that each seat after us beats the best card (follows higher, or is void and
// ruffs), the partner's chance to overtake an opponent, and so on. keep(c) values a card held: a master
// in a side suit is worth its points and the trick it will take, unless an opponent can ruff it; a 7
// whose ace is still out is worth less than nothing (it is better given to the partner than caught);
// trumps are worth their cutting power, the trump masters (the 7 and the ace of trumps, while they
// are the top live trumps) most of all. From that one formula come the card-play conventions: feeding
// points (aces, 7s, kings) to a partner who is sure to win the trick; playing the cheapest card on a
// trick already lost; winning with the cheapest card that is safe; ruffing a trick worth points when
// the partner cannot take it, not ruffing a trick of no points, not over-ruffing needlessly; keeping
// the trump masters for tricks worth them; second hand low, third hand high.
// When leading it adds what a one-trick view misses: drawing the opponents' trumps while our team holds
// the trump masters; cashing side-suit masters when no opponent can ruff; leading a suit the partner
// is void in (the partner ruffs) unless an opponent is void too; not leading into an opponent's void;
// leading a short suit to make a void when holding trumps.
// Discards: with nothing to win it throws a low card, from a suit it can make void while it holds
// trumps, else from a suit where it does not hold the master (so a discard says "not this suit").
// It does not read the partner's discards: the view gives no play history without an allocating
// snapshot, and the shown voids (which it does read) carry most of that information.
//
// Reuse: `choose(view)` keeps no state between calls that is not derived from the view (the scratch
// arrays are rewritten at every decision), so one instance per seat may be reused across games and
// worlds (a search's rollouts), and making one costs only its Rng and a few small typed arrays.
// Only the Rng advances between calls, for exact ties.

import type { Card, Suit } from '../cards.js';
import { MASK_COUNT, RANK_POINTS, SUIT_MASK, cardOf, rankOf, suitOf } from '../cards.js';
import type { Rng } from '../rng.js';
import { createRng } from '../rng.js';
import type { Seat } from '../seats.js';
import type { SeatView } from '../view.js';
import type { Player, PlayerOptions } from './player.js';

/** Weights of the heuristics; exposed so that ablations can switch one off (0) or tune it. */
interface ExpertWeights {
  /** Points each seat still to play in the trick is expected to add. */
  rest: number;
  /** Extra worth of a side-suit master kept (the trick it will take), before ruff danger. */
  masterPower: number;
  /** Worth of any trump kept, plus `trumpRank` per rank. */
  trumpBase: number;
  trumpRank: number;
  /** Extra worth of a trump master kept (the 7 and ace of trumps while they are the top ones). */
  trumpMaster: number;
  /** Share of its points a non-master trump is expected to bring home. */
  trumpQ: number;
  /** Leading: bonus per opponent trump drawn while our side holds the trump master. */
  draw: number;
  /** Leading: bonus for making a void (a singleton side suit) while holding trumps. */
  singleton: number;
  /** Leading: penalty for a suit an opponent is void in while it may hold trumps. */
  oppVoid: number;
  /** How far the partner is counted on to overtake when it can. */
  partnerFactor: number;
  /** Discarding: bonus for throwing the last card of a side suit while holding trumps. */
  makeVoid: number;
  /** Share of its points a side-suit master kept is expected to bring home when no one can ruff it. */
  masterQ: number;
  /** The same for a point card below the master: one live card above it, two or more. */
  q1: number;
  q2: number;
  /** 1: an opponent after a partner who overtook is counted as beating it only with the top live card. */
  topModel: number;
}

const EXPERT_WEIGHTS: Readonly<ExpertWeights> = {
  rest: 1.5,
  masterPower: 3,
  trumpBase: 4,
  trumpRank: 0.4,
  trumpMaster: 12,
  trumpQ: 0.95,
  draw: 0,
  singleton: 1,
  oppVoid: 2,
  partnerFactor: 0.25,
  makeVoid: 0.5,
  masterQ: 0.95,
  q1: 0.4,
  q2: 0.3,
  topModel: 1,
};

interface ExpertPlayerOptions extends PlayerOptions {
  weights?: Partial<ExpertWeights>;
}

/** Bits of ranks strictly above `rank`. */
const ABOVE = new Int32Array(10);
for (let r = 0; r < 10; r++) ABOVE[r] = SUIT_MASK & ~((2 << r) - 1);

export class ExpertPlayer implements Player {
  readonly kind = 'expert';
  private readonly rng: Rng;
  private readonly w: ExpertWeights;

  // ---- scratch, rewritten from the view at every decision -------------------------------------
  private view!: SeatView;
  private me: Seat = 0;
  private partner: Seat = 2;
  private trump: Suit = 0;
  private led: Suit | -1 = -1;
  /** Our own cards by suit. */
  private readonly mine = new Int32Array(4);
  /** Unseen cards by suit whose holder is unknown (the dealer's trump card excluded while it is known). */
  private readonly hidden = new Int32Array(4);
  /** Unseen cards by suit (held by the other three), known holder or not. */
  private readonly unseen = new Int32Array(4);
  /** Unknown slots per seat: cards in hand minus the cards known to be there. */
  private readonly slots = new Int32Array(4);
  /** voids[seat * 4 + suit]: 1 when the seat has shown it lacks the suit. */
  private readonly voids = new Uint8Array(16);
  /** Seat holding the dealer's turned-up trump card, when it is known to another seat; else -1. */
  private tcSeat = -1;
  private tcRank = -1;

  constructor(options: ExpertPlayerOptions) {
    this.rng = createRng(options.seed);
    this.w = options.weights ? { ...EXPERT_WEIGHTS, ...options.weights } : EXPERT_WEIGHTS;
  }

  choose(view: SeatView): Card {
    this.load(view);
    const lead = view.cardsInTrick === 0;
    let best = -1;
    let bestScore = -Infinity;
    let ties = 0;
    for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) {
      let m = view.legalMask(s);
      while (m) {
        const r = 31 - Math.clz32(m);
        m &= ~(1 << r);
        const c = cardOf(s, r);
        // A tiny preference for the lower card among near-equals keeps the play tidy.
        const score = (lead ? this.leadScore(c) : this.followScore(c)) - r * 1e-3;
        if (score > bestScore + 1e-9) {
          bestScore = score;
          best = c;
          ties = 1;
        } else if (score > bestScore - 1e-9 && this.rng.int(++ties) === 0) {
          best = c;
        }
      }
    }
    return best as Card;
  }

  /**
   * Each legal card's score, what `choose` maximizes (the tidy preference for the lower card
   * included, the tie-break not): the legal cards go to `cards`, their scores to `out` in the same
   * order. For models of how a player like this one chooses (game/predict: a softmax over the scores).
   * Consumes no randomness, so asking does not change what `choose` plays next.
   */
  scores(view: SeatView, cards: Card[], out: Float64Array): number {
    this.load(view);
    const lead = view.cardsInTrick === 0;
    let n = 0;
    for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) {
      let m = view.legalMask(s);
      while (m) {
        const r = 31 - Math.clz32(m);
        m &= ~(1 << r);
        const c = cardOf(s, r);
        cards[n] = c;
        out[n++] = (lead ? this.leadScore(c) : this.followScore(c)) - r * 1e-3;
      }
    }
    cards.length = n;
    return n;
  }

  // ---- what the seat knows --------------------------------------------------------------------

  private load(view: SeatView): void {
    this.view = view;
    const me = view.seat;
    this.me = me;
    this.partner = ((me + 2) & 3) as Seat;
    const trump = view.trump;
    this.trump = trump;
    this.led = view.ledSuit;
    for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) {
      const mine = view.handMask(s);
      this.mine[s] = mine;
      const u = SUIT_MASK & ~view.playedMask(s) & ~mine;
      this.unseen[s] = u;
      this.hidden[s] = u;
    }
    for (let p = 0 as Seat; p < 4; p = (p + 1) as Seat) {
      this.slots[p] = view.handSize(p);
      for (let s = 0 as Suit; s < 4; s = (s + 1) as Suit) this.voids[p * 4 + s] = view.isVoid(p, s) ? 1 : 0;
    }
    this.tcSeat = -1;
    this.tcRank = -1;
    const dealer = view.dealer;
    if (dealer !== me && !view.trumpCardPlayed) {
      this.tcSeat = dealer;
      this.tcRank = rankOf(view.trumpCard);
      this.hidden[trump] = this.hidden[trump]! & ~(1 << this.tcRank);
      this.slots[dealer] = this.slots[dealer]! - 1;
    }
  }

  private isVoid(seat: number, suit: number): boolean {
    return this.voids[seat * 4 + suit] === 1;
  }

  /** The chance that `seat` (another seat) holds at least one of the unseen cards `mask` of `suit`. */
  private hasAny(seat: number, suit: number, mask: number): number {
    if (this.isVoid(seat, suit)) return 0;
    if (suit === this.trump && this.tcSeat >= 0 && mask & (1 << this.tcRank)) {
      if (seat === this.tcSeat) return 1;
    }
    mask &= this.hidden[suit]!;
    const k = MASK_COUNT[mask]!;
    if (!k) return 0;
    const h = this.slots[seat]!;
    if (h <= 0) return 0;
    let n = 0;
    for (let p = 0; p < 4; p++) if (p !== this.me && !this.isVoid(p, suit)) n += this.slots[p]!;
    let none = 1;
    for (let i = 0; i < k; i++) {
      const num = n - h - i;
      if (num <= 0) return 1;
      none *= num / (n - i);
    }
    return 1 - none;
  }

  /** The chance that `seat` holds no card of `suit`. */
  private voidProb(seat: number, suit: number): number {
    if (this.isVoid(seat, suit)) return 1;
    if (suit === this.trump && seat === this.tcSeat) return 0;
    return 1 - this.hasAny(seat, suit, this.hidden[suit]!);
  }

  /** The chance that `seat`, still to play, beats card `x` in a trick led in suit `led`. */
  private risk(seat: number, x: Card, led: number): number {
    const sx = suitOf(x);
    const rx = rankOf(x);
    const trump = this.trump;
    if (sx === trump) {
      const higher = this.unseen[trump]! & ABOVE[rx]!;
      if (!higher) return 0;
      if (led !== trump) {
        const pv = this.voidProb(seat, led);
        return pv ? pv * this.hasAny(seat, trump, higher) : 0;
      }
      return this.hasAny(seat, trump, higher);
    }
    if (sx !== led) return 1; // a discard never holds a trick (not reached: x is the best card)
    const higher = this.unseen[led]! & ABOVE[rx]!;
    const pf = higher ? this.hasAny(seat, led, higher) : 0;
    let pr = 0;
    if (this.unseen[trump]) {
      const pv = this.voidProb(seat, led);
      if (pv) pr = pv * this.hasAny(seat, trump, this.unseen[trump]!);
    }
    const r = pf + pr;
    return r > 1 ? 1 : r;
  }

  /** The chance that `seat` beats a partner who overtook `x`: it holds the top live card, or ruffs. */
  private riskTop(seat: number, x: Card, led: number): number {
    const trump = this.trump;
    const s = suitOf(x);
    const live = this.unseen[s]! & ABOVE[rankOf(x)]!;
    if (!live) return 0;
    const top = 1 << (31 - Math.clz32(live));
    let r = this.hasAny(seat, s, top);
    if (s !== trump && this.unseen[trump]) {
      const pv = this.voidProb(seat, led);
      if (pv) r += pv * this.hasAny(seat, trump, this.unseen[trump]!);
    }
    return r > 1 ? 1 : r;
  }

  /** The danger that an opponent ruffs a later lead of side suit `suit`. */
  private ruffDanger(suit: number): number {
    if (!this.unseen[this.trump]) return 0;
    let safe = 1;
    for (let k = 1; k <= 3; k += 2) {
      const opp = (this.me + k) & 3;
      const pv = this.voidProb(opp, suit);
      if (pv) safe *= 1 - pv * this.hasAny(opp, this.trump, this.unseen[this.trump]!);
    }
    return 1 - safe;
  }

  // ---- the worth of a card kept ---------------------------------------------------------------

  private keep(c: Card): number {
    const s = suitOf(c);
    const r = rankOf(c);
    const pts = RANK_POINTS[r]!;
    const w = this.w;
    if (s === this.trump) {
      const base = w.trumpBase + r * w.trumpRank;
      if (!(this.unseen[s]! & ABOVE[r]!)) return pts + w.trumpMaster + base;
      return (2 * w.trumpQ - 1) * pts + base;
    }
    const higher = this.unseen[s]! & ABOVE[r]!;
    if (!higher) {
      const danger = this.ruffDanger(s);
      const q = (w.masterQ - 0.05) * (1 - danger) + 0.05;
      return (2 * q - 1) * pts + w.masterPower * (1 - danger);
    }
    if (!pts) return 0;
    const q = MASK_COUNT[higher] === 1 ? w.q1 : w.q2;
    return (2 * q - 1) * pts;
  }

  // ---- following ------------------------------------------------------------------------------

  /** The chance that our team takes the current trick if we play `c` (the trick has been led). */
  private winChance(c: Card): number {
    const view = this.view;
    const led = this.led as Suit;
    const pos = view.cardsInTrick;
    let x: Card;
    let pUs: number;
    if (view.beatsTrick(c)) {
      x = c;
      pUs = 1;
    } else {
      x = view.winningCard as Card;
      pUs = view.winningSeat === this.partner ? 1 : 0;
    }
    // When the partner overtakes an opponent's card, the last seat beats the partner only with a
    // card above the partner's: count it as holding the top live card of the suit (or ruffing).
    let overtaken = 0;
    for (let k = 1; k <= 3 - pos; k++) {
      const seat = (this.me + k) & 3;
      if (seat === this.partner) {
        if (pUs < 1) {
          overtaken = (1 - pUs) * this.risk(seat, x, led) * this.w.partnerFactor;
          pUs += overtaken;
        }
      } else if (pUs > 0) {
        if (overtaken > 0 && this.w.topModel) {
          const held = pUs - overtaken;
          pUs = held * (1 - this.risk(seat, x, led)) + overtaken * (1 - this.riskTop(seat, x, led));
        } else {
          pUs *= 1 - this.risk(seat, x, led);
        }
      }
    }
    return pUs;
  }

  private followScore(c: Card): number {
    const view = this.view;
    const p = this.winChance(c);
    const after = 3 - view.cardsInTrick;
    const value = view.trickPoints + RANK_POINTS[rankOf(c)]! + after * this.w.rest;
    return (2 * p - 1) * value - this.keep(c) + this.discardBonus(c);
  }

  /** Small preferences among discards of equal worth: make a void when holding trumps; throw from weak suits. */
  private discardBonus(c: Card): number {
    const s = suitOf(c);
    if (this.led === s || s === this.trump) return 0;
    let b = 0;
    const mine = this.mine[s]!;
    if (MASK_COUNT[mine] === 1 && this.mine[this.trump]) b += this.w.makeVoid;
    // Keep the low cards of a suit where we hold the master (we may want to lead it): throw from the weakest.
    if (!(this.unseen[s]! & ABOVE[31 - Math.clz32(mine)]!)) b -= 0.2;
    return b;
  }

  // ---- leading --------------------------------------------------------------------------------

  private leadScore(c: Card): number {
    const s = suitOf(c);
    const r = rankOf(c);
    const w = this.w;
    const trump = this.trump;
    const me = this.me;
    const partner = this.partner;
    const opp1 = (me + 1) & 3;
    const opp3 = (me + 3) & 3;
    const pts = RANK_POINTS[r]!;
    let pUs: number;
    const higher = this.unseen[s]! & ABOVE[r]!;
    if (!higher) {
      // A master: only a ruff takes it (for a trump master, nothing).
      pUs = s === trump ? 1 : (1 - this.risk(opp1, c, s)) * (1 - this.risk(opp3, c, s));
    } else {
      // Below the master: our side takes it when the partner holds the top unseen card (and no
      // opponent ruffs), or ruffs it.
      const top = 1 << (31 - Math.clz32(this.unseen[s]!));
      const pTop = this.hasAny(partner, s, top);
      let pRuff = 0;
      if (s !== trump && this.unseen[trump])
        pRuff = this.voidProb(partner, s) * this.hasAny(partner, trump, this.unseen[trump]!);
      const oppSafe = s === trump ? 1 : (1 - this.ruffRisk(opp1, s)) * (1 - this.ruffRisk(opp3, s));
      // A partner ruff can be over-ruffed by the last seat; count it at half when that seat may.
      const over = s === trump ? 0 : this.voidProb(opp3, s) * 0.5;
      pUs = pTop * oppSafe * w.partnerFactor + pRuff * (1 - over);
      if (pUs > 1) pUs = 1;
    }
    const value = pts + 3 * w.rest;
    let score = (2 * pUs - 1) * value - this.keep(c);

    if (s === trump) {
      // Drawing trumps: with the trump master in hand, every opponent trump that falls makes our side
      // suits safer. Only worth it while the opponents may still hold trumps.
      if (!higher && this.unseen[trump]) {
        const drawn = this.hasAny(opp1, trump, this.unseen[trump]!) + this.hasAny(opp3, trump, this.unseen[trump]!);
        score += w.draw * drawn;
      }
    } else {
      const mine = this.mine[s]!;
      if (MASK_COUNT[mine] === 1 && this.mine[trump] && higher && !pts) score += w.singleton;
      if ((this.isVoid(opp1, s) && !this.isVoid(opp1, trump)) || (this.isVoid(opp3, s) && !this.isVoid(opp3, trump))) {
        if (this.unseen[trump]) score -= w.oppVoid;
      }
    }
    return score;
  }

  /** The chance that opponent `seat` is void in side suit `suit` and holds a trump. */
  private ruffRisk(seat: number, suit: number): number {
    if (!this.unseen[this.trump]) return 0;
    const pv = this.voidProb(seat, suit);
    return pv ? pv * this.hasAny(seat, this.trump, this.unseen[this.trump]!) : 0;
  }
}

// The state of one game of Sueca and its transitions. Mutable and allocation-free on the play path,
// because simulations and searches run millions of plays; copy with `clone()` when you need a branch.
//
// Two modes share the rules:
// - hands known (simulation, records, search): a renounce is caught at the play that commits it;
// - hands unknown (a live table sees only the cards played): a seat that fails to follow is taken at
//   its word (void in the led suit), and the renounce is caught when it later shows a card of that
//   suit. Either way the game ends there and the offender's opponents get 4 victories.
// The two mix per seat: after a physical deal the robot knows its own ten cards and nobody else's, so
// its seat is checked as in the first mode and the others are taken at their word, as in the second.

import type { Card, Suit } from './cards.js';
import { MASK_COUNT, SUIT_MASK, formatCard, pointsOf, rankOf, suitOf } from './cards.js';
import type { GameOutcome, Renounce } from './scoring.js';
import { outcomeFromPoints, outcomeFromRenounce } from './scoring.js';
import type { Seat, Team } from './seats.js';
import { nextSeat } from './seats.js';

type GameStatus = 'playing' | 'complete' | 'renounce';

type PlayErrorCode = 'game-over' | 'out-of-turn' | 'not-in-hand' | 'already-played' | 'trump-card-in-dealer-hand';

/** A play the rules cannot accept at all (as opposed to a renounce, which is a legal-looking play that loses). */
export class PlayError extends Error {
  constructor(
    readonly code: PlayErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PlayError';
  }
}

/** What `play` did: the trick goes on, a trick was completed, or the game ended. */
export const PlayResult = { Continue: 0, TrickComplete: 1, GameOver: 2 } as const;
export type PlayResult = (typeof PlayResult)[keyof typeof PlayResult];

export interface DealSpec {
  dealer: Seat;
  /** The card the dealer turned up; it fixes the trump suit and stays in the dealer's hand. */
  trumpCard: Card;
  /**
   * Each seat's 10 cards at the deal; `null` when no hand is known (a live table), or `null` for each
   * seat whose hand is not known (a physical deal, where the robot knows only its own).
   */
  hands: readonly (readonly Card[] | null)[] | null;
}

export class Game {
  readonly dealer: Seat;
  readonly trumpCard: Card;
  readonly trump: Suit;
  /** hands[seat * 4 + suit] is a 10-bit mask of ranks held; null when no hand is known. */
  private hands: Int32Array | null;
  /** Bit `seat`: that seat's hand is known (all four in a simulation, none or one at a live table). */
  private knownSeats = 0;
  /** played[suit]: ranks played so far, including the current trick. */
  private readonly played = new Int32Array(4);
  /** Bit seat * 4 + suit: the seat has shown it holds no card of that suit. */
  private voidBits = 0;
  /** Where each void was shown (trick index, card), to name the offence if it turns out to be a renounce. */
  private readonly voidTrick = new Int8Array(16);
  private readonly voidCard = new Int8Array(16);
  private readonly trickCards = new Int8Array(4);
  private trickSize = 0;
  private leaderSeat: Seat;
  private bestIndex = 0;
  private trickIndex = 0;
  private readonly teamPoints = new Int32Array(2);
  private readonly history = new Int8Array(40);
  private playCount = 0;
  private readonly winners = new Int8Array(10);
  private state: GameStatus = 'playing';
  private renounceInfo: Renounce | null = null;

  constructor(deal: DealSpec) {
    this.dealer = deal.dealer;
    this.trumpCard = deal.trumpCard;
    this.trump = suitOf(deal.trumpCard);
    this.leaderSeat = nextSeat(deal.dealer);
    if (deal.hands) {
      this.hands = new Int32Array(16);
      for (let s = 0; s < 4; s++) {
        const hand = deal.hands[s];
        if (!hand) continue;
        this.knownSeats |= 1 << s;
        for (const c of hand) this.hands[s * 4 + suitOf(c)]! |= 1 << rankOf(c);
      }
      if (!this.knownSeats) this.hands = null;
    } else {
      this.hands = null;
    }
  }

  /**
   * A game in progress built from where it stands rather than replayed from its deal: a world that a
   * player who forgets believes in (game/memory), where the cards believed played need not be the
   * ones that were, so no real history leads there. Every hand is known; every card in no hand and
   * not on the table counts as played; `voids` (bit seat * 4 + suit) are the voids taken as shown and
   * must agree with the hands. Its rules from here on are exact; its history is not known (`playAt`
   * and `trickWinner` of earlier tricks answer nothing meaningful).
   */
  static fromPosition(p: {
    dealer: Seat;
    trumpCard: Card;
    hands: readonly (readonly Card[])[];
    trick: number;
    leader: Seat;
    table: readonly Card[];
    points: readonly [number, number];
    voids: number;
  }): Game {
    const g = new Game({ dealer: p.dealer, trumpCard: p.trumpCard, hands: p.hands });
    const h = g.hands!;
    for (let s = 0; s < 4; s++) g.played[s] = SUIT_MASK & ~(h[s]! | h[4 + s]! | h[8 + s]! | h[12 + s]!);
    g.voidBits = p.voids;
    g.trickIndex = p.trick;
    g.leaderSeat = p.leader;
    g.playCount = p.trick * 4 + p.table.length;
    g.teamPoints[0] = p.points[0];
    g.teamPoints[1] = p.points[1];
    for (let i = 0; i < p.table.length; i++) {
      const c = p.table[i]!;
      if (i && g.beatsTrick(c)) g.bestIndex = i;
      g.trickCards[i] = c;
      g.trickSize = i + 1;
    }
    return g;
  }

  // ---- queries -------------------------------------------------------------------------------

  get status(): GameStatus {
    return this.state;
  }
  get isOver(): boolean {
    return this.state !== 'playing';
  }
  /** Every seat's hand is known. */
  get handsKnown(): boolean {
    return this.knownSeats === 15;
  }
  /** This seat's hand is known (its own, to the robot after a physical deal). */
  knowsHand(seat: Seat): boolean {
    return ((this.knownSeats >> seat) & 1) === 1;
  }
  /** Index 0..9 of the trick being played (10 when the game is complete). */
  get trick(): number {
    return this.trickIndex;
  }
  get leader(): Seat {
    return this.leaderSeat;
  }
  /** Number of cards on the table in the current trick. */
  get cardsInTrick(): number {
    return this.trickSize;
  }
  get toMove(): Seat {
    return nextSeat(this.leaderSeat, this.trickSize);
  }
  get renounce(): Renounce | null {
    return this.renounceInfo;
  }
  get plays(): number {
    return this.playCount;
  }

  trickCard(i: number): Card {
    return this.trickCards[i]! as Card;
  }
  /** The suit led in the current trick; -1 before the lead. */
  get ledSuit(): Suit | -1 {
    return this.trickSize ? suitOf(this.trickCards[0]! as Card) : -1;
  }
  /** The seat currently winning the trick; -1 before the lead. */
  get winningSeat(): Seat | -1 {
    return this.trickSize ? nextSeat(this.leaderSeat, this.bestIndex) : -1;
  }
  get winningCard(): Card | -1 {
    return this.trickSize ? (this.trickCards[this.bestIndex]! as Card) : -1;
  }
  /** Points in the cards on the table. */
  get trickPoints(): number {
    let p = 0;
    for (let i = 0; i < this.trickSize; i++) p += pointsOf(this.trickCards[i]! as Card);
    return p;
  }
  points(team: Team): number {
    return this.teamPoints[team]!;
  }
  playedMask(suit: Suit): number {
    return this.played[suit]!;
  }
  isPlayed(card: Card): boolean {
    return (this.played[suitOf(card)]! & (1 << rankOf(card))) !== 0;
  }
  get trumpCardPlayed(): boolean {
    return this.isPlayed(this.trumpCard);
  }
  /** Has `seat` shown it holds no card of `suit`? */
  isVoid(seat: Seat, suit: Suit): boolean {
    return (this.voidBits & (1 << (seat * 4 + suit))) !== 0;
  }
  /** Card `i` (0-based) in order of play. */
  playAt(i: number): Card {
    return this.history[i]! as Card;
  }
  trickWinner(trick: number): Seat {
    return this.winners[trick]! as Seat;
  }
  /** How many cards `seat` still holds. */
  handSize(seat: Seat): number {
    const inTrick = ((seat - this.leaderSeat) & 3) < this.trickSize ? 1 : 0;
    return 10 - this.trickIndex - inTrick;
  }

  /** The hidden-information part. Only the simulation, the records and the projection to a seat's view call it. */
  handMask(seat: Seat, suit: Suit): number {
    if (!((this.knownSeats >> seat) & 1))
      throw new Error(`the hand of seat ${seat} is not known in this live-table game`);
    return this.hands![seat * 4 + suit]!;
  }
  hand(seat: Seat): Card[] {
    const out: Card[] = [];
    for (let s = 0; s < 4; s++) {
      let m = this.handMask(seat, s as Suit);
      while (m) {
        const r = 31 - Math.clz32(m);
        m &= ~(1 << r);
        out.push((s * 10 + r) as Card);
      }
    }
    return out;
  }

  /** The suits the seat to move may play from, as a 4-bit mask (hands known). */
  private allowedSuits(seat: Seat): number {
    const h = this.hands!;
    if (this.trickSize) {
      const led = suitOf(this.trickCards[0]! as Card);
      if (h[seat * 4 + led]) return 1 << led;
    }
    return (h[seat * 4] ? 1 : 0) | (h[seat * 4 + 1] ? 2 : 0) | (h[seat * 4 + 2] ? 4 : 0) | (h[seat * 4 + 3] ? 8 : 0);
  }

  /** The legal cards of the seat to move for `suit`, as a rank mask (hands known). */
  legalMask(suit: Suit): number {
    const seat = this.toMove;
    return this.allowedSuits(seat) & (1 << suit) ? this.hands![seat * 4 + suit]! : 0;
  }

  /** Writes the legal cards of the seat to move into `out`, returns how many (hands known). */
  legalMoves(out: Card[] | Int8Array): number {
    if (this.state !== 'playing') return 0;
    const seat = this.toMove;
    const suits = this.allowedSuits(seat);
    let n = 0;
    for (let s = 0; s < 4; s++) {
      if (!(suits & (1 << s))) continue;
      let m = this.hands![seat * 4 + s]!;
      while (m) {
        const r = 31 - Math.clz32(m);
        m &= ~(1 << r);
        out[n++] = (s * 10 + r) as Card;
      }
    }
    return n;
  }

  legalCards(): Card[] {
    const out: Card[] = [];
    this.legalMoves(out);
    return out;
  }

  isLegal(card: Card): boolean {
    if (this.state !== 'playing' || !this.hands) return false;
    const seat = this.toMove;
    const s = suitOf(card);
    return (this.allowedSuits(seat) & (1 << s)) !== 0 && (this.hands[seat * 4 + s]! & (1 << rankOf(card))) !== 0;
  }

  /** Does `card` beat the current best card of the trick? */
  beatsTrick(card: Card): boolean {
    if (!this.trickSize) return true;
    const best = this.trickCards[this.bestIndex]! as Card;
    const s = suitOf(card);
    const bs = suitOf(best);
    return s === bs ? rankOf(card) > rankOf(best) : s === this.trump;
  }

  get outcome(): GameOutcome | null {
    if (this.state === 'renounce') return outcomeFromRenounce(this.renounceInfo!);
    if (this.state === 'complete') return outcomeFromPoints(this.teamPoints[0]!);
    return null;
  }

  // ---- transitions ---------------------------------------------------------------------------

  /**
   * Plays `card` for the seat to move. Throws PlayError for a play that cannot happen (wrong seat,
   * card not held or already played); a failure to follow suit is a renounce and ends the game.
   * `seat` is checked when given (a live table says who played).
   */
  play(card: Card, seat: Seat = this.toMove): PlayResult {
    if (this.state !== 'playing')
      throw new PlayError('game-over', `the game is over; ${formatCard(card)} cannot be played`);
    const mover = this.toMove;
    if (seat !== mover)
      throw new PlayError('out-of-turn', `seat ${seat} played ${formatCard(card)} but it is seat ${mover}'s turn`);
    const suit = suitOf(card);
    const bit = 1 << rankOf(card);
    if (this.played[suit]! & bit) throw new PlayError('already-played', `${formatCard(card)} was already played`);
    const h = this.hands;
    const slot = mover * 4 + suit;
    const known = (this.knownSeats >> mover) & 1;
    if (known) {
      if (!(h![slot]! & bit)) throw new PlayError('not-in-hand', `${formatCard(card)} is not in seat ${mover}'s hand`);
    } else {
      if (card === this.trumpCard && mover !== this.dealer) {
        throw new PlayError(
          'trump-card-in-dealer-hand',
          `${formatCard(card)} is the trump card, which the dealer (seat ${this.dealer}) holds`,
        );
      }
      // Taken at its word, but not for a card another seat is known to hold.
      if (h) {
        for (let s = 0; s < 4; s++) {
          if (h[s * 4 + suit]! & bit)
            throw new PlayError('not-in-hand', `${formatCard(card)} is in seat ${s}'s hand, not seat ${mover}'s`);
        }
      }
    }

    let renounce: Renounce | null = null;
    if (this.trickSize) {
      const led = suitOf(this.trickCards[0]! as Card);
      if (suit !== led) {
        const holdsLed = known
          ? h![mover * 4 + led] !== 0
          : mover === this.dealer && led === this.trump && !this.trumpCardPlayed; // the trump card is public
        if (holdsLed) renounce = { seat: mover, trick: this.trickIndex, card };
        else if (!(this.voidBits & (1 << (mover * 4 + led)))) {
          this.voidBits |= 1 << (mover * 4 + led);
          this.voidTrick[mover * 4 + led] = this.trickIndex;
          this.voidCard[mover * 4 + led] = card;
        }
      }
    }
    if (!renounce && this.voidBits & (1 << slot)) {
      // Only reachable for a seat whose hand is unknown: it shows a suit it claimed to lack.
      renounce = {
        seat: mover,
        trick: this.voidTrick[slot]!,
        card: this.voidCard[slot]! as Card,
        discovered: { trick: this.trickIndex, card },
      };
    }

    if (known) h![slot]! &= ~bit;
    this.played[suit]! |= bit;
    this.history[this.playCount++] = card;
    this.trickCards[this.trickSize] = card;
    if (this.trickSize && this.beatsTrick(card)) this.bestIndex = this.trickSize;
    else if (!this.trickSize) this.bestIndex = 0;
    this.trickSize++;

    if (renounce) {
      this.renounceInfo = renounce;
      this.state = 'renounce';
      return PlayResult.GameOver;
    }
    if (this.trickSize < 4) return PlayResult.Continue;

    const winner = nextSeat(this.leaderSeat, this.bestIndex);
    let p = 0;
    for (let i = 0; i < 4; i++) p += pointsOf(this.trickCards[i]! as Card);
    this.teamPoints[winner & 1]! += p;
    this.winners[this.trickIndex] = winner;
    this.trickIndex++;
    this.trickSize = 0;
    this.leaderSeat = winner;
    if (this.trickIndex === 10) {
      this.state = 'complete';
      return PlayResult.GameOver;
    }
    return PlayResult.TrickComplete;
  }

  /** An independent copy (for search and what-if). */
  clone(): Game {
    const g = Object.create(Game.prototype) as Game;
    Object.assign(g, this);
    // Object.assign copied the typed arrays by reference; give the copy its own.
    const copy = g as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(this)) {
      if (v instanceof Int32Array || v instanceof Int8Array) copy[k] = v.slice();
    }
    return g;
  }

  /** Count of cards of `suit` the seat holds (hands known). */
  countInSuit(seat: Seat, suit: Suit): number {
    return MASK_COUNT[this.handMask(seat, suit) & SUIT_MASK]!;
  }
}

/** Index (from the leader) of the card that wins the cards on the table so far. */
export function winningIndex(table: readonly Card[], trump: Suit | null): number {
  let best = 0;
  for (let i = 1; i < table.length; i++) {
    const c = table[i]!;
    const b = table[best]!;
    const cTrump = suitOf(c) === trump;
    const bTrump = suitOf(b) === trump;
    if (cTrump !== bTrump) {
      if (cTrump) best = i;
    } else if (suitOf(c) === suitOf(b) && rankOf(c) > rankOf(b)) {
      best = i;
    }
  }
  return best;
}

// A seat's memory of the played cards, as a person's: each played card, and each void a seat showed
// (it did not follow suit), is a chunk of ACT-R's declarative memory (activation.ts). A chunk is
// presented when the card is played, more strongly when the card is salient (a trump, an ace or a
// seven, the master of its suit, or the seat's own card), and again each time it is recalled when it
// matters: when its suit is led (a person runs over what is out of that suit), and at the seat's own
// turns for the trumps and the suits it may play. Whatever is not retrieved at a turn is forgotten
// for that decision; a forgotten chunk is not rehearsed, so it tends to stay forgotten, as with people.
//
// Time runs in game steps, one per card played, scaled by `secondsPerCard` (about 5 s at a real
// table), so decay d = 0.5 acts on the same seconds as in Renkema's ACT-R models. The current trick is on
// the table and always known, and so is the turned-up trump card once played (everyone watched it).
// The memory follows the game from the seat's information set at each call (`recall`): it needs no
// events, and a new game (fewer plays, another deal) starts it afresh. Every random draw comes from
// the Rng it is given, in a fixed order, so it is deterministic under its seed.

import type { Card, Suit } from '../cards.js';
import { SUIT_MASK, pointsOf, rankOf, suitOf } from '../cards.js';
import { Game } from '../game.js';
import type { Rng } from '../rng.js';
import type { Seat } from '../seats.js';
import type { InfoSet } from '../view.js';
import { logisticNoise } from './activation.js';

/** What a level remembers with: ACT-R's parameters and when chunks are rehearsed. */
export interface MemoryParameters {
  /** Base-level decay d (ACT-R's default 0.5, as in Renkema's models). */
  decay: number;
  /** Activation noise s: the scale of the logistic noise drawn at each retrieval. */
  noise: number;
  /** Retrieval threshold tau: a chunk is retrieved when its activation is above it. */
  threshold: number;
  /** Extra presentations of a salient card when it is played (0: it is seen as any other). */
  salience: number;
  /** When a suit is led, the played cards of that suit and the voids in it that are recalled are rehearsed. */
  rehearseOnLead: boolean;
  /** At the seat's own turns, the recalled chunks of the trumps and of the suits it may play are rehearsed. */
  rehearseOnTurn: boolean;
  /** Seconds a card takes at a real table: the time scale of the decay. */
  secondsPerCard: number;
}

/** What the seat recalls at one decision. */
export interface Recollection {
  /** Played cards (before the current trick) it does not recall: it may believe any of them is still held. */
  forgotten: Card[];
  /** The voids it recalls, and those shown in the current trick: bit seat * 4 + suit. */
  voids: number;
  /** The voids shown in earlier tricks that it does not recall: bit seat * 4 + suit. */
  forgottenVoids: number;
}

/** Chunks: the 40 cards, then the 16 voids (40 + seat * 4 + suit). */
const CHUNKS = 56;
const VOID_CHUNK = 40;
/** Presentations kept per chunk: 1 + salience (at most 4) + a rehearsal per lead and per turn (10 each) fit. */
const MAX_PRESENTATIONS = 32;
/** Ages are whole steps from 1 to 40 (a presentation in the step of a retrieval counts as one step old). */
const MAX_AGE = 41;

export class CardMemory {
  /** The step of each presentation of each chunk. */
  private readonly times = new Int16Array(CHUNKS * MAX_PRESENTATIONS);
  private readonly count = new Uint8Array(CHUNKS);
  /** (age * secondsPerCard)^-d for ages 0..MAX_AGE steps (age 0 read as 1). */
  private readonly power = new Float64Array(MAX_AGE + 1);
  /** The public game, replayed from the plays: who played each card, what was led, the voids shown. */
  private game: Game | null = null;
  private processed = 0;
  private seat: Seat = 0;
  /** The step at which each void was shown, -1 if not. */
  private readonly voidShownAt = new Int8Array(16).fill(-1);

  constructor(
    readonly parameters: MemoryParameters,
    private readonly rng: Rng,
  ) {
    const { decay, secondsPerCard } = parameters;
    for (let age = 0; age <= MAX_AGE; age++) this.power[age] = Math.pow(Math.max(age, 1) * secondsPerCard, -decay);
  }

  /** Plays the memory has followed so far in the current game. */
  get steps(): number {
    return this.processed;
  }

  /** The base-level activation of a card's chunk at step `now` (-Infinity: not seen). */
  cardActivation(card: Card, now: number): number {
    return this.activation(card, now);
  }

  /** The base-level activation of the chunk of `seat`'s void in `suit` at step `now`. */
  voidActivation(seat: Seat, suit: Suit, now: number): number {
    return this.activation(VOID_CHUNK + seat * 4 + suit, now);
  }

  /** How many times a card's chunk has been presented (seen, then rehearsed). */
  presentations(card: Card): number {
    return this.count[card]!;
  }

  /**
   * Catches up with the game as `info` shows it, then tries to retrieve every chunk: what the seat
   * recalls at this decision. With `rehearseOnTurn`, the chunks recalled that matter to the choice
   * (trumps, the suits of `legal`) are rehearsed now.
   */
  recall(info: InfoSet, legal: readonly Card[]): Recollection {
    this.follow(info);
    const now = this.processed;
    const p = this.parameters;
    // Cards played before the current trick are remembered or not; those on the table are seen.
    const before = info.trick * 4;
    let suits = 1 << info.trump;
    for (const c of legal) suits |= 1 << suitOf(c);
    const forgotten: Card[] = [];
    const rehearse = p.rehearseOnTurn;
    for (let k = 0; k < before; k++) {
      const c = info.plays[k]!;
      if (c === info.trumpCard) continue;
      if (this.retrieved(c, now)) {
        if (rehearse && suits & (1 << suitOf(c))) this.present(c, now);
      } else forgotten.push(c);
    }
    // The voids shown on the table now are seen (a void shown earlier may be shown again here).
    let seen = 0;
    if (info.table.length) {
      const led = suitOf(info.table[0]!);
      for (let i = 1; i < info.table.length; i++)
        if (suitOf(info.table[i]!) !== led) seen |= 1 << (((info.leader + i) & 3) * 4 + led);
    }
    let voids = 0;
    let forgottenVoids = 0;
    for (let v = 0; v < 16; v++) {
      const shown = this.voidShownAt[v]!;
      if (shown < 0) continue;
      if (shown >= before || seen & (1 << v)) voids |= 1 << v;
      else if (this.retrieved(VOID_CHUNK + v, now)) {
        voids |= 1 << v;
        if (rehearse && suits & (1 << (v & 3))) this.present(VOID_CHUNK + v, now);
      } else forgottenVoids |= 1 << v;
    }
    forgotten.sort((a, b) => a - b);
    return { forgotten, voids, forgottenVoids };
  }

  /** Follows the plays of `info` it has not seen yet; a different game starts the memory afresh. */
  follow(info: InfoSet): void {
    const g = this.game;
    const plays = info.plays;
    const fresh =
      g === null ||
      g.dealer !== info.dealer ||
      g.trumpCard !== info.trumpCard ||
      this.seat !== info.seat ||
      plays.length < this.processed ||
      (this.processed > 0 && g.playAt(this.processed - 1) !== plays[this.processed - 1]);
    if (fresh) this.reset(info);
    for (let k = this.processed; k < plays.length; k++) this.observe(k, plays[k]!);
  }

  private reset(info: InfoSet): void {
    this.game = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
    this.processed = 0;
    this.seat = info.seat;
    this.count.fill(0);
    this.voidShownAt.fill(-1);
  }

  /** Card `k` of the game, `card`, is played: rehearse its suit if it leads one, then see it. */
  private observe(k: number, card: Card): void {
    const g = this.game!;
    const seat = g.toMove;
    const suit = suitOf(card);
    const p = this.parameters;
    const leading = g.cardsInTrick === 0;
    const led = g.ledSuit;
    // A lead makes the players run over the suit: what they recall of it is strengthened. The seat's
    // own lead follows its own turn, where it has just recalled everything.
    if (leading && p.rehearseOnLead && seat !== this.seat) this.rehearseSuit(suit, k);
    // Salient: a trump, an ace or a seven, the highest card of its suit still out, or its own card.
    const unplayed = SUIT_MASK & ~g.playedMask(suit);
    const master = (unplayed & ~((2 << rankOf(card)) - 1)) === 0;
    const salient = suit === g.trump || pointsOf(card) >= 10 || master || seat === this.seat;
    this.present(card, k);
    if (salient) for (let i = 0; i < p.salience; i++) this.present(card, k);
    g.play(card, seat);
    if (led >= 0 && suit !== led) {
      const v = seat * 4 + led;
      if (this.voidShownAt[v]! < 0) {
        this.voidShownAt[v] = k;
        this.present(VOID_CHUNK + v, k);
      }
    }
    this.processed = k + 1;
  }

  /** Tries to recall the played cards of `suit` and the voids in it at step `now`; rehearses those recalled. */
  private rehearseSuit(suit: Suit, now: number): void {
    for (let r = 0; r < 10; r++) {
      const c = suit * 10 + r;
      if (this.count[c]! > 0 && this.retrieved(c, now)) this.present(c, now);
    }
    for (let s = 0; s < 4; s++) {
      const v = VOID_CHUNK + s * 4 + suit;
      if (this.count[v]! > 0 && this.retrieved(v, now)) this.present(v, now);
    }
  }

  private present(chunk: number, step: number): void {
    const n = this.count[chunk]!;
    if (n >= MAX_PRESENTATIONS) return;
    this.times[chunk * MAX_PRESENTATIONS + n] = step;
    this.count[chunk] = n + 1;
  }

  private activation(chunk: number, now: number): number {
    const n = this.count[chunk]!;
    let sum = 0;
    const base = chunk * MAX_PRESENTATIONS;
    for (let j = 0; j < n; j++) {
      const age = now - this.times[base + j]!;
      sum += this.power[age < 0 ? 0 : age > MAX_AGE ? MAX_AGE : age]!;
    }
    return Math.log(sum);
  }

  /** One retrieval attempt: activation plus a fresh draw of noise above the threshold. */
  private retrieved(chunk: number, now: number): boolean {
    const p = this.parameters;
    return this.activation(chunk, now) + logisticNoise(this.rng, p.noise) > p.threshold;
  }
}

// What a player reads in a hand at the deal, before any card is played (the knowledge-based
// estimate of Marincic et al.'s Tarok bidding): the trumps and their ranks, aces and sevens, voids,
// where the turned-up card lies, and the seat's place after the dealer. Numbers only, in a fixed order,
// so a fitted linear model is a dot product.

import type { Card, Suit } from '../cards.js';
import { pointsOf, rankOf, suitOf } from '../cards.js';
import type { Seat } from '../seats.js';

/** The features, in the order of a feature vector. */
export const HAND_FEATURES = [
  'trumps', // trump cards held (the turned-up card counts when this seat dealt)
  'trumpAce',
  'trumpSeven',
  'trumpKing',
  'trumpJack',
  'trumpQueen',
  'sideAces', // aces of the other three suits
  'sideSevensWithAce', // a side seven with its ace: both are masters
  'sideSevensBare', // a side seven without its ace: the ace is out, the seven is caught or kept back
  'sideKings',
  'sideLength', // cards in the longest side suit
  'voids', // side suits with no card: ruffs once trumps are held
  'singletons', // side suits with one card
  'pointsInHand',
  'partnerTurnedUp', // the partner dealt: it holds the turned-up trump
  'partnerTurnedUpPoints',
  'opponentTurnedUp', // an opponent dealt
  'opponentTurnedUpPoints',
  'leadsFirst', // the seat after the dealer leads the first trick (with the two above, the seat's place)
] as const;
export type HandFeature = (typeof HAND_FEATURES)[number];
export const FEATURE_COUNT = HAND_FEATURES.length;

const ACE = 9;
const SEVEN = 8;
const KING = 7;
const JACK = 6;
const QUEEN = 5;

/**
 * Writes the features of `hand` (seat `seat`, dealer `dealer`, turned-up card `trumpCard`) into
 * `out` (length FEATURE_COUNT) and returns it. No allocation: the estimator may run per event.
 */
export function handFeatures(
  hand: readonly Card[],
  seat: Seat,
  dealer: Seat,
  trumpCard: Card,
  out: Float64Array = new Float64Array(FEATURE_COUNT),
): Float64Array {
  const trump: Suit = suitOf(trumpCard);
  out.fill(0);
  const ranks = [0, 0, 0, 0];
  const count = [0, 0, 0, 0];
  let points = 0;
  for (const c of hand) {
    const s = suitOf(c);
    ranks[s]! |= 1 << rankOf(c);
    count[s]!++;
    points += pointsOf(c);
  }
  const t = ranks[trump]!;
  out[0] = count[trump]!;
  out[1] = (t >> ACE) & 1;
  out[2] = (t >> SEVEN) & 1;
  out[3] = (t >> KING) & 1;
  out[4] = (t >> JACK) & 1;
  out[5] = (t >> QUEEN) & 1;
  for (let s = 0; s < 4; s++) {
    if (s === trump) continue;
    const m = ranks[s]!;
    const ace = (m >> ACE) & 1;
    const seven = (m >> SEVEN) & 1;
    out[6]! += ace;
    out[7]! += seven & ace;
    out[8]! += seven & (ace ^ 1);
    out[9]! += (m >> KING) & 1;
    out[10] = Math.max(out[10]!, count[s]!);
    if (count[s] === 0) out[11]!++;
    else if (count[s] === 1) out[12]!++;
  }
  out[13] = points;
  const fromDealer = (seat - dealer + 4) & 3; // 0: this seat dealt, 1: leads first, 2: second, 3: third
  if (fromDealer === 2) {
    out[14] = 1;
    out[15] = pointsOf(trumpCard);
  } else if (fromDealer !== 0) {
    out[16] = 1;
    out[17] = pointsOf(trumpCard);
  }
  out[18] = fromDealer === 1 ? 1 : 0;
  return out;
}

/** A fitted model: one weight per feature of HAND_FEATURES, in that order, and an intercept. */
export interface HandModel {
  features: readonly string[];
  points: { intercept: number; weights: readonly number[] };
  win: { intercept: number; weights: readonly number[] };
  /** How it was fitted (command, seed, games): a model is named for what it was trained on. */
  fittedOn: string;
}

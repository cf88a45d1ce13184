// Cards as small integers: id = suit * 10 + rank, rank 0..9 from low to high (2 3 4 5 6 Q J K 7 A).
// A hand is four 10-bit masks (one per suit), so "cards of a suit above X" is a shift and a mask.

declare const cardBrand: unique symbol;
/** A card id 0..39. Parse strings once at the boundary with `parseCard`. */
export type Card = number & { readonly [cardBrand]: true };

/** Suits in notation order: espadas, copas, ouros, paus. */
export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type SuitLetter = (typeof SUITS)[number];
/** Suit index 0..3 (S H D C). */
export type Suit = 0 | 1 | 2 | 3;

/** Ranks from low to high, as written in card notation. */
export const RANKS = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'] as const;

/** Points by rank index: Q=2, J=3, K=4, 7=10, A=11. */
export const RANK_POINTS: readonly number[] = [0, 0, 0, 0, 0, 2, 3, 4, 10, 11];
export const DECK_SIZE = 40;
export const SUIT_MASK = 0x3ff;

export const cardOf = (suit: number, rank: number): Card => (suit * 10 + rank) as Card;
export const suitOf = (card: Card): Suit => ((card / 10) | 0) as Suit;
export const rankOf = (card: Card): number => card % 10;

const POINTS_BY_CARD = new Uint8Array(DECK_SIZE);
for (let c = 0; c < DECK_SIZE; c++) POINTS_BY_CARD[c] = RANK_POINTS[c % 10]!;
export const pointsOf = (card: Card): number => POINTS_BY_CARD[card]!;

/** Points held in a suit mask, by table lookup (1024 entries). */
const MASK_POINTS = new Uint8Array(1 << 10);
/** Number of cards in a suit mask. */
export const MASK_COUNT = new Uint8Array(1 << 10);
for (let m = 0; m < 1 << 10; m++) {
  let p = 0;
  let n = 0;
  for (let r = 0; r < 10; r++) {
    if (m & (1 << r)) {
      p += RANK_POINTS[r]!;
      n++;
    }
  }
  MASK_POINTS[m] = p;
  MASK_COUNT[m] = n;
}

/** Index of the highest set bit of a non-zero mask. */
export const highestRank = (mask: number): number => 31 - Math.clz32(mask);
/** Index of the lowest set bit of a non-zero mask. */
export const lowestRank = (mask: number): number => 31 - Math.clz32(mask & -mask);

const CARD_NAMES: string[] = [];
for (let s = 0; s < 4; s++) for (let r = 0; r < 10; r++) CARD_NAMES.push(RANKS[r]! + SUITS[s]!);
const CARD_BY_NAME = new Map<string, Card>(CARD_NAMES.map((n, i) => [n, i as Card]));

export const formatCard = (card: Card): string => CARD_NAMES[card]!;
export const formatCards = (cards: readonly Card[]): string[] => cards.map(formatCard);
export const formatSuit = (suit: Suit): SuitLetter => SUITS[suit];

/** Thrown when a string is not a card in our notation; `input` is what was given. */
export class CardParseError extends Error {
  constructor(readonly input: unknown) {
    super(
      `unknown card ${JSON.stringify(input)} (expected rank 2 3 4 5 6 Q J K 7 A then suit S H D C, e.g. "AS", "7H")`,
    );
    this.name = 'CardParseError';
  }
}

/** Parses `AS`, `7h`, `qd`... (case-insensitive, surrounding spaces ignored). */
export function parseCard(input: unknown): Card {
  if (typeof input === 'string') {
    const card = CARD_BY_NAME.get(input.trim().toUpperCase());
    if (card !== undefined) return card;
  }
  throw new CardParseError(input);
}

export function parseSuit(input: unknown): Suit {
  if (typeof input === 'string') {
    const i = SUITS.indexOf(input.trim().toUpperCase() as SuitLetter);
    if (i >= 0) return i as Suit;
  }
  throw new Error(`unknown suit ${JSON.stringify(input)} (expected one of S H D C)`);
}

export const isCard = (n: number): n is Card => Number.isInteger(n) && n >= 0 && n < DECK_SIZE;

/** All 40 cards in id order. */
export const DECK: readonly Card[] = Array.from({ length: DECK_SIZE }, (_, i) => i as Card);

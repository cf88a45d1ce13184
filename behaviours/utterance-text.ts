// A line's words: slots filled, a card spoken. Free of Node APIs and of the library's loader, so the
// operator dashboard's page fills a line exactly as the robot does.

import type { Card, Suit } from '../game/cards.js';
import { RANKS, SUITS, rankOf, suitOf } from '../game/cards.js';

/** What filling a line needs of its library (an UtteranceLibrary, or its copy on the dashboard). */
export interface LineWords {
  language: string;
  /** Said when a player's name is not known. */
  names: { partner: string; opponent: string };
  cards: { ranks: Readonly<Record<string, string>>; suits: Readonly<Record<string, string>>; of: string };
}

/** `o ás de copas`, `the ace of hearts`. */
export const cardPhrase = (library: Pick<LineWords, 'cards'>, card: Card): string => `${rankPhrase(library, card)} ${library.cards.of} ${suitPhrase(library, suitOf(card))}`.replace(/\s+/g, ' ');
export const rankPhrase = (library: Pick<LineWords, 'cards'>, card: Card): string => library.cards.ranks[RANKS[rankOf(card)]!]!;
export const suitPhrase = (library: Pick<LineWords, 'cards'>, suit: Suit): string => library.cards.suits[SUITS[suit]]!;

/**
 * The text to speak: slots filled, spaces tidied, the first letter capitalised. A slot without a value
 * (a name nobody gave) falls back to the library's word for the partner or opponent, else is left out.
 */
export function renderUtterance(library: Pick<LineWords, 'language' | 'names'>, line: { text: string }, slots: Readonly<Partial<Record<string, string | number>>>): string {
  const filled = line.text.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const v = slots[name];
    if (v !== undefined && v !== '') return String(v);
    if (name === 'partner' || name === 'opponent') return library.names[name];
    return '';
  });
  const tidy = filled
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?;:…])/g, '$1')
    .trim();
  return tidy.charAt(0).toLocaleUpperCase(library.language) + tidy.slice(1);
}

// A line's words: slots filled, a card spoken. Free of Node APIs and of the library's loader, so the
// operator dashboard's page fills a line exactly as the robot does.

import type { Card, Suit } from '../game/cards.js';
import { RANKS, SUITS, rankOf, suitOf } from '../game/cards.js';

/** What filling a line needs of its library (an UtteranceLibrary, or its copy on the dashboard). */
export interface LineWords {
  language: string;
  /**
   * Said in place of an unknown name when a line calls someone (`Boa, {partner}!`): a configured form
   * such as "parceira" when the study knows it. Empty (the default): the call is left out ("Boa!").
   */
  names: { partner: string; opponent: string };
  cards: { ranks: Readonly<Record<string, string>>; suits: Readonly<Record<string, string>>; of: string };
}

/** `o ás de copas`, `the ace of hearts`. */
export const cardPhrase = (library: Pick<LineWords, 'cards'>, card: Card): string =>
  `${rankPhrase(library, card)} ${library.cards.of} ${suitPhrase(library, suitOf(card))}`.replace(/\s+/g, ' ');
export const rankPhrase = (library: Pick<LineWords, 'cards'>, card: Card): string =>
  library.cards.ranks[RANKS[rankOf(card)]!]!;
export const suitPhrase = (library: Pick<LineWords, 'cards'>, suit: Suit): string => library.cards.suits[SUITS[suit]]!;

/** The slots that hold a person's name. */
export const NAME_SLOTS = ['partner', 'opponent', 'player'] as const;
export type NameSlot = (typeof NAME_SLOTS)[number];
const isNameSlot = (s: string): s is NameSlot => (NAME_SLOTS as readonly string[]).includes(s);

// A call: the name set off by punctuation, as in "Boa, {partner}!" or "{player}, podes partir?".
const BEFORE_CALL = /(^|[,.!?…;:(—-])\s*$/;
const AFTER_CALL = /^\s*($|[,.!?…;:)—-])/;

/**
 * The name slots a line uses outside a call ("Renúncia! {player} não assistiu"): there the line says
 * nothing without the name, so it needs a name known to be said. A call can simply be left out.
 */
export function namesNeeded(text: string): NameSlot[] {
  const out = new Set<NameSlot>();
  for (const m of text.matchAll(/\{([^{}]*)\}/g)) {
    const slot = m[1]!;
    if (!isNameSlot(slot)) continue;
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    if (!(BEFORE_CALL.test(before) && AFTER_CALL.test(after))) out.add(slot);
  }
  return [...out];
}

/**
 * The text to speak: slots filled, spaces tidied, the first letter capitalised. A name slot without a
 * value (a name nobody gave) takes the library's configured form if any; otherwise a call is left out
 * with its comma ("Boa, {partner}!" -> "Boa!"), and any other slot without a value is left out.
 */
export function renderUtterance(
  library: Pick<LineWords, 'language' | 'names'>,
  line: { text: string },
  slots: Readonly<Partial<Record<string, string | number>>>,
): string {
  const valueOf = (name: string): string => {
    const v = slots[name];
    if (v !== undefined && v !== '') return String(v);
    if (name === 'partner' || name === 'opponent') return library.names[name] ?? '';
    return '';
  };
  let text = line.text;
  // Calls without a name go first, with the comma that sets them off; a call that opened a sentence
  // leaves the next word to open it.
  text = text.replace(
    /(,\s*)?\{([^{}]*)\}(\s*,)?/g,
    (whole, lead: string | undefined, name: string, trail: string | undefined, at: number) => {
      if (!isNameSlot(name) || valueOf(name) !== '') return whole;
      const before = line.text.slice(0, at) + (lead ?? '');
      const after = line.text.slice(at + whole.length - (trail ?? '').length);
      if (!(BEFORE_CALL.test(before) && AFTER_CALL.test(after))) return whole;
      if (lead) return trail ? ',' : '';
      return trail ? '\u0001' : '';
    },
  );
  const filled = text.replace(/\{([^{}]*)\}/g, (_, name: string) => valueOf(name));
  // \u0001 marks a dropped call that opened a sentence (set above): the regular expressions look for it.
  /* eslint-disable no-control-regex */
  const tidy = filled
    .replace(
      /([.!?…]\s*)\u0001\s*(\p{L})/gu,
      (_, end: string, letter: string) => `${end}${letter.toLocaleUpperCase(library.language)}`,
    )
    .replace(/\u0001\s*/g, '')
    /* eslint-enable no-control-regex */
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?;:…])/g, '$1')
    .replace(/,([.!?…])/g, '$1')
    .replace(/^[\s,]+/, '')
    .trim();
  return tidy.charAt(0).toLocaleUpperCase(library.language) + tidy.slice(1);
}

// Cards drawn as cards: a face with the rank and suit in two corners and the suit in the middle, red
// or black; a back for the cards other seats hold. Built as elements with text, never HTML strings.

import { h } from './dom.js';
import type { Language } from './words.js';
import { cardWords } from './table-words.js';

const SUIT: Record<string, { symbol: string; red: boolean }> = {
  S: { symbol: '♠', red: false },
  H: { symbol: '♥', red: true },
  D: { symbol: '♦', red: true },
  C: { symbol: '♣', red: false },
};

/** A card's face; `card` in notation (AH). Its name in words is its accessible label. */
export function cardFace(card: string, lang: Language, extra = ''): HTMLElement {
  const suit = SUIT[card.slice(-1).toUpperCase()];
  const rank = card.slice(0, -1).toUpperCase();
  const symbol = suit?.symbol ?? card.slice(-1);
  const corner = (where: string): HTMLElement =>
    h(
      'span',
      { class: `pc-corner ${where}` },
      h('span', { class: 'pc-rank', text: rank }),
      h('span', { class: 'pc-suit', text: symbol }),
    );
  const e = h(
    'span',
    { class: `pc ${suit?.red ? 'red' : 'black'} ${extra}`.trim(), data: { card } },
    corner('tl'),
    h('span', { class: 'pc-pip', text: symbol }),
    corner('br'),
  );
  e.setAttribute('role', 'img');
  e.setAttribute('aria-label', cardWords(card, lang));
  return e;
}

/** The back of a card. */
const cardBack = (extra = ''): HTMLElement => h('span', { class: `pc back ${extra}`.trim() });

/** `n` cards face down, fanned (a seat's hand as the others see it), with the count for people. */
export function backs(n: number, label: string): HTMLElement {
  const fan = h(
    'span',
    { class: 'fan', data: { count: String(n) } },
    ...Array.from({ length: n }, () => cardBack('mini')),
  );
  fan.setAttribute('role', 'img');
  fan.setAttribute('aria-label', label);
  return fan;
}

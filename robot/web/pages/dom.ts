// Small DOM helpers: build elements with text (never HTML strings, so nothing from the bus is parsed).

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; text?: string; title?: string; data?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.text !== undefined) e.textContent = props.text;
  if (props.title) e.title = props.title;
  for (const [k, v] of Object.entries(props.data ?? {})) e.dataset[k] = v;
  e.append(...children);
  return e;
}

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`no element #${id}`);
  return e as T;
};

const SUITS: Record<string, { symbol: string; red: boolean }> = {
  S: { symbol: '♠', red: false },
  H: { symbol: '♥', red: true },
  D: { symbol: '♦', red: true },
  C: { symbol: '♣', red: false },
};

/** A card face: rank and suit symbol, e.g. 7♥. */
export function cardEl(card: string, props: { class?: string } = {}): HTMLElement {
  const suit = SUITS[card.slice(-1)];
  const e = h('span', {
    class: `card ${suit?.red ? 'red' : 'black'} ${props.class ?? ''}`.trim(),
    title: card,
    data: { card },
  });
  e.textContent = `${card.slice(0, -1)}${suit?.symbol ?? card.slice(-1)}`;
  return e;
}

export const clock = (ms: number): string => new Date(ms).toLocaleTimeString([], { hour12: false });

// The memory panel: at a level of play below full (docs/levels.md) the robot forgets played cards as a
// person does, and at each of its decisions publishes what it recalled (topic memory). The 40 cards in
// a grid by suit: played and recalled, forgotten (highlighted: it may believe such a card is still in a
// hand), not in its last recall (on the table then, or played after it), its own hand, and not played yet;
// then the forgotten cards and voids in words. At the full level there is nothing to show: it says so.

import type { MemoryMessage } from '../../bus/messages.js';
import type { DashboardState } from '../state.js';
import { personAt } from './dash-words.js';
import { byId, cardEl, h } from './dom.js';
import { cardWords } from './words.js';

const SUITS = [
  ['S', 'Spades'],
  ['H', 'Hearts'],
  ['D', 'Diamonds'],
  ['C', 'Clubs'],
] as const;
const RANKS = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'] as const;

type MemoryCardState = 'remembered' | 'forgotten' | 'since' | 'hand' | 'unplayed';

const STATE_WORDS: Readonly<Record<MemoryCardState, string>> = {
  remembered: 'played, recalled',
  forgotten: 'played, forgotten',
  since: 'not in its last recall',
  hand: "in the robot's hand",
  unplayed: 'not played yet',
};

/** The level of the session in force, from the last memory message or the session's record (absent: full). */
function levelOf(s: DashboardState): string {
  if (s.memory) return s.memory.message.level;
  return s.day.sessions.find((r) => r.id === s.day.current)?.level ?? 'full';
}

/** The cards played so far in the current game, from its play events (game index from 0). */
function playedNow(s: DashboardState, game: number): Set<string> {
  const out = new Set<string>();
  for (const e of s.events) if (e.type === 'play' && e.game === game) out.add(e.card);
  for (const c of s.game?.table ?? []) out.add(c);
  return out;
}

/** Each card's state in the panel, with its tooltip. */
function memoryCards(
  s: DashboardState,
  m: MemoryMessage | null,
): Map<string, { state: MemoryCardState; title: string }> {
  const game = (s.game?.game ?? 1) - 1;
  const played = playedNow(s, game);
  const hand = new Set(s.game?.robot_hand ?? []);
  const robot = s.game?.robot_seat ?? -1;
  const out = new Map<string, { state: MemoryCardState; title: string }>();
  const recalled = new Map<string, number>();
  m?.played.forEach((c, i) => recalled.set(c, i));
  for (const [suit] of SUITS) {
    for (const rank of RANKS) {
      const card = `${rank}${suit}`;
      const name = cardWords(card, 'en');
      const i = recalled.get(card);
      if (m && i !== undefined) {
        const where = `played by ${personAt(m.seats[i] ?? -1, robot)} in trick ${(i >> 2) + 1}`;
        const a = m.activations[i];
        const activation =
          a === undefined || !Number.isFinite(a)
            ? ''
            : ` (activation ${a.toFixed(2)}, threshold ${m.threshold.toFixed(2)})`;
        const forgotten = m.recalled[i] === false;
        out.set(card, {
          state: forgotten ? 'forgotten' : 'remembered',
          title: `${name}: ${where}; ${forgotten ? 'forgotten' : 'recalled'} at its decision in trick ${m.trick + 1}${activation}`,
        });
      } else if (played.has(card))
        out.set(card, { state: 'since', title: `${name}: on the table or played after the robot's last recall` });
      else if (hand.has(card)) out.set(card, { state: 'hand', title: `${name}: in the robot's hand` });
      else out.set(card, { state: 'unplayed', title: `${name}: not played yet` });
    }
  }
  return out;
}

const voidWords = (v: string, robot: number): string =>
  `${personAt(Number(v[0]), robot)} has no ${SUITS.find(([l]) => l === v.slice(1))?.[1].toLowerCase() ?? v.slice(1)}`;

export function renderMemory(s: DashboardState): void {
  const box = byId('memory');
  const level = levelOf(s);
  const game = (s.game?.game ?? 0) - 1;
  // A message of an earlier game is not this game's memory.
  const m = s.memory && s.memory.message.game === game ? s.memory.message : null;
  box.dataset.level = level;
  if (level === 'full') {
    box.replaceChildren(
      h('p', {
        class: 'muted',
        text: 'Full memory: at the full level the robot remembers every card played. Start it with --level beginner, casual, club or expert to have it forget cards as a person does.',
      }),
    );
    return;
  }
  const robot = s.game?.robot_seat ?? -1;
  const summary = m
    ? `Level ${level}, at its decision in trick ${m.trick + 1}: it recalled ${m.played.length - m.forgotten.length} of the ${m.played.length} cards played before that trick and forgot ${m.forgotten.length}.`
    : `Level ${level}: it has not recalled anything yet this game (it recalls the played cards at each of its turns with a choice).`;
  const grid = h('div', { class: 'memory-grid' });
  const cards = memoryCards(s, m);
  for (const [suit, name] of SUITS) {
    grid.append(h('span', { class: 'memory-suit', text: name }));
    for (const rank of RANKS) {
      const card = `${rank}${suit}`;
      const c = cards.get(card)!;
      const el = cardEl(card, { class: `memory-card ${c.state}` });
      el.title = c.title;
      el.dataset.state = c.state;
      grid.append(el);
    }
  }
  const legend = h(
    'p',
    { class: 'memory-legend small' },
    ...(Object.keys(STATE_WORDS) as MemoryCardState[]).map((k) =>
      h('span', { class: `memory-key ${k}`, text: STATE_WORDS[k] }),
    ),
  );
  const parts: HTMLElement[] = [h('p', { class: 'memory-summary', text: summary }), grid, legend];
  if (m && m.forgotten.length) {
    const at = new Map(m.played.map((c, i) => [c, i]));
    parts.push(
      h('h3', { text: 'Forgotten' }),
      h(
        'ul',
        { class: 'memory-forgotten' },
        ...m.forgotten.map((c) => {
          const i = at.get(c) ?? -1;
          return h(
            'li',
            { data: { card: c } },
            cardEl(c),
            ` ${cardWords(c, 'en')}${i >= 0 ? `, played by ${personAt(m.seats[i] ?? -1, robot)} in trick ${(i >> 2) + 1}` : ''}`,
          );
        }),
      ),
    );
  }
  if (m && m.forgotten_voids.length)
    parts.push(
      h('p', {
        class: 'memory-voids',
        text: `It forgot that ${m.forgotten_voids.map((v) => voidWords(v, robot)).join(', ')}.`,
      }),
    );
  box.replaceChildren(...parts);
}

// The speech panel: the line being said, the lines waiting (announced as queued: planned, waiting for
// their time or for the voice) and the last lines said or dropped, with why.

import type { DashboardState, SpeechLine } from '../state.js';
import { categoryWords, lineCategory } from '../wizard-lines.js';
import { droppedWords, personAt, targetWords } from './dash-words.js';
import { clock, h } from './dom.js';

const quote = (l: SpeechLine): string => `"${l.text}"`;
/** The raw names, for the tooltip: the line id, its category, the backend. */
const detail = (l: SpeechLine): string =>
  [l.id, l.category, l.backend && `backend ${l.backend}`].filter(Boolean).join(', ');

/**
 * What a line is, in words: its category ("A trick lost"); an answer asked at a table, with who
 * asked ("The game's review, asked at the table by the partner"), never as the operator's words.
 */
function whatLine(l: SpeechLine, robotSeat: number | null): string {
  const category = lineCategory(l.category, l.id);
  const words = categoryWords(category);
  const asker = category.startsWith('asked.') && l.about_seat >= 0 && robotSeat !== null;
  return asker ? `${words} by ${personAt(l.about_seat, robotSeat)}` : words;
}

function line(l: SpeechLine, robotSeat: number | null, lead: string, tail: (string | Node)[] = []): HTMLLIElement {
  return h(
    'li',
    { class: `phase-${l.phase}`, title: detail(l), data: { phase: l.phase, line: l.id } },
    h('span', { class: 'when', text: clock(l.atMs) }),
    h('span', {
      class: 'what',
      text: `${lead} ${quote(l)} to ${targetWords(l.target, l.addressee, robotSeat, l.audience)}`,
      title: l.text,
    }),
    ...tail,
    h('div', { class: 'tagline', text: whatLine(l, robotSeat) }),
  );
}

export function renderSpeech(s: DashboardState): void {
  const robotSeat = s.game?.robot_seat ?? null;
  const now = s.speech.speaking;
  const speaking = document.getElementById('speaking')!;
  speaking.className = now ? 'speaking now' : 'speaking muted';
  speaking.title = now ? `${now.text}\n(${detail(now)})` : '';
  speaking.replaceChildren(
    now
      ? h('span', {
          class: 'text',
          text: `${quote(now)} to ${targetWords(now.target, now.addressee, robotSeat, now.audience)} (since ${clock(now.atMs)}; ${whatLine(now, robotSeat).toLowerCase()})`,
        })
      : 'Silent.',
  );

  const waiting = s.speech.waiting.map((w) => {
    const when = w.due_in_ms > 0 ? `planned for ${clock(w.dueAtMs)}` : now ? 'after the line being said' : 'next';
    return line(w, robotSeat, 'will say', [h('span', { class: 'why', text: ` (${when})` })]);
  });
  document
    .getElementById('waiting')!
    .replaceChildren(
      ...(waiting.length ? waiting : [h('li', { class: 'empty', text: 'Nothing waiting to be said.' })]),
    );

  const isNow = (u: SpeechLine): boolean =>
    now !== null && u.atMs === now.atMs && u.id === now.id && u.text === now.text;
  const done = s.utterances
    .filter((u) => u.phase === 'start' || u.phase === 'dropped')
    .slice(-15)
    .reverse()
    .map((u) =>
      u.phase === 'start'
        ? line(u, robotSeat, isNow(u) ? 'saying' : 'said')
        : line(u, robotSeat, 'dropped', [h('span', { class: 'why', text: ` (${droppedWords(u.reason)})` })]),
    );
  document
    .getElementById('utterances')!
    .replaceChildren(...(done.length ? done : [h('li', { class: 'empty', text: 'Nothing said yet.' })]));
}

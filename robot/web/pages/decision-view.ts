// The last decision: explain.ts's sentence, and each legal card's values as a table an operator reads
// (victories expected when the player plays for victories, mean points, spread, chance to win), the
// card played highlighted, ranked the way the player ranked them.

import type { DashboardState } from '../state.js';
import { byId, cardEl, h } from './dom.js';

const round2 = (x: number): string => (Math.round(x * 100) / 100).toFixed(2);

export function renderDecision(s: DashboardState): void {
  const d = s.decision;
  byId('explanation').textContent = d ? d.explanation : 'No decision yet: the robot has not played a card.';
  const t = byId('moves');
  const note = byId('moves-note');
  const empty = d && d.message.fallback === 'rule' && d.message.worlds === 0;
  if (!d || d.message.moves.length === 0 || empty) {
    t.replaceChildren();
    note.textContent = !d
      ? ''
      : empty
        ? 'No card values: no deal was searched in the time.'
        : d.message.fallback === 'forced'
          ? ''
          : 'No card values: the player reported none.';
    return;
  }
  const m = d.message;
  const victories = m.objective === 'victories' && m.move_victories.length === m.moves.length ? m.move_victories : null;
  const vic = (i: number): number => victories?.[i] ?? 0;
  const order = m.moves
    .map((move, i) => ({ move, i }))
    .sort((a, b) => (victories ? vic(b.i) - vic(a.i) : 0) || b.move.mean - a.move.mean);
  const head = h(
    'tr',
    {},
    h('th', { text: 'card' }),
    ...(victories
      ? [
          h('th', {
            class: 'num',
            text: 'victories',
            title: 'expected victories of the game: 1 for 61-90 points, 2 for 91-119, 4 for all 120',
          }),
        ]
      : []),
    h('th', { class: 'num', text: 'points', title: "mean card points of the robot's team at the game's end (of 120)" }),
    h('th', { class: 'num', text: 'spread', title: 'standard deviation of those points over the deals sampled' }),
    h('th', { class: 'num', text: 'to win', title: 'share of the deals sampled in which the game is won' }),
    h('th', { text: '' }),
  );
  const key = (i: number): number => (victories ? vic(i) : m.moves[i]!.mean);
  const best = Math.max(...order.map((o) => key(o.i)));
  const worst = Math.min(0, ...order.map((o) => key(o.i)));
  const rows = order.map(({ move, i }) => {
    const bar = h('span', { class: 'bar' });
    bar.style.width = `${Math.max(2, ((key(i) - worst) / Math.max(1e-9, best - worst)) * 80)}px`;
    const chosen = move.card === m.card;
    return h(
      'tr',
      { class: chosen ? 'chosen' : '', data: { card: move.card } },
      h('td', {}, cardEl(move.card), ...(chosen ? [h('span', { class: 'tag', text: 'played' })] : [])),
      ...(victories ? [h('td', { class: 'num', text: round2(vic(i)) })] : []),
      h('td', { class: 'num', text: move.mean.toFixed(1) }),
      h('td', { class: 'num', text: move.sd.toFixed(1) }),
      h('td', { class: 'num', text: move.win_probability >= 0 ? `${Math.round(move.win_probability * 100)}%` : '-' }),
      h('td', {}, bar),
    );
  });
  t.replaceChildren(head, ...rows);
  const sampled =
    m.worlds > 0
      ? `${m.worlds} deal${m.worlds === 1 ? '' : 's'} sampled in ${Math.round(m.time_ms)} ms`
      : `decided in ${Math.round(m.time_ms)} ms`;
  const ranked = victories ? 'ranked by victories expected, then points' : 'ranked by mean points';
  note.textContent = `${sampled}; ${ranked}${m.fallback === 'rule' ? '; the search ran out of time, a rule chose the card' : ''}.`;
}

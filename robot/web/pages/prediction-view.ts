// The prediction panel: before each card of another seat, the cards the robot expects that seat to
// play (its model of the seat, from what the robot's own seat can see), with bars; once the card is
// down, which card it was, the chance the robot gave it, and how surprising it was
// (1 - its chance / the favourite's: robot/live/node/prediction.ts).

import type { DashboardState } from '../state.js';
import { byId, cardEl, h } from './dom.js';
import { cardWords, seatWords } from './words.js';

const pct = (p: number): string => (p >= 0.995 ? '100%' : p < 0.005 ? '<1%' : `${Math.round(p * 100)}%`);
const ordinal = (n: number): string =>
  n === 1 ? 'the most likely' : `${n}${n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'} most likely`;

/** From this surprise on the panel marks it, as the face shows it (config/behaviours.yaml postures.surpriseThreshold, 0.9 shipped). */
const HIGH = 0.9;

export function renderPrediction(s: DashboardState): void {
  const p = s.prediction;
  const box = byId('prediction');
  if (!p) {
    box.dataset.phase = 'none';
    delete box.dataset.key;
    box.replaceChildren(
      h('p', {
        class: 'empty',
        text: 'No prediction yet: before each card of another seat, the robot predicts it from what its own seat can see.',
      }),
    );
    return;
  }
  const key = String(p.atMs) + p.message.phase + p.message.seat;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const m = p.message;
  const robotSeat = s.game?.robot_seat ?? -1;
  const who = (robotSeat >= 0 ? seatWords(m.seat, robotSeat, 'en') : '') || `seat ${m.seat}`;
  const played = m.phase === 'played' && m.played !== '';
  box.dataset.phase = m.phase;
  box.dataset.seat = String(m.seat);
  box.dataset.surprise = played ? String(m.surprise) : '';

  const max = Math.max(1e-9, ...m.probabilities);
  const row = (card: string, prob: number, extra = false): HTMLElement => {
    const bar = h('span', { class: 'bar' });
    bar.style.width = `${Math.max(2, (prob / max) * 120)}px`;
    const mine = played && card === m.played;
    return h(
      'tr',
      { class: `${mine ? 'played' : ''}${extra ? ' extra' : ''}`.trim(), data: { card } },
      h('td', {}, cardEl(card), ...(mine ? [h('span', { class: 'tag', text: 'played' })] : [])),
      h('td', { class: 'words', text: cardWords(card, 'en') }),
      h('td', {}, bar),
      h('td', { class: 'num', text: pct(prob) }),
    );
  };
  const rows = m.cards.map((c, i) => row(c, m.probabilities[i] ?? 0));
  // The card played was not among those shown: its own row, below them.
  if (played && !m.cards.includes(m.played)) rows.push(row(m.played, Math.max(0, m.probability), true));

  const table = h('table', { class: 'prediction-table' }, ...rows);
  table.setAttribute('aria-label', `the cards the robot expected ${who} to play, most likely first`);
  const parts: HTMLElement[] = [
    h('h3', { text: played ? `${capital(who)} played ${cardWords(m.played, 'en')}` : `What ${who} will play` }),
    table,
  ];
  if (played) {
    const meter = h('span', { class: 'meter', title: `surprise ${m.surprise.toFixed(2)}` }, h('span'));
    (meter.firstChild as HTMLElement).style.width = `${Math.round(Math.max(0, m.surprise) * 100)}%`;
    const chance =
      m.probability >= 0
        ? `the robot gave it ${pct(m.probability)}${m.rank > 0 ? `, ${ordinal(m.rank)} of ${m.possible}` : ''}`
        : 'the robot had not listed it';
    parts.push(
      h(
        'p',
        {
          class: `surprise${m.surprise >= HIGH ? ' high' : ''}`,
          text: `${m.surprise >= HIGH ? 'Surprised' : m.surprise > 0.5 ? 'A little surprised' : 'As expected'}: surprise ${m.surprise.toFixed(2)}`,
        },
        meter,
      ),
    );
    parts.push(h('p', { class: 'muted small', text: `${capital(chance)}.` }));
  }
  parts.push(
    h('p', {
      class: 'muted small',
      text: `Game ${m.game}, trick ${m.trick + 1}; model: ${MODEL_WORDS[m.model] ?? m.model}; ${m.possible} card${m.possible === 1 ? '' : 's'} it might play, as far as the robot knows.`,
    }),
  );
  box.replaceChildren(...parts);
}

const capital = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

/** The prediction models (game/predict, config/node.yaml prediction.model) as an operator reads them. */
const MODEL_WORDS: Readonly<Record<string, string>> = {
  uniform: 'every card alike',
  legal: 'a random legal card',
  rule: "a casual player's odds",
  expert: "a good player's choices",
  tom1: 'a player who reads the hands',
  learned: "the lab's trained network",
};

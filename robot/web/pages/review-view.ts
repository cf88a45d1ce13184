// The game review panel: the last game looked back on with all cards in view (review-words.ts), for
// the robot's team: what it was worth against how it ended, each moment in words (marked when it
// changed the result), and a small chart of the value along the game with the 60-point line and the
// moments. The chart is inline SVG built element by element (no library, nothing parsed from text).

import type { DashboardState } from '../state.js';
import type { ReviewMomentWords } from '../review-words.js';
import { reviewWords } from '../review-words.js';
import { byId, h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** The chart's geometry (viewBox units): 40 cards across, 0..120 points up. */
const W = 400;
const H = 160;
const PAD = { left: 30, right: 8, top: 8, bottom: 26 };
const x = (i: number): number => PAD.left + (i / 40) * (W - PAD.left - PAD.right);
const y = (v: number): number => PAD.top + ((120 - Math.max(0, Math.min(120, v))) / 120) * (H - PAD.top - PAD.bottom);

/** The value for the robot's team before each card and after the last, the moments marked. */
function reviewChart(values: readonly number[], moments: readonly ReviewMomentWords[]): SVGSVGElement {
  const first = values[0] ?? 0;
  const last = values.at(-1) ?? 0;
  const chart = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'review-chart',
    role: 'img',
    'aria-label': `The game's value for the robot's team, card by card: ${first} points at the deal, ${last} at the end; ${moments.length} moments marked.`,
  });
  // Points: 0, 30, 60 (the line between winning and losing, dashed) and 120.
  for (const v of [0, 30, 60, 90, 120]) {
    chart.append(
      svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: v === 60 ? 'grid sixty' : 'grid' }),
    );
    chart.append(svg('text', { x: PAD.left - 4, y: y(v) + 3, class: 'axis', 'text-anchor': 'end' }, String(v)));
  }
  // Tricks: a light line every four cards, each trick's number under it.
  for (let t = 0; t <= 10; t++)
    chart.append(svg('line', { x1: x(4 * t), x2: x(4 * t), y1: PAD.top, y2: H - PAD.bottom, class: 'grid trick' }));
  for (let t = 0; t < 10; t++)
    chart.append(
      svg('text', { x: x(4 * t + 2), y: H - PAD.bottom + 11, class: 'axis', 'text-anchor': 'middle' }, String(t + 1)),
    );
  chart.append(
    svg('text', { x: (PAD.left + W - PAD.right) / 2, y: H - 3, class: 'axis', 'text-anchor': 'middle' }, 'trick'),
  );
  chart.append(
    svg('polyline', {
      points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
      class: 'value',
    }),
  );
  // Each moment: the drop its card made, from before it to after it, and a dot.
  for (const m of moments) {
    if (m.before < 0) continue;
    const g = svg('g', { class: `moment${m.turned ? ' turned' : ''}`, 'data-play': m.play }, svg('title', {}, m.text));
    g.append(svg('line', { x1: x(m.play), x2: x(m.play + 1), y1: y(m.before), y2: y(m.after) }));
    g.append(svg('circle', { cx: x(m.play + 1), cy: y(m.after), r: 4 }));
    chart.append(g);
  }
  return chart;
}

export function renderReview(s: DashboardState): void {
  const r = s.review;
  const box = byId('review');
  const say = byId<HTMLButtonElement>('say-review');
  const robotSeat = s.game?.robot_seat ?? -1;
  // A game that ended after the last review: its review is on its way (a worker thread looks back on it).
  const ended = s.events.filter((e) => e.type === 'end').at(-1);
  const waiting =
    ended && (!r || r.message.game < ended.game)
      ? h('p', { class: 'muted small', text: `Game ${ended.game + 1} is over: its review is not in yet.` })
      : null;
  say.disabled = !r || (r.message.status !== 'reviewed' && r.message.status !== 'renounce');
  if (!r) {
    box.dataset.status = 'none';
    delete box.dataset.key;
    box.replaceChildren(
      waiting ??
        h('p', {
          class: 'empty',
          text: 'No game reviewed yet: the robot looks back on each game, with all cards in view, when it ends.',
        }),
    );
    return;
  }
  // Drawn again only when something it shows changed (a tooltip being read stays open).
  const key = `${r.atMs}:${robotSeat}:${waiting?.textContent ?? ''}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const words = reviewWords(r.message, robotSeat);
  box.dataset.status = r.message.status;
  box.dataset.game = String(r.message.game);
  const rows = words.rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]);
  const moments = words.moments.map((m) =>
    h(
      'li',
      { class: m.turned ? 'turned' : '', data: { play: String(m.play), turned: String(m.turned) } },
      m.text,
      ...(m.turned ? [h('span', { class: 'tag turn', text: 'changed the result' })] : []),
    ),
  );
  box.replaceChildren(
    h('h3', { text: `${words.title}, for the robot's team` }),
    ...(rows.length ? [h('dl', { class: 'review-rows' }, ...rows)] : []),
    h('p', { class: 'verdict', text: words.verdict }),
    ...(moments.length
      ? [h('ol', { class: 'review-moments' }, ...moments)]
      : words.noMoments
        ? [h('p', { class: 'muted', text: words.noMoments })]
        : []),
    ...(words.values.length === 41
      ? [
          h(
            'figure',
            { class: 'review-figure' },
            reviewChart(words.values, words.moments),
            h('figcaption', {
              class: 'muted small',
              text: "Points the robot's team ends with under best play from each card on; dashed: 60, between winning and losing; marked: the moments (red when it changed the result).",
            }),
          ),
        ]
      : []),
    ...(waiting ? [waiting] : []),
  );
}

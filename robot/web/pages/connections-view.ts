// The header's connection pills: the bus, the robot, the tables connected now; the tables that left
// collapse into one pill ("2 tables left", each named in its tooltip), red only while a seat they
// held is empty (the game cannot go on), muted otherwise. The table log keeps every join and leave.

import type { DashboardState } from '../state.js';
import { seatsOf } from '../state.js';
import { byId, clock, h } from './dom.js';

export function renderConnections(s: DashboardState): void {
  const pills = [h('span', { class: 'pill on', text: `bus: ${s.bus}`, title: 'the bus the node runs on' })];
  const robot = s.connections.filter((c) => c.component === 'robot');
  if (robot.length === 0)
    pills.push(
      h('span', {
        class: 'pill muted',
        text: 'robot: no report',
        title: 'nothing on /parceiro/connections for the robot',
      }),
    );
  const held = new Set<number>();
  for (const c of s.connections) {
    if (c.component === 'table') for (const seat of seatsOf(c.detail)) held.add(seat);
    const what = c.component === 'robot' ? `robot ${c.name || c.id}` : c.name || c.id;
    const state = c.connected ? '' : ': gone';
    pills.push(
      h('span', {
        class: `pill ${c.connected ? 'on' : 'off'}`,
        text: `${what}${state}`,
        title: `${c.component} ${c.id} (${c.kind}): ${c.detail}`,
        data: { connection: `${c.component}:${c.id}` },
      }),
    );
  }
  const left = s.left;
  if (left.length > 0) {
    const empty = [...left].reverse().find((l) => l.seats.some((seat) => !held.has(seat)));
    const newest = left.at(-1)!;
    const text = left.length === 1 ? `${newest.name || newest.id} left` : `${left.length} tables left`;
    const title = left
      .map(
        (l) =>
          `${l.name || l.id} left at ${clock(l.atMs)} (${l.reason})${l.seats.length ? `, seats ${l.seats.join(', ')}` : ''}`,
      )
      .join('\n');
    const pill = h('span', {
      class: `pill ${empty ? 'off' : 'muted'}`,
      text: empty ? `${text}: a seat is empty` : text,
      title,
      data: { left: String(left.length) },
    });
    // The table whose seat is empty, for whoever looks for it (the lab-day test, a person reading the tooltip).
    if (empty) pill.dataset.connection = `table:${empty.id}`;
    pills.push(pill);
  }
  byId('conns').replaceChildren(...pills);
  const l = s.latency;
  const sorted = [...l.samples].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
  byId('latency').textContent =
    l.lastMs === null ? 'reaction: -' : `reaction ${Math.round(l.lastMs)} ms (median ${Math.round(median!)} ms)`;
}

// The operator dashboard: logs in with the operator token, keeps the same state as the server by
// applying its updates with the shared reducer, renders it, and sends controls (each acknowledged).

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { ControlAck, DashboardClientEvents, DashboardControl, DashboardServerEvents } from '../protocol.js';
import type { DashboardState } from '../state.js';
import { applyUpdate } from '../state.js';
import { fillWizardLine, findLine } from '../wizard-lines.js';
import { EmotionChart } from './chart.js';
import { byId, cardEl, clock, h, seatName } from './dom.js';
import { EmysFace } from './face.js';

type DashSocket = Socket<DashboardServerEvents, DashboardClientEvents>;

const TOGGLES = [
  ['speech', 'Speech'],
  ['postures', 'Postures'],
  ['gaze', 'Gaze'],
  ['partner_speech', 'Speech to the partner'],
  ['opponent_speech', 'Speech to the opponents'],
] as const;

let state: DashboardState | null = null;
let socket: DashSocket | null = null;
const face = new EmysFace(byId('face'));
const chart = new EmotionChart(byId('timeline'));
let shownPosture = -1;
let dirty = false;

// ---- login -----------------------------------------------------------------------------------

const tokenFromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (tokenFromHash) history.replaceState(null, '', location.pathname);
const saved = tokenFromHash ?? sessionStorage.getItem('parceiro-token');
if (saved) connect(saved);

byId<HTMLFormElement>('login').addEventListener('submit', (e) => {
  e.preventDefault();
  connect(byId<HTMLInputElement>('token').value.trim());
});

function connect(token: string): void {
  socket?.disconnect();
  byId('login-error').textContent = '';
  const s: DashSocket = io('/dashboard', { auth: { token }, transports: ['websocket'], reconnectionDelayMax: 2000 });
  socket = s;
  s.on('connect', () => {
    sessionStorage.setItem('parceiro-token', token);
    setLink('connected', true);
    byId('login').hidden = true;
    byId('main').hidden = false;
  });
  s.on('connect_error', (err) => {
    const code = (err as Error & { data?: { code?: string } }).data?.code;
    if (code) {
      // Refused: do not retry with the same token.
      s.disconnect();
      sessionStorage.removeItem('parceiro-token');
      byId('login-error').textContent = `Refused: ${err.message}`;
      byId('login').hidden = false;
      byId('main').hidden = true;
    }
    setLink(code ? 'refused' : 'no connection', false);
  });
  s.on('disconnect', () => setLink('disconnected', false));
  s.on('snapshot', (snap) => {
    state = snap;
    render();
  });
  s.on('update', (u) => {
    if (!state) return;
    applyUpdate(state, u);
    schedule();
  });
}

function setLink(text: string, ok: boolean): void {
  const e = byId('link');
  e.textContent = text;
  e.className = `pill ${ok ? 'on' : 'off'}`;
}

function schedule(): void {
  if (dirty) return;
  dirty = true;
  requestAnimationFrame(() => {
    dirty = false;
    render();
  });
}

// ---- controls --------------------------------------------------------------------------------

function send(control: DashboardControl): void {
  if (!socket?.connected) return void (byId('ack').textContent = 'not connected');
  socket.timeout(5000).emit('control', control, (err: Error | null, reply: ControlAck) => {
    byId('ack').textContent = err ? 'no answer from the node' : reply.ok ? `${control.type}: sent${reply.text ? ` "${reply.text}"` : ''}` : `${control.type}: refused: ${reply.reason}`;
  });
}

const togglesBox = byId('toggles');
for (const [key, label] of TOGGLES) {
  const input = h('input');
  input.type = 'checkbox';
  input.id = `toggle-${key}`;
  input.addEventListener('change', () => send({ type: 'toggles', patch: { [key]: input.checked } }));
  const l = h('label', { class: 'toggle' }, input, ` ${label}`);
  togglesBox.append(l);
}
const expr = byId<HTMLInputElement>('expressiveness');
expr.addEventListener('change', () => send({ type: 'toggles', patch: { expressiveness: Number(expr.value) } }));
expr.addEventListener('input', () => (byId('expressiveness-value').textContent = Number(expr.value).toFixed(2)));
byId<HTMLSelectElement>('language').addEventListener('change', (e) => send({ type: 'language', language: (e.target as HTMLSelectElement).value as 'pt' | 'en' }));
byId('pause').addEventListener('click', () => send({ type: 'pause' }));
byId('next-session').addEventListener('click', () => send({ type: 'next-session' }));
byId('resume').addEventListener('click', () => send({ type: 'resume' }));
// Wizard lines: a line of the robot's library (in the language in force, slots filled from the
// session as the robot would fill them; previewed here, filled again by the server when sent) or the
// operator's own words.
const sayCategory = byId<HTMLSelectElement>('say-category');
const sayLine = byId<HTMLSelectElement>('say-line');
const sayText = byId<HTMLInputElement>('say-text');
const sayTarget = byId<HTMLSelectElement>('say-target');
let pickerLanguage = '';

/** The library of the language in force (the first one before the node has said). */
const wizardLibrary = (s: DashboardState) => s.wizardLines[s.language ?? ''] ?? Object.values(s.wizardLines)[0];

function buildPicker(s: DashboardState): void {
  const library = wizardLibrary(s);
  if (!library || library.language === pickerLanguage) return;
  pickerLanguage = library.language;
  const chosen = sayCategory.value;
  const categories = [...new Set(library.lines.map((l) => l.category))];
  const own = h('option', { text: 'my own words' });
  own.value = '';
  sayCategory.replaceChildren(own, ...categories.map((c) => Object.assign(h('option', { text: c }), { value: c })));
  sayCategory.value = categories.includes(chosen) ? chosen : '';
  fillLines(s);
}

function fillLines(s: DashboardState): void {
  const library = wizardLibrary(s);
  const category = sayCategory.value;
  const own = category === '' || !library;
  sayLine.hidden = own;
  sayText.disabled = !own;
  sayTarget.disabled = !own;
  if (own) return void (byId('say-preview').textContent = '');
  const previous = sayLine.value;
  const lines = library.lines.filter((l) => l.category === category);
  sayLine.replaceChildren(...lines.map((l) => Object.assign(h('option', { text: `[${l.to}] ${l.text}` }), { value: l.id })));
  if (lines.some((l) => l.id === previous)) sayLine.value = previous;
  preview(s);
}

function preview(s: DashboardState): void {
  const library = wizardLibrary(s);
  const line = library && sayCategory.value ? findLine(library, sayLine.value) : undefined;
  if (!library || !line) return void (byId('say-preview').textContent = '');
  sayTarget.value = line.to;
  byId('say-preview').textContent = `${line.id}, to ${line.to}: "${fillWizardLine(library, line, s)}"`;
}

sayCategory.addEventListener('change', () => state && fillLines(state));
sayLine.addEventListener('change', () => state && preview(state));
byId('say').addEventListener('click', () => {
  const library = state ? wizardLibrary(state) : undefined;
  if (sayCategory.value && library && sayLine.value) send({ type: 'say', utteranceId: sayLine.value, language: library.language as 'pt' });
  else {
    send({ type: 'say', text: sayText.value, target: sayTarget.value as 'all' });
    sayText.value = '';
  }
});
byId('show-expr').addEventListener('click', () =>
  send({ type: 'expression', expression: byId<HTMLSelectElement>('expr').value as 'happy', intensity: Number(byId<HTMLInputElement>('expr-intensity').value) }),
);

// ---- rendering -------------------------------------------------------------------------------

function render(): void {
  const s = state;
  if (!s) return;
  renderHeader(s);
  renderGame(s);
  renderDecision(s);
  renderEmotions(s);
  renderControls(s);
  renderSessions(s);
  renderLogs(s);
  if (s.posture && s.posture.atMs !== shownPosture) {
    shownPosture = s.posture.atMs;
    face.show(s.posture.joints, s.posture.durationMs);
  }
  byId('expression').textContent = s.expression ? `expression: ${s.expression.expression} (${clock(s.expression.atMs)})` : 'no expression yet';
  document.body.dataset.seq = String(s.seq);
}

function renderHeader(s: DashboardState): void {
  const pills = [h('span', { class: 'pill on', text: `bus ${s.bus}` })];
  const robot = s.connections.filter((c) => c.component === 'robot');
  if (robot.length === 0) pills.push(h('span', { class: 'pill', text: 'robot: no report', title: 'nothing on /parceiro/connections for the robot' }));
  for (const c of s.connections) {
    pills.push(h('span', { class: `pill ${c.connected ? 'on' : 'off'}`, text: `${c.component} ${c.name || c.id}: ${c.connected ? 'connected' : 'gone'}`, title: c.detail, data: { connection: `${c.component}:${c.id}` } }));
  }
  byId('conns').replaceChildren(...pills);
  const l = s.latency;
  const sorted = [...l.samples].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
  byId('latency').textContent = l.lastMs === null ? 'latency -' : `latency ${Math.round(l.lastMs)} ms (median ${Math.round(median!)} ms)`;
}

function renderGame(s: DashboardState): void {
  const g = s.game;
  const rows: [string, string][] = g
    ? [
        ['session', g.session_id],
        ['status', g.status],
        ['game', `${g.game} of ${g.games}`],
        ['dealer', seatName(g.dealer, g.robot_seat)],
        ['trump', g.trump_card || '-'],
        ['trick', g.trick >= 0 ? `${Math.min(g.trick + 1, 10)} of 10` : '-'],
        ['to move', seatName(g.to_move, g.robot_seat)],
        ['points', `A ${g.points[0]} - B ${g.points[1]}`],
        ['victories', `A ${g.victories[0]} - B ${g.victories[1]}`],
      ]
    : [['status', 'no session state yet']];
  byId('game').replaceChildren(...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v, data: { field: k } })]));
  const table = byId('table');
  table.replaceChildren();
  if (g) {
    g.table.forEach((card, i) => {
      const seat = (g.leader + i) & 3;
      table.append(h('div', { class: `spot seat-${seat}` }, h('small', { text: seatName(seat, g.robot_seat) }), cardEl(card)));
    });
    if (g.trump_card) table.append(h('div', { class: 'trump' }, h('small', { text: 'trump' }), cardEl(g.trump_card)));
  }
  byId('hand').replaceChildren(...(g?.robot_hand ?? []).map((c) => cardEl(c)));
}

function renderDecision(s: DashboardState): void {
  const d = s.decision;
  byId('explanation').textContent = d ? d.explanation : 'no decision yet';
  const t = byId('moves');
  if (!d || d.message.moves.length === 0) return void t.replaceChildren();
  const head = h('tr', {}, h('th', { text: 'card' }), h('th', { text: 'mean points' }), h('th', { text: 'sd' }), h('th', { text: 'win' }), h('th', { text: '' }));
  const best = Math.max(...d.message.moves.map((m) => m.mean));
  const rows = [...d.message.moves]
    .sort((a, b) => b.mean - a.mean)
    .map((m) => {
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.max(2, (m.mean / Math.max(1, best)) * 100)}px`;
      return h(
        'tr',
        { class: m.card === d.message.card ? 'chosen' : '' },
        h('td', {}, cardEl(m.card)),
        h('td', { text: m.mean.toFixed(1) }),
        h('td', { text: m.sd.toFixed(1) }),
        h('td', { text: m.win_probability >= 0 ? `${Math.round(m.win_probability * 100)}%` : '-' }),
        h('td', {}, bar),
      );
    });
  const foot = h('caption', { text: `${d.message.worlds} worlds, ${Math.round(d.message.time_ms)} ms${d.message.win_probability >= 0 ? `, ${Math.round(d.message.win_probability * 100)}% to win` : ''}` });
  t.replaceChildren(foot, head, ...rows);
}

function renderEmotions(s: DashboardState): void {
  const e = s.emotions;
  const box = byId('emotions');
  if (!e || e.emotions.length === 0) box.replaceChildren(h('p', { class: 'muted', text: 'no active emotion' }));
  else
    box.replaceChildren(
      ...[...e.emotions]
        .sort((a, b) => b.intensity - a.intensity)
        .map((m) => {
          const bar = h('span', { class: 'bar' });
          bar.style.width = `${m.intensity * 12}px`;
          bar.style.background = chart.colour(m.type);
          const toward = m.target >= 0 ? ` toward seat ${m.target}` : m.target_team ? ` toward ${m.target_team}` : '';
          return h('div', { class: 'emotion', data: { emotion: m.type } }, h('span', { class: 'name', text: `${m.type}${toward}` }), bar, h('span', { text: m.intensity.toFixed(1) }));
        }),
    );
  byId('mood').textContent = e ? `mood ${e.mood.toFixed(1)} (${e.mood > 0.5 ? 'good' : e.mood < -0.5 ? 'bad' : 'neutral'})${e.strongest ? `, strongest: ${e.strongest}` : ''}` : '';
  chart.draw(s.timeline);
}

function renderControls(s: DashboardState): void {
  const t = s.toggles;
  for (const [key] of TOGGLES) {
    const input = byId<HTMLInputElement>(`toggle-${key}`);
    input.checked = t ? t[key] : false;
    input.disabled = !t;
  }
  if (t && document.activeElement !== expr) {
    expr.value = String(t.expressiveness);
    byId('expressiveness-value').textContent = t.expressiveness.toFixed(2);
  }
  if (s.language) byId<HTMLSelectElement>('language').value = s.language;
  buildPicker(s);
  preview(s);
  const paused = s.game?.status === 'paused';
  byId<HTMLButtonElement>('pause').disabled = paused;
  byId<HTMLButtonElement>('resume').disabled = !paused;
  const vt = s.virtualTable;
  const link = byId('virtual-link');
  if (vt && !link.firstChild) {
    const a = h('a', { text: 'Open the virtual table' });
    a.href = `/table#${new URLSearchParams({ server: vt.url, token: vt.token })}`;
    a.target = '_blank';
    a.rel = 'noopener';
    link.append(a);
  }
}

/** The sessions this node has served (parceiro live serves one after another), the one in force marked. */
function renderSessions(s: DashboardState): void {
  const d = s.day;
  const head = h('tr', {}, ...['#', 'session', 'started', 'games', 'victories', 'status', 'recording'].map((t) => h('th', { text: t })));
  const rows = d.sessions.map((r, i) => {
    const current = r.id === d.current;
    const id = h('td', { text: r.id }, ...(current ? [h('span', { class: 'tag', text: 'now' })] : []));
    const ended = r.endedAtMs === null ? '' : `, ended ${clock(r.endedAtMs)}`;
    return h(
      'tr',
      { class: current ? 'current' : '', data: { session: r.id, status: r.status } },
      h('td', { text: String(i + 1) }),
      id,
      h('td', { text: clock(r.startedAtMs), title: `seed ${r.seed}${ended}` }),
      h('td', { text: `${r.played} of ${r.games}${r.draws ? ` (${r.draws} drawn)` : ''}` }),
      h('td', { text: `A ${r.victories[0]} - B ${r.victories[1]}` }),
      h('td', { class: `status-${r.status}`, text: `${r.status}${r.resumed ? ' (resumed)' : ''}` }),
      h('td', { class: 'path', text: r.recording ?? 'not recorded' }),
    );
  });
  byId('sessions').replaceChildren(head, ...rows);
  const cur = d.sessions.find((r) => r.id === d.current);
  const over = cur?.status === 'finished' || (s.game?.session_id === d.current && s.game.status === 'session_over');
  byId<HTMLButtonElement>('next-session').disabled = !d.next || !over;
  byId('next-note').textContent = !d.next
    ? 'this node serves no next session'
    : over
      ? "the session is over: start the next one here, or with a table's new game"
      : 'offered once this session is over (a new game at a table starts it too)';
}

function renderLogs(s: DashboardState): void {
  byId('utterances').replaceChildren(
    ...s.utterances
      .slice(-15)
      .reverse()
      .map((u) => h('li', { class: `phase-${u.phase}`, text: `${clock(u.atMs)} ${u.phase}${u.phase === 'dropped' ? ` (${u.reason})` : ''}: "${u.text}" to ${u.target} [${u.category}, ${u.backend || '-'}]` })),
  );
  byId('postures').replaceChildren(
    ...s.postures
      .slice(-10)
      .reverse()
      .map((p) => h('li', { text: `${clock(p.atMs)} in ${Math.round(p.durationMs)} ms: ${Object.entries(p.joints).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}` })),
  );
  const lines = [...s.table.map((l) => ({ ...l, who: 'table' })), ...s.operator.map((l) => ({ ...l, who: 'operator' }))].sort((a, b) => a.atMs - b.atMs);
  byId('events').replaceChildren(...lines.slice(-20).reverse().map((l) => h('li', { class: l.who, text: `${clock(l.atMs)} ${l.text}` })));
}

// The operator dashboard: logs in with the operator token, keeps the same state as the server by
// applying its updates with the shared reducer, renders it, and sends controls (each acknowledged).

import { redeemPass, tablePass } from './pass.js';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { ControlAck, DashboardClientEvents, DashboardControl, DashboardServerEvents } from '../protocol.js';
import type { DashboardState } from '../state.js';
import { applyUpdate } from '../state.js';
import { categoryWords, fillWizardLine, findLine } from '../wizard-lines.js';
import { EmotionChart } from './chart.js';
import { renderConnections } from './connections-view.js';
import { droppedWords, emotionTarget, personAt, statusWords } from './dash-words.js';
import { renderDecision } from './decision-view.js';
import { byId, cardEl, clock, h } from './dom.js';
import { EmysFace } from './face.js';
import { renderReview } from './review-view.js';
import { renderMemory } from './memory-view.js';
import { renderPrediction } from './prediction-view.js';
import { renderSpeech } from './speech-view.js';
import { renderStudy, showStudyLink } from './study-view.js';
import { emotionColour, emotionWord } from './words.js';
import { PANEL_MIN, feltFirst, panelFeeling, unitIntensity } from '../feels.js';
import { panelWords } from './feel-words.js';

type DashSocket = Socket<DashboardServerEvents, DashboardClientEvents>;

const TO_WORDS = { all: 'everyone', partner: 'the partner', opponent: 'the opponents' } as const;

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
let shownExpression = -1;
let dirty = false;

// ---- login -----------------------------------------------------------------------------------

// The printed link carries a one-time pass (#pass=...), traded for the token; a link with the token
// itself (#token=..., typed by hand) still works, but the browser's history then keeps it.
const hash = new URLSearchParams(location.hash.slice(1));
const tokenFromHash = hash.get('token');
const passFromHash = hash.get('pass');
if (tokenFromHash || passFromHash) history.replaceState(null, '', location.pathname);
if (passFromHash)
  void redeemPass(passFromHash).then((grant) => {
    const token = typeof grant?.operatorToken === 'string' ? grant.operatorToken : null;
    const saved = token ?? sessionStorage.getItem('parceiro-token');
    if (saved) connect(saved);
    else byId('login-error').textContent = 'This link was used or is too old: type the operator token.';
  });
else {
  const saved = tokenFromHash ?? sessionStorage.getItem('parceiro-token');
  if (saved) connect(saved);
}

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

/**
 * The operator's line just sent. The node's answer says only that it went out; whether the robot said
 * it is known when the line starts or is dropped (speech switched off, or off toward its addressee),
 * so the answer follows the line on the utterance topic: lines of the operator with its words, heard
 * since it was sent (server clock).
 */
let saying: { text: string; since: number; ackId: string } | null = null;

function followSaying(s: DashboardState): void {
  if (!saying) return;
  const { text, since, ackId } = saying;
  const line = s.utterances.find(
    (u) => u.category === 'operator' && u.text === text && u.atMs >= since && u.phase !== 'queued' && u.phase !== 'end',
  );
  if (!line) return;
  saying = null;
  const ack = byId(ackId);
  ack.textContent =
    line.phase === 'dropped' ? `say: not said: ${droppedWords(line.reason)}` : `say: said "${line.text}"`;
  ack.dataset.outcome = line.phase;
}

/** Sends a control; its answer is shown in `ackId` (the controls panel's by default). */
function send(control: DashboardControl, ackId = 'ack'): void {
  if (!socket?.connected) return void (byId(ackId).textContent = 'not connected');
  const since = state?.atMs ?? 0;
  delete byId(ackId).dataset.outcome;
  socket.timeout(5000).emit('control', control, (err: Error | null, reply: ControlAck) => {
    // The review is long: its words show in the speech panel as the robot says them.
    const sent =
      control.type === 'say-review'
        ? 'sent: the robot says it when its voice is free'
        : `${control.type}: sent${reply.ok && reply.text ? ` "${reply.text}"` : ''}`;
    byId(ackId).textContent = err
      ? 'no answer from the node'
      : reply.ok
        ? sent
        : `${control.type === 'say-review' ? 'not said' : `${control.type}: refused`}: ${reply.reason}`;
    if (!err && reply.ok && control.type === 'say') {
      const text = reply.text ?? control.text?.trim() ?? '';
      byId(ackId).textContent = `say: sent "${text}", waiting for the robot's voice`;
      saying = { text, since, ackId };
      if (state) followSaying(state);
    }
  });
}

// ---- the study session (parceiro study run) ----------------------------------------------------

byId('study-start').addEventListener('click', () => send({ type: 'study-start' }, 'study-ack'));
byId('study-pause').addEventListener('click', () => send({ type: 'pause' }, 'study-ack'));
byId('study-resume').addEventListener('click', () => send({ type: 'resume' }, 'study-ack'));
byId('study-end').addEventListener('click', () => send({ type: 'study-end' }, 'study-ack'));
byId('study-note').addEventListener('click', () => {
  const box = byId<HTMLTextAreaElement>('study-note-text');
  if (!box.value.trim()) return;
  send({ type: 'study-note', text: box.value }, 'study-ack');
  box.value = '';
});

/** A link to a participant's questionnaires (a one-time pass), shown beside them to open or copy. */
function askStudyLink(code: string): void {
  if (!socket?.connected) return void (byId('study-ack').textContent = 'not connected');
  socket.timeout(5000).emit('control', { type: 'study-link', code }, (err: Error | null, reply: ControlAck) => {
    if (err || !reply.ok || !reply.link)
      return void (byId('study-ack').textContent =
        `link: ${err ? 'no answer from the node' : reply.ok ? '?' : reply.reason}`);
    showStudyLink(code, new URL(reply.link, location.origin).href);
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
byId<HTMLSelectElement>('language').addEventListener('change', (e) =>
  send({ type: 'language', language: (e.target as HTMLSelectElement).value as 'pt' | 'en' }),
);
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
  sayCategory.replaceChildren(
    own,
    ...categories.map((c) => Object.assign(h('option', { text: categoryWords(c), title: c }), { value: c })),
  );
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
  sayLine.replaceChildren(
    ...lines.map((l) =>
      Object.assign(h('option', { text: `${l.text} (to ${TO_WORDS[l.to]})`, title: l.id }), { value: l.id }),
    ),
  );
  if (lines.some((l) => l.id === previous)) sayLine.value = previous;
  preview(s);
}

function preview(s: DashboardState): void {
  const library = wizardLibrary(s);
  const line = library && sayCategory.value ? findLine(library, sayLine.value) : undefined;
  if (!library || !line) return void (byId('say-preview').textContent = '');
  sayTarget.value = line.to;
  const p = byId('say-preview');
  p.textContent = `To ${TO_WORDS[line.to]}: "${fillWizardLine(library, line, s)}"`;
  p.title = line.id;
  p.dataset.line = line.id;
}

sayCategory.addEventListener('change', () => state && fillLines(state));
sayLine.addEventListener('change', () => state && preview(state));
byId('say').addEventListener('click', () => {
  const library = state ? wizardLibrary(state) : undefined;
  if (sayCategory.value && library && sayLine.value)
    send({ type: 'say', utteranceId: sayLine.value, language: library.language as 'pt' });
  else {
    send({ type: 'say', text: sayText.value, target: sayTarget.value as 'all' });
    sayText.value = '';
  }
});
// The last game's review, said aloud: the server builds its words in the session's language.
byId('say-review').addEventListener('click', () => send({ type: 'say-review' }, 'review-ack'));
byId('show-expr').addEventListener('click', () =>
  send({
    type: 'expression',
    expression: byId<HTMLSelectElement>('expr').value as 'happy',
    intensity: Number(byId<HTMLInputElement>('expr-intensity').value),
  }),
);

// ---- rendering -------------------------------------------------------------------------------

function render(): void {
  const s = state;
  if (!s) return;
  renderConnections(s);
  renderGame(s);
  renderDecision(s);
  renderPrediction(s);
  renderReview(s);
  renderMemory(s);
  renderSpeech(s);
  renderEmotions(s);
  renderControls(s);
  renderSessions(s);
  renderStudy(s.study, askStudyLink);
  renderLogs(s);
  followSaying(s);
  if (s.posture && s.posture.atMs !== shownPosture) {
    shownPosture = s.posture.atMs;
    face.show(s.posture.joints, s.posture.durationMs);
  }
  if (s.expression && s.expression.atMs !== shownExpression) {
    shownExpression = s.expression.atMs;
    face.express(s.expression.expression, s.expression.valence);
  }
  byId('expression').textContent = s.expression
    ? `Shows ${s.expression.expression} (since ${clock(s.expression.atMs)}).`
    : 'No expression shown yet.';
  document.body.dataset.seq = String(s.seq);
}

/** The robot's team first: "the robot's team 34, the opponents 20". */
const teams = (pair: readonly number[], robot: number): string =>
  `the robot's team ${pair[robot & 1] ?? 0}, the opponents ${pair[1 - (robot & 1)] ?? 0}`;

function renderGame(s: DashboardState): void {
  const g = s.game;
  const rows: [string, string, string][] = g
    ? [
        ['session', g.session_id, g.session_id],
        ['status', statusWords(g.status), g.status],
        ['game', g.game > 0 ? `${g.game} of ${g.games}` : `none yet (${g.games} planned)`, String(g.game)],
        ['robot', `seat ${g.robot_seat}`, String(g.robot_seat)],
        ['dealer', personAt(g.dealer, g.robot_seat), String(g.dealer)],
        ['trump', g.trump_card || '-', g.trump_card],
        ['trick', g.trick >= 0 ? `${Math.min(g.trick + 1, 10)} of 10` : '-', String(g.trick)],
        ['to move', personAt(g.to_move, g.robot_seat), String(g.to_move)],
        ['points', teams(g.points, g.robot_seat), `A ${g.points[0]} - B ${g.points[1]}`],
        ['victories', teams(g.victories, g.robot_seat), `A ${g.victories[0]} - B ${g.victories[1]}`],
      ]
    : [['status', 'no session yet: waiting for the node', '']];
  byId('game').replaceChildren(
    ...rows.flatMap(([k, v, raw]) => [
      h('dt', { text: k }),
      h('dd', { text: v, title: raw, data: { field: k, value: raw } }),
    ]),
  );
  const table = byId('table');
  table.replaceChildren();
  if (g) {
    g.table.forEach((card, i) => {
      const seat = (g.leader + i) & 3;
      table.append(
        h('div', { class: `spot seat-${seat}` }, h('small', { text: personAt(seat, g.robot_seat) }), cardEl(card)),
      );
    });
    if (g.trump_card) table.append(h('div', { class: 'trump' }, h('small', { text: 'trump' }), cardEl(g.trump_card)));
  }
  if (!table.firstChild) table.append(h('p', { class: 'empty-felt', text: 'No cards on the table.' }));
  renderHand(s);
}

/** The robot's cards; while a physical deal is read from its hand area, how many of the 10 so far. */
function renderHand(s: DashboardState): void {
  const g = s.game;
  const cards = g?.robot_hand ?? [];
  const progress = byId('hand-progress');
  const reading = g?.status === 'dealing';
  progress.hidden = !reading;
  if (reading) {
    const fill = h('span', { class: 'fill' });
    fill.style.width = `${Math.min(100, (cards.length / 10) * 100)}%`;
    progress.replaceChildren(
      h('span', { text: `Reading the robot's hand: ${cards.length} of 10 cards` }),
      h('span', { class: 'track' }, fill),
    );
    progress.dataset.read = String(cards.length);
  }
  byId('hand').replaceChildren(
    ...(cards.length
      ? cards.map((c) => cardEl(c))
      : [h('p', { class: 'empty', text: g ? 'No cards in hand.' : 'No game yet.' })]),
  );
}

function renderEmotions(s: DashboardState): void {
  const e = s.emotions;
  const robotSeat = s.game?.robot_seat ?? null;
  const box = byId('emotions');
  const face = s.expression?.expression ?? null;
  // The order the panel's sentence names them in (robot/web/feels.ts): the first is "felt most".
  const sorted = feltFirst(
    (e?.emotions ?? []).map((m) => ({ ...m, intensity: unitIntensity(m.intensity), shown: m.intensity })),
    face,
  );
  if (!e || e.emotions.length === 0)
    box.replaceChildren(h('p', { class: 'empty', text: 'No active emotion: the robot is calm.' }));
  else
    box.replaceChildren(
      ...sorted.map((m) => {
        const bar = h('span', { class: 'bar' });
        bar.style.width = `${Math.max(1, Math.min(100, m.shown * 10))}%`;
        bar.style.background = emotionColour(m.type);
        const about = emotionTarget(m.target, m.target_team, robotSeat);
        return h(
          'div',
          {
            class: 'emotion',
            title: `${m.type}${m.target >= 0 ? `, seat ${m.target}` : m.target_team ? `, ${m.target_team}` : ''}`,
            data: { emotion: m.type },
          },
          h('span', { class: 'name', text: `${emotionWord(m.type)}${about ? ` toward ${about}` : ''}` }),
          h('span', { class: 'track' }, bar),
          h('span', { class: 'value', text: m.shown.toFixed(1) }),
        );
      }),
    );
  // The same sentence as the virtual table's panel (robot/web/feels.ts): the face leads.
  // On the table's scale, so that both compare the same numbers.
  const p = panelFeeling(
    (e?.emotions ?? []).map((m) => ({ type: m.type, intensity: unitIntensity(m.intensity), seat: m.target })),
    face,
    PANEL_MIN,
  );
  const words = panelWords(p, 'en');
  const feels = byId('feels');
  feels.dataset.panel = p.kind;
  feels.textContent = `The robot ${words.lead}${words.verb} ${words.word}${words.rest}.`;
  // The feeling the panel names, if any: none when it says the robot is calm (every feeling under
  // PANEL_MIN), so the mood line cannot name one the sentence above it denies.
  const strongest = 'emotion' in p ? p.emotion.type : '';
  byId('mood').textContent = e
    ? `Mood ${e.mood.toFixed(1)} (${e.mood > 0.5 ? 'good' : e.mood < -0.5 ? 'bad' : 'neutral'}; -10 to 10)${strongest ? `; strongest felt: ${emotionWord(strongest)}` : ''}.`
    : '';
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
    // Each opening gets a one-time pass: the table's token never goes into an address.
    a.href = '/table';
    a.target = '_blank';
    a.rel = 'noopener';
    a.addEventListener('click', (e) => {
      e.preventDefault();
      const opened = window.open('about:blank', '_blank');
      void tablePass(sessionStorage.getItem('parceiro-token') ?? '', null).then((pass) => {
        if (opened) opened.location.href = pass ? `/table#${new URLSearchParams({ pass })}` : '/table';
      });
    });
    link.append(a);
  }
}

const SESSION_STATUS: Readonly<Record<string, string>> = {
  running: 'running',
  over: 'over, answering questions',
  finished: 'finished',
  interrupted: 'interrupted',
};

/** The sessions this node has served (parceiro live serves one after another), the one in force marked. */
function renderSessions(s: DashboardState): void {
  const d = s.day;
  const head = h(
    'tr',
    {},
    ...['#', 'session', 'started', 'games', 'victories', 'status', 'recording'].map((t) => h('th', { text: t })),
  );
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
      h('td', {
        class: `status-${r.status}`,
        text: `${SESSION_STATUS[r.status] ?? r.status}${r.resumed ? ' (resumed)' : ''}`,
      }),
      h('td', { class: 'path', text: r.recording ?? 'not recorded' }),
    );
  });
  const empty = d.sessions.length
    ? []
    : [h('tr', {}, Object.assign(h('td', { class: 'empty', text: 'No session yet.' }), { colSpan: 7 }))];
  byId('sessions').replaceChildren(head, ...rows, ...empty);
  const cur = d.sessions.find((r) => r.id === d.current);
  const over =
    cur?.status === 'over' ||
    cur?.status === 'finished' ||
    (s.game?.session_id === d.current && s.game.status === 'session_over');
  byId<HTMLButtonElement>('next-session').disabled = !d.next || !over;
  byId('next-note').textContent = !d.next
    ? 'this node serves no next session'
    : over
      ? "the session is over: start the next one here, or with a table's new game"
      : 'offered once this session is over (a new game at a table starts it too)';
}

function renderLogs(s: DashboardState): void {
  const postures = s.postures
    .slice(-10)
    .reverse()
    .map((p) =>
      h(
        'li',
        { title: Object.keys(p.joints).join(', ') },
        h('span', { class: 'when', text: clock(p.atMs) }),
        `in ${Math.round(p.durationMs)} ms: ${Object.entries(p.joints)
          .map(([k, v]) => `${k.replaceAll('_', ' ')} ${Math.round(v)}`)
          .join(', ')}`,
      ),
    );
  byId('postures').replaceChildren(
    ...(postures.length ? postures : [h('li', { class: 'empty', text: 'No posture sent yet.' })]),
  );
  const lines = [
    ...s.table.map((l) => ({ ...l, who: 'table' })),
    ...s.operator.map((l) => ({ ...l, who: 'operator' })),
  ].sort((a, b) => a.atMs - b.atMs);
  const items = lines
    .slice(-20)
    .reverse()
    .map((l) =>
      h(
        'li',
        { class: l.who, title: l.detail ?? '', data: { kind: l.kind } },
        h('span', { class: 'when', text: clock(l.atMs) }),
        l.text,
      ),
    );
  byId('events').replaceChildren(
    ...(items.length ? items : [h('li', { class: 'empty', text: 'No table has said anything yet.' })]),
  );
}

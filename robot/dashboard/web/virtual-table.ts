// The virtual table: a person takes a seat and plays by clicking their cards. It speaks the table
// protocol (table-bridge/PROTOCOL.md) to the runtime's table server exactly as the touch table does:
// hello with the table token and kind "virtual", cards named in notation on the seat's play spot, a
// sequence number that keeps increasing across reconnections, and an answer to every hand and
// robot:play. The runtime deals and sends the seat's hand.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { byId, cardEl, h } from './dom.js';

/** The parts of the protocol's state this page reads. */
interface TableState {
  session: { id: string; games: number | null; played: number; victories: [number, number]; complete: boolean };
  robotSeat: number;
  paused: boolean;
  game: {
    index: number;
    dealer: number;
    trumpCard: string;
    status: string;
    trick: number;
    leader: number;
    toMove: number | null;
    table: { seat: number; card: string }[];
    lastTrick: { leader: number; cards: string[]; winner: number; points: number } | null;
    points: [number, number];
    handSizes: number[];
    hands: { seat: number; cards: string[] }[];
    outcome: { winner: string; victories: number } | null;
  } | null;
}
type Ack = { ok: true; seq?: number; note?: string } | { ok: false; code: string; reason: string };
type HelloAck = { ok: true; lastSeq: number; state: TableState } | { ok: false; code: string; reason: string };

const params = new URLSearchParams(location.hash.slice(1));
byId<HTMLInputElement>('server').value = params.get('server') ?? localStorage.getItem('vt-server') ?? `${location.protocol}//${location.hostname}:7410`;
byId<HTMLInputElement>('table-token').value = params.get('token') ?? '';
if (params.get('seat')) byId<HTMLSelectElement>('seat').value = params.get('seat')!;
if (params.has('token')) history.replaceState(null, '', location.pathname);

let socket: Socket | null = null;
let state: TableState | null = null;
let seat = 2;
let tableId = '';
let busy = false;

const seqKey = (): string => `vt-seq-${tableId}`;
const nextSeq = (): number => {
  const n = Number(localStorage.getItem(seqKey()) ?? '0') + 1;
  localStorage.setItem(seqKey(), String(n));
  return n;
};

byId<HTMLFormElement>('join').addEventListener('submit', (e) => {
  e.preventDefault();
  join(byId<HTMLInputElement>('server').value.trim(), byId<HTMLInputElement>('table-token').value, Number(byId<HTMLSelectElement>('seat').value));
});
if (params.get('server') && params.get('token') && params.get('join') !== 'no') join(params.get('server')!, params.get('token')!, Number(params.get('seat') ?? 2));

function join(server: string, token: string, wanted: number): void {
  socket?.disconnect();
  seat = wanted;
  // A stable id per browser and seat, so a reload resumes the same table.
  const idKey = `vt-id-${seat}`;
  tableId = localStorage.getItem(idKey) ?? `virtual-${seat}-${Math.random().toString(36).slice(2, 10)}`;
  localStorage.setItem(idKey, tableId);
  localStorage.setItem('vt-server', server);
  // WebSocket only: the table server is on another origin and sends no CORS headers for polling.
  const s = io(`${server.replace(/\/$/, '')}/table`, { transports: ['websocket'], reconnectionDelayMax: 2000 });
  socket = s;
  s.on('connect', () => {
    s.emit('hello', { protocol: 1, token, table: { id: tableId, name: `virtual table, seat ${seat}`, kind: 'virtual' }, seats: [seat] }, (r: HelloAck) => {
      if (!r.ok) {
        byId('join-error').textContent = `Refused (${r.code}): ${r.reason}`;
        setLink('refused', false);
        s.disconnect();
        return;
      }
      localStorage.setItem(seqKey(), String(Math.max(r.lastSeq, Number(localStorage.getItem(seqKey()) ?? '0'))));
      setLink(`seat ${seat}`, true);
      byId('join').hidden = true;
      byId('play').hidden = false;
      state = r.state;
      render();
    });
  });
  s.on('connect_error', (err) => setLink(`no connection (${err.message})`, false));
  s.on('disconnect', () => setLink('disconnected', false));
  s.on('state', (st: TableState) => {
    state = st;
    render();
  });
  s.on('hand', (_m: unknown, ack: (r: { ok: boolean }) => void) => ack({ ok: true }));
  s.on('robot:play', (m: { card: string }, ack: (r: { ok: boolean }) => void) => {
    ack({ ok: true });
    say(`The robot plays ${m.card}.`);
  });
  s.on('prompt', (p: { kind: string; seat?: number; text: string }) => {
    if (p.seat === undefined || p.seat === seat || p.kind !== 'turn') say(p.text);
  });
  s.on('rejected', (r: { reason: string }) => say(`Refused: ${r.reason}`));
}

function setLink(text: string, ok: boolean): void {
  const e = byId('link');
  e.textContent = text;
  e.className = `pill ${ok ? 'on' : 'off'}`;
}

function say(text: string): void {
  byId('prompt').textContent = text;
}

function send(event: 'card:detected' | 'game:control', payload: Record<string, unknown>): void {
  if (!socket?.connected || busy) return;
  busy = true;
  socket.timeout(10_000).emit(event, { seq: nextSeq(), ...payload }, (err: Error | null, r: Ack) => {
    busy = false;
    if (err) say('The table server did not answer; try again.');
    else if (!r.ok) say(`Refused: ${r.reason}`);
    render();
  });
}

byId('new-game').addEventListener('click', () => send('game:control', { action: 'new-game' }));

/** Where a seat sits on screen, with this page's seat at the bottom. */
const place = (s: number): 'bottom' | 'right' | 'top' | 'left' => (['bottom', 'right', 'top', 'left'] as const)[(s - seat + 4) & 3]!;

function render(): void {
  const st = state;
  if (!st) return;
  const g = st.game;
  const v = st.session.victories;
  byId('score').textContent = `victories A ${v[0]} - B ${v[1]}${g ? ` · points A ${g.points[0]} - B ${g.points[1]}` : ''}`;
  for (let s = 0; s < 4; s++) {
    const who = s === seat ? 'you' : s === st.robotSeat ? 'robot' : (s & 1) === (seat & 1) ? 'partner' : 'opponent';
    const label = byId(`label-${place(s)}`);
    label.textContent = `seat ${s}: ${who}${g ? ` (${g.handSizes[s]} cards)` : ''}`;
    label.classList.toggle('to-move', g?.toMove === s);
  }
  const trick = byId('trick');
  trick.replaceChildren(...(g?.table ?? []).map((t) => cardEl(t.card, { class: `at-${place(t.seat)}` })));
  byId('trump').replaceChildren(...(g?.trumpCard ? [h('small', { text: 'trump' }), cardEl(g.trumpCard)] : []));
  const hand = g?.hands.find((x) => x.seat === seat)?.cards ?? [];
  const myTurn = g !== null && g.toMove === seat && !st.paused;
  // The page knows the hand, so it offers only cards that follow suit (the runtime would take a
  // renounce, as at a real table, and the game would be lost for the team).
  const led = g?.table[0]?.card.slice(-1);
  const follows = led !== undefined && hand.some((c) => c.endsWith(led));
  const legal = (c: string): boolean => !follows || c.endsWith(led!);
  byId('my-hand').replaceChildren(
    ...hand.map((c) => {
      const b = h('button', { class: 'card-button' }, cardEl(c));
      b.type = 'button';
      b.dataset.card = c;
      b.disabled = !myTurn || busy || !legal(c);
      b.addEventListener('click', () => send('card:detected', { zone: { area: 'play', seat }, card: c }));
      return b;
    }),
  );
  const playing = g !== null && g.toMove !== null;
  byId<HTMLButtonElement>('new-game').disabled = playing || st.session.complete;
  if (myTurn) say('Your turn: click a card.');
  else if (st.paused) say('The game is paused.');
  else if (st.session.complete) say(`The session is over: A ${v[0]} - B ${v[1]}.`);
  else if (g?.outcome) say(`Game over: ${g.outcome.winner === 'draw' ? 'a draw' : `team ${g.outcome.winner} wins ${g.outcome.victories}`}.`);
  const lt = g?.lastTrick;
  byId('last-trick').textContent = lt ? `last trick: ${lt.cards.join(' ')}, won by seat ${lt.winner} (${lt.points} points)` : '';
  document.body.dataset.status = g ? (g.toMove === null ? 'over' : myTurn ? 'my-turn' : 'waiting') : 'no-game';
  document.body.dataset.complete = String(st.session.complete);
}

// The virtual table: a person takes a seat and plays by clicking their cards. It speaks the table
// protocol (table-bridge/PROTOCOL.md) to the runtime's table server exactly as the touch table does:
// hello with the table token and kind "virtual", cards named in notation on the seat's play spot, a
// sequence number that keeps increasing across reconnections, and an answer to every hand and
// robot:play. The runtime deals and sends the seat's hand.
//
// Without a seat in its link the page first joins as a table that hosts no seat (the protocol allows
// it: a display), so it can show who holds which seat; taking a free seat says hello again for it.

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
  /** Who holds each seat (absent from older runtimes). */
  seats?: { seat: number; holder: 'robot' | 'table' | 'free'; name: string; kind: string | null }[];
}
type Ack = { ok: true; seq?: number; note?: string } | { ok: false; code: string; reason: string };
type HelloAck = { ok: true; lastSeq: number; state: TableState } | { ok: false; code: string; reason: string };

const params = new URLSearchParams(location.hash.slice(1));
byId<HTMLInputElement>('server').value = params.get('server') ?? localStorage.getItem('vt-server') ?? `${location.protocol}//${location.hostname}:7410`;
byId<HTMLInputElement>('table-token').value = params.get('token') ?? '';
if (params.has('token')) history.replaceState(null, '', location.pathname);

let socket: Socket | null = null;
let state: TableState | null = null;
/** This page's seat; null while it only watches (to choose a free seat). */
let seat: number | null = null;
let tableId = '';
let busy = false;
let server = '';
let token = '';
/** The runtime's last session-over prompt: it says whether a new game starts the next session. */
let overText = '';

const seqKey = (): string => `vt-seq-${tableId}`;
const nextSeq = (): number => {
  const n = Number(localStorage.getItem(seqKey()) ?? '0') + 1;
  localStorage.setItem(seqKey(), String(n));
  return n;
};

byId<HTMLFormElement>('join').addEventListener('submit', (e) => {
  e.preventDefault();
  join(byId<HTMLInputElement>('server').value.trim(), byId<HTMLInputElement>('table-token').value, null);
});
const linkSeat = params.get('seat');
if (params.get('server') && params.get('token') && params.get('join') !== 'no') join(params.get('server')!, params.get('token')!, linkSeat === null ? null : Number(linkSeat));

/** Joins the table hosting `wanted`, or hosting no seat (watching) when it is null. */
function join(serverUrl: string, tableToken: string, wanted: number | null): void {
  socket?.disconnect();
  server = serverUrl;
  token = tableToken;
  seat = wanted;
  state = null;
  // A stable id per browser and seat, so a reload resumes the same table.
  const idKey = `vt-id-${wanted ?? 'watch'}`;
  tableId = localStorage.getItem(idKey) ?? `virtual-${wanted ?? 'watch'}-${Math.random().toString(36).slice(2, 10)}`;
  localStorage.setItem(idKey, tableId);
  localStorage.setItem('vt-server', server);
  const name = wanted === null ? 'virtual table (choosing a seat)' : `virtual table, seat ${wanted}`;
  // WebSocket only: the table server is on another origin and sends no CORS headers for polling.
  const s = io(`${server.replace(/\/$/, '')}/table`, { transports: ['websocket'], reconnectionDelayMax: 2000, forceNew: true });
  socket = s;
  s.on('connect', () => {
    s.emit('hello', { protocol: 1, token, table: { id: tableId, name, kind: 'virtual' }, seats: wanted === null ? [] : [wanted] }, (r: HelloAck) => {
      if (!r.ok) {
        byId('join-error').textContent = `Refused (${r.code}): ${r.reason}`;
        setLink('refused', false);
        s.disconnect();
        // A seat someone else took: back to choosing one.
        if (r.code === 'seat-taken' && wanted !== null) join(server, token, null);
        return;
      }
      byId('join-error').textContent = '';
      localStorage.setItem(seqKey(), String(Math.max(r.lastSeq, Number(localStorage.getItem(seqKey()) ?? '0'))));
      setLink(wanted === null ? 'choosing a seat' : `seat ${wanted}`, true);
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
    if (p.kind === 'session-over') overText = p.text;
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

/** Where a seat sits on screen, with this page's seat (or, watching, seat 0) at the bottom. */
const place = (s: number): 'bottom' | 'right' | 'top' | 'left' => (['bottom', 'right', 'top', 'left'] as const)[(s - (seat ?? 0) + 4) & 3]!;

/** Who sits at a seat, as the person sees it: you, the robot, a table's name, or free. */
function holderOf(st: TableState, s: number): { who: string; free: boolean } {
  if (s === seat) return { who: 'you', free: false };
  if (s === st.robotSeat) return { who: 'the robot', free: false };
  const h = st.seats?.find((x) => x.seat === s);
  if (!h) return { who: 'a player', free: false };
  if (h.holder === 'free') return { who: 'free', free: true };
  return { who: h.holder === 'robot' ? 'the robot' : h.name || 'a table', free: false };
}

/** Partner or opponent, of the person (seated) or of the robot (watching). */
const relationOf = (st: TableState, s: number): string => {
  const me = seat ?? st.robotSeat;
  if (s === me) return '';
  return (s & 1) === (me & 1) ? (seat === null ? "robot's partner" : 'your partner') : seat === null ? "robot's opponent" : 'opponent';
};

function renderSeats(st: TableState): void {
  const box = byId('seats');
  box.hidden = seat !== null;
  if (seat !== null) return;
  const buttons = [0, 1, 2, 3]
    .filter((s) => s !== st.robotSeat)
    .map((s) => {
      const { who, free } = holderOf(st, s);
      const b = h('button', { class: 'seat-button', text: free ? `Take seat ${s} (${relationOf(st, s)})` : `Seat ${s}: taken by ${who}`, data: { take: String(s) } });
      b.type = 'button';
      b.disabled = !free;
      b.addEventListener('click', () => join(server, token, s));
      return b;
    });
  byId('seat-list').replaceChildren(...buttons);
}

function render(): void {
  const st = state;
  if (!st) return;
  const g = st.game;
  const v = st.session.victories;
  byId('score').textContent = `victories A ${v[0]} - B ${v[1]}${g ? ` · points A ${g.points[0]} - B ${g.points[1]}` : ''}`;
  for (let s = 0; s < 4; s++) {
    const { who, free } = holderOf(st, s);
    const rel = relationOf(st, s);
    const label = byId(`label-${place(s)}`);
    label.textContent = `seat ${s}: ${who}${rel ? ` (${rel})` : ''}${g ? ` · ${g.handSizes[s]} cards` : ''}`;
    label.classList.toggle('to-move', g?.toMove === s);
    label.classList.toggle('free', free);
    label.dataset.holder = free ? 'free' : who;
  }
  renderSeats(st);
  const trick = byId('trick');
  trick.replaceChildren(...(g?.table ?? []).map((t) => cardEl(t.card, { class: `at-${place(t.seat)}` })));
  byId('trump').replaceChildren(...(g?.trumpCard ? [h('small', { text: 'trump' }), cardEl(g.trumpCard)] : []));
  const hand = g?.hands.find((x) => x.seat === seat)?.cards ?? [];
  const myTurn = g !== null && seat !== null && g.toMove === seat && !st.paused;
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
  // After the session's end too: a runtime that serves session after session (parceiro live) starts
  // the next one on it; one that does not refuses it, and the refusal is shown.
  byId<HTMLButtonElement>('new-game').disabled = seat === null || playing;
  if (seat === null) say('Choose a free seat to play.');
  else if (myTurn) say('Your turn: click a card.');
  else if (st.paused) say('The game is paused.');
  else if (st.session.complete) say(`The session is over: A ${v[0]} - B ${v[1]}.${overText.includes('next session') ? ' Press "New game" to start the next session.' : ''}`);
  else if (g?.outcome) say(`Game over: ${g.outcome.winner === 'draw' ? 'a draw' : `team ${g.outcome.winner} wins ${g.outcome.victories}`}. Press "New game" for the next one.`);
  else if (!g) say('Press "New game" to deal.');
  const lt = g?.lastTrick;
  byId('last-trick').textContent = lt ? `last trick: ${lt.cards.join(' ')}, won by seat ${lt.winner} (${lt.points} points)` : '';
  document.body.dataset.status = seat === null ? 'watching' : g ? (g.toMove === null ? 'over' : myTurn ? 'my-turn' : 'waiting') : 'no-game';
  document.body.dataset.complete = String(st.session.complete);
}

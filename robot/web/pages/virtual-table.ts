// The virtual table: a person takes a seat and plays by tapping their cards, with the robot at the
// table (table-robot.ts). It speaks the table protocol (table-bridge/PROTOCOL.md) to the runtime's
// table server exactly as the touch table does: hello with the table token and kind "virtual" (and
// `behaviour: true`, to get the robot's face, gaze, speech and feeling), cards named in notation on
// the seat's play spot, a sequence number that keeps increasing across reconnections, and an answer
// to every hand and robot:play. The runtime deals and sends the seat's hand.
//
// Without a seat in its link the page first joins as a table that hosts no seat (the protocol allows
// it: a display), so it can show who holds which seat; taking a free seat says hello again for it.
//
// Everything on screen is drawn from the newest state at every render, in the session's language
// (`state.language`; the browser's before the first state): no prompt outlives the state it was for.

import { reachableFromHere, redeemPass } from './pass.js';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import {
  SeqNumbers,
  TABLE_NAMESPACE,
  helloMessage,
  olderState,
  sayHello,
  sendEvent,
  tableSocketOptions,
} from '../../../table-bridge/table-client.js';
import { byId, h } from './dom.js';
import { backs, cardFace } from './table-cards.js';
import { tableServerUrl } from './table-config.js';
import type { Behaviour, Place } from './table-robot.js';
import { RobotPanel } from './table-robot.js';
import type { View, WordKey } from './table-words.js';
import {
  holderWords,
  readingWords,
  refusalWords,
  resultWords,
  roleWords,
  seatLabelName,
  seatName,
  seatPill,
  takeSeatWords,
  takenSeatWords,
  teamNames,
  trickWords,
  turnOf,
  w,
} from './table-words.js';
import type { Language } from './words.js';
import { languageOf } from './words.js';

/** The parts of the protocol's state this page reads. */
interface TableState {
  version?: number;
  session: { id: string; games: number | null; played: number; victories: [number, number]; complete: boolean };
  robotSeat: number;
  paused: boolean;
  game: {
    index: number;
    deal: 'runtime' | 'physical';
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
    outcome: { winner: 'A' | 'B' | 'draw'; victories: number } | null;
    renounce: unknown;
    robotCards?: number;
  } | null;
  /** Who holds each seat (absent from older runtimes). */
  seats?: { seat: number; holder: 'robot' | 'table' | 'free'; name: string; kind: string | null }[];
  /** The session's language (absent from older runtimes). */
  language?: string;
}
type Ack = { ok: true; seq?: number; note?: string } | { ok: false; code: string; reason: string };
type HelloAck = { ok: true; lastSeq: number; state: TableState } | { ok: false; code: string; reason: string };
type Link = {
  key: 'notConnected' | 'connecting' | 'disconnected' | 'noConnection' | 'refused' | 'watching' | 'seat';
  ok: boolean;
};

const params = new URLSearchParams(location.hash.slice(1));
const robot = new RobotPanel();

let socket: Socket | null = null;
let state: TableState | null = null;
/** This page's seat; null while it only watches (to choose a free seat). */
let seat: number | null = null;
let tableId = '';
let busy = false;
let server = '';
let token = '';
let link: Link = { key: 'notConnected', ok: false };
/** A refusal (its code) or a silent server, shown until the state changes; the runtime's reason goes in its tooltip. */
let notice: { code: string; reason: string; version: number | undefined } | null = null;
/**
 * Whether the runtime's session-over prompt said a new game starts the next session; null when this
 * page has not heard it (it joined after the session's end).
 */
let nextSession: boolean | null = null;
let showLastTrick = false;
/** The trick last gathered on screen (game and trick), so each is gathered once. */
let gathered = '';
/**
 * How long a finished trick stays on the felt, readable, before it is gathered (ms). When the robot's
 * card ends a trick and it leads the next, its lead would otherwise replace the trick (and its
 * announcement the last one) before anyone could read them.
 */
const TRICK_HOLD_MS = 2000;
/** The finished trick on show, until it is gathered: the next trick's cards wait meanwhile. */
let held: { key: string; cards: string[]; timer: ReturnType<typeof setTimeout> } | null = null;
/** The robot's cards announced while a trick was held: shown and said once it is gathered. */
const announcements: string[] = [];
/** When the person last asked the robot a question (why, review): its answer is brought into view. */
let askedAt = -Infinity;
/** How long after a question the robot's next line is taken for its answer (ms). */
const ANSWER_WITHIN_MS = 20_000;

const lang = (): Language => languageOf(state?.language ?? navigator.language);
const view = (): View => ({ mySeat: seat, robotSeat: state?.robotSeat ?? 0 });

const seqKey = (): string => `vt-seq-${tableId}`;
/** Kept in the browser per table id, so that a reload continues them. */
const seqs = new SeqNumbers({
  read: () => Number(localStorage.getItem(seqKey()) ?? '0'),
  write: (n) => localStorage.setItem(seqKey(), String(n)),
});

byId<HTMLInputElement>('table-token').value = params.get('token') ?? '';
if (params.has('token') || params.has('pass')) history.replaceState(null, '', location.pathname);
writeStatic();
setLink(link);
void tableServerUrl(params.get('server')).then((url) => {
  const input = byId<HTMLInputElement>('server');
  if (!input.value) input.value = url;
});

byId<HTMLFormElement>('join').addEventListener('submit', (e) => {
  e.preventDefault();
  join(byId<HTMLInputElement>('server').value.trim(), byId<HTMLInputElement>('table-token').value, null);
});
byId('new-game').addEventListener('click', () => send('game:control', { action: 'new-game' }));
// Asks the robot why it played its last card: it answers aloud, and in its speech bubble.
byId('why').addEventListener('click', () => ask('why'));
// Asks how the last game went: the robot tells its end-of-game review (all cards in view), the same way.
byId('ask-review').addEventListener('click', () => ask('review'));
byId('last-trick-button').addEventListener('click', () => {
  showLastTrick = !showLastTrick;
  render();
});
const linkSeat = params.get('seat');
if (params.get('pass'))
  // The printed links carry a one-time pass, traded here for the table server and its token.
  void redeemPass(params.get('pass')!).then((grant) => {
    if (!grant || typeof grant.server !== 'string' || typeof grant.token !== 'string') {
      byId('join-error').textContent = refusalWords('bad-token', lang());
      return;
    }
    const server = reachableFromHere(grant.server);
    byId<HTMLInputElement>('server').value = server;
    const s = typeof grant.seat === 'number' ? grant.seat : linkSeat === null ? null : Number(linkSeat);
    if (params.get('join') !== 'no') join(server, grant.token, s);
  });
else if (params.get('server') && params.get('token') && params.get('join') !== 'no')
  join(params.get('server')!, params.get('token')!, linkSeat === null ? null : Number(linkSeat));

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
  // The name other tables and the operator see (data, not a word of this page).
  const name = wanted === null ? 'virtual table (choosing a seat)' : `virtual table, seat ${wanted}`;
  // WebSocket only (tableSocketOptions): the table server is on another origin.
  const s = io(`${server.replace(/\/$/, '')}${TABLE_NAMESPACE}`, tableSocketOptions({ reconnectionDelayMax: 2000 }));
  socket = s;
  setLink({ key: 'connecting', ok: false });
  s.on('connect', () => {
    // No time limit: the page waits for the answer as long as the connection lasts.
    sayHello(
      s,
      helloMessage({
        token,
        table: { id: tableId, name, kind: 'virtual' },
        seats: wanted === null ? [] : [wanted],
        behaviour: true,
      }),
      undefined,
      (r: HelloAck) => {
        if (!r.ok) {
          const e = byId('join-error');
          e.textContent = refusalWords(r.code, lang());
          e.title = r.reason;
          setLink({ key: 'refused', ok: false });
          s.disconnect();
          // A seat someone else took: back to choosing one.
          if (r.code === 'seat-taken' && wanted !== null) join(server, token, null);
          return;
        }
        byId('join-error').textContent = '';
        seqs.continueAbove(r.lastSeq);
        setLink({ key: wanted === null ? 'watching' : 'seat', ok: true });
        byId('join').hidden = true;
        byId('play').hidden = false;
        take(r.state, true);
      },
    );
  });
  s.on('connect_error', () => {
    setLink({ key: 'noConnection', ok: false });
    render();
  });
  s.on('disconnect', () => {
    // Events emitted while away would come back `no-hello`: the person plays them again.
    s.sendBuffer = [];
    setLink({ key: 'disconnected', ok: false });
    render();
  });
  s.on('state', (st: TableState) => take(st, false));
  s.on('hand', (_m: unknown, ack: (r: { ok: boolean }) => void) => ack({ ok: true }));
  s.on('robot:play', (m: { card: string }, ack: (r: { ok: boolean }) => void) => {
    ack({ ok: true });
    // Its next card waits while the trick its last one ended is held (a card of that trick is news now).
    if (held && !held.cards.includes(m.card)) announcements.push(m.card);
    else robot.announce(m.card);
  });
  s.on('prompt', (p: { kind: string; text: string }) => {
    // The runtime's words are not shown (the page composes its own from the state); only whether a
    // next session follows is read from the session-over prompt.
    if (p.kind === 'session-over') nextSession = p.text.includes('next session');
  });
  s.on('rejected', (r: { code: string; reason: string }) => {
    notice = { code: r.code, reason: r.reason, version: state?.version };
    render();
  });
  s.on('robot:behaviour', (m: Behaviour) => {
    robot.apply(m);
    if (m.kind === 'utterance' && m.phase === 'start' && performance.now() - askedAt < ANSWER_WITHIN_MS) {
      askedAt = -Infinity;
      showAnswer();
    }
  });
}

/** Asks the robot a question; its answer comes in its bubble (and voice). */
function ask(action: 'why' | 'review'): void {
  askedAt = performance.now();
  send('game:control', { action });
}

/**
 * The answer to a question, in the robot's bubble: on a phone the robot sits above the felt, out of
 * sight of the buttons the person pressed, so the bubble is brought into view.
 */
function showAnswer(): void {
  const bubble = byId('bubble');
  const r = bubble.getBoundingClientRect();
  const header = document.querySelector('.vt-header')?.getBoundingClientRect().bottom ?? 0;
  if (r.top >= header && r.bottom <= window.innerHeight) return;
  // At once: a smooth scroll would still be moving the page as the person reads (and a sticky
  // header may be drawn off while it moves).
  bubble.scrollIntoView({ block: 'center', behavior: 'instant' });
}

/** The connection to the robot is gone (after the page had joined): nothing sent can reach it. */
function lost(): boolean {
  return state !== null && !socket?.connected;
}

/** Keeps the newest state (by version; on equal versions the later one) and draws it. */
function take(st: TableState, fromHello: boolean): void {
  if (!fromHello && olderState(state, st)) return;
  const before = state;
  if (notice && st.version !== notice.version) notice = null;
  state = st;
  if (st.game && before?.game && st.game.index !== before.game.index) {
    endHold();
    robot.clearAnnouncement();
  }
  render();
  gather(before, st);
}

function setLink(l: Link): void {
  link = l;
  const e = byId('link');
  e.textContent =
    l.key === 'seat' && seat !== null ? seatPill(seat, lang()) : w(l.key === 'seat' ? 'watching' : l.key, lang());
  e.className = `pill ${l.ok ? 'on' : 'off'}`;
}

function send(event: 'card:detected' | 'game:control', payload: Record<string, unknown>): void {
  if (!socket?.connected || busy) return;
  busy = true;
  notice = null;
  render();
  sendEvent(socket, event, { seq: seqs.next(), ...payload }, 10_000, (err: Error | null, r: Ack) => {
    busy = false;
    if (err) notice = { code: 'silent', reason: '', version: state?.version };
    else if (!r.ok) notice = { code: r.code, reason: r.reason, version: state?.version };
    render();
  });
}

/** Where a seat sits on screen, with this page's seat (or, watching, the robot's partner's) at the bottom. */
const place = (s: number): Place =>
  (['bottom', 'right', 'top', 'left'] as const)[(s - (seat ?? (state?.robotSeat ?? 0) + 2) + 8) & 3]!;

/** The words of the page that do not depend on the state. */
function writeStatic(): void {
  const l = lang();
  document.documentElement.lang = l;
  for (const e of document.querySelectorAll<HTMLElement>('[data-w]')) e.textContent = w(e.dataset.w as WordKey, l);
  document.title = w('title', l);
}

/** Who sits at a seat, for its label: the name as the person says it (with the robot's role), and who holds it. */
function seatLabel(st: TableState, s: number, v: View, l: Language): { name: string; who: string; free: boolean } {
  const holder = st.seats?.find((x) => x.seat === s);
  const free = holder?.holder === 'free';
  // The robot's role is news to the person; the others' is in their names (or, watching, added).
  const role = s === st.robotSeat || seat === null ? roleWords(s, v, l) : '';
  const name = `${seatLabelName(s, v, l)}${role ? ` (${role})` : ''}`;
  const who = s === seat || s === st.robotSeat ? '' : free ? w('free', l) : holder ? holderWords(holder.kind, l) : '';
  return { name, who, free };
}

function renderSeats(st: TableState, v: View, l: Language): void {
  const box = byId('seats');
  box.hidden = seat !== null;
  if (seat !== null) return;
  const buttons = [0, 1, 2, 3]
    .filter((s) => s !== st.robotSeat)
    .map((s) => {
      const holder = st.seats?.find((x) => x.seat === s);
      const free = holder?.holder === 'free';
      const b = h('button', {
        class: 'seat-button',
        text: free
          ? takeSeatWords(s, roleWords(s, v, l), l)
          : takenSeatWords(s, holderWords(holder?.kind ?? null, l), l),
        data: { take: String(s) },
      });
      b.type = 'button';
      b.disabled = !free;
      b.addEventListener('click', () => join(server, token, s));
      return b;
    });
  byId('seat-list').replaceChildren(...buttons);
}

/** The prompt, from the state as it is now. */
function promptOf(st: TableState, v: View, l: Language, myTurn: boolean): string {
  const g = st.game;
  if (lost()) return w('noRobot', l);
  if (seat === null)
    return st.seats && !st.seats.some((x) => x.holder === 'free') ? w('allTaken', l) : w('chooseSeat', l);
  if (st.paused) return w('paused', l);
  // A runtime serving one session (play) stays for the questions; one serving a day starts the next.
  if (st.session.complete)
    return `${w('sessionOver', l)}${nextSession === null ? '' : ` ${w(nextSession ? 'nextSession' : 'askAfter', l)}`}`;
  if (!g) return w('pressNewGame', l);
  if (g.outcome)
    return `${g.renounce ? `${w('renounce', l)} ` : ''}${resultWords(g.outcome.winner, g.outcome.victories, v, l)} ${w('nextGame', l)}`;
  if (g.robotCards !== undefined && g.robotCards < 10) return readingWords(g.robotCards, l);
  // The finished trick on show: who took it (the next one waits until it is gathered).
  if (held && g.lastTrick) return trickWords(g.lastTrick.winner, g.lastTrick.points, v, l);
  if (myTurn) return w('yourTurn', l);
  if (g.toMove === st.robotSeat) return w('robotThinks', l);
  if (g.toMove !== null) return turnOf(g.toMove, v, l);
  return '';
}

/**
 * A study participant's tab (their questionnaires' page sent them here, robot/web/pages/
 * questionnaire.ts): a link back to their questionnaires, made prominent once the session is over,
 * when the post-questionnaires are asked.
 */
function renderQuestionnaireLink(st: TableState | null): void {
  const a = byId<HTMLAnchorElement>('questionnaire-link');
  a.hidden = sessionStorage.getItem('parceiro.questionnaire.token') === null;
  if (a.hidden) return;
  const due = st?.session.complete === true;
  a.classList.toggle('due', due);
  a.textContent =
    lang() === 'pt'
      ? due
        ? 'Responda ao questionário final'
        : 'Questionário'
      : due
        ? 'Answer the last questionnaire'
        : 'Questionnaire';
}

function render(): void {
  writeStatic();
  setLinkText();
  const st = state;
  renderQuestionnaireLink(st);
  if (!st) return;
  const l = lang();
  const v = view();
  robot.setContext(l, v, place);
  const g = st.game;
  const { mine, names } = teamNames(v, l);
  const other = (1 - mine) as 0 | 1;
  const vic = st.session.victories;
  byId('score').replaceChildren(
    h('span', {
      class: 'vt-score-part',
      text: `${w('victories', l)}: ${names[mine]} ${vic[mine]} – ${names[other]} ${vic[other]}`,
    }),
    ...(g
      ? [h('span', { class: 'vt-score-part', text: `${w('gamePoints', l)}: ${g.points[mine]} – ${g.points[other]}` })]
      : []),
  );
  for (let s = 0; s < 4; s++) {
    const p = place(s);
    const { name, who, free } = seatLabel(st, s, v, l);
    const label = byId(`label-${p}`);
    label.replaceChildren(name, ...(who ? [h('small', { text: who })] : []));
    label.classList.toggle('to-move', g?.toMove === s);
    label.classList.toggle('free', free);
    label.dataset.seat = String(s);
    // Others' hands face down (how many cards they hold); the page's own hand is below, face up.
    const n = g ? (g.handSizes[s] ?? 0) : 0;
    byId(`backs-${p}`).replaceChildren(...(g && s !== seat && n > 0 ? [backs(n, `${n} ${w('cards', l)}`)] : []));
  }
  renderSeats(st, v, l);
  // While a finished trick is held, the next one's cards wait (they would lie on top of it).
  byId('trick').replaceChildren(
    ...(held ? [] : (g?.table ?? [])).map((t) => cardFace(t.card, l, `at-${place(t.seat)}`)),
  );
  byId('trump').replaceChildren(
    ...(g?.trumpCard ? [h('small', { text: w('trump', l) }), cardFace(g.trumpCard, l, 'small')] : []),
  );

  const hand = g?.hands.find((x) => x.seat === seat)?.cards ?? [];
  const connected = socket?.connected === true;
  const myTurn = g !== null && seat !== null && g.toMove === seat && !st.paused && !g.outcome && !held && connected;
  // The page knows the hand, so it offers only cards that follow suit (the runtime would take a
  // renounce, as at a real table, and the game would be lost for the team).
  const led = g?.table[0]?.card.slice(-1);
  const follows = led !== undefined && hand.some((c) => c.endsWith(led));
  const legal = (c: string): boolean => !follows || c.endsWith(led!);
  byId('my-hand').replaceChildren(
    ...hand.map((c) => {
      const b = h('button', { class: 'card-button' }, cardFace(c, l));
      b.type = 'button';
      b.dataset.card = c;
      b.disabled = !myTurn || busy || !legal(c);
      b.addEventListener('click', () => send('card:detected', { zone: { area: 'play', seat }, card: c }));
      return b;
    }),
  );
  const playing = g !== null && g.toMove !== null;
  const reading = g?.robotCards !== undefined && g.robotCards < 10 && !g.outcome;
  // After the session's end unless no next session is offered (the session-over prompt says whether;
  // parceiro live starts one on a new game, play serves one session and would refuse it).
  const newGame = byId<HTMLButtonElement>('new-game');
  newGame.disabled =
    seat === null || playing || reading || !connected || (st.session.complete && nextSession === false);
  newGame.classList.toggle('vt-primary', !newGame.disabled);
  byId<HTMLButtonElement>('why').disabled = !connected || busy || !g;
  // Once a game of the session has ended (its banner shown, and after): the robot has one to look back on.
  byId<HTMLButtonElement>('ask-review').disabled = !connected || busy || !(st.session.played > 0 || g?.outcome);
  // Said plainly, where it is seen on any screen (the header stays on top).
  const lostBox = byId('lost');
  lostBox.hidden = !lost();
  lostBox.textContent = lost() ? w('lostRobot', l) : '';

  byId('prompt').textContent = promptOf(st, v, l, myTurn);
  const noticeBox = byId('notice');
  noticeBox.textContent = notice
    ? notice.code === 'silent'
      ? w('serverSilent', l)
      : refusalWords(notice.code, l)
    : '';
  noticeBox.title = notice?.reason ?? '';
  byId('reading').hidden = !reading;
  if (reading) {
    byId<HTMLProgressElement>('reading-bar').value = g.robotCards ?? 0;
    byId('reading-text').textContent = readingWords(g.robotCards ?? 0, l);
  }
  renderLastTrick(st, v, l);
  renderResult(st, v, l);
  document.body.dataset.status = lost()
    ? 'lost'
    : seat === null
      ? 'watching'
      : g
        ? g.toMove === null && !reading
          ? 'over'
          : myTurn
            ? 'my-turn'
            : 'waiting'
        : 'no-game';
  document.body.dataset.complete = String(st.session.complete);
  document.body.dataset.lang = l;
}

function setLinkText(): void {
  const e = byId('link');
  e.textContent =
    link.key === 'seat' && seat !== null
      ? seatPill(seat, lang())
      : w(link.key === 'seat' ? 'watching' : link.key, lang());
}

function renderLastTrick(st: TableState, v: View, l: Language): void {
  const lt = st.game?.lastTrick ?? null;
  const button = byId<HTMLButtonElement>('last-trick-button');
  button.textContent = w(showLastTrick ? 'lastTrickHide' : 'lastTrickShow', l);
  button.setAttribute('aria-pressed', String(showLastTrick));
  button.disabled = !st.game;
  const box = byId('last-trick');
  box.hidden = !showLastTrick || !st.game;
  if (box.hidden) return;
  if (!lt) return void box.replaceChildren(h('p', { text: w('lastTrickNone', l) }));
  const cards = lt.cards.map((c, i) => {
    const s = (lt.leader + i) & 3;
    return h(
      'span',
      { class: `vt-last-card${s === lt.winner ? ' winner' : ''}`, data: { seat: String(s) } },
      cardFace(c, l, 'small'),
      h('small', { text: seatName(s, v, l, { capital: true }) }),
    );
  });
  box.replaceChildren(
    h('div', { class: 'vt-last-cards' }, ...cards),
    h('p', { text: trickWords(lt.winner, lt.points, v, l) }),
  );
}

function renderResult(st: TableState, v: View, l: Language): void {
  const g = st.game;
  const box = byId('result');
  box.hidden = !g?.outcome;
  if (!g?.outcome) return;
  const { mine, names } = teamNames(v, l);
  const other = (1 - mine) as 0 | 1;
  const vic = st.session.victories;
  const weWon = g.outcome.winner !== 'draw' && (g.outcome.winner === 'A' ? 0 : 1) === mine;
  box.dataset.winner = g.outcome.winner;
  box.className = `vt-result ${g.outcome.winner === 'draw' ? 'draw' : weWon ? 'won' : 'lost'}`;
  box.replaceChildren(
    h('strong', { class: 'vt-result-title', text: resultWords(g.outcome.winner, g.outcome.victories, v, l) }),
    h('span', { text: `${w('points', l)}: ${names[mine]} ${g.points[mine]} – ${names[other]} ${g.points[other]}` }),
    h('span', { text: `${w('victories', l)}: ${names[mine]} ${vic[mine]} – ${names[other]} ${vic[other]}` }),
    h('small', {
      // Lost, nothing comes next (the header says why).
      text: st.session.complete
        ? `${w('sessionOver', l)}${nextSession && !lost() ? ` ${w('nextSession', l)}` : ''}`
        : lost()
          ? ''
          : w('nextGame', l),
    }),
  );
}

/**
 * A trick just completed: its four cards, shown where they were played and held there TRICK_HOLD_MS
 * (who took it in the prompt), then gathered toward its winner. The game's last trick is gathered at
 * once: the result's banner covers the felt, and "Última vaza" shows it.
 */
function gather(before: TableState | null, st: TableState): void {
  const g = st.game;
  const lt = g?.lastTrick;
  if (!g || !lt) return;
  const key = `${g.index}:${g.trick}`;
  // A page that has just joined does not replay the trick before it came.
  if (key === gathered || !before?.game || before.game.index !== g.index) {
    gathered = key;
    return;
  }
  gathered = key;
  endHold();
  const box = byId('gather');
  const l = lang();
  box.replaceChildren(...lt.cards.map((c, i) => cardFace(c, l, `at-${place((lt.leader + i) & 3)}`)));
  const winner = place(lt.winner);
  if (g.outcome) return flyTo(box, winner, key);
  box.className = 'vt-trick vt-held';
  box.querySelectorAll('.pc')[(lt.winner - lt.leader + 4) & 3]?.classList.add('winner');
  held = { key, cards: [...lt.cards], timer: setTimeout(endHold, TRICK_HOLD_MS) };
  render();
}

/** The held trick is gathered now; the next trick's cards and the robot's waiting card are shown. */
function endHold(): void {
  const h = held;
  if (!h) return;
  held = null;
  clearTimeout(h.timer);
  const g = state?.game;
  const winner = g?.lastTrick ? place(g.lastTrick.winner) : 'top';
  flyTo(byId('gather'), winner, h.key);
  for (const card of announcements.splice(0)) robot.announce(card);
  render();
}

/** The trick's cards fly to the winner's side, and are cleared once there. */
function flyTo(box: HTMLElement, winner: Place, key: string): void {
  box.className = `vt-trick vt-gather to-${winner}`;
  // Cleared once gathered, unless the next trick's gathering has begun meanwhile.
  box.addEventListener('animationend', () => gathered === key && !held && box.replaceChildren(), { once: true });
}

// Wizard of Oz from the robot's utterance library: a line's slots filled from the session as the
// behaviours fill them; the dashboard's say control naming a line by id (validated, answered with the
// words, published filled in on the bus, shown to every dashboard, recorded); refusals with reasons;
// and the node filling a line asked for by id alone (as `ros2 topic pub` would).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { loadBehaviourSetup } from '../../behaviours/index.js';
import type * as Robot from '../../robot/index.js';
import { TOPICS } from '../../robot/bus/index.js';
import type { BusEntry, GameEventMessage, GameStateMessage, WizardSayMessage } from '../../robot/bus/index.js';
import type { DashboardState, DashboardUpdate, SessionView } from '../../robot/web/index.js';
import {
  CATEGORY_WORDS,
  categoryWords,
  fillWizardLine,
  findLine,
  lineCategory,
  wizardLibraryOf,
} from '../../robot/web/index.js';
import { CATEGORY_NAMES } from '../../behaviours/index.js';
import { readRecording } from '../../robot/recording/index.js';
import type { DashboardSocket } from './dashboard-harness.js';
import { OPERATOR_TOKEN, compose, dashboardClient } from './dashboard-harness.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 15_000, interval: 10 });

const pt = wizardLibraryOf(loadBehaviourSetup({ language: 'pt' }).utterances);
const en = wizardLibraryOf(loadBehaviourSetup({ language: 'en' }).utterances);

const state = (over: Partial<GameStateMessage> = {}): GameStateMessage => ({
  session_id: 's',
  game: 2,
  games: 5,
  status: 'playing',
  robot_seat: 0,
  dealer: 3,
  trump_card: '7H',
  trick: 4,
  leader: 1,
  to_move: 3,
  table: [],
  points: [31, 12],
  victories: [1, 0],
  robot_hand: [],
  ...over,
});
const event = (type: string, over: Partial<GameEventMessage> = {}): GameEventMessage => ({
  type,
  game: 1,
  seat: -1,
  card: '',
  trick: -1,
  leader: -1,
  cards: [],
  winner: -1,
  points: 0,
  final_points: [0, 0],
  winner_team: '',
  victories: [1, 0],
  ...over,
});
const say = (lib: typeof pt, id: string, view: SessionView): string => fillWizardLine(lib, findLine(lib, id)!, view);

describe('filling a library line from the session', () => {
  const view: SessionView = {
    game: state(),
    events: [
      event('play', { seat: 2, card: 'AS', game: 0 }), // last game's: ignored
      event('deal', { seat: 3, card: '7H' }),
      event('trick', { winner: 2, points: 21, trick: 3 }),
      event('play', { seat: 1, card: 'KD', trick: 4 }),
    ],
  };

  it('fills names with the library words, points with the trick won, cards with how they are spoken', () => {
    expect(say(pt, 'trick.end.ours#1', view)).toBe('Boa! Mais 21 pontos para nós.');
    expect(say(en, 'trick.end.ours#1', view)).toBe('Nice! Another 21 points for us.');
    expect(say(pt, 'play.opponent#14', view)).toBe('Hum, o rei de ouros. Interessante.');
    expect(
      say(pt, 'trick.end.theirs#3', { ...view, events: [...view.events, event('trick', { winner: 3, points: 4 })] }),
    ).toBe('Bem jogado. Mas não te habitues.');
    expect(say(pt, 'session.start#1', view)).toBe('Olá a todos! Vamos lá a uma sessão de sueca?');
    expect(say(pt, 'session.end.win#1', view)).toBe('Acabou! Ganhámos a partida, 1 a 0.');
  });

  it('counts games from 1: before the first deal the line is of game 1, between games of the next (never "Vamos ao jogo 0!")', () => {
    expect(say(pt, 'game.start#1', { game: state({ game: 0, status: 'waiting', trick: -1 }), events: [] })).toBe(
      'Vamos ao jogo 1!',
    );
    expect(say(pt, 'game.start#1', { game: state({ game: 2, status: 'game_over' }), events: view.events })).toBe(
      'Vamos ao jogo 3!',
    );
    expect(say(pt, 'game.start#1', view)).toBe('Vamos ao jogo 2!');
  });

  it("the robot's own-play lines speak of the suit led, as the behaviours say them", () => {
    const trick: SessionView = {
      game: state({ table: ['KD', '3C'] }),
      events: [...view.events, event('play', { seat: 2, card: '3C', trick: 4 })],
    };
    expect(say(pt, 'playing.not-following#1', trick)).toBe('Não tenho ouros. Vai esta.');
  });

  it('leaves out what the session cannot say yet, and gives the robot no name', () => {
    expect(say(pt, 'play.opponent#14', { game: null, events: [] })).toBe('Hum. Interessante.');
    expect(say(pt, 'session.start#3', { game: null, events: [] })).toBe('Somos uma equipa. Vamos a isto!');
    // The robot's own card: "{player}" is nobody.
    expect(
      say(pt, 'playing.new-trick#2', { ...view, events: [...view.events, event('play', { seat: 0, card: '2C' })] }),
    ).toBe('Começo com o dois de paus.');
  });
});

interface Client {
  socket: DashboardSocket;
  updates: DashboardUpdate[];
}

async function dashboard(url: string): Promise<Client> {
  const socket = dashboardClient(url, OPERATOR_TOKEN);
  closers.push(() => socket.disconnect());
  const updates: DashboardUpdate[] = [];
  const snap = new Promise<DashboardState>((resolve) => socket.once('snapshot', resolve));
  socket.on('update', (u) => updates.push(u));
  socket.connect();
  const s = await snap;
  // The picker's lines come with the snapshot, in both languages.
  expect(s.wizardLines.pt?.lines.length).toBe(pt.lines.length);
  expect(s.wizardLines.en?.lines.find((l) => l.id === 'trick.end.ours#1')).toEqual({
    id: 'trick.end.ours#1',
    category: 'trick.end.ours',
    to: 'partner',
    text: 'Nice, {partner}! Another {points} points for us.',
  });
  return { socket, updates };
}

describe("categories in people's words", () => {
  it('names every category of the library in words, with no dotted id left', () => {
    expect(CATEGORY_NAMES.filter((c) => !CATEGORY_WORDS[c])).toEqual([]);
    expect(categoryWords('game.end.win.quadruple')).toBe('End of game: won with 4 victories');
    for (const c of CATEGORY_NAMES) expect(categoryWords(c)).not.toMatch(/[a-z]\.[a-z]/);
    expect(categoryWords('some.new_category')).toBe('Some new category');
  });

  // Playthrough 3: the review asked at the table showed as "the operator's words".
  it("names an answer asked at a table as such, in new recordings and old (filed as the operator's)", () => {
    expect(categoryWords(lineCategory('asked.review', 'review#1'))).toBe("The game's review, asked at the table");
    expect(categoryWords(lineCategory('operator', 'review#3'))).toBe("The game's review, asked at the table");
    expect(categoryWords(lineCategory('operator', 'why#2'))).toBe('Why it played its card, asked at the table');
    // The operator's own lines stay the operator's, whatever their id.
    for (const id of ['wizard#1', 'operator-review#1', 'game.start#2'])
      expect(categoryWords(lineCategory('operator', id))).toBe("The operator's words");
  });
});

describe('the say control with a library line', () => {
  it('is answered with the words, published filled in, and shown to every dashboard', async () => {
    const c = await compose();
    closers.push(() => c.close());
    const a = await dashboard(c.dashboardUrl);
    const b = await dashboard(c.dashboardUrl);
    const ack = (payload: unknown): Promise<unknown> =>
      a.socket.timeout(10_000).emitWithAck('control', payload as never);
    const said = (): WizardSayMessage[] =>
      c.entries.filter((e) => e.topic.name === TOPICS.wizardSay.name).map((e) => e.message as WizardSayMessage);

    expect(await ack({ type: 'say', utteranceId: 'session.start#3' })).toEqual({
      ok: true,
      text: 'Somos uma equipa. Vamos a isto!',
    });
    expect(await ack({ type: 'say', utteranceId: 'trick.end.ours#3', language: 'en', target: 'all' })).toEqual({
      ok: true,
      text: "That one's ours!",
    });
    expect(said()).toEqual([
      {
        text: 'Somos uma equipa. Vamos a isto!',
        language: 'pt',
        utterance_id: 'session.start#3',
        target: 'partner',
        by: 'operator',
      },
      { text: "That one's ours!", language: 'en', utterance_id: 'trick.end.ours#3', target: 'all', by: 'operator' },
    ]);
    // The line is picked in the language in force when the control names none.
    c.bus.publish('setLanguage', { language: 'en', by: 'test' });
    await eventually(() => expect(c.dashboard.snapshot().language).toBe('en'));
    expect(await ack({ type: 'say', utteranceId: 'session.start#3' })).toEqual({
      ok: true,
      text: "You and me. Let's do this!",
    });
    for (const client of [a, b]) {
      await eventually(() =>
        expect(
          client.updates
            .filter((u) => u.topic === 'wizardSay')
            .map((u) => (u.message as WizardSayMessage).utterance_id),
        ).toEqual(['session.start#3', 'trick.end.ours#3', 'session.start#3']),
      );
    }
    // In people's words; the line's id is kept for a tooltip.
    expect(c.dashboard.snapshot().operator.map((l) => [l.text, l.detail])).toContainEqual([
      'operator: say "That one\'s ours!" to everyone',
      'trick.end.ours#3',
    ]);
  });

  it('refuses an unknown line, a line and a text, neither, or another target, with the reason, publishing nothing', async () => {
    const c = await compose();
    closers.push(() => c.close());
    const a = await dashboard(c.dashboardUrl);
    const before = c.entries.length;
    const ack = (payload: unknown): Promise<unknown> =>
      a.socket.timeout(10_000).emitWithAck('control', payload as never);
    expect(await ack({ type: 'say', utteranceId: 'nope#1' })).toEqual({
      ok: false,
      reason:
        'control.utteranceId: unknown utterance "nope#1" in the pt library (ids are category#n, e.g. trick.end.ours#1)',
    });
    expect(await ack({ type: 'say', utteranceId: 'trick.end.ours#99', language: 'en' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('unknown utterance "trick.end.ours#99" in the en library'),
    });
    expect(await ack({ type: 'say', utteranceId: 'session.start#3', text: 'Olá' })).toEqual({
      ok: false,
      reason: 'control: give text or utteranceId, not both',
    });
    expect(await ack({ type: 'say' })).toEqual({
      ok: false,
      reason: 'control: expected text (a line of your own) or utteranceId (a line of the library)',
    });
    expect(await ack({ type: 'say', utteranceId: 'session.start#3', target: 'opponent' })).toEqual({
      ok: false,
      reason: 'control.target: session.start#3 is said to the partner; leave target out or give partner',
    });
    expect(await ack({ type: 'say', utteranceId: 'session.start#3', language: 'fr' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('control.language: expected "pt" or "en"'),
    });
    expect(await ack({ type: 'say', utteranceId: 42 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('control.utteranceId'),
    });
    expect(c.entries.length).toBe(before);
  });
});

describe('the node', () => {
  it('says a line asked for by id alone, filled from the session, and records the request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wizard-lines-'));
    const node = await robot.ParceiroNode.start({
      seed: 3,
      table: { host: '127.0.0.1', port: 0, token: 'wizard-lines-token' },
      games: 1,
      sessionId: 'wizard-lines',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 3 }) },
      minThinkMs: 0,
      expectationBudgetMs: 0,
      speech: 'publish',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
    });
    const seen: BusEntry[] = [];
    node.bus.tap((e) => seen.push(e));
    let closed = false;
    closers.push(() => (closed ? undefined : node.close()));
    const utterance = (id: string) =>
      seen.find(
        (e) =>
          e.topic.name === TOPICS.utterance.name &&
          (e.message as { id: string; phase: string }).id === id &&
          (e.message as { phase: string }).phase === 'start',
      )?.message;
    // Before the first deal, the game to come is the first (it said "o 0 de 1").
    node.bus.publish('wizardSay', { text: '', language: '', utterance_id: 'game.start#2', target: '', by: 'ros' });
    await eventually(() =>
      expect(utterance('game.start#2')).toMatchObject({
        text: 'Mais um jogo. Este é o 1 de 1.',
        category: 'operator',
        language: 'pt',
        target: 'all',
      }),
    );
    // An id the library does not have is refused (in the log): nothing is said.
    node.bus.publish('wizardSay', { text: '', language: 'en', utterance_id: 'game.start#99', target: '', by: 'ros' });
    node.bus.publish('wizardSay', { text: 'Pronto.', language: '', utterance_id: '', target: 'all', by: 'ros' });
    await eventually(() =>
      expect(
        seen.some((e) => e.topic.name === TOPICS.utterance.name && (e.message as { text: string }).text === 'Pronto.'),
      ).toBe(true),
    );
    expect(utterance('game.start#99')).toBeUndefined();
    const summary = await node.close();
    closed = true;
    const recorded = readRecording(summary.recording!)
      .messages.filter((m) => m.topic.name === TOPICS.wizardSay.name)
      .map((m) => m.message);
    expect(recorded).toEqual([
      { text: '', language: '', utterance_id: 'game.start#2', target: '', by: 'ros' },
      { text: '', language: 'en', utterance_id: 'game.start#99', target: '', by: 'ros' },
      { text: 'Pronto.', language: '', utterance_id: '', target: 'all', by: 'ros' },
    ]);
  });
});

// The dashboard server through real sockets: the token at the handshake, the snapshot and the updates
// every dashboard gets, controls validated and published on the bus, the static pages; and the
// explanation of a decision. Waits are generous and nothing measures time.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus, TOPICS, checkMessage } from '../../robot/bus/index.js';
import type { DecisionMessage, GameReviewMessage, UtteranceMessage } from '../../robot/bus/index.js';
import type { DashboardState, DashboardUpdate } from '../../robot/web/index.js';
import { DashboardServer, applyUpdate, emptyState, explainDecision, reviewWords } from '../../robot/web/index.js';
import { loadBehaviourSetup, reviewText } from '../../behaviours/index.js';
import { reviewOfMessage } from '../../robot/live/session/index.js';
import { SimulatedTable, defaultFiducials } from '../../table-bridge/index.js';
import type { Composed, DashboardSocket } from './dashboard-harness.js';
import { OPERATOR_TOKEN, TABLE_TOKEN, compose, dashboardClient } from './dashboard-harness.js';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/**
 * A game's review as the node publishes it (team A's points): the opponent on the robot's left (seat 3,
 * the robot in seat 0) gave 11 points away in trick 5, the robot 5 in trick 8; only the robot's changed the result.
 */
const REVIEW: GameReviewMessage = {
  game: 0,
  status: 'reviewed',
  dealt_points: 52,
  final_points: 58,
  changes: 2,
  values: [...Array<number>(18).fill(52), ...Array<number>(13).fill(63), ...Array<number>(10).fill(58)],
  moments: [
    { play: 17, trick: 4, seat: 3, card: '7S', better: 'KS', points_before: 52, points_after: 63 },
    { play: 30, trick: 7, seat: 0, card: 'AH', better: '7H', points_before: 63, points_after: 58 },
  ],
  nodes: 12345,
  detail: '',
};

const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 15_000, interval: 10 });

async function started(): Promise<Composed> {
  const c = await compose();
  closers.push(() => c.close());
  return c;
}

interface Client {
  socket: DashboardSocket;
  state: () => DashboardState;
  updates: DashboardUpdate[];
}

async function connected(url: string): Promise<Client> {
  const socket = dashboardClient(url, OPERATOR_TOKEN);
  closers.push(() => socket.disconnect());
  let state: DashboardState | null = null;
  const updates: DashboardUpdate[] = [];
  const snap = new Promise<void>((resolve) => socket.once('snapshot', (s) => resolve(void (state = s))));
  socket.on('update', (u) => updates.push(u));
  socket.connect();
  await snap;
  return { socket, state: () => state!, updates };
}

const refusal = (socket: DashboardSocket): Promise<{ message: string; code: string | undefined }> =>
  new Promise((resolve) =>
    socket.once('connect_error', (e) =>
      resolve({ message: e.message, code: (e as Error & { data?: { code?: string } }).data?.code }),
    ),
  );

describe('the dashboard server', () => {
  it('refuses a dashboard without the token or with a wrong one, with a reason, and sends it nothing', async () => {
    const { dashboardUrl } = await started();
    for (const [token, code, reason] of [
      [undefined, 'no-token', 'an operator token is required'],
      ['not-the-token', 'bad-token', 'the operator token does not match'],
      [`${OPERATOR_TOKEN}x`, 'bad-token', 'the operator token does not match'],
    ] as const) {
      const socket = dashboardClient(dashboardUrl, token);
      closers.push(() => socket.disconnect());
      const got: unknown[] = [];
      socket.onAny((...args) => got.push(args));
      const refused = refusal(socket);
      socket.connect();
      expect(await refused).toEqual({ message: reason, code });
      expect(socket.connected).toBe(false);
      expect(got).toEqual([]);
    }
  });

  it('gives a new dashboard the whole state, then every change, the same to every dashboard', async () => {
    const c = await started();
    const a = await connected(c.dashboardUrl);
    expect(a.state().toggles).toMatchObject({ speech: true, by: 'config' });
    expect(a.state().language).toBe('pt');
    expect(a.state().game).toMatchObject({ status: 'waiting' });
    expect(a.state().virtualTable).toEqual({ url: c.tableUrl, token: TABLE_TOKEN });
    const sim = new SimulatedTable({ url: c.tableUrl, token: TABLE_TOKEN, seed: 3, fiducials: defaultFiducials() });
    closers.push(() => sim.close());
    await sim.start();
    // A second dashboard opens mid-game.
    await sim.waitFor((s) => (s.game?.plays.length ?? 0) >= 8);
    const b = await connected(c.dashboardUrl);
    await sim.finished();
    await eventually(() => expect(c.dashboard.snapshot().game?.status).toBe('session_over'));
    const final = c.dashboard.snapshot();
    await eventually(() => expect(b.state().seq + b.updates.length).toBe(final.seq));
    await eventually(() => expect(a.updates.at(-1)?.seq).toBe(final.seq));
    // Folding the updates into each snapshot gives both dashboards the server's state.
    const { applyUpdate } = await import('../../robot/web/index.js');
    const fold = (x: Client): DashboardState => {
      const s = x.state();
      for (const u of x.updates) if (u.seq > s.seq) applyUpdate(s, u);
      return s;
    };
    const strip = (s: DashboardState): unknown => ({ ...s, atMs: 0 });
    expect(strip(fold(a))).toEqual(strip(final));
    expect(strip(fold(b))).toEqual(strip(final));
    expect(final.connections.find((x) => x.component === 'table')).toMatchObject({
      id: 'sim',
      connected: true,
      kind: 'simulated',
    });
    expect(final.decision?.explanation).toMatch(/^Played [2-7QJKA][SHDC]/);
    expect(final.latency.samples.length).toBe(0); // no behaviours in this composition: nothing to time
    expect(final.events.at(-1)?.type).toBe('session_end');
  });

  it('publishes each control on the bus, answers it, and shows its effect to every dashboard', async () => {
    const c = await started();
    const a = await connected(c.dashboardUrl);
    const b = await connected(c.dashboardUrl);
    const ack = (payload: unknown): Promise<unknown> =>
      a.socket.timeout(10_000).emitWithAck('control', payload as never);
    expect(await ack({ type: 'toggles', patch: { gaze: false } })).toEqual({ ok: true });
    await eventually(() =>
      expect(
        b.updates.some((u) => u.topic === 'toggles' && !u.message.gaze && u.message.changed.includes('gaze')),
      ).toBe(true),
    );
    expect(await ack({ type: 'toggles', patch: { expressiveness: 0.4 } })).toEqual({ ok: true });
    expect(await ack({ type: 'language', language: 'en' })).toEqual({ ok: true });
    expect(await ack({ type: 'say', text: 'Boa jogada!', target: 'partner' })).toEqual({ ok: true });
    expect(await ack({ type: 'expression', expression: 'happy', intensity: 0.5 })).toEqual({ ok: true });
    expect(await ack({ type: 'pause' })).toEqual({ ok: true });
    await eventually(() => expect(c.dashboard.snapshot().game?.status).toBe('paused'));
    expect(await ack({ type: 'resume' })).toEqual({ ok: true });
    await eventually(() => expect(c.dashboard.snapshot().game?.status).toBe('waiting'));
    const on = (key: keyof typeof TOPICS): unknown[] =>
      c.entries.filter((e) => e.topic.name === TOPICS[key].name).map((e) => e.message);
    expect(on('setToggles')).toEqual([
      {
        speech: true,
        postures: true,
        gaze: false,
        partner_speech: true,
        opponent_speech: true,
        expressiveness: 1,
        changed: ['gaze'],
        by: 'operator',
      },
      {
        speech: true,
        postures: true,
        gaze: false,
        partner_speech: true,
        opponent_speech: true,
        expressiveness: 0.4,
        changed: ['expressiveness'],
        by: 'operator',
      },
    ]);
    expect(on('setLanguage')).toEqual([{ language: 'en', by: 'operator' }]);
    expect(on('wizardSay')).toEqual([
      { text: 'Boa jogada!', language: '', utterance_id: '', target: 'partner', by: 'operator' },
    ]);
    expect(on('wizardExpression')).toEqual([{ expression: 'happy', intensity: 0.5, by: 'operator' }]);
    expect(on('sessionControl')).toEqual([
      { action: 'pause', by: 'operator' },
      { action: 'resume', by: 'operator' },
    ]);
    await eventually(() => expect(b.updates.filter((u) => u.topic === 'language').at(-1)?.message.language).toBe('en'));
    // Everything on the bus fits its message.
    expect(c.entries.map((e) => checkMessage(e.topic.message, e.message)).filter((p) => p)).toEqual([]);
  });

  it("has the robot say the last game's review in the session's language, built by the server; refuses when there is none", async () => {
    const c = await started();
    const a = await connected(c.dashboardUrl);
    const ack = (payload: unknown): Promise<unknown> =>
      a.socket.timeout(10_000).emitWithAck('control', payload as never);
    expect(await ack({ type: 'say-review' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^no game has been reviewed yet/),
    });
    expect(await ack({ type: 'say-review', text: 'x' })).toMatchObject({ ok: false });
    const robotSeat = c.dashboard.snapshot().game!.robot_seat;
    c.bus.publish('review', REVIEW);
    await eventually(() => expect(a.updates.some((u) => u.topic === 'review')).toBe(true));
    const said = (): unknown[] => c.entries.filter((e) => e.topic.name === TOPICS.wizardSay.name).map((e) => e.message);
    const pt = reviewText(loadBehaviourSetup({ language: 'pt' }).utterances, reviewOfMessage(REVIEW)!, robotSeat as 0)!;
    expect(pt).toMatch(/^Com as cartas à vista/);
    expect(await ack({ type: 'say-review' })).toEqual({ ok: true, text: pt });
    expect(said()).toEqual([
      { text: pt, language: 'pt', utterance_id: 'operator-review#1', target: 'all', by: 'operator' },
    ]);
    // In the language in force: the operator switches to English.
    expect(await ack({ type: 'language', language: 'en' })).toEqual({ ok: true });
    await eventually(() => expect(c.dashboard.snapshot().language).toBe('en'));
    expect(await ack({ type: 'say-review' })).toMatchObject({
      ok: true,
      text: expect.stringMatching(/^With all cards in view/),
    });
    expect(said().at(-1)).toMatchObject({ language: 'en', utterance_id: 'operator-review#2' });
    // A game not reviewed: nothing to say, and nothing published.
    c.bus.publish('review', {
      ...REVIEW,
      game: 1,
      status: 'incomplete',
      dealt_points: -1,
      final_points: -1,
      changes: 0,
      values: [],
      moments: [],
    });
    await eventually(() => expect(c.dashboard.snapshot().review?.message.game).toBe(1));
    expect(await ack({ type: 'say-review' })).toMatchObject({
      ok: false,
      reason: 'game 2 was not reviewed (incomplete): there is nothing to say',
    });
    expect(said()).toHaveLength(2);
  });

  it('refuses a malformed control with a reason naming the field, and publishes nothing', async () => {
    const c = await started();
    const a = await connected(c.dashboardUrl);
    const before = c.entries.length;
    const ack = (payload: unknown): Promise<unknown> =>
      a.socket.timeout(10_000).emitWithAck('control', payload as never);
    expect(await ack({ type: 'toggles', patch: { loud: true } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^control\.patch/),
    });
    expect(await ack({ type: 'toggles', patch: { expressiveness: 3 } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/control\.patch\.expressiveness: expected at most 1/),
    });
    expect(await ack({ type: 'toggles', patch: {} })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/at least one toggle/),
    });
    expect(await ack({ type: 'language', language: 'fr' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/control\.language: expected "pt" or "en"/),
    });
    expect(await ack({ type: 'say', text: '   ' })).toMatchObject({ ok: false });
    expect(await ack({ type: 'expression', expression: 'smug' })).toMatchObject({ ok: false });
    expect(await ack({ type: 'reboot' })).toMatchObject({ ok: false });
    expect(await ack('pause')).toMatchObject({ ok: false });
    expect(c.entries.length).toBe(before);
  });

  it('serves the built pages offline, and nothing outside its folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'web-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>dash</title>');
    writeFileSync(join(root, 'table.html'), '<!doctype html><title>table</title>');
    const bus = new InProcessBus();
    const d = new DashboardServer({ bus, port: 0, webRoot: root });
    closers.push(() => d.close());
    const { url } = await d.listen();
    expect(d.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const index = await fetch(`${url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(await (await fetch(`${url}/table`)).text()).toMatch(/table/);
    expect((await fetch(`${url}/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${url}/nothing.js`)).status).toBe(404);
    expect((await fetch(`${url}/`, { method: 'POST' })).status).toBe(405);
  });

  it('listens on 127.0.0.1 by default', async () => {
    const d = new DashboardServer({ bus: new InProcessBus(), port: 0 });
    closers.push(() => d.close());
    expect((await d.listen()).host).toBe('127.0.0.1');
  });
});

describe('explainDecision', () => {
  const d = (over: Partial<DecisionMessage>): DecisionMessage => ({
    seat: 0,
    card: '7H',
    moves: [],
    worlds: 120,
    nodes: 0,
    time_ms: 5,
    win_probability: 0.74,
    exact_from_trick: 4,
    fallback: '',
    explanation: '',
    inference_trust: -1,
    inference_candidates: 0,
    inference_effective: -1,
    objective: '',
    points_from: '',
    move_victories: [],
    reason_kind: '',
    reason_other: '',
    reason_support: -1,
    reason_points: -1,
    reason_suit: '',
    reason_kept: '',
    ...over,
  });
  it('says what the chosen card keeps on average, against the best other card, and the chance to win', () => {
    const moves = [
      { card: '7H', mean: 68.2, sd: 5, win_probability: 0.74 },
      { card: 'AH', mean: 59.4, sd: 6, win_probability: 0.6 },
      { card: '2S', mean: 40, sd: 6, win_probability: 0.3 },
    ];
    expect(explainDecision(d({ moves }))).toBe(
      'Played 7H: it keeps 68 points on average over 120 worlds, 9 points more than AH; 74% to win.',
    );
    expect(explainDecision(d({ card: 'AH', moves, win_probability: -1, fallback: 'rule' }))).toBe(
      'Played AH: it keeps 59 points on average over 120 worlds, 9 points fewer than 7H; 60% to win (the search ran out of time: rule-based fallback).',
    );
    // A player that plays for victories is explained in victories, and compared with the next card that way.
    const byVictories = { objective: 'victories', points_from: 'bounds', move_victories: [0.85, 0.55, -1] };
    expect(explainDecision(d({ moves, ...byVictories }))).toBe(
      'Played 7H: 0.85 victories expected over 120 worlds (about 68 points), 0.3 victories more than AH; 74% to win.',
    );
    expect(explainDecision(d({ moves, ...byVictories, move_victories: [1, 1, -1] }))).toBe(
      'Played 7H: 1 victory expected over 120 worlds (about 68 points), as many as AH and 9 points more; 74% to win.',
    );
  });
  it("says when the worlds were weighed by the other seats' plays, and how many candidates the weights amount to", () => {
    const moves = [
      { card: '7H', mean: 68.2, sd: 5, win_probability: 0.74 },
      { card: 'AH', mean: 59.4, sd: 6, win_probability: 0.6 },
    ];
    expect(
      explainDecision(d({ moves, inference_trust: 0.5, inference_candidates: 2048, inference_effective: 851.6 })),
    ).toBe(
      "Played 7H: it keeps 68 points on average over 120 worlds weighed by the others' plays (852 effective of 2048), 9 points more than AH; 74% to win.",
    );
  });
  it('adds the reason against the next best card when the decision carries one', () => {
    const moves = [
      { card: '7S', mean: 70, sd: 5, win_probability: 0.7 },
      { card: '2S', mean: 64, sd: 5, win_probability: 0.6 },
    ];
    expect(
      explainDecision(
        d({
          card: '7S',
          moves,
          win_probability: 0.7,
          reason_kind: 'points-to-partner',
          reason_other: '2S',
          reason_support: 1,
          reason_points: 10,
        }),
      ),
    ).toBe(
      'Played 7S: it keeps 70 points on average over 120 worlds, 6 points more than 2S; 70% to win. Why not 2S: 7S gives 10 points to the partner, who takes the trick in 100% of the worlds.',
    );
    expect(
      explainDecision(
        d({
          card: '2D',
          moves: [
            { ...moves[0]!, card: '2D' },
            { ...moves[1]!, card: 'AH' },
          ],
          reason_kind: 'keeps-master-trump',
          reason_other: 'AH',
          reason_support: 1,
          reason_kept: 'AH',
        }),
      ),
    ).toMatch(/Why not AH: 2D keeps AH for the last tricks\.$/);
    expect(
      explainDecision(
        d({
          card: '7S',
          moves,
          reason_kind: 'partner-ruffs',
          reason_other: '2S',
          reason_support: 0.75,
          reason_suit: 'D',
        }),
      ),
    ).toMatch(
      /Why not 2S: 7S leads diamonds, which the partner has run out of, so the partner can ruff \(takes the trick in 75% of the worlds\)\.$/,
    );
  });

  it("words an outcome reason from the table's own numbers, naming the card it speaks of", () => {
    // Playthrough 3, trick 8: the message said more-points against 7H, the table 88% against 81%.
    const moves = [
      { card: '2C', mean: 74.379, sd: 12.859, win_probability: 0.882 },
      { card: '7H', mean: 71.628, sd: 14.53, win_probability: 0.813 },
      { card: '3H', mean: 66.125, sd: 16.765, win_probability: 0.581 },
    ];
    const played = {
      card: '2C',
      moves,
      worlds: 2000,
      win_probability: 0.882,
      objective: 'victories',
      points_from: 'exact',
      move_victories: [1.018, 0.79, 0.326],
      reason_other: '7H',
      reason_support: 1,
    };
    const said = explainDecision(d({ ...played, reason_kind: 'more-points', reason_points: 4 }));
    expect(said).toMatch(
      /0\.23 victories more than 7H; 88% to win\. Why not 7H: 7H would win less often \(81% against 88% for 2C\)\.$/,
    );
    expect(said).not.toMatch(/as often/);
    // The reason the game gives now (better odds) is worded the same way, from the same numbers.
    expect(explainDecision(d({ ...played, reason_kind: 'better-odds', reason_support: 0.638 }))).toBe(said);
    // As often (88% and 87%): the card played makes the points, said by name.
    const tied = moves.map((m) => (m.card === '7H' ? { ...m, win_probability: 0.874 } : m));
    expect(explainDecision(d({ ...played, moves: tied, reason_kind: 'more-points', reason_points: 3 }))).toMatch(
      /Why not 7H: 2C wins as often as 7H \(88% and 87%\) and makes 3 points more\.$/,
    );
    // The other card wins more often, the card played makes more points: said as it is, never "as often".
    const other = moves.map((m) => (m.card === '7H' ? { ...m, win_probability: 0.91 } : m));
    expect(explainDecision(d({ ...played, moves: other, reason_kind: 'close-call' }))).toMatch(
      /Why not 7H: 2C makes 3 points more, though 7H would win more often \(91% against 88%\)\.$/,
    );
    // Without the search's values (an older recording), the kind as it was, still naming the card.
    expect(
      explainDecision(
        d({
          ...played,
          moves: moves.map((m) => ({ ...m, win_probability: -1 })),
          win_probability: -1,
          reason_kind: 'more-points',
          reason_points: 4,
        }),
      ),
    ).toMatch(/Why not 7H: 2C wins as often as 7H and makes 4 points more\.$/);
  });

  it('names forced cards and players without beliefs', () => {
    expect(explainDecision(d({ fallback: 'forced' }))).toBe('Played 7H: it was the only legal card.');
    // Out of time before any deal: the zeros it reports are not beliefs.
    const zeros = [
      { card: '7H', mean: 0, sd: 0, win_probability: 0 },
      { card: 'AH', mean: 0, sd: 0, win_probability: 0 },
    ];
    expect(
      explainDecision(d({ moves: zeros, worlds: 0, fallback: 'rule', objective: 'victories', move_victories: [0, 0] })),
    ).toBe('Played 7H: the search ran out of time before it had searched a deal, so the rule-based player chose it.');
    expect(explainDecision(d({ explanation: 'the player reports no beliefs' }))).toBe(
      'Played 7H: the player reports no beliefs.',
    );
  });
});

describe('the reducer as the operator reads it', () => {
  let seq = 0;
  const fold = <K extends DashboardUpdate['topic']>(
    s: DashboardState,
    topic: K,
    message: Extract<DashboardUpdate, { topic: K }>['message'],
    atMs = 1000 + seq,
  ) => applyUpdate(s, { seq: ++seq, atMs, topic, message } as DashboardUpdate);
  const line = (phase: string, id: string, text: string, over: Partial<UtteranceMessage> = {}): UtteranceMessage => ({
    phase,
    id,
    category: 'trick.end.ours',
    text,
    language: 'pt',
    target: 'all',
    addressee: -1,
    audience: '',
    backend: 'log',
    reason: '',
    event: 'trick',
    about_seat: -1,
    moment: 5,
    emotion: '',
    due_in_ms: -1,
    ...over,
  });

  it('keeps the speech queue: a queued line waits until it starts or is dropped, the one started is said until it ends', () => {
    const s = emptyState('in-process', 0);
    fold(s, 'utterance', line('queued', 'a#1', 'Boa!', { due_in_ms: 0 }), 1000);
    fold(s, 'utterance', line('queued', 'b#1', 'Vamos!', { due_in_ms: 1500 }), 1000);
    fold(s, 'utterance', line('queued', 'c#1', 'Parceiro!', { target: 'partner' }), 1000);
    expect(s.speech.waiting.map((w) => [w.id, w.dueAtMs])).toEqual([
      ['a#1', 1000],
      ['b#1', 2500],
      ['c#1', 1000],
    ]);
    fold(s, 'utterance', line('start', 'a#1', 'Boa!'));
    expect(s.speech.speaking?.id).toBe('a#1');
    fold(s, 'utterance', line('dropped', 'c#1', 'Parceiro!', { target: 'partner', reason: 'partner speech off' }));
    expect(s.speech.waiting.map((w) => w.id)).toEqual(['b#1']);
    fold(s, 'utterance', line('end', 'a#1', 'Boa!'));
    expect(s.speech.speaking).toBeNull();
    // The history has what was said and dropped, not the announcements.
    expect(s.utterances.map((u) => `${u.phase}:${u.id}`)).toEqual(['start:a#1', 'dropped:c#1', 'end:a#1']);
    // A new session: a line of the last one never said does not wait forever.
    const game = {
      session_id: 's1',
      game: 1,
      games: 5,
      status: 'playing',
      robot_seat: 0,
      dealer: 3,
      trump_card: '7H',
      trick: 0,
      leader: 0,
      to_move: 0,
      table: [],
      points: [0, 0],
      victories: [0, 0],
      robot_hand: [],
    };
    fold(s, 'gameState', game);
    fold(s, 'gameState', { ...game, session_id: 's2' });
    expect(s.speech.waiting).toEqual([]);
  });

  it("keeps the last game's review for a dashboard opened later, and forgets it when a new session begins", () => {
    const s = emptyState('in-process', 0);
    const game = {
      session_id: 's1',
      game: 1,
      games: 5,
      status: 'game_over',
      robot_seat: 0,
      dealer: 3,
      trump_card: '7H',
      trick: 9,
      leader: 0,
      to_move: -1,
      table: [],
      points: [58, 62],
      victories: [0, 1],
      robot_hand: [],
    };
    fold(s, 'gameState', game);
    fold(s, 'review', REVIEW, 5000);
    expect(s.review).toEqual({ message: REVIEW, atMs: 5000 });
    fold(s, 'gameState', { ...game, status: 'waiting' });
    expect(s.review?.message).toEqual(REVIEW);
    fold(s, 'gameState', { ...game, session_id: 's2', status: 'waiting' });
    expect(s.review).toBeNull();
  });

  it("tells the review from the robot's side: points and results for its team, each moment with seats and cards in words", () => {
    const robot0 = reviewWords(REVIEW, 0);
    expect(robot0.title).toBe('Game 1');
    expect(robot0.rows).toEqual([
      ['all cards in view', '52 points: lost, 1 victory to the opponents'],
      ['as it ended', '58 points: lost, 1 victory to the opponents'],
      ['changes', "2 plays worse than the player's best, in hindsight"],
    ]);
    expect(robot0.verdict).toBe('The play did not change the result: it was in the cards from the deal.');
    expect(robot0.moments.map((m) => [m.text, m.turned])).toEqual([
      [
        'Trick 5: the opponent on the left played the seven of spades; the king of spades would have kept 11 points for the opponents.',
        // Best play's value crossed 60 here (52 to 63), but the king, with the game as it went, would
        // have made it 47 to 73: the robot's team lost either way. The spoken review says the same.
        false,
      ],
      [
        "Trick 8: the robot played the ace of hearts; the seven of hearts would have kept 5 points for the robot's team.",
        true,
      ],
    ]);
    expect(robot0.values).toEqual(REVIEW.values);
    // The robot in seat 1 (team B): the same game from the other side.
    const robot1 = reviewWords(REVIEW, 1);
    expect(robot1.rows[0]).toEqual(['all cards in view', '68 points: won, 1 victory']);
    expect(robot1.rows[1]).toEqual(['as it ended', '62 points: won, 1 victory']);
    expect(robot1.moments[0]!.text).toBe(
      "Trick 5: the partner played the seven of spades; the king of spades would have kept 11 points for the robot's team.",
    );
    expect(robot1.moments[1]!.text).toBe(
      'Trick 8: the opponent on the left played the ace of hearts; the seven of hearts would have kept 5 points for the opponents.',
    );
    expect(robot1.moments.map((m) => [m.before, m.after])).toEqual([
      [68, 57],
      [57, 62],
    ]);
    expect(robot1.values[0]).toBe(68);
    // Renounce, incomplete and failed, plainly.
    const renounce = reviewWords(
      {
        ...REVIEW,
        status: 'renounce',
        dealt_points: -1,
        final_points: -1,
        values: [],
        changes: 0,
        moments: [{ play: 13, trick: 3, seat: 1, card: '2C', better: '', points_before: -1, points_after: -1 }],
      },
      0,
    );
    expect(renounce.moments.map((m) => m.text)).toEqual([
      'Trick 4: the opponent on the right did not follow suit and played the two of clubs.',
    ]);
    expect(renounce.verdict).toBe(
      "The game ended on a renounce (the robot's team gets 4 victories): it is not looked back on card by card.",
    );
    expect(reviewWords({ ...REVIEW, status: 'incomplete', values: [], moments: [] }, 0).verdict).toMatch(
      /^Not reviewed: not every card of this game was played/,
    );
    expect(
      reviewWords({ ...REVIEW, status: 'failed', values: [], moments: [], detail: 'the worker stopped' }, 0).verdict,
    ).toBe('The review could not be made: the worker stopped.');
    expect(
      reviewWords({ ...REVIEW, changes: 0, moments: [], values: Array<number>(41).fill(52), final_points: 52 }, 0)
        .noMoments,
    ).toBe('No moment to show: every card played kept the value.');
  });

  it('moves a table that left out of the connections, once per table, with the seats it held; a watching page leaves no trace', () => {
    const s = emptyState('in-process', 0);
    const table = (id: string, connected: boolean, detail: string) => ({
      component: 'table',
      id,
      name: `virtual table ${id}`,
      kind: 'virtual',
      connected,
      detail,
    });
    for (const id of ['t1', 't2', 't3']) fold(s, 'connections', table(id, true, `seats ${id.slice(1)}`));
    fold(s, 'connections', table('w', true, 'seats none'));
    fold(s, 'connections', table('w', false, 'transport close'));
    for (const id of ['t1', 't2', 't3']) fold(s, 'connections', table(id, false, 'transport close'));
    fold(s, 'connections', table('t1', false, 'transport close'));
    expect(s.connections).toEqual([]);
    expect(s.left.map((l) => [l.id, l.seats, l.reason])).toEqual([
      ['t2', [2], 'transport close'],
      ['t3', [3], 'transport close'],
      ['t1', [1], 'transport close'],
    ]);
    fold(s, 'connections', table('t2', true, 'seats 2'));
    expect(s.left.map((l) => l.id)).toEqual(['t3', 't1']);
    expect(s.connections.map((c) => c.id)).toEqual(['t2']);
  });

  it("writes the table log in people's words, seats named from the robot's side, with no empty field or seat -1", () => {
    const s = emptyState('in-process', 0);
    const base = {
      table_id: 'vt-1',
      seq: 0,
      kind: 'hello',
      zone: '',
      seat: -1,
      fiducial: -1,
      card: '',
      action: '',
      dealer: -1,
      trump_card: '',
      seats: [2],
      table_name: 'virtual table',
      table_kind: 'virtual',
      reason: '',
      event: '',
      code: '',
      repeats: 0,
      first_seq: 0,
    };
    fold(s, 'tableEvents', base);
    fold(s, 'tableEvents', { ...base, seats: [] });
    fold(s, 'gameState', {
      session_id: 's1',
      game: 1,
      games: 5,
      status: 'playing',
      robot_seat: 0,
      dealer: 3,
      trump_card: '7H',
      trick: 0,
      leader: 0,
      to_move: 0,
      table: [],
      points: [0, 0],
      victories: [0, 0],
      robot_hand: [],
    });
    fold(s, 'tableEvents', { ...base, kind: 'card_detected', seq: 4, zone: 'play', seat: 3, card: 'AS' });
    fold(s, 'tableEvents', { ...base, kind: 'card_removed', seq: 5, zone: 'hand', seat: -1, card: 'AS' });
    fold(s, 'tableEvents', { ...base, kind: 'control', seq: 6, action: 'new_game' });
    fold(s, 'tableOutput', {
      kind: 'prompt',
      seat: 2,
      card: '7H',
      code: 'place_robot_card',
      text: "Put the robot's 7H on its spot (seat 0).",
    });
    fold(s, 'tableOutput', { kind: 'rejected', seat: 1, card: '2C', code: 'out_of_turn', text: 'it is not your turn' });
    fold(s, 'tableEvents', { ...base, kind: 'disconnect', table_name: '', reason: 'transport close' });
    expect(s.table.map((l) => l.text)).toEqual([
      'virtual table joined, playing seat 2',
      'virtual table joined to watch (no seat)',
      'virtual table #4: put down AS on the spot of the opponent on the left (seat 3)',
      'virtual table #5: lifted AS',
      'virtual table #6: asks for a new game',
      `the runtime asks someone to place the robot's card: "Put the robot's 7H on its spot (seat 0)."`,
      'refused 2C from the opponent on the right (seat 1) (out of turn): it is not your turn',
      'vt-1 left (transport close)',
    ]);
    for (const l of s.table) expect(l.text).not.toMatch(/seat -1|\(,|\b[a-z]+_[a-z]+\b/);
    expect(s.table[5]!.detail).toBe('prompt place_robot_card');
  });
});

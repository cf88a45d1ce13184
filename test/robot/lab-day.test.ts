// A lab day through the real node: one ParceiroNode serving session after session on one token and
// table address, one table connection staying through every switch (its hello admitted to each new
// session, its seqs and the state's version going on upward), each session with its own id, seed and
// recording, each recording replaying to exactly itself, and the dashboard's list of the day's
// sessions. The second session is started by the table's new-game, the third by the operator's
// dashboard. Nothing waits on time: the tests wait for states, answers and the day's end.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import type { DashboardState, DashboardUpdate, SessionRecord } from '../../robot/web/index.js';
import { applyUpdate } from '../../robot/web/index.js';
import type { TableEvent } from '../../robot/bus/index.js';
import type { NodeSummary, SessionOptions } from '../../robot/index.js';
import { DayTable } from './day-table.js';
import { recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-lab-day-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'lab-day-table-token';
const OPERATOR = 'lab-day-operator-token';
const silent = robot.createLogger({ level: 'silent', pretty: false });

/** A short session on the rule-based player: one game, estimates, speech published. */
const session = (seed: number, folder = dir): SessionOptions => ({
  seed,
  games: 1,
  sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed }) },
  minThinkMs: 50,
  expectationBudgetMs: 20,
  speech: 'publish',
  recordingsDir: folder,
});

const until = async (test: () => boolean, what: string): Promise<void> => {
  for (let i = 0; !test(); i++) {
    if (i > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A dashboard logged in with the operator token, keeping the shared state as a browser does. */
async function dashboard(url: string): Promise<{
  state: () => DashboardState;
  control: (c: unknown) => Promise<{ ok: boolean; reason?: string }>;
  close: () => void;
}> {
  const s = io(`${url}/dashboard`, { auth: { token: OPERATOR }, transports: ['websocket'], forceNew: true });
  let st: DashboardState | null = null;
  s.on('snapshot', (snap: DashboardState) => (st = snap));
  s.on('update', (u: DashboardUpdate) => st && applyUpdate(st, u));
  await until(() => st !== null, 'the dashboard snapshot');
  return { state: () => st!, control: (c) => s.timeout(20_000).emitWithAck('control', c), close: () => s.disconnect() };
}

const tableEvents = (file: string): TableEvent[] =>
  recording
    .readRecording(file)
    .messages.filter((m) => m.topic.name === '/parceiro/table/events')
    .map((m) => m.message as TableEvent);

// The three days are independent (each its own node on free ports, its own sessions and folder) and
// mostly wait on the sessions' pace: they run at once.
describe.concurrent('a lab day', () => {
  it('serves three sessions on one token and address, one table connection through every switch; each recording replays to itself; the dashboard lists the day', async () => {
    const node = await robot.ParceiroNode.start({
      ...session(100),
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      logger: silent,
      dashboard: { port: 0, token: OPERATOR },
    });
    const finished: { summary: NodeSummary; k: number; more: boolean }[] = [];
    const started: number[] = [];
    const day = new robot.LabDay(node, {
      sessions: 3,
      answerForMs: 0,
      session: (k) => session(100 + k - 1),
      onStart: (k) => started.push(k),
      onFinish: (summary, k, more) => finished.push({ summary, k, more }),
    });
    const url = node.url;
    const table = new DayTable({ url, token: TOKEN, nextSessions: 1 });
    const dash = await dashboard(node.dashboard!.url);
    try {
      const hello = await table.start();
      const first = hello.session;

      // Session 1 is played; once it is over the table's new-game starts session 2 and its first game.
      const second = await table.waitFor((s) => s.session.id !== first);
      expect(second.session).toMatchObject({ played: 0, complete: false });
      expect(second.game).toBeNull();
      // While session 2 is being played, the operator cannot start a third.
      await table.waitFor((s) => s.session.id === second.session.id && s.game?.status === 'playing');
      const early = await dash.control({ type: 'next-session' });
      expect(early).toMatchObject({ ok: false, reason: expect.stringMatching(/still being played/) });

      // Session 2 is over and finished: the operator starts session 3 from the dashboard.
      await until(() => finished.length === 2, 'session 2 finished');
      expect(await dash.control({ type: 'next-session' })).toEqual({ ok: true });
      const third = await table.waitFor((s) => s.session.id !== first && s.session.id !== second.session.id);
      await day.done();
      expect(node.url).toBe(url);

      // One connection, one hello, through three sessions; the state's version never went back.
      expect(table.connects).toBe(1);
      expect(table.joins).toBe(1);
      expect(table.wentBack).toEqual([]);
      expect(table.refused).toEqual([]);
      expect(table.sessions).toEqual([first, second.session.id, third.session.id]);
      const versions = table.states.map((s) => s.version!);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      // Its seqs went on upward across the sessions.
      expect(table.seqs).toEqual([...table.seqs].sort((a, b) => a - b));
      // The session-over prompt said a new game starts the next session, except after the day's last.
      const over = table.prompts.filter((p) => p.kind === 'session-over').map((p) => p.text);
      expect(over).toEqual([
        `The session is over. ${robot.NEXT_SESSION_TEXT}`,
        `The session is over. ${robot.NEXT_SESSION_TEXT}`,
        'The session is over.',
      ]);

      expect(started).toEqual([2, 3]);
      expect(finished.map((f) => [f.k, f.more])).toEqual([
        [1, true],
        [2, true],
        [3, false],
      ]);
      const records = node.sessions();
      expect(records.map((r) => [r.id, r.seed, r.status, r.played, r.games])).toEqual([
        [first, 100, 'finished', 1, 1],
        [second.session.id, 101, 'finished', 1, 1],
        [third.session.id, 102, 'finished', 1, 1],
      ]);

      // The dashboard lists the day: the same records, the last one current, no next session offered.
      await until(
        () => dash.state().day.sessions.at(-1)?.status === 'finished',
        'the dashboard to show the last session finished',
      );
      const shown = dash.state().day;
      expect(shown.current).toBe(third.session.id);
      expect(shown.next).toBe(false);
      expect(shown.sessions.map((r: SessionRecord) => [r.id, r.status, r.played, r.victories, r.recording])).toEqual(
        records.map((r) => [r.id, r.status, r.played, r.victories, r.recording]),
      );
      // The operator's request is in the log, in words (robot/web/state.ts).
      expect(
        dash.state().operator.some((l) => l.kind === 'next_session' && /start the next session/.test(l.text)),
      ).toBe(true);

      // Each session its own recording, opening with the table's hello, seqs above the last one's.
      let lastSeq = 0;
      for (const r of records) {
        const rec = recording.readRecording(r.recording!);
        expect(rec.complete).toBe(true);
        expect(rec.session).toMatchObject({ id: r.id, seed: String(r.seed), games: '1' });
        const events = tableEvents(r.recording!);
        expect(events[0]).toMatchObject({ kind: 'hello', table_id: 'day-table' });
        const seqs = events.filter((e) => e.kind !== 'hello' && e.kind !== 'disconnect').map((e) => e.seq);
        expect(Math.min(...seqs)).toBeGreaterThan(lastSeq);
        lastSeq = Math.max(...seqs);
        // The same session, replayed from its recording alone, does exactly what it recorded: nothing
        // of another session (no reaction, no state) leaked into it.
        const report = await replay.replayRecording(rec);
        expect(report.firstDifference).toBeNull();
        expect(report.matches).toBe(true);
      }
    } finally {
      dash.close();
      table.close();
      await day.stop();
    }
  }, 300_000);

  it('stopped mid-session: the finished session stays finished, the one being played is interrupted, its recording complete and replaying to itself', async () => {
    const folder = join(dir, 'stopped');
    const node = await robot.ParceiroNode.start({
      ...session(7, folder),
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      logger: silent,
      dashboard: null,
    });
    const day = new robot.LabDay(node, {
      answerForMs: 0,
      session: (k) => ({ ...session(7 + k - 1, folder), games: 2 }),
    });
    const table = new DayTable({ url: node.url, token: TOKEN, nextSessions: 1 });
    try {
      const hello = await table.start();
      // Session 2 (two games) under way: some tricks of its first game, then the day is stopped.
      await table.waitFor((s) => s.session.id !== hello.session && (s.game?.trick ?? 0) >= 3);
    } finally {
      table.close();
    }
    const records = await day.stop();
    expect(records.map((r) => [r.seed, r.status, r.played, r.games])).toEqual([
      [7, 'finished', 1, 1],
      [8, 'interrupted', 0, 2],
    ]);
    expect(records[1]!.endedAtMs).not.toBeNull();
    const rec = recording.readRecording(records[1]!.recording!);
    expect(rec.complete).toBe(true);
    const report = await replay.replayRecording(rec);
    expect(report.firstDifference).toBeNull();
  }, 300_000);
  it('a session over still answers "why?" and the review until the next one is asked for, then finishes at once', async () => {
    const folder = join(dir, 'answers');
    const node = await robot.ParceiroNode.start({
      ...session(21, folder),
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      logger: silent,
      dashboard: null,
    });
    const over: number[] = [];
    const finished: number[] = [];
    // Long enough that only the next session's start can end the wait here.
    const day = new robot.LabDay(node, {
      sessions: 2,
      answerForMs: 600_000,
      session: (k) => session(21 + k - 1, folder),
      onOver: (_s, k) => over.push(k),
      onFinish: (_s, k) => finished.push(k),
    });
    const said: string[] = [];
    node.bus.subscribe('utterance', (m) => void (m.phase === 'start' && said.push(m.id)));
    const table = new DayTable({ url: node.url, token: TOKEN });
    try {
      const hello = await table.start();
      await table.waitFor((s) => s.session.id === hello.session && s.session.complete);
      await until(() => over.length === 1, 'session 1 was over');
      // The last game's review is ready (computed off the node's thread), then both questions.
      await until(() => node.runtime.status === 'session_over', 'the session over');
      expect(await table.send('game:control', { action: 'why' })).toMatchObject({ ok: true });
      await until(() => said.includes('why#1'), 'the why answered');
      expect(await table.send('game:control', { action: 'review' })).toMatchObject({ ok: true });
      await until(() => said.includes('review#1'), 'the review answered');
      // Still answering, so not finished: its recording is open, and the dashboard's list says so.
      expect(finished).toEqual([]);
      expect(node.sessions()[0]!.status).toBe('over');
      // The next session asked for: session 1 is finished at once, and session 2 is played.
      table.nextSessions = 1;
      expect(await table.send('game:control', { action: 'new-game' })).toMatchObject({ ok: true });
      await until(() => finished.length === 1, 'session 1 finished');
      await table.waitFor((s) => s.session.id !== hello.session && s.session.complete);
    } finally {
      table.close();
    }
    await day.stop();
    const records = node.sessions();
    expect(records.map((r) => [r.seed, r.status])).toEqual([
      [21, 'finished'],
      [22, 'finished'],
    ]);
    // The answers after the last card are on the record of the session they were about.
    const rec = recording.readRecording(records[0]!.recording!);
    expect(rec.complete).toBe(true);
    const ids = rec.messages
      .filter((m) => m.topic.name === '/parceiro/behaviours/utterance')
      .map((m) => (m.message as { id: string; phase: string }).id);
    expect(ids).toContain('why#1');
    expect(ids).toContain('review#1');
  }, 300_000);
});

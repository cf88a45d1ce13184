// The session's greeting is said to people. With `greet: 'people'` (what `parceiro play` and `live`
// use) the robot greets when the first table of people joins, not as the session opens: a table of
// simulated players is nobody to greet. The recording replays to exactly itself, the greeting at its
// recorded place (a recording made before the setting existed greeted at the start, and replays so:
// replay.test.ts). Nothing here measures time: the node is waited on until it is quiet.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { DayTable } from './day-table.js';
import { recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-greeting-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'greeting-test';
const UTTERANCE = '/parceiro/behaviours/utterance';
const TABLE_EVENTS = '/parceiro/table/events';

// The two cases are independent (each its own nodes on free ports and session ids) and mostly wait on
// the table and the robot's lines: they run at once.
describe.concurrent("the session's greeting", () => {
  it('waits for the table of people, then greets them; the recording replays exactly', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 21,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      games: 1,
      sessionId: 'greeting-1',
      greet: 'people',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 21 }) },
      minThinkMs: 0,
      expectationBudgetMs: 20,
      speech: 'publish',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: null,
    });
    const greetings: string[] = [];
    node.bus.subscribe('utterance', (m) => {
      if (m.category === 'session.start') greetings.push(m.phase);
    });
    const bots = new SimulatedTable({ url: node.url, token: TOKEN, seed: 8, seats: [1, 2, 3], autoNewGame: false });
    let person: DayTable | undefined;
    let file: string;
    try {
      await bots.start();
      // The simulated players have joined and the robot has done all it planned: no greeting yet.
      await node.reactions.idle();
      await node.quiet();
      expect(greetings).toEqual([]);
      // A person's browser joins (watching): now the robot greets, and says it before the game starts.
      person = new DayTable({ url: node.url, token: TOKEN, id: 'person', seats: [], kind: 'virtual' });
      await person.start();
      await expect.poll(() => greetings, { timeout: 60_000 }).toContain('end');
      expect(greetings).toEqual(['queued', 'start', 'end']);
      expect(await bots.send('game:control', { seq: bots.nextSeq(), action: 'new-game' })).toMatchObject({ ok: true });
      await node.finished();
      await node.quiet();
    } finally {
      person?.close();
      bots.close();
      file = (await node.close()).recording!;
    }
    const rec = recording.readRecording(file);
    // On the record: the greeting comes after the person's table joined, and only once.
    const at = (pred: (m: (typeof rec.messages)[number]) => boolean): number => rec.messages.findIndex(pred);
    const hello = at(
      (m) =>
        m.topic.name === TABLE_EVENTS &&
        (m.message as { table_id: string; kind: string }).table_id === 'person' &&
        (m.message as { kind: string }).kind === 'hello',
    );
    const greeting = at(
      (m) => m.topic.name === UTTERANCE && (m.message as { category: string }).category === 'session.start',
    );
    expect(hello).toBeGreaterThanOrEqual(0);
    expect(greeting).toBeGreaterThan(hello);
    expect(
      rec.messages.filter(
        (m) =>
          m.topic.name === UTTERANCE &&
          (m.message as { category: string; phase: string }).category === 'session.start' &&
          (m.message as { phase: string }).phase === 'start',
      ),
    ).toHaveLength(1);
    expect(rec.session?.greet).toBe('people');
    const r = await replay.replayRecording(rec);
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.compared[UTTERANCE]).toBeGreaterThan(0);
  }, 180_000);
  it('a session restarted before people joined greets them when they do; one they had joined does not greet again', async () => {
    /** Starts session `id`, lets the bots (and, with `person`, a person's browser) join, then stops it mid-way. */
    const firstPart = async (id: string, person: boolean): Promise<void> => {
      const node = await robot.ParceiroNode.start({
        seed: 22,
        table: { host: '127.0.0.1', port: 0, token: TOKEN },
        games: 1,
        sessionId: id,
        greet: 'people',
        sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 22 }) },
        minThinkMs: 0,
        expectationBudgetMs: 20,
        speech: 'publish',
        recordingsDir: dir,
        logger: robot.createLogger({ level: 'silent', pretty: false }),
        dashboard: null,
      });
      const bots = new SimulatedTable({ url: node.url, token: TOKEN, seed: 8, seats: [1, 2, 3], autoNewGame: false });
      const watcher = person
        ? new DayTable({ url: node.url, token: TOKEN, id: 'person', seats: [], kind: 'virtual' })
        : null;
      try {
        await bots.start();
        await watcher?.start();
        await node.reactions.idle();
        await node.quiet();
      } finally {
        watcher?.close();
        bots.close();
        await node.close();
      }
    };
    /** Resumes session `id`; the bots and a person's browser join; what the greeting did. */
    const resumed = async (id: string): Promise<string[]> => {
      const r = await replay.resumeSession({
        sessionId: id,
        recordingsDir: dir,
        token: TOKEN,
        host: '127.0.0.1',
        port: 0,
        logger: robot.createLogger({ level: 'silent', pretty: false }),
        node: { dashboard: null },
      });
      const greetings: string[] = [];
      r.node.bus.subscribe('utterance', (m) => {
        if (m.category === 'session.start') greetings.push(m.phase);
      });
      const bots = new SimulatedTable({ url: r.node.url, token: TOKEN, seed: 9, seats: [1, 2, 3], autoNewGame: false });
      const person = new DayTable({ url: r.node.url, token: TOKEN, id: 'person', seats: [], kind: 'virtual' });
      try {
        await bots.start();
        await person.start();
        await r.node.reactions.idle();
        await r.node.quiet();
      } finally {
        person.close();
        bots.close();
        await r.close();
      }
      return greetings;
    };
    await firstPart('greeting-nobody', false);
    expect(await resumed('greeting-nobody')).toEqual(['queued', 'start', 'end']);
    await firstPart('greeting-joined', true);
    expect(await resumed('greeting-joined')).toEqual([]);
  }, 180_000);
});

// The robot node as one system: a whole session through the real table server with a simulated
// table, the robot on the rule-based player (fast), estimates on their worker, the appraisal and the
// behaviours publishing on the bus, and the recording. Nothing here waits for a time or measures one:
// the test waits for the session's own end. The node runs compiled workers, so it is loaded from dist/.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import type { BusEntry } from '../../robot/bus/index.js';
import { RulePlayer } from '../../game/index.js';
import { SimulatedTable, defaultFiducials } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const bus = (await import(
  new URL('../../dist/robot/bus/index.js', import.meta.url).href
)) as typeof import('../../robot/bus/index.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the robot node', () => {
  it('plays a whole session over socket.io and shows, says and records everything on the bus', async () => {
    const token = 'node-test-token';
    const node = await robot.ParceiroNode.start({
      seed: 4,
      table: { host: '127.0.0.1', port: 0, token },
      games: 1,
      sessionId: 'node-test',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 4 }) },
      minThinkMs: 0,
      expectationBudgetMs: 30,
      speech: 'publish',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
    });
    const seen: BusEntry[] = [];
    node.bus.tap((e) => seen.push(e));
    // Once the robot has finished its first line, the operator switches speech off over the bus.
    let toggledAt = -1;
    node.bus.subscribe('utterance', (m) => {
      if (m.phase !== 'end' || toggledAt >= 0) return;
      toggledAt = seen.length;
      node.bus.publish('setToggles', {
        speech: false,
        postures: true,
        gaze: true,
        partner_speech: true,
        opponent_speech: true,
        expressiveness: 1,
        changed: ['speech'],
        by: 'test',
      });
    });
    const table = new SimulatedTable({ url: node.url, token, seed: 9, fiducials: defaultFiducials() });
    try {
      await table.start();
      const score = await node.finished();
      expect(score.games).toBe(1);
      await node.quiet();
    } finally {
      table.close();
    }
    const summary = await node.close();

    const on = (name: string): unknown[] => seen.filter((e) => e.topic.name === name).map((e) => e.message);
    // The game went through: ten robot plays announced to the table.
    expect(table.robotPlays).toHaveLength(10);
    expect((on('/parceiro/game/events') as { type: string }[]).filter((e) => e.type === 'play')).toHaveLength(40);
    // The appraisal and the behaviours: emotions with intensities, a face, joint targets, looks and lines.
    const emotions = on('/parceiro/emotions') as {
      emotions: { type: string; intensity: number }[];
      strongest: string;
    }[];
    expect(emotions.length).toBeGreaterThanOrEqual(50); // every game event, and more
    expect(emotions.some((m) => m.emotions.length > 0 && m.strongest !== '')).toBe(true);
    expect(on('/robot_face/expression').some((m) => (m as { expression: string }).expression !== 'neutral')).toBe(true);
    expect(on('/emys/joint_trajectory').length).toBeGreaterThan(0);
    expect(on('/look_at').length).toBeGreaterThan(0);
    const started = (on('/parceiro/behaviours/utterance') as { phase: string }[]).filter((u) => u.phase === 'start');
    expect(started.length).toBeGreaterThan(0);
    expect(on('/tts/say').length).toBeGreaterThan(0);

    // Every message on the bus is a valid message of its topic.
    const problems = seen.map((e) => bus.checkMessage(e.topic.message, e.message)).filter((p) => p !== null);
    expect(problems).toEqual([]);

    // The toggle took effect: reported on the toggles topic, and not one line was spoken after it.
    expect(toggledAt).toBeGreaterThan(0);
    const offAt = seen.findIndex(
      (e, i) =>
        i >= toggledAt &&
        e.topic.name === '/parceiro/behaviours/toggles' &&
        (e.message as { speech: boolean }).speech === false,
    );
    expect(offAt).toBeGreaterThan(toggledAt);
    expect(seen.slice(offAt).filter((e) => e.topic.name === '/tts/say')).toEqual([]);
    expect(
      seen
        .slice(offAt)
        .some(
          (e) =>
            e.topic.name === '/parceiro/behaviours/utterance' && (e.message as { phase: string }).phase === 'start',
        ),
    ).toBe(false);

    // The recording holds every message that crossed the bus, complete, in order.
    const rec = recording.readRecording(summary.recording!);
    expect(rec.problems).toEqual([]);
    expect(rec.complete).toBe(true);
    expect(rec.session).toMatchObject({ id: 'node-test', seed: '4', games: '1' });
    expect(rec.messages).toHaveLength(summary.messages);
    const recorded = rec.messages.slice(rec.messages.length - seen.length);
    expect(recorded.map((m) => m.topic.name)).toEqual(seen.map((e) => e.topic.name));
    expect(recorded.map((m) => m.message)).toEqual(seen.map((e) => JSON.parse(JSON.stringify(e.message))));
  });
});

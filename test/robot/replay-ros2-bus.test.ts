// A session recorded on the ROS 2 bus replays to itself in process, whatever the bus it ran on: the
// robot's connection says ros2 in the recording and in the replay; and what another node sent the
// node over ROS 2 (a wizard line from `ros2 topic pub`) is recorded as incoming and fed back by the
// replay. Against the rclnodejs stand-in (the real graph: test/ros2/). Both recording formats.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import type * as Bus from '../../robot/bus/index.js';
import { playToEnd, recording, replay, robot } from './replay-harness.js';
import { ros2StandIn } from './ros2-stand-in.js';

const bus = (await import(new URL('../../dist/robot/bus/index.js', import.meta.url).href)) as typeof Bus;

const dir = mkdtempSync(join(tmpdir(), 'parceiro-replay-ros2-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WIZARD = { text: 'Olá! Boa sorte a todos.', language: 'pt', utterance_id: '', target: 'all', by: 'lab-script' };

/** A one-game session on the stand-in ROS 2 bus; `wizard`: another node sends a wizard line after the first play. */
async function recordOnRos2(id: string, o: { wizard: boolean; format: 'json' | 'ros2' }): Promise<string> {
  const { rcl, outside } = ros2StandIn();
  const ros = await bus.createRos2Bus({ load: async () => rcl });
  const node = await robot.ParceiroNode.start({
    seed: 21,
    table: { host: '127.0.0.1', port: 0, token: 'ros2-test' },
    games: 1,
    sessionId: id,
    sources: { player: robot.syncRobotPlayer((p) => new RulePlayer(p), { seat: 0, seed: 21 }) },
    minThinkMs: 50,
    expectationBudgetMs: 20,
    speech: 'publish',
    bus: ros,
    recordingsDir: dir,
    recordingFormat: o.format,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
    dashboard: null,
  });
  let sent = false;
  if (o.wizard)
    node.bus.subscribe('gameEvents', (m) => {
      if (sent || m.type !== 'play') return;
      sent = true;
      setTimeout(() => outside('/parceiro/wizard/say', WIZARD), 0);
    });
  await playToEnd(node, 'ros2-test');
  const path = (await node.close()).recording!;
  await ros.close();
  return path;
}

// The three sessions are independent (each its own stand-in bus, node on free ports and session id) and
// mostly wait on the table and the robot's lines: they run at once.
describe.concurrent('a session on the ROS 2 bus replays in process', () => {
  it('with the robot connected over ROS 2 in the recording and in the replay', async () => {
    const path = await recordOnRos2('ros2-kind', { wizard: false, format: 'json' });
    const rec = recording.readRecording(path);
    const robotConnection = rec.messages.find(
      (m) => m.topic.name === '/parceiro/connections' && (m.message as { component: string }).component === 'robot',
    );
    expect(robotConnection?.message).toMatchObject({ kind: 'ros2' });
    const r = await replay.replayRecording(rec);
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.compared['/parceiro/connections']).toBeGreaterThan(0);
    expect(r.notes).toContain('the session ran on the ROS 2 bus; it is replayed in process');
  }, 120_000);

  for (const format of ['json', 'ros2'] as const) {
    it(`with a wizard line another node sent, recorded as incoming and fed back (${format})`, async () => {
      const path = await recordOnRos2(`ros2-wizard-${format}`, { wizard: true, format });
      const rec = recording.readRecording(path);
      expect(rec.format).toBe(format);
      const incoming = rec.messages.filter((m) => m.direction === 'in');
      expect(incoming.map((m) => [m.topic.name, m.message])).toEqual([['/parceiro/wizard/say', WIZARD]]);
      // The robot said it: the line is in what the recording holds of the robot's speech.
      expect(
        rec.messages.some((m) => m.topic.name === '/tts/say' && (m.message as { text: string }).text === WIZARD.text),
      ).toBe(true);
      // Its own messages, heard back through ROS, are not taken for another node's.
      expect(rec.messages.filter((m) => m.topic.name === '/parceiro/wizard/say')).toHaveLength(1);
      const r = await replay.replayRecording(new recording.RecordingStream(path));
      expect(r.firstDifference).toBeNull();
      expect(r.matches).toBe(true);
      expect(r.fed.requests).toBeGreaterThanOrEqual(1);
    }, 120_000);
  }
});

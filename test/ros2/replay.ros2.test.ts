// A session on the real ROS 2 graph (--bus ros2), with a wizard line another node sent it
// (`ros2 topic pub`, as a lab's operator would), replays to itself in process: the robot's connection
// says ros2 in the recording and in the replay, and the line is recorded as incoming and fed back.
// In both recording formats. The node runs in this process (built, from dist/), a simulated table
// plays the other seats.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { playToEnd, recording, replay, robot } from '../robot/replay-harness.js';
import { requireRos2 } from './ros2-graph.js';
import { spawn } from 'node:child_process';

const { env } = requireRos2(43);
const dir = mkdtempSync(join(tmpdir(), 'parceiro-ros2-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ros2(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ros2', args, { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('a session on the ROS 2 graph', () => {
  for (const format of ['json', 'ros2'] as const) {
    it(`replays to itself, with the wizard line another node sent (${format})`, async () => {
      const node = await robot.ParceiroNode.start({
        seed: 21,
        table: { host: '127.0.0.1', port: 0, token: 'ros2-graph-test' },
        games: 1,
        sessionId: `graph-${format}`,
        sources: { player: robot.syncRobotPlayer((p) => new RulePlayer(p), { seat: 0, seed: 21 }) },
        minThinkMs: 50,
        expectationBudgetMs: 20,
        speech: 'publish',
        bus: 'ros2',
        recordingsDir: dir,
        recordingFormat: format,
        logger: robot.createLogger({ level: 'silent', pretty: false }),
        dashboard: null,
      });
      let heard = 0;
      node.bus.subscribe('wizardSay', () => heard++);
      // Another node, once it sees the node's subscription: the operator's line, as a lab would send it.
      const pub = await ros2([
        'topic',
        'pub',
        '--once',
        '-w',
        '1',
        '/parceiro/wizard/say',
        'parceiro_msgs/msg/WizardSay',
        "{text: 'Olá, sou o EMYS!', language: pt, utterance_id: '', target: all, by: lab}",
      ]);
      expect(pub.code, pub.out).toBe(0);
      const end = Date.now() + 30_000;
      while (heard === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(heard).toBe(1);
      await playToEnd(node, 'ros2-graph-test');
      const path = (await node.close()).recording!;

      const rec = recording.readRecording(path);
      expect(rec.problems).toEqual([]);
      expect(rec.format).toBe(format);
      expect(rec.messages.filter((m) => m.direction === 'in').map((m) => [m.topic.name, m.message])).toEqual([
        [
          '/parceiro/wizard/say',
          { text: 'Olá, sou o EMYS!', language: 'pt', utterance_id: '', target: 'all', by: 'lab' },
        ],
      ]);
      // None of the node's own messages, heard back through ROS 2, was taken for another node's.
      expect(rec.messages.filter((m) => m.direction === 'in')).toHaveLength(1);
      expect(
        rec.messages.find(
          (m) => m.topic.name === '/parceiro/connections' && (m.message as { component: string }).component === 'robot',
        )?.message,
      ).toMatchObject({ kind: 'ros2' });

      const r = await replay.replayRecording(new recording.RecordingStream(path));
      expect(r.firstDifference).toBeNull();
      expect(r.matches).toBe(true);
      expect(r.compared['/tts/say']).toBeGreaterThan(0);
    }, 180_000);
  }
});

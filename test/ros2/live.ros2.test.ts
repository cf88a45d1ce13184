// `parceiro live --bus ros2` on a real ROS 2 graph, seen from a lab's own rclpy program
// (lab_node.py): one whole session with a table that follows the protocol (DayTable), one node run
// shared by every assertion, as the ROS 2 tests must stay quick.
//
// - every topic of robot/bus/topics.ts is on the graph with its declared type and QoS, published by
//   the node, and the lab program receives on each what the node's own bus carried (its recording):
//   the same content, field for field, arrays as arrays;
// - a lab program that subscribes late gets the latched topics;
// - inputs over ROS 2 (a wizard line, a wizard expression, a behaviour toggle, the language, a
//   session control, a table event) are each answered as over socket.io;
// - SIGINT ends it with no ROS 2 participant left behind.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TopicSpec } from '../../robot/bus/index.js';
import { ALL_TOPICS, TOPICS, messageKey } from '../../robot/bus/index.js';
import { readRecording } from '../../robot/recording/index.js';
import { DayTable } from '../robot/day-table.js';
import { CLI } from '../launch/run-cli.js';
import { LabNode, Started, nodeList, requireRos2, until } from './ros2-graph.js';

const { env } = requireRos2(62);
const dir = mkdtempSync(join(tmpdir(), 'parceiro-ros2-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the lab program publishes: the node's inputs, each as a lab would send it. */
const INPUTS = {
  wizardSay: { text: 'Boa tarde, laboratório!', language: '', utterance_id: '', target: 'all', by: 'lab' },
  wizardExpression: { expression: 'surprised', intensity: 0.8, by: 'lab' },
  setToggles: {
    speech: true,
    postures: true,
    gaze: false,
    partner_speech: true,
    opponent_speech: true,
    expressiveness: 0.7,
    changed: ['gaze', 'expressiveness'],
    by: 'lab',
  },
  setLanguage: { language: 'en', by: 'lab' },
  pause: { action: 'pause', by: 'lab' },
  resume: { action: 'resume', by: 'lab' },
  why: {
    table_id: 'lab',
    seq: 1,
    kind: 'control',
    zone: '',
    seat: -1,
    fiducial: -1,
    card: '',
    action: 'why',
    dealer: -1,
    trump_card: '',
    seats: [],
    table_name: '',
    table_kind: '',
    reason: '',
    event: '',
    code: '',
    repeats: 0,
    first_seq: 0,
  },
};

describe('parceiro live --bus ros2, seen from a lab program', () => {
  it('plays a session on the graph: every topic with its type, QoS and content; late subscribers; inputs answered; no participant left', async () => {
    const lab = new LabNode(env);
    const token = 'ros2-graph-token-01';
    let live: Started | null = null;
    let table: DayTable | null = null;
    try {
      await lab.ready();
      for (const t of ALL_TOPICS) await lab.subscribe(t);
      live = new Started(
        process.execPath,
        [
          ...[CLI, 'live', '--bus', 'ros2', '--port', '0', '--dashboard-port', '0', '--token', token],
          ...['--games', '1', '--seed', '7', '--budget', '50', '--min-think', '100', '--speech', 'publish'],
          ...['--level', 'club', '--recordings', join(dir, 'recordings')],
        ],
        env,
        dir,
      );
      const url = (await live.printed(/waiting for a table at (\S+) /, 'it listened'))[1]!;
      const recording = (await live.printed(/^Recording to (\S+)$/m, 'it recorded'))[1]!;
      const t = (k: keyof typeof TOPICS): TopicSpec => TOPICS[k];

      // Every topic on the graph, published by the node with its declared type and QoS.
      for (const topic of ALL_TOPICS) {
        const pubs = await lab.info(topic.name);
        expect(pubs, topic.name).toContainEqual({ node: 'parceiro', type: topic.message.type, qos: topic.qos });
      }

      // A lab program that subscribes late, in another process, gets the latched topics.
      await until(() => lab.on(t('gameState').name).length > 0, 'the state reached the lab');
      for (const k of ['toggles', 'language', 'gameState', 'connections'] as const) await lab.subscribe(t(k), 'late');
      await until(
        () =>
          ['toggles', 'language', 'gameState', 'connections'].every(
            (k) => lab.on(t(k as never).name, 'late').length > 0,
          ),
        'the late subscriber got every latched topic',
      );
      expect(lab.on(t('connections').name, 'late')).toContainEqual(
        expect.objectContaining({ component: 'robot', kind: 'ros2', connected: true }),
      );

      // Inputs over ROS 2, before the game, each answered as from the dashboard.
      const said = (text: string) => () =>
        lab.on(t('say').name).some((m) => String(m.text).includes(text)) &&
        lab.on(t('utterance').name).some((m) => String(m.text).includes(text));
      await lab.publish(t('wizardSay'), INPUTS.wizardSay);
      await until(said(INPUTS.wizardSay.text), 'the robot said the wizard line');
      await lab.publish(t('wizardExpression'), INPUTS.wizardExpression);
      await until(
        () => lab.on(t('expression').name).some((m) => m.expression === 'surprised'),
        'the face showed the wizard expression',
      );
      await lab.publish(t('setToggles'), INPUTS.setToggles);
      await until(
        () => lab.on(t('toggles').name).some((m) => m.by === 'lab' && m.gaze === false),
        'the toggles changed',
      );
      expect(lab.on(t('toggles').name).find((m) => m.by === 'lab')).toMatchObject({ gaze: false, speech: true });
      expect(lab.on(t('toggles').name).find((m) => m.by === 'lab')!.expressiveness).toBeCloseTo(0.7, 5);
      await lab.publish(t('setLanguage'), INPUTS.setLanguage);
      await until(
        () => lab.on(t('language').name).some((m) => m.language === 'en' && m.by === 'lab'),
        'the language changed',
      );
      await lab.publish(t('sessionControl'), INPUTS.pause);
      await until(() => lab.on(t('gameState').name).some((m) => m.status === 'paused'), 'the session paused');
      await lab.publish(t('sessionControl'), INPUTS.resume);
      await until(() => lab.on(t('gameState').name).at(-1)?.status === 'waiting', 'the session resumed');

      // The game, from a table on socket.io.
      table = new DayTable({ url, token });
      await table.start();
      // Mid-game, a table event published on ROS 2 (asking why the robot played its card) is answered.
      await until(() => lab.on(t('decision').name).length > 0, 'the robot decided');
      await lab.publish(t('tableEvents'), INPUTS.why);
      await until(() => lab.on(t('utterance').name).some((m) => String(m.id).startsWith('why#')), 'the robot said why');
      await live.printed(/^Session \S+ is over after 1 game/m, 'the session was over', 240_000);
      // What the session's recording can hold: the messages until its end (the table leaving after it is in none).
      const inSession = lab.received.length;

      table.close();
      table = null;
      live.child.kill('SIGINT');
      expect(await live.done).toBe(0);
      expect(live.err).not.toMatch(/"level":50|\n\s+at /);
      expect(live.out).toMatch(/^Stopped \(/m);

      // Every topic reached the lab program.
      for (const topic of ALL_TOPICS) expect(lab.on(topic.name).length, topic.name).toBeGreaterThan(0);
      // What the lab received from the node is what the node's bus carried (its recording), field for
      // field (float32 rounded as ROS 2 rounds it); arrays are arrays on both.
      const ours = new Set(
        Object.entries(INPUTS).map(([k, m]) => {
          const key = k === 'pause' || k === 'resume' ? 'sessionControl' : k === 'why' ? 'tableEvents' : k;
          return `${TOPICS[key as keyof typeof TOPICS].name} ${messageKey(TOPICS[key as keyof typeof TOPICS].message, m)}`;
        }),
      );
      const rec = readRecording(recording);
      expect(rec.complete).toBe(true);
      const recorded = new Map<string, Set<string>>();
      for (const m of rec.messages) {
        if (!recorded.has(m.topic.name)) recorded.set(m.topic.name, new Set());
        recorded.get(m.topic.name)!.add(messageKey(m.topic.message, m.message));
        expect(JSON.stringify(m.message), m.topic.name).not.toMatch(/\{"0":/);
      }
      let compared = 0;
      for (const topic of ALL_TOPICS) {
        for (const { msg: m } of lab.received.slice(0, inSession).filter((r) => r.topic === topic.name && !r.tag)) {
          const key = messageKey(topic.message, m);
          if (ours.has(`${topic.name} ${key}`)) continue;
          expect(recorded.get(topic.name)?.has(key), `${topic.name}: ${JSON.stringify(m)}`).toBe(true);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(100);

      // Gone from the graph: with the lab program gone too, no participant is left.
      await lab.close();
      expect(await nodeList(env)).toEqual([]);
    } finally {
      table?.close();
      live?.kill();
      await lab.close();
    }
  }, 360_000);
});

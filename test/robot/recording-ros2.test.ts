// Recordings in the rosbag2 MCAP profile: the schemas are complete `ros2msg` definitions as rosbag2
// writes them, the messages CDR as a ROS 2 publisher sends them (the same bytes as
// @foxglove/rosmsg2-serialization's writer where that writer is right, UTF-8 text whole where it is
// not), the channels carry their QoS as rosbag2 keeps it, and the reader gives back what was
// published, as it does for JSON. Incoming messages (another node's) go on a channel of their own in
// either format. That rclpy reads the CDR as its own types: test/ros2/recording-rclpy.test.ts.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { parse } from '@foxglove/rosmsg';
import { MessageReader, MessageWriter } from '@foxglove/rosmsg2-serialization';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOPICS, DecisionMsg, InProcessBus, PointStampedMsg, TOPICS } from '../../robot/bus/index.js';
import {
  CdrCodec,
  Recorder,
  asRecorded,
  offeredQos,
  readRecording,
  ros2Definition,
} from '../../robot/recording/index.js';
import { sampleOf } from './message-samples.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});
const tmp = (name: string): string => {
  dir ||= mkdtempSync(join(tmpdir(), 'parceiro-ros2rec-'));
  return join(dir, name);
};

const ascii = (i: number): string => `card ${i} AS`;
const portuguese = (i: number): string => `Olá, parceiro ${i}! «ás» não`;

describe('the rosbag2 profile', () => {
  it('writes complete ros2msg definitions as rosbag2 does: dependencies after 80 =, by name, depth first, once', () => {
    const text = ros2Definition(PointStampedMsg);
    const sep = '='.repeat(80);
    expect(text).toBe(
      [
        '# A point with a frame.',
        'std_msgs/Header header',
        'Point point',
        '',
        sep,
        'MSG: geometry_msgs/Point',
        '# A point in space (m).',
        'float64 x',
        'float64 y',
        'float64 z',
        '',
        sep,
        'MSG: std_msgs/Header',
        '# Time stamp and coordinate frame.',
        'builtin_interfaces/Time stamp',
        'string frame_id',
        '',
        sep,
        'MSG: builtin_interfaces/Time',
        '# A point in time.',
        'int32 sec',
        'uint32 nanosec',
        '',
      ].join('\n'),
    );
    // A type of the message's own package is named bare in the text, in full after MSG:, as rosbag2 resolves it.
    expect(ros2Definition(DecisionMsg)).toContain('\nMoveBelief[] moves\n');
    expect(ros2Definition(DecisionMsg)).toContain(`\n${sep}\nMSG: parceiro_msgs/MoveBelief\n`);
  });

  it("keeps each topic's QoS as rosbag2 reads a file without its own metadata record (policies as numbers)", () => {
    expect(offeredQos(TOPICS.gameState.qos)).toBe(
      '- history: 1\n  depth: 1\n  reliability: 1\n  durability: 1\n  deadline:\n    sec: 0\n    nsec: 0\n' +
        '  lifespan:\n    sec: 0\n    nsec: 0\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 0\n    nsec: 0\n' +
        '  avoid_ros_namespace_conventions: false\n',
    );
    expect(offeredQos(TOPICS.gameEvents.qos)).toContain('depth: 100\n  reliability: 1\n  durability: 2\n');
  });

  it("writes every topic's messages in CDR with the library's bytes, and reads them back", () => {
    for (const topic of ALL_TOPICS) {
      const definition = ros2Definition(topic.message);
      const codec = new CdrCodec(definition);
      const library = new MessageWriter(parse(definition, { ros2: true }));
      for (let n = 0; n < 4; n++) {
        const m = sampleOf(topic.message, n, ascii);
        const bytes = codec.encode(m);
        expect(Buffer.from(bytes).toString('hex'), `${topic.name} ${n}`).toBe(
          Buffer.from(library.writeMessage(m)).toString('hex'),
        );
        expect(codec.decode(bytes), `${topic.name} ${n}`).toEqual(m);
      }
    }
  });

  it("keeps UTF-8 text whole, which the released library's writer cuts short", () => {
    const definition = ros2Definition(TOPICS.say.message);
    const codec = new CdrCodec(definition);
    const m = sampleOf(TOPICS.say.message, 1, portuguese);
    expect(codec.decode(codec.encode(m))).toEqual(m);
    // When this fails, a release of @foxglove/rosmsg2-serialization sizes strings by their bytes: its
    // MessageWriter can take the place of CdrCodec.encode (see robot/recording/ros2-profile.ts).
    const defs = parse(definition, { ros2: true });
    const theirs = new MessageReader(defs).readMessage(new MessageWriter(defs).writeMessage(m));
    expect(theirs).not.toEqual(m);
  });

  it('records in the profile: header ros2, ros2msg schemas, cdr channels with their QoS; reads back what was published', async () => {
    const path = tmp('ros2.mcap');
    const bus = new InProcessBus();
    let now = 1_700_000_000_000;
    const rec = await Recorder.start({ path, bus, clock: () => now, session: { id: 's' }, format: 'ros2' });
    const published: { topic: string; message: unknown }[] = [];
    for (const topic of ALL_TOPICS) {
      const key = Object.entries(TOPICS).find(([, t]) => t === topic)![0] as keyof typeof TOPICS;
      const m = sampleOf(topic.message, 3, portuguese);
      now += 5;
      bus.publish(key, m as never);
      published.push({ topic: topic.name, message: m });
    }
    await rec.close();

    const reader = new McapStreamReader();
    reader.append(readFileSync(path));
    const records = [];
    for (let r = reader.nextRecord(); r; r = reader.nextRecord()) records.push(r);
    const header = records.find((r) => r.type === 'Header');
    expect(header).toMatchObject({ profile: 'ros2', library: 'parceiro' });
    // (Each schema and channel is written where it begins and again in the summary.)
    const schemas = records.filter((r) => r.type === 'Schema');
    expect(new Set(schemas.map((s) => s.encoding))).toEqual(new Set(['ros2msg']));
    expect(new Set(schemas.map((s) => s.id)).size).toBe(new Set(ALL_TOPICS.map((t) => t.message.type)).size);
    const channels = records.filter((r) => r.type === 'Channel');
    expect(new Set(channels.map((c) => c.id)).size).toBe(ALL_TOPICS.length);
    for (const c of channels) {
      expect(c.messageEncoding).toBe('cdr');
      const topic = ALL_TOPICS.find((t) => t.name === c.topic)!;
      expect(c.metadata.get('offered_qos_profiles')).toBe(offeredQos(topic.qos));
    }

    const back = readRecording(path);
    expect(back.problems).toEqual([]);
    expect(back.format).toBe('ros2');
    expect(back.session).toEqual({ id: 's' });
    expect(back.messages.map((m) => ({ topic: m.topic.name, message: m.message }))).toEqual(published);
    // What a replay compares its own messages with: as the recording holds them.
    const topic = TOPICS.emotions;
    const m = sampleOf(topic.message, 2, ascii);
    (m as { mood: number }).mood = 0.7;
    expect((asRecorded('ros2', topic, m) as { mood: number }).mood).toBe(Math.fround(0.7));
    expect((asRecorded('json', topic, m) as { mood: number }).mood).toBe(0.7);
  });

  for (const format of ['json', 'ros2'] as const) {
    it(`records another node's messages on a channel of their own, marked incoming, as plain values (${format})`, async () => {
      const path = tmp(`in-${format}.mcap`);
      const bus = new InProcessBus();
      let now = 1_000;
      const rec = await Recorder.start({ path, bus, clock: () => now, session: {}, format });
      const line = { text: 'Olá!', language: 'pt', utterance_id: '', target: 'all', by: 'ros2' };
      rec.record(TOPICS.wizardSay, line, 'in');
      now += 1;
      bus.publish('wizardSay', { ...line, by: 'dashboard' });
      now += 1;
      // As rclnodejs gives a message: typed arrays.
      const state = sampleOf(TOPICS.gameState.message, 1, ascii);
      rec.record(TOPICS.gameState, { ...state, points: Int32Array.from([10, 20]) }, 'in');
      await rec.close();

      const back = readRecording(path);
      expect(back.problems).toEqual([]);
      expect(back.messages.map((m) => [m.topic.name, m.direction ?? 'out', m.time])).toEqual([
        ['/parceiro/wizard/say', 'in', 1_000],
        ['/parceiro/wizard/say', 'out', 1_001],
        ['/parceiro/game/state', 'in', 1_002],
      ]);
      expect(back.messages[2]!.message).toEqual({ ...state, points: [10, 20] });
      const reader = new McapStreamReader();
      reader.append(readFileSync(path));
      const marked = [];
      for (let r = reader.nextRecord(); r; r = reader.nextRecord())
        if (r.type === 'Channel' && r.metadata.get('parceiro.direction') === 'in') marked.push(r.topic);
      // (Each channel is written where it begins and again in the summary.)
      expect([...new Set(marked)]).toEqual(['/parceiro/wizard/say', '/parceiro/game/state']);
    });
  }
});

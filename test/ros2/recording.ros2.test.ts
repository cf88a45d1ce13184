// A recording in the rosbag2 profile, read by a real ROS 2: each message of every topic, taken from the
// MCAP file as `ros2 bag` would take it, is deserialized by rclpy (rclpy.serialization.
// deserialize_message) as the real message type (rosidl_runtime_py's get_message) and is, field for
// field, what was published (float32 fields as float32 keeps them); and every channel's schema names
// the real type's fields and types, nested types included.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { FieldType, MessageSpec } from '../../robot/bus/index.js';
import { ALL_TOPICS, InProcessBus, TOPICS, describeField } from '../../robot/bus/index.js';
import { Recorder } from '../../robot/recording/index.js';
import { sampleOf } from '../robot/message-samples.js';
import { ROOT, requireRos2 } from './ros2-graph.js';

const { env } = requireRos2(41);
const dir = mkdtempSync(join(tmpdir(), 'parceiro-rosbag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Asks rclpy_deserialize.py, one JSON line a request, and gives its answers in order. */
function rclpy(requests: object[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [join(ROOT, 'test/ros2/rclpy_deserialize.py')], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`rclpy_deserialize.py exited ${code}: ${err}`));
      resolve(
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
    });
    child.stdin.end(requests.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });
}

/** A message as a ROS 2 program holds it: float32 fields rounded to float32. */
function asRos(spec: MessageSpec, m: Record<string, unknown>): Record<string, unknown> {
  const one = (t: FieldType, v: unknown): unknown => {
    if (typeof t !== 'string')
      return t.array
        ? (v as Record<string, unknown>[]).map((x) => asRos(t.ref, x))
        : asRos(t.ref, v as Record<string, unknown>);
    if (describeField(t).base !== 'float32') return v;
    return Array.isArray(v) ? v.map((x: number) => Math.fround(x)) : Math.fround(v as number);
  };
  return Object.fromEntries(Object.entries(spec.fields).map(([k, t]) => [k, one(t, m[k])]));
}

/** A spec's fields as rosidl names their types (what get_fields_and_field_types gives), nested ones expanded. */
function rosidlFields(spec: MessageSpec): Record<string, unknown> {
  const names: Record<string, string> = { float32: 'float', float64: 'double', bool: 'boolean' };
  return Object.fromEntries(
    Object.entries(spec.fields).map(([name, t]) => {
      const f = describeField(t);
      const base = names[f.base] ?? f.base;
      const type = f.array === 'none' ? base : f.array === 'unbounded' ? `sequence<${base}>` : `${base}[${f.array}]`;
      return [name, typeof t === 'string' ? { type } : { type, fields: rosidlFields(t.ref) }];
    }),
  );
}

describe('a recording in the rosbag2 profile, read by rclpy', () => {
  it('holds every message as rclpy deserializes it into the real type, field for field what was published', async () => {
    const path = join(dir, 'rclpy.mcap');
    const bus = new InProcessBus();
    let now = 1_700_000_000_000;
    const rec = await Recorder.start({ path, bus, clock: () => now, session: { id: 'rclpy' }, format: 'ros2' });
    const published: unknown[] = [];
    for (const [key, topic] of Object.entries(TOPICS))
      for (let n = 0; n < 3; n++) {
        // Portuguese text (UTF-8 over one byte a character), arrays empty and full.
        const m = sampleOf(topic.message, n, (i) => `Olá, parceiro ${i}! Não «ás»`);
        now += 3;
        bus.publish(key as keyof typeof TOPICS, m as never);
        published.push(asRos(topic.message, m));
      }
    await rec.close();

    // The file's records, as a rosbag2 reader takes them: schemas by id, channels by id, the messages.
    const reader = new McapStreamReader();
    reader.append(readFileSync(path));
    const schemas = new Map<number, { name: string; encoding: string }>();
    const channels = new Map<number, { topic: string; schemaId: number; encoding: string }>();
    const requests: { type: string; cdr: string }[] = [];
    const topics: string[] = [];
    for (let r = reader.nextRecord(); r; r = reader.nextRecord()) {
      if (r.type === 'Schema') schemas.set(r.id, { name: r.name, encoding: r.encoding });
      if (r.type === 'Channel')
        channels.set(r.id, { topic: r.topic, schemaId: r.schemaId, encoding: r.messageEncoding });
      if (r.type === 'Message') {
        const c = channels.get(r.channelId)!;
        expect(c.encoding).toBe('cdr');
        expect(schemas.get(c.schemaId)!.encoding).toBe('ros2msg');
        requests.push({ type: schemas.get(c.schemaId)!.name, cdr: Buffer.from(r.data).toString('hex') });
        topics.push(c.topic);
      }
    }
    expect(requests).toHaveLength(ALL_TOPICS.length * 3);
    const answers = await rclpy(requests);
    expect(answers).toHaveLength(requests.length);
    answers.forEach((a, i) => {
      expect(a.error, `${topics[i]} (${requests[i]!.type})`).toBeUndefined();
      expect(a.msg, `${topics[i]} (${requests[i]!.type})`).toEqual(published[i]);
    });

    // The definitions the schemas carry are the real types' (standard ones included), field for field.
    const types = [...new Set(ALL_TOPICS.map((t) => t.message.type))];
    const real = await rclpy(types.map((t) => ({ fields: t })));
    expect(real).toHaveLength(types.length);
    types.forEach((t, i) => {
      const spec = ALL_TOPICS.find((x) => x.message.type === t)!.message;
      expect(real[i]!.fields, t).toEqual(rosidlFields(spec));
    });
  }, 120_000);
});

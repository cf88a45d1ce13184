import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RclnodejsLike } from '../../robot/bus/index.js';
import { busContract } from './bus-contract.js';
import {
  ALL_TOPICS,
  GENERATED_HEADER,
  InProcessBus,
  PARCEIRO_MESSAGES,
  Ros2UnavailableError,
  checkMessage,
  createRos2Bus,
  describeField,
  jsonSchemaOf,
  parceiroMsgFiles,
} from '../../robot/bus/index.js';

const PKG = join(import.meta.dirname, '../../robot/parceiro_msgs');

describe('the interface package is what robot/bus/messages.ts generates', () => {
  it('has one .msg file per message, and no other', () => {
    const files = readdirSync(join(PKG, 'msg'))
      .filter((f) => f.endsWith('.msg'))
      .sort();
    expect(files).toEqual(PARCEIRO_MESSAGES.map((m) => `${m.type.split('/').pop()}.msg`).sort());
  });

  // The .msg files are generated (npm run gen:msgs); a spec changed without regenerating fails here.
  for (const [name, text] of parceiroMsgFiles()) {
    it(`${name}: as npm run gen:msgs writes it`, () => {
      expect(readFileSync(join(PKG, 'msg', name), 'utf8')).toBe(text);
    });
  }

  it('generated files keep the fields, their types and order, under the generated header', () => {
    const fieldLines = (spec: (typeof PARCEIRO_MESSAGES)[number]): string[] =>
      Object.entries(spec.fields).map(([name, t]) => {
        const f = describeField(t);
        const base = f.base.startsWith('parceiro_msgs/') ? f.base.slice('parceiro_msgs/'.length) : f.base;
        return `${base}${f.array === 'none' ? '' : f.array === 'unbounded' ? '[]' : `[${f.array}]`} ${name}`;
      });
    const files = parceiroMsgFiles();
    for (const spec of PARCEIRO_MESSAGES) {
      const text = files.get(`${spec.type.split('/').pop()}.msg`)!;
      expect(text.startsWith(GENERATED_HEADER)).toBe(true);
      expect(text.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(fieldLines(spec));
    }
  });

  it('CMakeLists.txt generates exactly these messages', () => {
    const cmake = readFileSync(join(PKG, 'CMakeLists.txt'), 'utf8');
    const listed = [...cmake.matchAll(/"msg\/(\w+)\.msg"/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(PARCEIRO_MESSAGES.map((m) => m.type.split('/').pop()).sort());
  });

  it('names ROS 2 types as pkg/msg/Name, and every topic name is a valid ROS 2 name', () => {
    for (const t of ALL_TOPICS) {
      expect(t.message.type).toMatch(/^[a-z][a-z0-9_]*\/msg\/[A-Z][A-Za-z0-9]*$/);
      expect(t.name).toMatch(/^(\/[a-z][a-z0-9_]*)+$/);
    }
  });
});

describe('message checks and schemas', () => {
  const toggles = {
    speech: true,
    postures: true,
    gaze: false,
    partner_speech: true,
    opponent_speech: true,
    expressiveness: 0.5,
    changed: [],
    by: 'config',
  };
  const spec = ALL_TOPICS.find((t) => t.name === '/parceiro/behaviours/toggles')!.message;

  it('accepts a well-formed message and names the first wrong field', () => {
    expect(checkMessage(spec, toggles)).toBeNull();
    expect(checkMessage(spec, { ...toggles, gaze: 'no' })).toBe(
      'parceiro_msgs/msg/BehaviourToggles.gaze: expected true or false',
    );
    expect(checkMessage(spec, { ...toggles, extra: 1 })).toMatch(/extra: not a field/);
    const { speech: _, ...missing } = toggles;
    expect(checkMessage(spec, missing)).toMatch(/speech: expected true or false/);
  });

  it('checks nested messages, integer fields and fixed-size arrays', () => {
    const state = ALL_TOPICS.find((t) => t.name === '/parceiro/game/state')!.message;
    const ok = {
      session_id: 's',
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
      robot_hand: ['AS'],
    };
    expect(checkMessage(state, ok)).toBeNull();
    expect(checkMessage(state, { ...ok, points: [1] })).toMatch(/points: expected 2 items, got 1/);
    expect(checkMessage(state, { ...ok, trick: 1.5 })).toMatch(/trick: expected an integer/);
    const decision = ALL_TOPICS.find((t) => t.name === '/parceiro/decision')!.message;
    const d = {
      seat: 0,
      card: 'AS',
      moves: [{ card: 'AS', mean: 70, sd: 3, win_probability: 0.8 }],
      worlds: 10,
      nodes: 1e6,
      time_ms: 20,
      win_probability: 0.8,
      exact_from_trick: 0,
      fallback: '',
      explanation: '',
      inference_trust: 0.5,
      inference_candidates: 2048,
      inference_effective: 900,
      objective: 'victories',
      points_from: 'bounds',
      move_victories: [1],
      reason_kind: 'takes-trick',
      reason_other: '2S',
      reason_support: 0.9,
      reason_points: 15,
      reason_suit: '',
      reason_kept: '',
    };
    expect(checkMessage(decision, d)).toBeNull();
    expect(
      checkMessage(decision, { ...d, moves: [{ card: 'AS', mean: 'high', sd: 3, win_probability: 0.8 }] }),
    ).toMatch(/moves\[0\]\.mean: expected a number/);
  });

  it('gives every topic a JSON schema that lists every field', () => {
    for (const t of ALL_TOPICS) {
      const schema = jsonSchemaOf(t.message) as { required: string[]; title: string };
      expect(schema.title).toBe(t.message.type);
      expect(schema.required).toEqual(Object.keys(t.message.fields));
    }
  });
});

describe('InProcessBus', () => {
  const toggles = (speech: boolean) => ({
    speech,
    postures: true,
    gaze: true,
    partner_speech: true,
    opponent_speech: true,
    expressiveness: 1,
    changed: ['speech'],
    by: 'test',
  });

  // The cases every bus passes; the real ROS 2 bus runs them too (test/ros2/bus.ros2.test.ts).
  busContract(async (onError) => new InProcessBus(onError));

  it('delivers in publish order, also what a handler publishes while being called', () => {
    const bus = new InProcessBus();
    const seen: string[] = [];
    bus.subscribe('say', (m) => {
      seen.push(`say:${m.text}`);
      if (m.text === 'one')
        bus.publish('tableOutput', { kind: 'prompt', seat: 1, card: '', code: '', text: 'your turn' });
    });
    bus.subscribe('tableOutput', (m) => seen.push(`table:${m.text}`));
    bus.publish('say', { text: 'one', language: 'pt', id: 'u' });
    bus.publish('say', { text: 'two', language: 'pt', id: 'u' });
    expect(seen).toEqual(['say:one', 'table:your turn', 'say:two']);
  });

  it('shows every published message to its taps, and stops after unsubscribe and close', async () => {
    const bus = new InProcessBus();
    const tapped: string[] = [];
    const untap = bus.tap((e) => tapped.push(`${e.direction} ${e.topic.name}`));
    const got: boolean[] = [];
    const off = bus.subscribe('toggles', (m) => got.push(m.speech));
    bus.publish('toggles', toggles(true));
    off();
    bus.publish('toggles', toggles(false));
    untap();
    bus.publish('toggles', toggles(true));
    expect(got).toEqual([true]);
    expect(tapped).toEqual(['out /parceiro/behaviours/toggles', 'out /parceiro/behaviours/toggles']);
    await bus.close();
    bus.publish('toggles', toggles(true));
  });
});

/** An rclnodejs whose start fails, as when its native library cannot load. */
const failingRclnodejs = (): RclnodejsLike =>
  ({
    init: async () => Promise.reject(new Error('librcl.so: cannot open shared object file')),
    shutdown: () => {},
  }) as unknown as RclnodejsLike;

// What the real graph cannot show (test/ros2/ runs the bus, the node and the launch file on ROS 2):
// the bus where ROS 2 is not sourced, rclnodejs is missing, or cannot start.
describe('the ROS 2 bus where it cannot run', () => {
  it('says what to source when no ROS 2 environment is there', async () => {
    await expect(createRos2Bus({ env: {} })).rejects.toThrow(Ros2UnavailableError);
    await expect(createRos2Bus({ env: {} })).rejects.toThrow(
      /no ROS 2 environment is sourced.*source launch\/ros2\/env\.sh/,
    );
  });

  it('says so clearly when rclnodejs cannot be loaded or started', async () => {
    await expect(
      createRos2Bus({
        env: { ROS_DISTRO: 'jazzy' },
        load: async () => Promise.reject(new Error("Cannot find package 'rclnodejs'")),
      }),
    ).rejects.toThrow(/rclnodejs could not be loaded \(Cannot find package 'rclnodejs'\).*launch\/ros2\/env\.sh/);
    await expect(createRos2Bus({ load: async () => failingRclnodejs() })).rejects.toThrow(
      /rclnodejs could not start \(librcl\.so/,
    );
  });
});

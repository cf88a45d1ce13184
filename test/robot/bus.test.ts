import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RclnodejsLike, TopicSpec } from '../../robot/bus/index.js';
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

  it("hands a latched topic's last message to late subscribers, and not an event topic's", () => {
    const bus = new InProcessBus();
    bus.publish('toggles', toggles(true));
    bus.publish('toggles', toggles(false));
    bus.publish('say', { text: 'gone', language: 'pt', id: 'u' });
    const got: unknown[] = [];
    bus.subscribe('toggles', (m) => got.push(m.speech));
    bus.subscribe('say', (m) => got.push(m.text));
    expect(got).toEqual([false]);
  });

  it('keeps delivering when a subscriber throws, and reports the error with its topic', () => {
    const errors: string[] = [];
    const bus = new InProcessBus((e, topic: TopicSpec) => errors.push(`${topic.name}: ${(e as Error).message}`));
    const got: boolean[] = [];
    bus.subscribe('toggles', () => {
      throw new Error('broken handler');
    });
    bus.subscribe('toggles', (m) => got.push(m.speech));
    bus.publish('toggles', toggles(true));
    expect(got).toEqual([true]);
    expect(errors).toEqual(['/parceiro/behaviours/toggles: broken handler']);
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

/** A stand-in with rclnodejs's API shape: publishers route to subscriptions of the same topic. */
function fakeRclnodejs(overrides: Record<string, unknown> = {}) {
  const log: string[] = [];
  class Parameter {
    constructor(
      readonly name: string,
      readonly type: number,
      readonly value: unknown,
    ) {}
  }
  const ParameterType = { PARAMETER_BOOL: 1, PARAMETER_INTEGER: 2, PARAMETER_DOUBLE: 3, PARAMETER_STRING: 4 };
  const params = new Map<string, unknown>();
  const subs = new Map<string, ((m: unknown) => void)[]>();
  class QoS {
    static HistoryPolicy = { RMW_QOS_POLICY_HISTORY_KEEP_LAST: 1 };
    static ReliabilityPolicy = { RMW_QOS_POLICY_RELIABILITY_RELIABLE: 1, RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: 2 };
    static DurabilityPolicy = { RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: 1, RMW_QOS_POLICY_DURABILITY_VOLATILE: 2 };
    constructor(
      readonly history = 0,
      readonly depth = 0,
      readonly reliability = 0,
      readonly durability = 0,
    ) {}
  }
  const qosText = (q: unknown): string => {
    const x = q as QoS;
    return `depth=${x.depth} ${x.reliability === 1 ? 'reliable' : 'best-effort'} ${x.durability === 1 ? 'transient-local' : 'volatile'}`;
  };
  class Node {
    constructor(name: string, ns?: string) {
      log.push(`node ${name} ns=${ns}`);
    }
    createPublisher(type: string, topic: string, options?: { qos?: unknown }) {
      log.push(`pub ${topic} ${type} ${qosText(options?.qos)}`);
      return { publish: (m: unknown) => (subs.get(topic) ?? []).forEach((cb) => cb(structuredClone(m))) };
    }
    createSubscription(type: string, topic: string, options: { qos?: unknown }, cb: (m: unknown) => void) {
      log.push(`sub ${topic} ${type} ${qosText(options.qos)}`);
      subs.set(topic, [...(subs.get(topic) ?? []), cb]);
      return {};
    }
    declareParameter(p: unknown) {
      const q = p as Parameter;
      log.push(`param ${q.name} type=${q.type}`);
      // As rcl does: a command-line override wins over the default; integers come back as bigint.
      const v = q.name in overrides ? overrides[q.name] : q.value;
      params.set(q.name, q.type === ParameterType.PARAMETER_INTEGER ? BigInt(v as number) : v);
      return p;
    }
    getParameter(name: string) {
      return params.has(name) ? { value: params.get(name) } : undefined;
    }
    spin() {
      log.push('spin');
    }
    destroy() {
      log.push('destroy');
    }
  }
  const rcl: RclnodejsLike = {
    init: async () => {
      log.push('init');
    },
    Node,
    QoS,
    shutdown: () => {
      log.push('shutdown');
    },
    Parameter,
    ParameterType,
  };
  return { rcl, log };
}

describe('the ROS 2 bus (against the rclnodejs API shape)', () => {
  it('publishes every topic with its type and QoS, and round-trips messages through ROS', async () => {
    const { rcl, log } = fakeRclnodejs();
    const bus = await createRos2Bus({ load: async () => rcl, nodeName: 'parceiro' });
    expect(bus.kind).toBe('ros2');
    expect(log).toContain('pub /parceiro/game/state parceiro_msgs/msg/GameState depth=1 reliable transient-local');
    expect(log).toContain('pub /robot_face/expression hri_msgs/msg/Expression depth=100 reliable volatile');
    expect(log.filter((l) => l.startsWith('pub ')).length).toBe(ALL_TOPICS.length);
    const got: string[] = [];
    const tapped: string[] = [];
    bus.tap((e) => tapped.push(e.direction));
    bus.subscribe('say', (m) => got.push(m.text));
    expect(log).toContain('sub /tts/say parceiro_msgs/msg/Say depth=100 reliable volatile');
    bus.publish('say', { text: 'Boa, parceiro!', language: 'pt', id: 'u' });
    expect(got).toEqual(['Boa, parceiro!']);
    expect(tapped).toEqual(['out']);
    await bus.close();
    expect(log.slice(-2)).toEqual(['destroy', 'shutdown']);
  });

  it('declares the node settings as ROS parameters, with overrides from ROS and config defaults otherwise', async () => {
    const defaults = { seat: 0, language: 'pt', budget_ms: 2000, expressiveness: 1.0, speech: true };
    const { rcl, log } = fakeRclnodejs({ seat: 2, expressiveness: 0.5, speech: false });
    const bus = await createRos2Bus({ load: async () => rcl });
    expect(bus.parameters(defaults, ['seat', 'budget_ms'])).toEqual({
      seat: 2,
      language: 'pt',
      budget_ms: 2000,
      expressiveness: 0.5,
      speech: false,
    });
    expect(log).toContain('param seat type=2');
    expect(log).toContain('param expressiveness type=3');
    expect(log).toContain('param budget_ms type=2');
    expect(log).toContain('param speech type=1');
    expect(log).toContain('param language type=4');
    await bus.close();
    expect(new InProcessBus().parameters(defaults)).toEqual(defaults);
  });

  it('says what to source when no ROS 2 environment is there', async () => {
    await expect(createRos2Bus({ env: {} })).rejects.toThrow(Ros2UnavailableError);
    await expect(createRos2Bus({ env: {} })).rejects.toThrow(/no ROS 2 environment is sourced.*source \/opt\/ros/);
  });

  it('says so clearly when rclnodejs cannot be loaded or started', async () => {
    await expect(
      createRos2Bus({
        env: { ROS_DISTRO: 'jazzy' },
        load: async () => Promise.reject(new Error("Cannot find package 'rclnodejs'")),
      }),
    ).rejects.toThrow(/rclnodejs could not be loaded \(Cannot find package 'rclnodejs'\).*colcon build/);
    const { rcl } = fakeRclnodejs();
    rcl.init = async () => Promise.reject(new Error('librcl.so: cannot open shared object file'));
    await expect(createRos2Bus({ load: async () => rcl })).rejects.toThrow(/rclnodejs could not start \(librcl\.so/);
  });
});

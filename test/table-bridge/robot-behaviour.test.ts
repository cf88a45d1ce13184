// robot:behaviour and the state's language (added within version 1): a table that asks in its hello
// gets the robot's behaviour, one that does not gets nothing new; a bad `behaviour` field is refused
// with a reason; the language reaches every table's state; and the node's forwarding turns bus
// messages into behaviour messages that fit the schema and say nothing of the robot's hand.

import type { Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { GazeTarget } from '../../behaviours/index.js';
import { describeGazeTarget, loadBehaviourSetup, pointOf } from '../../behaviours/index.js';
import type { Seat } from '../../game/index.js';
import { InProcessBus, headerAt } from '../../robot/bus/index.js';
import { BusBehaviourPublisher, PublishedLooks } from '../../robot/live/behaviour-publisher.js';
import { forwardBehaviour, gazeTargetOf, tableGazeOf } from '../../robot/live/node/table-behaviour.js';
import type { RobotBehaviourMessage, TableState } from '../../table-bridge/index.js';
import { robotBehaviourSchema, tableStateSchema, validateOutbound } from '../../table-bridge/index.js';
import { cleanup, helloMessage, rawClient, startServer } from './harness.js';

afterEach(cleanup);

const hello = (
  s: Socket,
  msg: Record<string, unknown>,
): Promise<{ ok: boolean; code?: string; reason?: string; state?: TableState }> =>
  new Promise((resolve) => s.emit('hello', msg, resolve));

describe('robot:behaviour', () => {
  it('goes only to the tables that asked; the language reaches every state', async () => {
    const { server, url } = await startServer();
    const asking = rawClient(url);
    const plain = rawClient(url);
    const got: { asking: unknown[]; plain: unknown[] } = { asking: [], plain: [] };
    asking.on('robot:behaviour', (m: unknown) => got.asking.push(m));
    plain.on('robot:behaviour', (m: unknown) => got.plain.push(m));
    expect(
      await hello(
        asking,
        helloMessage({ table: { id: 'a', name: 'shows the robot', kind: 'virtual' }, behaviour: true }, [2]),
      ),
    ).toMatchObject({ ok: true });
    const first = await hello(plain, helloMessage({ table: { id: 'b', name: 'plain', kind: 'touch' } }, [1, 3]));
    expect(first).toMatchObject({ ok: true });
    expect(first.state!.language).toBeUndefined();
    const states: TableState[] = [];
    plain.on('state', (s: TableState) => states.push(s));
    server.setLanguage('en');
    const msg: RobotBehaviourMessage = { kind: 'gaze', atMs: 1, target: 'seat', seat: 2 };
    server.robotBehaviour(msg);
    await expect.poll(() => got.asking).toEqual([msg]);
    await expect.poll(() => states.at(-1)?.language).toBe('en');
    expect(validateOutbound(tableStateSchema, 'state', states.at(-1))).toMatchObject({ ok: true });
    expect(got.plain).toEqual([]);
  });

  it('refuses a hello whose behaviour field is not a boolean, with a reason', async () => {
    const { url } = await startServer();
    const s = rawClient(url);
    const r = await hello(s, helloMessage({ behaviour: 'yes' }));
    expect(r).toMatchObject({ ok: false, code: 'invalid' });
    expect(r.reason).toContain('hello.behaviour');
  });
});

describe("the node's forwarding", () => {
  const setup = loadBehaviourSetup({ language: 'en' });
  const robotSeat: Seat = 0;

  it('names the gaze target of each place the robot looks at', () => {
    const g = setup.table;
    // Across the table from seat 0 is seat 2; the next to play (seat 1) sits on its right.
    expect(gazeTargetOf(g, robotSeat, g.places.across)).toEqual({ target: 'seat', seat: 2 });
    expect(gazeTargetOf(g, robotSeat, g.places.right)).toEqual({ target: 'seat', seat: 1 });
    expect(gazeTargetOf(g, robotSeat, g.playArea.center)).toEqual({ target: 'play-area', seat: null });
    expect(gazeTargetOf(g, robotSeat, g.ownCards)).toEqual({ target: 'own-cards', seat: null });
  });

  const everyTarget = (): GazeTarget[] => [
    { kind: 'play-area' },
    { kind: 'own-cards' },
    { kind: 'rest' },
    ...([0, 1, 2, 3] as Seat[]).flatMap((seat): GazeTarget[] => [
      { kind: 'seat', seat },
      { kind: 'card', seat },
    ]),
  ];

  it("reads a look's target as the nearest place would name it, for every target and resting place", () => {
    for (const rest of ['play-area', 'across', 'own-cards'] as const)
      for (const seat of [0, 1, 2, 3] as Seat[]) {
        const g = { ...setup.table, rest };
        for (const t of everyTarget())
          expect(tableGazeOf(g, seat, t), `${rest} ${seat} ${describeGazeTarget(t)}`).toEqual(
            gazeTargetOf(g, seat, pointOf(g, seat, t)),
          );
      }
  });

  it("forwards the node's own looks with the target the publisher noted", () => {
    const bus = new InProcessBus();
    const looks = new PublishedLooks();
    const out: RobotBehaviourMessage[] = [];
    const off = forwardBehaviour(
      bus,
      { robotBehaviour: (m) => out.push(m), setLanguage: () => {} },
      { robotSeat, geometry: setup.table, now: () => 0, looks },
    );
    let now = 2000;
    const publisher = new BusBehaviourPublisher(bus, () => now++, looks);
    publisher.publish('/look_at', { frameId: 'emys_head', point: setup.table.places.left, target: 'seat:3' });
    publisher.publish('/look_at', { frameId: 'emys_head', point: setup.table.ownCards, target: 'own-cards' });
    expect(out).toEqual([
      { kind: 'gaze', atMs: 2000, target: 'seat', seat: 3 },
      { kind: 'gaze', atMs: 2001, target: 'own-cards', seat: null },
    ]);
    expect(looks.targetOf(headerAt(2000, 'emys_head'), setup.table.places.left)).toEqual({ kind: 'seat', seat: 3 });
    off();
    void bus.close();
  });

  it('forwards postures, expressions, gaze, lines said and feelings, each fitting the schema; never a line dropped', () => {
    const bus = new InProcessBus();
    const out: RobotBehaviourMessage[] = [];
    const languages: string[] = [];
    const off = forwardBehaviour(
      bus,
      { robotBehaviour: (m) => out.push(m), setLanguage: (l) => languages.push(l) },
      { robotSeat, geometry: setup.table, now: () => 5000 },
    );
    bus.publish('posture', {
      header: headerAt(1000),
      joint_names: ['head_yaw', 'left_eye_protrusion'],
      points: [
        {
          positions: [Math.PI / 6, 0.02],
          velocities: [],
          accelerations: [],
          effort: [],
          time_from_start: { sec: 0, nanosec: 400e6 },
        },
      ],
    });
    bus.publish('expression', {
      header: headerAt(1001),
      expression: 'happy',
      valence: 0.6,
      arousal: 0.3,
      confidence: 1,
    });
    bus.publish('lookAt', { header: headerAt(1002, 'emys_head'), point: setup.table.places.left });
    const line = {
      id: 'l1',
      category: 'play.good',
      text: 'Good one!',
      language: 'en',
      target: 'partner',
      addressee: 2,
      audience: '',
      backend: 'log',
      reason: '',
      event: 'play',
      about_seat: 2,
      moment: 3,
      emotion: '',
      due_in_ms: -1,
    };
    bus.publish('utterance', { ...line, phase: 'start' });
    bus.publish('utterance', { ...line, phase: 'dropped', reason: 'speech off' });
    bus.publish('utterance', { ...line, phase: 'end' });
    // On the appraisal's scale (intensities 0..10, mood -10..10); a table gets 0..1 and -1..1.
    bus.publish('emotions', {
      emotions: [
        { type: 'joy', intensity: 4, target: -1, target_team: 'team' },
        { type: 'admiration', intensity: 7, target: 2, target_team: '' },
      ],
      mood: 2,
      strongest: 'admiration',
      at_ms: 1003,
    });
    bus.publish('language', { language: 'en', by: 'operator' });
    off();
    bus.publish('expression', {
      header: headerAt(1004),
      expression: 'sad',
      valence: -0.6,
      arousal: 0.3,
      confidence: 1,
    });
    for (const m of out)
      expect(validateOutbound(robotBehaviourSchema, 'robot:behaviour', m), JSON.stringify(m)).toMatchObject({
        ok: true,
      });
    expect(out.map((m) => m.kind)).toEqual(['posture', 'expression', 'gaze', 'utterance', 'utterance', 'feeling']);
    expect(out[0]).toMatchObject({ atMs: 1000, durationMs: 400 });
    const joints = (out[0] as Extract<RobotBehaviourMessage, { kind: 'posture' }>).joints;
    expect(joints.head_yaw).toBeCloseTo(30);
    expect(joints.left_eye_protrusion).toBeCloseTo(20);
    expect(out[2]).toEqual({ kind: 'gaze', atMs: 1002, target: 'seat', seat: 3 });
    expect(out[3]).toEqual({
      kind: 'utterance',
      atMs: 5000,
      phase: 'start',
      id: 'l1',
      text: 'Good one!',
      language: 'en',
      to: 'partner',
      addressee: 2,
    });
    expect(out[5]).toEqual({
      kind: 'feeling',
      atMs: 1003,
      strongest: 'admiration',
      mood: 0.2,
      emotions: [
        { type: 'admiration', intensity: 0.7, seat: 2 },
        { type: 'joy', intensity: 0.4, seat: null },
      ],
    });
    expect(languages).toEqual(['en']);
    void bus.close();
  });
});

// Behaviours carried out on the bus: the real scheduler publishes through BusBehaviourPublisher onto the
// in-process bus, and every message is a valid ROS 2 message of its topic.

import { describe, expect, it } from 'vitest';
import type { BehaviourCommand, PlannedUtterance } from '../../behaviours/index.js';
import {
  BehaviourScheduler,
  PublishSpeech,
  SimulatedClock,
  ToggleBoard,
  emotionPosture,
  gazeAt,
} from '../../behaviours/index.js';
import type { BusEntry } from '../../robot/bus/index.js';
import { InProcessBus, checkMessage } from '../../robot/bus/index.js';
import { BusBehaviourPublisher } from '../../robot/index.js';
import { shippedSetup } from '../behaviours/helpers.js';

describe('behaviours on the bus', () => {
  it('publishes postures, expressions, gaze, speech and toggles as valid messages of their topics', async () => {
    const setup = shippedSetup();
    const clock = new SimulatedClock(1_700_000_000_000);
    const bus = new InProcessBus((e) => {
      throw e;
    });
    const seen: BusEntry[] = [];
    bus.tap((e) => seen.push(e));
    const publisher = new BusBehaviourPublisher(bus, () => clock.now());
    const toggles = new ToggleBoard(setup.settings.toggles, () => clock.now());
    const speech = new PublishSpeech(publisher);
    const scheduler = new BehaviourScheduler({
      publisher,
      speech,
      clock,
      toggles,
      postures: setup.postures,
      table: setup.table,
    });
    const line: PlannedUtterance = {
      id: 'u1',
      category: 'trick.end.ours',
      text: 'Boa, parceiro! Essa é nossa.',
      language: 'pt',
      to: 'partner',
      addressee: 2,
      estimatedMs: 800,
      until: null,
      about: { event: 'trick', seat: 2, moment: 4, emotion: 'happy-for' },
    };
    const commands: BehaviourCommand[] = [
      {
        kind: 'posture',
        atMs: clock.now(),
        posture: emotionPosture(setup.postures, 'happy-for', 7),
        cause: 'happy-for',
      },
      {
        kind: 'gaze',
        atMs: clock.now() + 100,
        gaze: gazeAt(setup.table, setup.postures.limits, 0, { kind: 'seat', seat: 2 }),
        durationMs: 300,
      },
      { kind: 'speech', atMs: clock.now() + 200, utterance: line },
    ];
    scheduler.run({ event: 'trick', atMs: clock.now(), moment: 4, commands });
    await clock.advance(3000);
    toggles.set({ partnerSpeech: false, expressiveness: 0.5 }, 'operator');
    await clock.advance(10);

    const topics = new Set(seen.map((e) => e.topic.name));
    for (const t of [
      '/robot_face/expression',
      '/emys/joint_trajectory',
      '/look_at',
      '/tts/say',
      '/parceiro/behaviours/utterance',
      '/parceiro/behaviours/toggles',
    ])
      expect(topics, t).toContain(t);
    for (const e of seen) expect(checkMessage(e.topic.message, e.message), e.topic.name).toBeNull();

    const said = seen.filter((e) => e.topic.name === '/tts/say').map((e) => e.message);
    expect(said).toEqual([{ text: 'Boa, parceiro! Essa é nossa.', language: 'pt', id: 'u1' }]);
    const toggled = seen.filter((e) => e.topic.name === '/parceiro/behaviours/toggles').at(-1)!.message;
    expect(toggled).toMatchObject({ partner_speech: false, expressiveness: 0.5, by: 'operator' });
    expect((toggled as { changed: string[] }).changed.sort()).toEqual(['expressiveness', 'partner_speech']);
    const expression = seen.find((e) => e.topic.name === '/robot_face/expression')!.message as {
      expression: string;
      header: { stamp: { sec: number } };
    };
    expect(expression.expression).toBe('happy');
    expect(expression.header.stamp.sec).toBe(1_700_000_000);
  });
});

// The semantics every bus shares (robot/bus/bus.ts), as cases run against each: the in-process bus
// (test/robot/bus.test.ts) and the real ROS 2 bus (test/ros2/bus.ros2.test.ts). Delivery may be
// synchronous or not, so each case waits for what it expects, and shows that something did not
// arrive by waiting for a later message that did.

import { expect, it } from 'vitest';
import type { Bus, BusErrorHandler, GameStateMessage, TopicSpec } from '../../robot/bus/index.js';
import { Epochs, ScopedBus } from '../../robot/live/node/index.js';

export type MakeBus = (onError?: BusErrorHandler) => Promise<Bus>;

async function until(test: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const toggles = (speech: boolean, by = 'test') => ({
  speech,
  postures: true,
  gaze: true,
  partner_speech: true,
  opponent_speech: true,
  expressiveness: 0.5,
  changed: ['speech'],
  by,
});

const state = (id: string, points: number[] = [0, 0]): GameStateMessage => ({
  session_id: id,
  game: 1,
  games: 1,
  status: 'playing',
  robot_seat: 0,
  dealer: 0,
  trump_card: '7H',
  trick: 0,
  leader: 1,
  to_move: 1,
  table: ['AS', '2H'],
  points,
  victories: [0, 0],
  robot_hand: ['KD'],
});

const connection = (id: string) => ({ component: 'table', id, name: id, kind: 'touch', connected: true, detail: '' });

/** Defines the contract's cases; `make` gives a fresh bus for each (closed by the case). */
export function busContract(make: MakeBus): void {
  it('delivers plain messages, arrays as arrays, also when a producer gave typed arrays', async () => {
    const bus = await make();
    try {
      const got: GameStateMessage[] = [];
      const tapped: unknown[] = [];
      bus.tap((e) => tapped.push(e.message));
      bus.subscribe('gameState', (m) => got.push(m));
      bus.publish('gameState', state('plain', [12, 30]));
      await until(() => got.some((m) => m.session_id === 'plain'), 'the plain one arrived');
      // A typed array given by a producer (as a network's output would be) is carried as an array.
      bus.publish('gameState', { ...state('typed'), points: new Int32Array([7, 8]) as unknown as number[] });
      await until(() => got.some((m) => m.session_id === 'typed'), 'the typed one arrived');
      for (const m of [...got, ...(tapped as GameStateMessage[])]) {
        expect(Array.isArray(m.points)).toBe(true);
        expect(Array.isArray(m.table)).toBe(true);
      }
      expect(JSON.parse(JSON.stringify(got.at(-1)))).toEqual({ ...state('typed'), points: [7, 8] });
      expect(JSON.stringify(got.find((m) => m.session_id === 'plain')!.points)).toBe('[12,30]');
    } finally {
      await bus.close();
    }
  });

  it("hands a latched topic's last `depth` messages to a subscriber that joins later, the first one and a later one in this process alike", async () => {
    const bus = await make();
    try {
      bus.publish('toggles', toggles(true));
      bus.publish('toggles', toggles(false));
      for (const part of ['a', 'b', 'c']) bus.publish('connections', connection(part));
      const first: boolean[] = [];
      bus.subscribe('toggles', (m) => first.push(m.speech));
      const parts: string[] = [];
      bus.subscribe('connections', (m) => parts.push(m.id));
      await until(() => first.length > 0 && parts.length >= 3, 'the first subscribers got the latched messages');
      // Latched depth 1: only the last toggles; depth 16: all three connections.
      expect(first).toEqual([false]);
      expect(parts).toEqual(['a', 'b', 'c']);
      // A second part of the same process subscribes late: it is handed the same.
      const second: boolean[] = [];
      bus.subscribe('toggles', (m) => second.push(m.speech));
      const later: string[] = [];
      bus.subscribe('connections', (m) => later.push(m.id));
      await until(() => second.length > 0 && later.length >= 3, 'the late subscribers got them too');
      expect(second).toEqual([false]);
      expect(later).toEqual(['a', 'b', 'c']);
      // And then what comes next, once.
      bus.publish('toggles', toggles(true, 'next'));
      await until(() => second.length > 1 && first.length > 1, 'the next toggles arrived');
      expect(first).toEqual([false, true]);
      expect(second).toEqual([false, true]);
    } finally {
      await bus.close();
    }
  });

  it("does not hand an event topic's past messages to a late subscriber", async () => {
    const bus = await make();
    try {
      const early: string[] = [];
      bus.subscribe('say', (m) => early.push(m.text));
      bus.publish('say', { text: 'gone', language: 'pt', id: 'u1' });
      await until(() => early.includes('gone'), 'the early subscriber heard it');
      const late: string[] = [];
      bus.subscribe('say', (m) => late.push(m.text));
      bus.publish('say', { text: 'fresh', language: 'pt', id: 'u2' });
      await until(() => late.includes('fresh'), 'the late subscriber heard the next one');
      expect(late).toEqual(['fresh']);
    } finally {
      await bus.close();
    }
  });

  it('does not hand a session opened later the latched messages of the one before, even as copies (ScopedBus)', async () => {
    const bus = await make();
    const epochs = new Epochs(bus);
    try {
      // A day-long subscriber (the dashboard): on ROS 2 the topic's subscription exists from here on.
      const day: string[] = [];
      bus.subscribe('gameState', (m) => day.push(m.session_id));
      const one = new ScopedBus(bus, epochs);
      one.publish('gameState', state('one'));
      one.publish('language', { language: 'pt', by: 'one' });
      await until(() => day.includes('one'), 'the day-long subscriber heard the first session');
      await one.close();
      const two = new ScopedBus(bus, epochs);
      const heard: string[] = [];
      two.subscribe('gameState', (m) => heard.push(m.session_id));
      // A topic nobody in this process subscribed to before: on ROS 2 the latched one arrives from the graph.
      const languages: string[] = [];
      two.subscribe('language', (m) => languages.push(m.by));
      two.publish('gameState', state('two'));
      two.publish('language', { language: 'en', by: 'two' });
      await until(() => heard.includes('two') && languages.includes('two'), 'the second session heard its own');
      expect(heard).toEqual(['two']);
      expect(languages).toEqual(['two']);
      // The day-long subscriber got everything; a subscriber outside any scope still gets the latest.
      const outside: string[] = [];
      bus.subscribe('gameState', (m) => outside.push(m.session_id));
      await until(() => outside.length > 0, 'a late subscriber outside the scopes got the latched state');
      expect(outside).toEqual(['two']);
      expect(day).toEqual(['one', 'two']);
    } finally {
      epochs.close();
      await bus.close();
    }
  });

  it('keeps delivering when a subscriber throws, and reports the error with its topic', async () => {
    const errors: string[] = [];
    const bus = await make((e, topic: TopicSpec) => errors.push(`${topic.name}: ${(e as Error).message}`));
    try {
      const got: boolean[] = [];
      bus.subscribe('toggles', () => {
        throw new Error('broken handler');
      });
      bus.subscribe('toggles', (m) => got.push(m.speech));
      bus.publish('toggles', toggles(true));
      await until(() => got.length > 0 && errors.length > 0, 'the message and the error');
      expect(got).toEqual([true]);
      expect(errors).toEqual(['/parceiro/behaviours/toggles: broken handler']);
    } finally {
      await bus.close();
    }
  });
}

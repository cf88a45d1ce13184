// The session machine on its own, without a runtime: its actions only emit effects (SessionEffect), in
// order, and nothing is published, prompted or timed unless someone carries them out. The lift grace
// time is a delayed event on the actor's clock.

import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { Decision, SeatView } from '../../game/index.js';
import type { TableInfo } from '../../table-bridge/index.js';
import type { SessionConfig, SessionEffect } from '../../robot/live/session/index.js';
import { sessionMachine } from '../../robot/live/session/index.js';

const config: SessionConfig = {
  sessionId: 'effects',
  seed: 1,
  games: 1,
  robotSeat: 0,
  firstDealer: 0,
  minThinkMs: 1000,
  liftGraceMs: 2000,
};
const table: TableInfo = { id: 't', name: 'people', kind: 'virtual', seats: [1, 2, 3] };

function started() {
  const clock = new SimulatedClock();
  const machine = sessionMachine.provide({
    actors: {
      decide: fromPromise<Decision, { view: SeatView }>(({ input }) =>
        Promise.resolve({ card: input.view.legalCards()[0]! }),
      ),
    },
  });
  const actor = createActor(machine, { input: { config, clock }, clock });
  const effects: SessionEffect[] = [];
  actor.on('*', (e) => effects.push(e));
  actor.start();
  return { actor, clock, effects };
}

describe('the session machine emits its effects', () => {
  it('a deal: the player told, the deal on the bus, the hands, the trump and the first turn, in order', () => {
    const { actor, effects } = started();
    actor.send({ type: 'hello', table });
    expect(effects).toEqual([]);
    actor.send({ type: 'control.new-game', event: { table, seq: 1, action: 'new-game', deal: null } });
    expect(effects.map((e) => e.type)).toEqual([
      'playerNewGame',
      'playerObserve',
      'publish',
      'sendHand',
      'sendHand',
      'sendHand',
      'prompt',
      'publish',
      'prompt',
      'publish',
    ]);
    const hands = effects.filter((e) => e.type === 'sendHand');
    expect(hands.map((h) => h.seat)).toEqual([1, 2, 3]);
    for (const h of hands) expect(h.cards).toHaveLength(10);
    expect(effects[8]).toMatchObject({ type: 'prompt', prompt: { kind: 'turn', seat: 1 }, to: undefined });
    actor.stop();
  });

  it('a played card lifted: put back asked at once, refused after the grace time on the actor clock', () => {
    const { actor, clock, effects } = started();
    actor.send({ type: 'hello', table });
    actor.send({ type: 'control.new-game', event: { table, seq: 1, action: 'new-game', deal: null } });
    const hand = effects.find((e) => e.type === 'sendHand' && e.seat === 1);
    if (hand?.type !== 'sendHand') throw new Error('no hand for seat 1');
    const card = hand.cards[0]!;
    const zone = { area: 'play' as const, seat: 1 as const };
    actor.send({ type: 'card.detected', event: { table, seq: 2, zone, card, fiducial: null } });
    expect(actor.getSnapshot().context.verdict.ok).toBe(true);
    effects.length = 0;
    actor.send({ type: 'card.removed', event: { table, seq: 3, zone, card, fiducial: null } });
    expect(effects.map((e) => e.type)).toEqual(['prompt', 'publish']);
    expect(effects[0]).toMatchObject({ prompt: { kind: 'put-back', seat: 1, card, withinMs: 2000 }, to: 't' });
    clock.increment(1999);
    expect(effects).toHaveLength(2);
    clock.increment(1);
    expect(effects.slice(2).map((e) => e.type)).toEqual(['reject', 'publish']);
    expect(effects[2]).toMatchObject({ rejection: { code: 'already-played', seq: 3 }, to: 't' });
    actor.stop();
  });
});

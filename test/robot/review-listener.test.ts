// The end-of-game review told to whoever asked: asked from a table that hosts one seat (one person's
// virtual table, a phone), the robot speaks to that person, the partner as "tu" about their own cards
// and the opponents named from the partner's side; asked from a table of several seats or none (a
// watching table), from its own side. Through the node's listener on a bus, as the node wires it.

import { describe, expect, it } from 'vitest';
import type { BehaviourScheduler, BehaviourSetup } from '../../behaviours/index.js';
import { loadBehaviourSetup } from '../../behaviours/index.js';
import type { GameReview, Seat } from '../../game/index.js';
import { parseCard } from '../../game/index.js';
import type * as Bus from '../../robot/bus/index.js';

const bus = (await import(new URL('../../dist/robot/bus/index.js', import.meta.url).href)) as typeof Bus;
const { listenForReview } = (await import(
  new URL('../../dist/robot/live/node/review.js', import.meta.url).href
)) as typeof import('../../robot/live/node/review.js');
const messages = (await import(
  new URL('../../dist/robot/live/session/bus-messages.js', import.meta.url).href
)) as typeof import('../../robot/live/session/bus-messages.js');

// The robot in seat 0; its partner 2; seat 3 on its left, on the partner's right.
const REVIEW: GameReview = {
  status: 'reviewed',
  dealt: 70,
  final: 56,
  changes: 5,
  values: [],
  nodes: 0,
  moments: [
    { play: 17, trick: 4, seat: 3, card: parseCard('7S'), better: parseCard('KS'), before: 66, after: 77 },
    { play: 22, trick: 5, seat: 2, card: parseCard('KD'), better: parseCard('3C'), before: 77, after: 56 },
  ],
};

function askedFrom(seats: Seat[]): string {
  const b = new bus.InProcessBus();
  const said: string[] = [];
  const scheduler = {
    run: (p: { commands: { kind: string; utterance?: { text: string } }[] }) =>
      void said.push(...p.commands.flatMap((c) => (c.utterance ? [c.utterance.text] : []))),
  } as unknown as BehaviourScheduler;
  const setup: BehaviourSetup = loadBehaviourSetup({ language: 'pt' });
  const off = listenForReview({
    bus: b,
    scheduler,
    setups: new Map([['pt', setup]]),
    language: 'pt',
    robotSeat: 0,
    clock: { now: () => 0 } as never,
    log: { warn: () => {} } as never,
  });
  const table = { id: 'phone', name: 'phone', kind: 'virtual' as const, seats };
  b.publish('tableEvents', messages.helloTableEvent(table));
  b.publish('gameEvents', { type: 'end', game: 0 } as never);
  b.publish('review', messages.reviewMessage(0, REVIEW));
  b.publish('tableEvents', messages.controlTableEvent({ table, seq: 1, action: 'review' }));
  off();
  expect(said).toHaveLength(1);
  return said[0]!;
}

describe('the review, told to whoever asked', () => {
  it('to the partner at its own table: "jogaste", and the robot\'s left is the partner\'s right', () => {
    const told = askedFrom([2]);
    expect(told).toContain(
      'Na vaza 6 jogaste o rei de ouros; o três de paus dava-nos mais 21, e o resultado era outro.',
    );
    expect(told).toContain('Na vaza 5 o adversário à tua direita jogou o sete de espadas;');
    expect(told).not.toContain('o meu parceiro');
  });

  it("to an opponent at its own table: its own card as 'jogaste'", () => {
    expect(askedFrom([3])).toContain('Na vaza 5 jogaste o sete de espadas; o rei de espadas dava-vos mais 11.');
  });

  it("to a table of several seats, or a watching one: from the robot's side", () => {
    for (const seats of [[1, 2, 3], []] as Seat[][]) {
      const told = askedFrom(seats);
      expect(told).toContain('Na vaza 6 o meu parceiro jogou o rei de ouros;');
      expect(told).toContain('Na vaza 5 o adversário da minha esquerda jogou');
    }
  });
});

// A simulated table hosting one or two seats, beside other tables that hold the rest, over the real
// socket.io server: the bots see only their own seat, each table only its own hands, and every table
// is told who holds which seat.

import { afterEach, describe, expect, it } from 'vitest';
import type { Card, PlayerOptions, SeatView } from '../../game/index.js';
import { RulePlayer, formatCard } from '../../game/index.js';
import type { GameState, SimulatedTable } from '../../table-bridge/index.js';
import { SimulatedTable as Table } from '../../table-bridge/index.js';
import { TOKEN, cleanup, simTable, startServer } from './harness.js';

afterEach(cleanup);

function expectWholeGame(g: GameState): void {
  expect(g.status).toBe('complete');
  expect(g.plays).toHaveLength(40);
  expect(new Set(g.plays.map((p) => p.card)).size).toBe(40);
  expect(g.points[0] + g.points[1]).toBe(120);
}

/** A rule-based bot that checks, at each turn, that its view holds its own cards and nothing more. */
function watchfulBots(table: () => SimulatedTable, seen: string[]) {
  return (o: PlayerOptions) => {
    const rule = new RulePlayer(o);
    return {
      kind: 'watchful',
      choose(view: SeatView): Card {
        const mine = table().state!.game!.hands.find((h) => h.seat === o.seat)!.cards;
        expect(view.hand().map(formatCard).sort()).toEqual([...mine].sort());
        const info = view.snapshot();
        // Unseen: everything not played and not its own, i.e. the other seats' cards, never named.
        expect(info.unseen).toHaveLength(40 - info.plays.length - mine.length);
        seen.push(`${o.seat}`);
        return rule.choose(view);
      },
    };
  };
}

describe('a simulated table with one or two seats', () => {
  it('one seat at one table and two at another play a whole game with the robot', async () => {
    const { url, referee } = await startServer({ seed: 13, games: 1 });
    const seen: string[] = [];
    let one: SimulatedTable | null = null;
    // The second table asks for the game once both sit, so both are dealt.
    one = simTable(url, {
      id: 'one',
      name: 'seat two',
      seats: [2],
      seed: 3,
      autoNewGame: false,
      bots: watchfulBots(() => one!, seen),
    });
    await one.start();
    let two: SimulatedTable | null = null;
    two = simTable(url, {
      id: 'two',
      name: 'seats one and three',
      seats: [1, 3],
      seed: 4,
      bots: watchfulBots(() => two!, seen),
    });
    await two.start();
    const [endOne, endTwo] = await Promise.all([one.finished(), two.finished()]);
    expect(endOne.session).toMatchObject({ played: 1, complete: true });
    expect(endTwo.session.victories).toEqual(endOne.session.victories);
    expectWholeGame(one.results[0]!);
    expect(two.results[0]!.plays).toEqual(one.results[0]!.plays);
    expect(referee.score.games).toBe(1);
    // Each table was dealt only its own seats' hands; each bot chose all ten of its cards.
    expect(one.hands.map((h) => h.seat)).toEqual([2]);
    expect(two.hands.map((h) => h.seat).sort()).toEqual([1, 3]);
    expect(seen.filter((s) => s === '2')).toHaveLength(10);
    expect(seen.filter((s) => s === '1')).toHaveLength(10);
    expect(seen.filter((s) => s === '3')).toHaveLength(10);
    // Both are shown who holds which seat.
    const seating = [
      { seat: 0, holder: 'robot', name: '', kind: null },
      { seat: 1, holder: 'table', name: 'seats one and three', kind: 'simulated' },
      { seat: 2, holder: 'table', name: 'seat two', kind: 'simulated' },
      { seat: 3, holder: 'table', name: 'seats one and three', kind: 'simulated' },
    ];
    expect(one.state!.seats).toEqual(seating);
    expect(two.state!.seats).toEqual(seating);
  });

  it('three tables of one seat each play a two-game session; a seat left is shown free', async () => {
    const { url } = await startServer({ seed: 8, games: 2 });
    const tables = ([1, 2, 3] as const).map((seat) =>
      simTable(url, { id: `t${seat}`, seats: [seat], seed: seat, bots: 'random', byCard: seat === 2 }),
    );
    for (const t of tables) await t.start();
    // Each table asks for every game; the ones that come second are told it is in progress, and play it.
    const ends = await Promise.all(tables.map((t) => t.finished()));
    expect(ends.map((e) => e.session.played)).toEqual([2, 2, 2]);
    for (const g of tables[0]!.results) expectWholeGame(g);
    expect(tables[0]!.results.map((g) => g.dealer)).toEqual([0, 1]);
    for (const [i, t] of tables.entries()) expect(new Set(t.hands.map((h) => h.seat))).toEqual(new Set([i + 1]));
    tables[2]!.close();
    const after = await tables[0]!.waitFor((s) => s.seats?.[3]?.holder === 'free');
    expect(after.seats!.map((s) => s.holder)).toEqual(['robot', 'table', 'table', 'free']);
  });

  it('refuses seats that are not one to three distinct seats 0..3', () => {
    const make = (seats: number[]) => () =>
      new Table({ url: 'http://127.0.0.1:1', token: TOKEN, seed: 1, seats: seats as never });
    expect(make([])).toThrow('a simulated table hosts one to three distinct seats (the robot has another), got []');
    expect(make([2, 2])).toThrow('got [2, 2]');
    expect(make([0, 1, 2, 3])).toThrow('one to three distinct seats');
    expect(make([1, 7])).toThrow("a simulated table's seats are 0..3, got 7");
  });
});

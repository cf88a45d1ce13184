// The robot's search in worker threads: it answers with beliefs, and the main thread stays free while
// it thinks. The pool runs compiled workers, so this test uses the built package (npm test builds).

import { describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import { ALL_TOPICS, checkMessage } from '../../robot/bus/index.js';
import type { Seat } from '../../game/index.js';
import { Game, RulePlayer, SeatView, countConsistentDeals, createRng, dealCards, parseCard } from '../../game/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;

function midGame(seed: number, tricks: number): Game {
  const game = new Game(dealCards(createRng(seed), 0));
  const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }));
  while (game.trick < tricks) game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

describe('PoolSearchPlayer', () => {
  it('searches worlds on every worker and keeps the main thread responsive', async () => {
    const game = midGame(3, 3);
    // A few worlds and a budget no machine can starve: the answer comes when both workers have
    // searched their share (starting a worker thread alone can take a second on a loaded machine,
    // and at a tight budget the rule-based backstop would answer instead, which is another test's).
    const player = new robot.PoolSearchPlayer({
      seat: game.toMove,
      seed: 1,
      budgetMs: 600_000,
      maxWorlds: 8,
      threads: 2,
    });
    try {
      let ticks = 0;
      let running = true;
      const tick = (): void => {
        ticks++;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      const decision = await player.decide(new SeatView(game, game.toMove));
      running = false;
      expect(new SeatView(game, game.toMove).legalCards()).toContain(decision.card);
      // Four worlds from each of the two workers: every worker answered, none was late.
      expect(decision.beliefs!.worlds).toBe(8);
      expect(decision.beliefs!.fallback).toBeUndefined();
      expect(player.lateDecisions).toBe(0);
      expect(decision.beliefs!.moves[0]!.card).toBe(decision.card);
      // The event loop turned over and over while the workers searched.
      expect(ticks).toBeGreaterThan(20);
    } finally {
      await player.close();
    }
  });

  it('answers at its budget when no worker does, with the rule-based player, and counts the late decision', async () => {
    // Without the backstop this decision would never come back: the workers never answer.
    const game = midGame(3, 3);
    const warnings: string[] = [];
    const player = new robot.PoolSearchPlayer({
      seat: game.toMove,
      seed: 1,
      budgetMs: 200,
      threads: 2,
      worker: new URL('./fixtures/silent-worker.mjs', import.meta.url),
      log: (m) => warnings.push(m),
    });
    try {
      const view = new SeatView(game, game.toMove);
      const decision = await player.decide(view);
      expect(view.legalCards()).toContain(decision.card);
      expect(decision.beliefs).toMatchObject({ worlds: 0, fallback: 'rule', exactFromTrick: game.trick });
      // It goes on the bus (and into recordings) as a valid message.
      const decisionTopic = ALL_TOPICS.find((t) => t.name === '/parceiro/decision')!.message;
      expect(checkMessage(decisionTopic, robot.decisionMessage(game.toMove, decision))).toBeNull();
      expect(decision.card).toBe(new RulePlayer({ seat: game.toMove, seed: 1 ^ 0x2545f491 }).choose(view));
      expect(player.lateDecisions).toBe(1);
      // The operator is told, in words that say what happened and what to look at.
      expect(warnings).toEqual([
        `search: 2 of 2 search threads had not answered at the 200 ms budget (trick ${game.trick + 1}); the rule-based player decided. A loaded machine or too small a budget causes this.`,
      ]);
    } finally {
      await player.close();
    }
  });

  it('plays as an asynchronous player in a whole game', async () => {
    const deal = dealCards(createRng(5), 1);
    const pool = new robot.PoolSearchPlayer({ seat: 0, seed: 2, budgetMs: 60, threads: 2 });
    try {
      const players = [
        pool,
        new RulePlayer({ seat: 1, seed: 1 }),
        new RulePlayer({ seat: 2, seed: 2 }),
        new RulePlayer({ seat: 3, seed: 3 }),
      ];
      const game = await robot.playGameAsync(deal, players);
      expect(game.status).toBe('complete');
    } finally {
      await pool.close();
    }
  });

  it('after a physical deal, a renounce nobody has seen that leaves no consistent deal: the rule-based player decides', async () => {
    // The robot (seat 0) dealt; hearts are trump. Each other seat shows no spade on the robot's ace,
    // yet eight spades are unseen: someone renounced, and no world fits what the robot saw.
    const hand = ['AS', '2H', '3H', '4H', '5H', '6H', 'QH', 'JH', 'KH', '7H'].map(parseCard);
    const game = new Game({ dealer: 0, trumpCard: parseCard('7H'), hands: [hand, null, null, null] });
    for (const [seat, c] of [
      [1, '2D'],
      [2, '3D'],
      [3, '4D'],
      [0, '2H'],
      [0, 'AS'],
      [1, '5D'],
      [2, '6D'],
      [3, 'QD'],
    ] as const)
      game.play(parseCard(c), seat);
    const view = new SeatView(game, 0);
    expect(countConsistentDeals(view.snapshot())).toBe(0);
    const player = new robot.PoolSearchPlayer({ seat: 0, seed: 1, budgetMs: 100, threads: 1 });
    try {
      const decision = await player.decide(view);
      expect(view.legalCards()).toContain(decision.card);
      expect(decision.beliefs).toMatchObject({ worlds: 0, fallback: 'rule' });
    } finally {
      await player.close();
    }
  });
});

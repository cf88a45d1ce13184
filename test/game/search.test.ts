// The search players (pimc, hybrid, timed, timed-v1) through their public surface: the Player interface, the
// registry's names and the beliefs of each decision.

import { describe, expect, it } from 'vitest';
import type { Decision, Player, Seat } from '../../game/index.js';
import {
  Game,
  PlayerSpecError,
  RulePlayer,
  SearchPlayer,
  SeatView,
  Solver,
  countConsistentDeals,
  createRng,
  dealCards,
  playGame,
  playerFactory,
  positionOf,
  victoriesFor,
} from '../../game/index.js';

/** A game advanced by rule players until `tricks` tricks are complete, then `extra` cards more. */
function midGame(seed: number, tricks: number, extra = 0): Game {
  const deal = dealCards(createRng(seed), (seed & 3) as Seat);
  const game = new Game(deal);
  const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed * 4 + s }));
  while (game.trick < tricks || game.cardsInTrick < extra)
    game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

/** A clock that moves on by `step` ms each time it is read: decisions are exact and machine-free. */
const steppingClock = (step: number): (() => number) => {
  let t = 0;
  return () => (t += step);
};

describe('search players', () => {
  it('pimc values every legal card over N worlds and plays the best mean', () => {
    const game = midGame(11, 6);
    const player = new SearchPlayer({ kind: 'pimc', seat: game.toMove, seed: 5, worlds: 12 });
    const view = new SeatView(game, game.toMove);
    const d = player.decide(view);
    const legal = view.legalCards();
    expect(d.beliefs!.worlds).toBe(12);
    expect(d.beliefs!.moves.map((m) => m.card).sort()).toEqual([...legal].sort());
    expect(d.card).toBe(d.beliefs!.moves[0]!.card);
    for (const m of d.beliefs!.moves) {
      expect(m.mean).toBeGreaterThanOrEqual(0);
      expect(m.mean).toBeLessThanOrEqual(120);
      expect(m.sd).toBeGreaterThanOrEqual(0);
      expect(m.winProbability).toBeGreaterThanOrEqual(0);
      expect(m.winProbability).toBeLessThanOrEqual(1);
    }
    expect(d.beliefs!.moves[0]!.mean).toBe(Math.max(...d.beliefs!.moves.map((m) => m.mean)));
    expect(d.beliefs!.nodes).toBeGreaterThan(0);
    expect(d.beliefs!.exactFromTrick).toBe(6);
  });

  it('pimc agrees with the exact solver when only one deal is consistent', () => {
    // Late in a game the voids shown can leave a single deal: then every world is the true one.
    let checked = 0;
    for (let seed = 0; seed < 400 && checked < 3; seed++) {
      const game = midGame(seed, 8, seed % 3);
      const view = new SeatView(game, game.toMove);
      if (view.legalCards().length < 2 || countConsistentDeals(view.snapshot()) !== 1) continue;
      const d = new SearchPlayer({ kind: 'pimc', seat: game.toMove, seed: 1, worlds: 3 }).decide(view);
      const exact = new Solver().moveValues(positionOf(game));
      for (const m of exact.moves) expect(d.beliefs!.moves.find((b) => b.card === m.card)!.mean).toBe(m.value);
      expect(d.beliefs!.moves.every((b) => b.sd === 0)).toBe(true);
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('with the victories objective, values each card by its victory class and ranks by victories, then points', () => {
    // Where one deal is consistent every world is the true one: each card's victories are those of its
    // exact value. With 5 tricks left or fewer the points are exact too.
    let checked = 0;
    for (let seed = 0; seed < 400 && checked < 3; seed++) {
      const game = midGame(seed, 8, seed % 3);
      const view = new SeatView(game, game.toMove);
      if (view.legalCards().length < 2 || countConsistentDeals(view.snapshot()) !== 1) continue;
      const d = new SearchPlayer({
        kind: 'pimc',
        seat: game.toMove,
        seed: 1,
        worlds: 3,
        objective: 'victories',
      }).decide(view);
      expect(d.beliefs!.objective).toBe('victories');
      expect(d.beliefs!.points).toBe('exact');
      const exact = new Solver().moveValues(positionOf(game));
      for (const m of exact.moves) {
        const b = d.beliefs!.moves.find((x) => x.card === m.card)!;
        expect(b.victories).toBe(victoriesFor(m.value));
        expect(b.mean).toBe(m.value);
        expect(b.winProbability).toBe(m.value > 60 ? 1 : 0);
      }
      const ranks = d.beliefs!.moves.map((b) => [b.victories!, b.mean] as const);
      for (let i = 1; i < ranks.length; i++) {
        const [v0, p0] = ranks[i - 1]!;
        const [v1, p1] = ranks[i]!;
        expect(v0 > v1 || (v0 === v1 && p0 >= p1)).toBe(true);
      }
      expect(d.card).toBe(d.beliefs!.moves[0]!.card);
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('timed plays for victories with the expert rolling out; timed-v1 for points with the rule player', () => {
    const game = midGame(5, 1);
    const view = new SeatView(game, game.toMove);
    const timed = new SearchPlayer({
      kind: 'timed',
      seat: game.toMove,
      seed: 1,
      budgetMs: 300,
      worlds: 6,
      clock: steppingClock(0.01),
    }).decide(view);
    expect(timed.beliefs!.objective).toBe('victories');
    // Nine tricks left: each world's points are the middle of its class proof's bounds.
    expect(timed.beliefs!.points).toBe('bounds');
    expect(timed.beliefs!.moves.every((m) => Number.isFinite(m.victories) && Math.abs(m.victories!) <= 4)).toBe(true);
    const v1 = playerFactory('timed-v1:budget=300:n=6')({ seat: game.toMove, seed: 1, clock: steppingClock(0.01) })
      .decide!(view);
    expect(v1.beliefs!.objective).toBe('points');
    expect(v1.beliefs!.points).toBe('exact');
    expect(v1.beliefs!.moves[0]!.mean).toBe(Math.max(...v1.beliefs!.moves.map((m) => m.mean)));
    // Each half of the design can be switched off by name, to measure it.
    const points = playerFactory('timed:victories=0:expert=0:budget=300:n=6')({
      seat: game.toMove,
      seed: 1,
      clock: steppingClock(0.01),
    }).decide!(view);
    expect(points.beliefs!.objective).toBe('points');
    expect(() => playerFactory('timed:victories=2')).toThrow(/victories expects a whole number from 0 to 1/);
  });

  it('is reproducible from its seed', () => {
    for (const spec of ['pimc:n=4', 'hybrid:n=2:m=2:t=7']) {
      const game = midGame(21, 5);
      const decide = (): Decision => {
        const p = playerFactory(spec)({ seat: game.toMove, seed: 99 }) as Player & { decide(v: SeatView): Decision };
        return p.decide(new SeatView(game, game.toMove));
      };
      const a = decide();
      const b = decide();
      expect(b.card).toBe(a.card);
      expect(b.beliefs!.moves).toEqual(a.beliefs!.moves);
    }
  });

  it('hybrid rolls out with rules until trick T and is exact after', () => {
    const early = midGame(8, 2);
    const d = new SearchPlayer({
      kind: 'hybrid',
      seat: early.toMove,
      seed: 2,
      worlds: 2,
      rollouts: 2,
      rolloutTricks: 7,
    }).decide(new SeatView(early, early.toMove));
    expect(d.beliefs!.exactFromTrick).toBe(7);
    expect(d.beliefs!.worlds).toBe(2);
    // Past trick T the hybrid is plain exact PIMC.
    const late = midGame(8, 8);
    const h = new SearchPlayer({
      kind: 'hybrid',
      seat: late.toMove,
      seed: 2,
      worlds: 3,
      rollouts: 2,
      rolloutTricks: 5,
    }).decide(new SeatView(late, late.toMove));
    const p = new SearchPlayer({ kind: 'pimc', seat: late.toMove, seed: 2, worlds: 3 }).decide(
      new SeatView(late, late.toMove),
    );
    expect(h.beliefs!.moves).toEqual(p.beliefs!.moves);
  });

  it('plays whole games with legal cards only', () => {
    const deal = dealCards(createRng(77), 2);
    const players = [
      playerFactory('hybrid:n=1:m=1:t=6')({ seat: 0, seed: 1 }),
      new RulePlayer({ seat: 1, seed: 2 }),
      playerFactory('timed:budget=30')({ seat: 2, seed: 3, clock: steppingClock(0.05) }),
      new RulePlayer({ seat: 3, seed: 4 }),
    ];
    const decisions: Decision[] = [];
    const game = playGame(deal, players, { onDecisionMade: (_s, d) => decisions.push(d) });
    expect(game.status).toBe('complete');
    expect(game.points(0) + game.points(1)).toBe(120);
    expect(decisions.length).toBe(20);
  });

  it('timed stops at its deadline, reading only the injected clock', () => {
    const game = midGame(4, 1);
    const clock = steppingClock(0.5);
    const player = new SearchPlayer({ kind: 'timed', seat: game.toMove, seed: 1, budgetMs: 200, clock });
    const start = clock();
    const d = player.decide(new SeatView(game, game.toMove));
    expect(clock() - start).toBeLessThan(200 + 50);
    expect(d.beliefs!.timeMs).toBeLessThanOrEqual(200);
    expect(new SeatView(game, game.toMove).legalCards()).toContain(d.card);
  });

  it('timed falls back to the rule-based card, and says so, when no world fits the budget', () => {
    const game = midGame(6, 0);
    const view = new SeatView(game, game.toMove);
    const d = new SearchPlayer({
      kind: 'timed',
      seat: game.toMove,
      seed: 1,
      budgetMs: 1,
      clock: steppingClock(5),
    }).decide(view);
    expect(d.beliefs!.fallback).toBe('rule');
    expect(d.beliefs!.worlds).toBe(0);
    expect(view.legalCards()).toContain(d.card);
  });

  it('answers a forced card at once', () => {
    // Find a position where the seat to move has one legal card.
    for (let seed = 0; seed < 200; seed++) {
      const game = midGame(seed, 8, 1 + (seed % 3));
      const view = new SeatView(game, game.toMove);
      if (view.legalCards().length !== 1) continue;
      const d = new SearchPlayer({ kind: 'pimc', seat: game.toMove, seed: 1 }).decide(view);
      expect(d.card).toBe(view.legalCards()[0]);
      expect(d.beliefs!.fallback).toBe('forced');
      return;
    }
    throw new Error('no forced position found');
  });

  it('rejects malformed player names with a reason', () => {
    expect(() => playerFactory('hybrid:n=0')).toThrow(PlayerSpecError);
    expect(() => playerFactory('hybrid:x=3')).toThrow(/'x' is not a parameter of hybrid/);
    expect(() => playerFactory('rule:n=3')).toThrow(/takes no parameters/);
    expect(() => playerFactory('genius')).toThrow(/unknown player 'genius'/);
    expect(() => playerFactory('timed')({ seat: 0, seed: 1 })).toThrow(/needs a clock/);
  });
});

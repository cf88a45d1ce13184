// The two stand-ins of issue 37 through their public surface: `rollout` (PIMC whose worlds are played
// out by the expert policy) and `ismcts` (single-observer information-set MCTS). Without a clock
// they stop at their world or iteration cap, so their decisions are exact functions of the seed.
// And `mix`, the timed player's worlds played out by the expert to the last tricks, exact there.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player, Seat } from '../../game/index.js';
import {
  Game,
  IsmctsPlayer,
  PlayerSpecError,
  RolloutPlayer,
  RulePlayer,
  SeatView,
  Solver,
  countConsistentDeals,
  createRng,
  dealCards,
  playerFactory,
  positionOf,
  victoriesFor,
} from '../../game/index.js';

const rollout = (seat: Seat, seed: number, worlds = 6): RolloutPlayer => new RolloutPlayer({ seat, seed, worlds });
const ismcts = (seat: Seat, seed: number, iterations = 80): IsmctsPlayer =>
  new IsmctsPlayer({ seat, seed, iterations });

/** A game advanced by rule players until `tricks` tricks are complete, then `extra` cards more. */
function midGame(seed: number, tricks: number, extra = 0): Game {
  const game = new Game(dealCards(createRng(seed), (seed & 3) as Seat));
  const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed * 4 + s }));
  while (game.trick < tricks || game.cardsInTrick < extra)
    game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

/** Plays a whole game; every card must be legal when chosen. Returns the cards played. */
function playChecked(game: Game, players: Player[]): string {
  const cards: number[] = [];
  while (!game.isOver) {
    const view = new SeatView(game, game.toMove);
    const card = players[game.toMove]!.choose(view);
    expect(view.legalCards()).toContain(card);
    cards.push(card);
    game.play(card);
  }
  return cards.join(',');
}

describe('rollout and ismcts players', () => {
  it('play whole games with legal cards only, and the same game again from the same seeds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (seed) => {
        const deal = dealCards(createRng(seed), (seed & 3) as Seat);
        const make = (): Player[] => [rollout(0, seed), ismcts(1, seed), rollout(2, seed + 1), ismcts(3, seed + 1)];
        const first = playChecked(new Game(deal), make());
        expect(playChecked(new Game(deal), make())).toBe(first);
      }),
      { numRuns: 4 },
    );
  });

  it('value every legal card in the same worlds (rollout) and count every iteration (ismcts)', () => {
    const game = midGame(3, 2); // a lead: every card of the hand is legal
    const view = new SeatView(game, game.toMove);
    const legal = view.legalCards();
    expect(legal.length).toBeGreaterThan(1);
    const r = rollout(game.toMove, 1, 12).decide(view).beliefs!;
    expect(r.worlds).toBe(12);
    expect(r.moves.map((m) => m.card).sort()).toEqual([...legal].sort());
    // Ranked by expected victories, then points.
    for (let i = 1; i < r.moves.length; i++) {
      const a = r.moves[i - 1]!;
      const b = r.moves[i]!;
      expect(a.victories! > b.victories! || (a.victories === b.victories && a.mean >= b.mean)).toBe(true);
    }
    const m = ismcts(game.toMove, 1, 300).decide(view).beliefs!;
    expect(m.worlds).toBe(300);
    expect(m.moves.map((x) => x.card).sort()).toEqual([...legal].sort());
  });

  it('play the card that decides the game in positions with one deal left (the last seat of the ninth trick)', () => {
    // With the cards known and only the last trick forced after it, the best victory class is a fact.
    let checked = 0;
    for (let seed = 0; seed < 3000 && checked < 6; seed++) {
      const game = midGame(seed, 8, 3);
      const view = new SeatView(game, game.toMove);
      if (view.legalCards().length < 2 || countConsistentDeals(view.snapshot()) !== 1) continue;
      const classes = new Solver().moveValues(positionOf(game)).moves.map((x) => ({
        card: x.card,
        vic: victoriesFor(x.value), // the mover's team's final points
      }));
      const best = Math.max(...classes.map((c) => c.vic));
      if (classes.every((c) => c.vic === best)) continue; // the choice does not matter here
      const right = classes.filter((c) => c.vic === best).map((c) => c.card);
      expect(right).toContain(rollout(game.toMove, seed, 4).choose(view));
      expect(right).toContain(ismcts(game.toMove, seed, 200).choose(view));
      checked++;
    }
    expect(checked).toBe(6);
  });

  it('stop at their deadline, reading only the injected clock', () => {
    const game = midGame(5, 1);
    const view = new SeatView(game, game.toMove);
    for (const make of [
      (clock: () => number) => new RolloutPlayer({ seat: game.toMove, seed: 2, clock, budgetMs: 100 }),
      (clock: () => number) => new IsmctsPlayer({ seat: game.toMove, seed: 2, clock, budgetMs: 100 }),
    ]) {
      let t = 0;
      const d = make(() => (t += 1)).decide(view);
      expect(d.beliefs!.worlds).toBeGreaterThan(0);
      expect(t).toBeLessThan(100 + 20);
      expect(view.legalCards()).toContain(d.card);
    }
  });

  it('mix plays out to its last exact tricks, within its budget, and says from which trick it was exact', () => {
    for (const [tricks, extra] of [
      [1, 0],
      [4, 2],
      [7, 1],
    ] as const) {
      const game = midGame(11 + tricks, tricks, extra);
      const view = new SeatView(game, game.toMove);
      if (view.legalCards().length < 2) continue;
      let t = 0;
      const d = playerFactory('mix:exact=4')({ seat: game.toMove, seed: 3, clock: () => (t += 1), budgetMs: 200 })
        .decide!(view);
      expect(view.legalCards()).toContain(d.card);
      expect(d.beliefs!.worlds).toBeGreaterThan(0);
      expect(d.beliefs!.objective).toBe('victories');
      // Exact over the last four tricks: from trick 6 (0-based), or from now when later.
      expect(d.beliefs!.exactFromTrick).toBe(Math.max(6, game.trick));
      expect(t).toBeLessThan(200 + 20);
    }
    expect(() => playerFactory('mix:exact=0')).toThrow(/exact expects a whole number from 1 to 10/);
  });

  it('blend mixes the roll-out and timed players within the budget and plays a legal card', () => {
    for (const tricks of [1, 5, 8]) {
      const game = midGame(21 + tricks, tricks);
      const view = new SeatView(game, game.toMove);
      let t = 0;
      const d = playerFactory('blend:w=50:share=50')({
        seat: game.toMove,
        seed: 4,
        clock: () => (t += 1),
        budgetMs: 300,
      }).decide!(view);
      expect(view.legalCards()).toContain(d.card);
      expect(d.beliefs!.moves.map((m) => m.card).sort()).toEqual([...view.legalCards()].sort());
      expect(d.beliefs!.moves[0]!.card).toBe(d.card);
      expect(t).toBeLessThan(300 + 40);
    }
    expect(() => playerFactory('blend:share=0')).toThrow(/share expects a whole number from 1 to 99/);
  });

  it('are named with parameters, and refuse bad ones with a reason', () => {
    for (const spec of [
      'rollout:n=50:infer=0:choice=points:playout=random:budget=300',
      'ismcts:n=500:c=100:reward=points:playout=expert:infer=80',
    ])
      expect(playerFactory(spec)({ seat: 0, seed: 1 }).kind).toBe(spec);
    expect(() => playerFactory('rollout:choice=best')).toThrow(PlayerSpecError);
    expect(() => playerFactory('ismcts:c=-1')).toThrow(/c expects/);
    expect(() => playerFactory('ismcts:m=3')).toThrow(/'m' is not a parameter of ismcts/);
  });
});

// Human-like memory for levels of play (game/memory): ACT-R's activation as Renkema's
// equation gives it, rehearsal, the worlds of what a seat recalls, and the level player.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, InfoSet, LevelTable, MemoryParameters, Recollection, Seat } from '../../game/index.js';
import {
  CardMemory,
  DEFAULT_LEVELS,
  Game,
  LevelPlayer,
  RulePlayer,
  SearchPlayer,
  SeatView,
  baseLevel,
  believedWorlds,
  createRng,
  dealCards,
  logisticNoise,
  playGame,
  pointsOf,
  retrievalProbability,
  suitOf,
} from '../../game/index.js';

/** A clock that moves on by `step` ms each time it is read: decisions are exact and machine-free. */
const steppingClock = (step: number): (() => number) => {
  let t = 0;
  return () => (t += step);
};

/** A game advanced by rule players until `tricks` tricks are complete, then `extra` cards more. */
function midGame(seed: number, tricks: number, extra = 0): Game {
  const game = new Game(dealCards(createRng(seed), (seed & 3) as Seat));
  const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed * 4 + s }));
  while (game.trick < tricks || game.cardsInTrick < extra)
    game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

const params = (over: Partial<MemoryParameters> = {}): MemoryParameters => ({
  decay: 0.5,
  noise: 0,
  threshold: -2,
  salience: 0,
  rehearseOnLead: false,
  rehearseOnTurn: false,
  secondsPerCard: 5,
  ...over,
});

describe("ACT-R activation (decay d = 0.5, as in Renkema's models)", () => {
  it('is ln of the summed powers of the presentations ages, as worked by hand', () => {
    // One presentation 5 s ago: ln(5^-0.5) = -0.5 ln 5 = -0.80472.
    expect(baseLevel([5], 0.5)).toBeCloseTo(-0.80472, 5);
    // 20 s and 100 s ago: ln(0.223607 + 0.1) = ln(0.323607) = -1.12823.
    expect(baseLevel([20, 100], 0.5)).toBeCloseTo(-1.12823, 5);
    // A chunk never presented cannot be retrieved.
    expect(baseLevel([], 0.5)).toBe(-Infinity);
    // P(retrieve) is 1/2 at the threshold and 1 / (1 + e^-1) one noise scale above it.
    expect(retrievalProbability(-1.5, -1.5, 0.4)).toBeCloseTo(0.5, 10);
    expect(retrievalProbability(-1.1, -1.5, 0.4)).toBeCloseTo(0.731059, 6);
  });

  it('decays with the cards played since, 5 s a card', () => {
    const game = midGame(3, 2, 1);
    const info = new SeatView(game, 0).snapshot();
    const memory = new CardMemory(params(), createRng(1));
    memory.follow(info);
    const first = info.plays[0]!;
    // Played at step 0, seen once: at step 4 it is 20 s old, -0.5 ln 20 = -1.49787; at step 9, 45 s: -1.90333.
    expect(memory.presentations(first)).toBe(1);
    expect(memory.cardActivation(first, 4)).toBeCloseTo(-1.49787, 5);
    expect(memory.cardActivation(first, 9)).toBeCloseTo(-1.90333, 5);
    for (let now = 5; now < 9; now++)
      expect(memory.cardActivation(first, now + 1)).toBeLessThan(memory.cardActivation(first, now));
  });

  it('draws logistic noise: mean 0, variance pi^2 s^2 / 3', () => {
    const rng = createRng(7);
    const s = 0.4;
    let sum = 0;
    let squares = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const e = logisticNoise(rng, s);
      sum += e;
      squares += e * e;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.01);
    expect(squares / n).toBeCloseTo((Math.PI ** 2 * s * s) / 3, 1);
  });
});

describe('rehearsal', () => {
  it('a card recalled when its suit is led again is remembered longer', () => {
    const game = midGame(5, 9, 2);
    const info = new SeatView(game, game.toMove).snapshot();
    const plain = new CardMemory(params({ threshold: -2.3 }), createRng(2));
    const rehearsed = new CardMemory(params({ threshold: -2.3, rehearseOnLead: true }), createRng(2));
    plain.follow(info);
    rehearsed.follow(info);
    const now = info.plays.length;
    let stronger = 0;
    for (const c of info.plays) {
      expect(rehearsed.cardActivation(c, now)).toBeGreaterThanOrEqual(plain.cardActivation(c, now));
      if (rehearsed.presentations(c) > 1) {
        stronger++;
        expect(rehearsed.cardActivation(c, now)).toBeGreaterThan(plain.cardActivation(c, now));
      }
    }
    expect(stronger).toBeGreaterThan(5);
    // Without noise the threshold decides: the rehearsed memory forgets fewer cards, here a good part of them.
    const legal = new SeatView(game, game.toMove).legalCards();
    const lost = plain.recall(info, legal).forgotten.length;
    const kept = rehearsed.recall(info, legal).forgotten.length;
    expect(lost).toBeGreaterThan(kept + 5);
  });

  it('a salient card (trump, ace, seven, master, its own) is seen more strongly', () => {
    const game = midGame(8, 4);
    const info = new SeatView(game, 0).snapshot();
    const memory = new CardMemory(params({ salience: 2 }), createRng(3));
    memory.follow(info);
    const counts = info.plays.map((c) => memory.presentations(c));
    expect(counts.every((n) => n === 1 || n === 3)).toBe(true);
    for (const [k, c] of info.plays.entries())
      if (suitOf(c) === info.trump || pointsOf(c) >= 10) expect(counts[k]).toBe(3);
  });
});

/** The hands of a world and what they must respect, checked for one sampled world. */
function checkWorld(info: InfoSet, rec: Recollection, hands: readonly (readonly Card[])[]): void {
  expect([...hands[info.seat]!].sort((a, b) => a - b)).toEqual(info.hand);
  const forgotten = new Set(rec.forgotten);
  const held = new Set<Card>();
  let points = 0;
  for (let s = 0; s < 4; s++) {
    expect(hands[s]!.length).toBe(info.handSizes[s]);
    for (const c of hands[s]!) {
      expect(held.has(c)).toBe(false);
      held.add(c);
      points += pointsOf(c);
      expect(rec.voids & (1 << (s * 4 + suitOf(c)))).toBe(0);
    }
  }
  for (const c of info.table) points += pointsOf(c);
  // The points still out are known from the score.
  expect(points + info.points[0] + info.points[1]).toBe(120);
  for (const c of info.plays) if (!forgotten.has(c)) expect(held.has(c)).toBe(false);
  if (info.trumpCardInDealerHand && info.dealer !== info.seat) expect(hands[info.dealer]).toContain(info.trumpCard);
}

describe('the worlds of what a seat recalls', () => {
  it('can hold a played card it forgot, and never one it recalls', () => {
    const game = midGame(12, 6, 1);
    const seat = game.toMove;
    const view = new SeatView(game, seat);
    const info = view.snapshot();
    const memory = new CardMemory(params({ threshold: -2.0, noise: 0.3 }), createRng(4));
    const rec = memory.recall(info, view.legalCards());
    expect(rec.forgotten.length).toBeGreaterThan(3);
    const source = believedWorlds(info, rec);
    const rng = createRng(9);
    const misplaced = new Set<Card>();
    const hands: Card[][] = [[], [], [], []];
    for (let i = 0; i < 400; i++) {
      source.sampler.sample(rng, hands);
      checkWorld(info, rec, hands);
      for (let s = 0; s < 4; s++)
        if (s !== seat) for (const c of hands[s]!) if (rec.forgotten.includes(c)) misplaced.add(c);
    }
    // Most forgotten cards are believed held in some world.
    expect(misplaced.size).toBeGreaterThan(rec.forgotten.length / 2);
    // A world's game plays on from where the real one stands, with the seat's real legal cards.
    const world = source.game(hands);
    expect(world.toMove).toBe(seat);
    expect(world.trick).toBe(game.trick);
    expect(world.legalCards()).toEqual(view.legalCards());
    const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }));
    while (!world.isOver) world.play(rules[world.toMove]!.choose(new SeatView(world, world.toMove)));
    expect(world.points(0) + world.points(1)).toBe(120);
  });

  it('forgetting nothing gives the true information set', () => {
    const game = midGame(13, 5);
    const view = new SeatView(game, game.toMove);
    const info = view.snapshot();
    const memory = new CardMemory(params({ threshold: -50 }), createRng(5));
    const rec = memory.recall(info, view.legalCards());
    expect(rec.forgotten).toEqual([]);
    expect(rec.forgottenVoids).toBe(0);
    const hands: Card[][] = [[], [], [], []];
    believedWorlds(info, rec).sampler.sample(createRng(1), hands);
    checkWorld(info, rec, hands);
  });
});

/** Plays one game with `make` at seats 0 and 2 and rule players at 1 and 3; the cards in order. */
function playWith(make: (seat: Seat) => { choose: LevelPlayer['choose']; kind: string }, seed: number): Card[] {
  const deal = dealCards(createRng(seed), (seed & 3) as Seat);
  const players = [0, 1, 2, 3].map((s) =>
    s % 2 === 0 ? make(s as Seat) : new RulePlayer({ seat: s as Seat, seed: seed + s }),
  );
  const game = playGame(deal, players);
  return Array.from({ length: game.plays }, (_, i) => game.playAt(i));
}

describe('the level player', () => {
  it('full forgets nothing and plays exactly as timed under the same seed', () => {
    for (const seed of [1, 2]) {
      const full = playWith(
        (seat) => new LevelPlayer({ seat, seed: 100 + seat, level: 'full', clock: steppingClock(1), budgetMs: 40 }),
        seed,
      );
      const timed = playWith(
        (seat) => new SearchPlayer({ seat, seed: 100 + seat, kind: 'timed', clock: steppingClock(1), budgetMs: 40 }),
        seed,
      );
      expect(full).toEqual(timed);
    }
    const player = new LevelPlayer({ seat: 0, seed: 1, level: 'full', clock: steppingClock(1) });
    expect(player.memory).toBeNull();
  });

  it('is deterministic under its seed', () => {
    const run = (seed: number): { plays: Card[]; forgotten: number[] } => {
      const forgotten: number[] = [];
      const plays = playWith((seat) => {
        const p = new LevelPlayer({ seat, seed, level: 'beginner', clock: steppingClock(1), budgetMs: 20 });
        return {
          kind: p.kind,
          choose: (view: SeatView) => {
            const card = p.choose(view);
            if (p.lastRecollection) forgotten.push(p.lastRecollection.forgotten.length);
            return card;
          },
        };
      }, 4);
      return { plays, forgotten };
    };
    const a = run(31);
    expect(run(31)).toEqual(a);
    expect(a.forgotten.some((n) => n > 0)).toBe(true);
  });

  it('plays only legal cards, whatever it forgets (random games)', () => {
    const levels: LevelTable = {
      ...DEFAULT_LEVELS,
      // The harshest memory and the most inference: every path of the believed worlds is exercised.
      levels: {
        ...DEFAULT_LEVELS.levels,
        casual: {
          memory: { decay: 0.8, noise: 0.6, threshold: -1, salience: 0, rehearseOnLead: true, rehearseOnTurn: true },
          infer: 80,
          worlds: 6,
        },
      },
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom('beginner', 'casual', 'club') as fc.Arbitrary<'beginner' | 'casual' | 'club'>,
        (seed, level) => {
          // playGame throws PlayerContractError on an illegal card.
          const plays = playWith(
            (seat) =>
              new LevelPlayer({ seat, seed: seed + seat, level, levels, clock: steppingClock(1), budgetMs: 12 }),
            seed,
          );
          expect(plays.length).toBe(40);
        },
      ),
      { numRuns: 12, seed: 22 },
    );
  });
});

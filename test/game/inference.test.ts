// Inference from the other seats' plays: the rule-based player's choice as a probability, the
// likelihood of a world, and the weighted worlds the search draws.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, InfoSet, Seat } from '../../game/index.js';
import {
  DEFAULT_CANDIDATES,
  Game,
  PlayLikelihood,
  PlayerSpecError,
  RulePlayer,
  SearchPlayer,
  SeatView,
  Solver,
  WeightedWorlds,
  createDealSampler,
  createRng,
  dealCards,
  parseCard,
  playerFactory,
  ruleProbability,
  searchWorlds,
} from '../../game/index.js';

/** The rule player's inputs for the seat to move, read from a game with known hands. */
function odds(game: Game, card: Card): number {
  const s = game.toMove;
  const hand = [0, 1, 2, 3].map((k) => game.handMask(s, k as 0 | 1 | 2 | 3));
  const played = [0, 1, 2, 3].map((k) => game.playedMask(k as 0 | 1 | 2 | 3));
  const led = game.cardsInTrick ? game.ledSuit : -1;
  const winning = game.cardsInTrick ? game.winningCard : -1;
  return ruleProbability(hand, 0, played, 0, game.trump, led, winning, card);
}

/** A game advanced by rule players for `plays` cards. */
function ruleGame(seed: number, plays: number): Game {
  const game = new Game(dealCards(createRng(seed), (seed & 3) as Seat));
  const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed * 4 + s }));
  while (game.plays < plays && !game.isOver) game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

/** The cards each seat has played, from the public plays alone. */
function playedBy(info: { dealer: Seat; trumpCard: Card; plays: readonly Card[] }): Card[][] {
  const out: Card[][] = [[], [], [], []];
  const open = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
  for (const c of info.plays) {
    out[open.toMove]!.push(c);
    open.play(c);
  }
  return out;
}

describe('the rule-based player as probabilities', () => {
  it('gives every card the rule player chooses a positive probability, summing to 1 over the legal cards', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 << 30 }), (seed) => {
        const game = new Game(dealCards(createRng(seed), (seed & 3) as Seat));
        const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed + s }));
        while (!game.isOver) {
          const view = new SeatView(game, game.toMove);
          const legal = view.legalCards();
          const total = legal.reduce((sum, c) => sum + odds(game, c), 0);
          expect(total).toBeCloseTo(1, 9);
          const card = rules[game.toMove]!.choose(view);
          expect(odds(game, card)).toBeGreaterThan(0);
          game.play(card);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("matches the rule player's frequencies where it chooses at random", () => {
    let compared = 0;
    for (let seed = 1; compared < 16; seed++) {
      // Every other position is a lead (a multiple of 4 plays), where ties are broken at random.
      const game = ruleGame(seed, seed % 2 ? seed % 37 : 4 * (seed % 9));
      if (game.isOver) continue;
      const view = new SeatView(game, game.toMove);
      const legal = view.legalCards();
      if (legal.length < 3) continue;
      const counts = new Map<Card, number>();
      const n = 4000;
      for (let k = 0; k < n; k++) {
        const c = new RulePlayer({ seat: game.toMove, seed: 100_000 + k }).choose(view);
        counts.set(c, (counts.get(c) ?? 0) + 1);
      }
      for (const c of legal) {
        const p = odds(game, c);
        const f = (counts.get(c) ?? 0) / n;
        // Four standard deviations of a frequency over 4000 draws.
        expect(Math.abs(f - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n) + 1e-9);
      }
      compared++;
    }
  });

  it('knows a casual player takes a trick with the master card it holds, and leads a side suit master before trump', () => {
    // Trump hearts. Seat 1 holds AS (master) with two other spades; seat 0 led 2S.
    const hand = [0, 0, 0, 0];
    const add = (c: string): void => {
      const card = parseCard(c);
      hand[(card / 10) | 0]! |= 1 << (card % 10);
    };
    ['AS', '3S', '4S', '2H', 'KD'].forEach(add);
    const played = [1 << (parseCard('2S') % 10), 0, 0, 0];
    const trumpH = 1;
    expect(ruleProbability(hand, 0, played, 0, trumpH, 0, parseCard('2S'), parseCard('AS'))).toBe(1);
    expect(ruleProbability(hand, 0, played, 0, trumpH, 0, parseCard('2S'), parseCard('3S'))).toBe(0);
    // Leading: AS is the only qualifying top card (KD is not the master of diamonds).
    expect(ruleProbability(hand, 0, [0, 0, 0, 0], 0, trumpH, -1, -1, parseCard('AS'))).toBe(1);
  });
});

describe('the likelihood of a world', () => {
  it('weighs the true deal above the average consistent world when the others play by the rules', () => {
    let above = 0;
    let ratioSum = 0;
    const positions = 30;
    for (let i = 0; i < positions; i++) {
      const game = ruleGame(500 + i, 12 + (i % 20));
      const info = new SeatView(game, game.toMove).snapshot();
      const likelihood = new PlayLikelihood(info, 0.5);
      const truth = [0, 1, 2, 3].map((s) => game.hand(s as Seat));
      const sampler = createDealSampler(info);
      const rng = createRng(i);
      let mean = 0;
      for (let k = 0; k < 400; k++) mean += likelihood.weight(sampler.sample(rng)) / 400;
      const ratio = likelihood.weight(truth) / mean;
      ratioSum += ratio;
      if (ratio > 1) above++;
    }
    expect(above).toBeGreaterThan(positions * 0.8);
    expect(ratioSum / positions).toBeGreaterThan(2);
  });

  it("is the product, over the other seats' plays, of the mixed rule and uniform probabilities", () => {
    for (let i = 0; i < 15; i++) {
      const game = ruleGame(700 + i, 5 + 2 * i);
      const seat = game.toMove;
      const info = new SeatView(game, seat).snapshot();
      for (const trust of [0.3, 0.5, 1]) {
        const likelihood = new PlayLikelihood(info, trust);
        const sampler = createDealSampler(info);
        const rng = createRng(i);
        for (let k = 0; k < 5; k++) {
          const hands = sampler.sample(rng, [[], [], [], []]);
          // Replay the world from its deal with the engine, scoring each play of the other seats.
          const deal = hands.map((h, s) => [...h, ...playedBy(info)[s]!]);
          const replay = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: deal });
          let product = 1;
          for (const c of info.plays) {
            if (replay.toMove !== seat) {
              const legal = new SeatView(replay, replay.toMove).legalCards().length;
              product *= trust * odds(replay, c) + (1 - trust) / legal;
            }
            replay.play(c);
          }
          expect(likelihood.weight(hands)).toBeCloseTo(product, 12);
        }
      }
    }
  });

  it('with full trust, never draws a world in which a rule player could not have played as it did', () => {
    let fitted = 0;
    for (let i = 0; i < 10; i++) {
      const game = ruleGame(900 + i, 10 + 2 * i);
      const seat = game.toMove;
      const info = new SeatView(game, seat).snapshot();
      const likelihood = new PlayLikelihood(info, 1);
      const worlds = new WeightedWorlds(createDealSampler(info), likelihood, createRng(i), 1024);
      // Late in a game few uniform candidates fit rule players exactly; none may, and then all weigh the same.
      if (worlds.uniform) continue;
      fitted++;
      const rng = createRng(1000 + i);
      const played = playedBy(info);
      const hands: Card[][] = [[], [], [], []];
      for (let k = 0; k < 20; k++) {
        worlds.next(rng, hands);
        // Replay the world from its deal and check every play of the other seats against the rules.
        const replay = new Game({
          dealer: info.dealer,
          trumpCard: info.trumpCard,
          hands: hands.map((h, s) => [...h, ...played[s]!]),
        });
        for (const c of info.plays) {
          if (replay.toMove !== seat) expect(odds(replay, c)).toBeGreaterThan(0);
          replay.play(c);
        }
      }
    }
    expect(fitted).toBeGreaterThanOrEqual(8);
  });

  it("puts the other seats' cards where they are more often than uniform worlds do", () => {
    let uniformHits = 0;
    let weightedHits = 0;
    for (let i = 0; i < 20; i++) {
      const game = ruleGame(1300 + i, 16 + (i % 12));
      const seat = game.toMove;
      const info = new SeatView(game, seat).snapshot();
      const truth = [0, 1, 2, 3].map((s) => new Set(game.hand(s as Seat)));
      const hits = (hands: Card[][]): number =>
        hands.reduce((n, h, s) => (s === seat ? n : n + h.filter((c) => truth[s]!.has(c)).length), 0);
      const sampler = createDealSampler(info);
      const worlds = new WeightedWorlds(sampler, new PlayLikelihood(info, 0.5), createRng(i), 1024);
      const rng = createRng(77 + i);
      const hands: Card[][] = [[], [], [], []];
      for (let k = 0; k < 200; k++) {
        uniformHits += hits(sampler.sample(rng, hands));
        weightedHits += hits(worlds.next(rng, hands));
      }
    }
    expect(weightedHits).toBeGreaterThan(uniformHits * 1.03);
  });
});

/** A rule game's position after `plays` cards: the mover's information set and legal cards. */
function position(seed: number, plays: number): { info: InfoSet; legal: Card[] } {
  const game = ruleGame(seed, plays);
  const view = new SeatView(game, game.toMove);
  return { info: view.snapshot(), legal: view.legalCards() };
}

describe('the search with inference', () => {
  it('reports the weighed candidates, reproduces from its seed, and counts a world drawn twice without solving it again', () => {
    const { info, legal } = position(42, 24);
    const run = (solver: Solver) =>
      searchWorlds(info, legal, solver, createRng(9), {
        worlds: 300,
        rollouts: 0,
        rolloutTricks: 0,
        seed: 9,
        inference: { trust: 0.9, candidates: 64 },
      });
    const solver = new Solver({ ttBits: 16 });
    const a = run(solver);
    expect(a.inference).toEqual({ trust: 0.9, candidates: 64, effective: expect.any(Number) });
    expect(a.inference!.effective).toBeGreaterThan(1);
    expect(a.inference!.effective).toBeLessThanOrEqual(64);
    expect(a.tally.worlds).toBe(300);
    const b = run(new Solver({ ttBits: 16 }));
    expect(b.tally).toEqual({ ...a.tally, nodes: b.tally.nodes });
    // 300 draws from 64 candidates: most draws repeat a solved world. Solving every draw would cost
    // far more nodes than solving the distinct ones: compare with the same draws, uniform weights.
    const uniform = searchWorlds(info, legal, new Solver({ ttBits: 16 }), createRng(9), {
      worlds: 300,
      rollouts: 0,
      rolloutTricks: 0,
      seed: 9,
    });
    expect(uniform.inference).toBeUndefined();
    expect(a.tally.nodes).toBeLessThan(uniform.tally.nodes);
  });

  it('solves a world drawn again only once', () => {
    const { info, legal } = position(43, 24);
    // One candidate: every draw is the same world, so 50 draws cost the nodes of one.
    const run = (worlds: number) =>
      searchWorlds(info, legal, new Solver({ ttBits: 16 }), createRng(3), {
        worlds,
        rollouts: 0,
        rolloutTricks: 0,
        seed: 3,
        inference: { trust: 0.5, candidates: 1 },
      });
    const once = run(1);
    const fifty = run(50);
    expect(fifty.tally.worlds).toBe(50);
    expect(once.tally.nodes).toBeGreaterThan(0);
    expect(fifty.tally.nodes).toBe(once.tally.nodes);
    fifty.tally.sum.forEach((v, i) => expect(v).toBeCloseTo(50 * once.tally.sum[i]!, 9));
  });

  it('samples uniformly before any other seat has played', () => {
    const game = new Game(dealCards(createRng(3), 3));
    const view = new SeatView(game, game.toMove); // seat 0 leads the first trick
    const r = searchWorlds(view.snapshot(), view.legalCards(), new Solver({ ttBits: 16 }), createRng(1), {
      worlds: 2,
      rollouts: 1,
      rolloutTricks: 9,
      seed: 1,
      inference: { trust: 0.5 },
    });
    expect(r.inference).toBeUndefined();
  });

  it("is the timed player's default, and `infer=` sets or turns it off by name", () => {
    expect(DEFAULT_CANDIDATES).toBeGreaterThan(0);
    const game = ruleGame(8, 21);
    const view = new SeatView(game, game.toMove);
    let t = 0;
    const clock = (): number => (t += 1);
    const expected: [string, number | undefined][] = [
      ['timed', 0.5],
      ['timed:infer=0', undefined],
      ['timed:infer=100', 1],
      ['pimc:n=3', undefined],
      ['pimc:n=3:infer=50', 0.5],
      ['hybrid:n=2:m=1:t=9:infer=25', 0.25],
    ];
    for (const [spec, trust] of expected) {
      const player = playerFactory(spec)({ seat: view.seat, seed: 1, clock, budgetMs: 400 }) as SearchPlayer;
      const d = player.decide(view);
      expect(view.legalCards()).toContain(d.card);
      expect(d.beliefs!.worlds).toBeGreaterThan(0);
      // The beliefs say whether and how far the worlds were weighed.
      expect(d.beliefs!.inference?.trust, spec).toBe(trust);
      if (trust !== undefined) {
        expect(d.beliefs!.inference!.candidates).toBeGreaterThanOrEqual(64);
        expect(d.beliefs!.inference!.effective).toBeGreaterThan(1);
        expect(d.beliefs!.inference!.effective).toBeLessThanOrEqual(d.beliefs!.inference!.candidates);
      }
    }
    expect(() => new SearchPlayer({ kind: 'timed', seat: 0, seed: 1, clock, trust: 1.5 })).toThrow(RangeError);
    expect(() => playerFactory('timed:infer=101')).toThrow(PlayerSpecError);
    expect(() => playerFactory('timed:infer=101')).toThrow(/infer expects a whole number from 0 to 100/);
    expect(() => playerFactory('rule:infer=5')).toThrow(/takes no parameters/);
  });
});

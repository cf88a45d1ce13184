// Predicting the other seats' cards (game/predict): what a prediction is (positive, sums to
// 1, over the cards the seat might play as the observer knows), that it is made from the observer's
// information set only, that it is deterministic, and that the models carry information (they beat
// uniform on games whose players they model). Behaviour only: no timing.

import { describe, expect, it } from 'vitest';
import type { Card, Game as GameT, InfoSet, Player, Predictor, PredictorKind, Seat } from '../../game/index.js';
import {
  ExpertPlayer,
  Game,
  PolicyPlayLikelihood,
  ExpertSoftmaxPolicy,
  PredictionScorer,
  RulePlayer,
  SeatView,
  WorldBuilder,
  createDealSampler,
  createPredictor,
  createRng,
  dealCards,
  infoSetOf,
  parseCard,
  possiblePlays,
  probabilityOf,
  ruleProbability,
  seatToMove,
} from '../../game/index.js';

/** Small settings, so the tests stay quick: the models are the same. */
const small = (kind: PredictorKind, seed = 7): Predictor =>
  createPredictor({
    kind,
    seed,
    candidates: 64,
    ...(kind === 'tom1' ? { worlds: 4, tom1: { worlds: 1, candidates: 8 } } : {}),
  });
/** tom1 asked about as many of the seat's hands as by default (its answer depends on covering them), one world each. */
const tom1 = (seed: number): Predictor => createPredictor({ kind: 'tom1', seed, tom1: { worlds: 1, candidates: 8 } });

/** A game played `plays` cards on by `make` players. */
function advanced(seed: number, plays: number, make: (s: Seat) => Player): GameT {
  const game = new Game(dealCards(createRng(seed), (seed & 3) as Seat));
  const players = [0, 1, 2, 3].map((s) => make(s as Seat));
  while (game.plays < plays && !game.isOver) game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

/** The observer's information set just before another seat plays, or null when the observer is to move. */
function observerInfo(game: GameT, observer: Seat): InfoSet | null {
  return game.toMove === observer ? null : infoSetOf(game, observer, game.hand(observer));
}

const KINDS: PredictorKind[] = ['uniform', 'legal', 'rule', 'expert', 'tom1'];

describe('a prediction', () => {
  it('gives every card the seat might play a positive probability, summing to 1, and the card it plays is among them', () => {
    let checked = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const game = advanced(seed, (seed * 7) % 38, (s) => new RulePlayer({ seat: s, seed: seed * 4 + s }));
      const info = observerInfo(game, 0);
      if (!info) continue;
      const seat = game.toMove;
      const actual = new RulePlayer({ seat, seed: 99 }).choose(new SeatView(game, seat));
      for (const kind of KINDS) {
        const p = small(kind).predict(info, seat);
        expect(p.cards.length).toBe(p.probabilities.length);
        expect(p.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
        for (const q of p.probabilities) expect(q).toBeGreaterThan(0);
        expect(probabilityOf(p, actual)).toBeGreaterThan(0);
        // Every card the seat truly may play is among the possible ones.
        for (const c of new SeatView(game, seat).legalCards()) expect(p.cards).toContain(c);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(6);
  });

  it("is the same for two deals that agree on what the observer knows: the seat's true hand is never read", () => {
    for (let seed = 20; seed < 26; seed++) {
      const game = advanced(seed, 13 + (seed % 5), (s) => new ExpertPlayer({ seat: s, seed: seed + s }));
      const info = observerInfo(game, 0);
      if (!info) continue;
      // Another deal of the unseen cards consistent with the observer's view, with the same past plays.
      const other = createDealSampler(info).sample(createRng(seed, 1));
      const twin = new WorldBuilder(info).game(other);
      const twinInfo = infoSetOf(twin, 0, twin.hand(0));
      expect(twinInfo).toEqual(info);
      const seat = seatToMove(info);
      for (const kind of KINDS) expect(small(kind).predict(twinInfo, seat)).toEqual(small(kind).predict(info, seat));
    }
  });

  it('is deterministic under its seed, whatever was asked before', () => {
    const game = advanced(31, 17, (s) => new RulePlayer({ seat: s, seed: s }));
    const info = observerInfo(game, 0)!;
    const seat = seatToMove(info);
    for (const kind of KINDS) {
      const a = small(kind, 5);
      const first = a.predict(info, seat);
      const earlier = observerInfo(
        advanced(31, 14, (s) => new RulePlayer({ seat: s, seed: s })),
        0,
      );
      if (earlier) a.predict(earlier, seatToMove(earlier));
      expect(a.predict(info, seat)).toEqual(first);
      expect(small(kind, 5).predict(info, seat)).toEqual(first);
    }
  });

  it('refuses to predict the observer or a seat not to move', () => {
    const info = observerInfo(
      advanced(3, 5, (s) => new RulePlayer({ seat: s, seed: s })),
      0,
    )!;
    const seat = seatToMove(info);
    expect(() => small('rule').predict(info, 0)).toThrow(/observer/);
    expect(() =>
      small('rule').predict(info, ((seat + 1) & 3) === 0 ? (((seat + 2) & 3) as Seat) : (((seat + 1) & 3) as Seat)),
    ).toThrow(/not to move/);
  });
});

describe('the cards a seat might play, as the observer knows', () => {
  it('are only trumps for a dealer who still holds the turned-up trump card when trump is led', () => {
    // Dealer 3; seat 0 leads a trump, seats 1 and 2 follow as they must; seat 3 still holds the trump card.
    let checked = 0;
    for (let seed = 41; seed < 60; seed++) {
      const d = dealCards(createRng(seed), 3);
      const t = (d.trumpCard / 10) | 0;
      const ofTrump = (hand: readonly Card[]): Card | undefined => hand.find((c) => ((c / 10) | 0) === t);
      const lead = ofTrump(d.hands[0]!);
      if (lead === undefined) continue;
      const g = new Game(d);
      g.play(lead);
      g.play(ofTrump(d.hands[1]!) ?? d.hands[1]![0]!);
      g.play(ofTrump(d.hands[2]!) ?? d.hands[2]![0]!);
      const cards = possiblePlays(infoSetOf(g, 0, g.hand(0)), 3);
      expect(cards).toContain(d.trumpCard);
      for (const c of cards) expect((c / 10) | 0).toBe(t);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('the rule model', () => {
  it("gives the rule player's card its own odds once the observer's worlds leave the seat one hand, and a high probability", () => {
    const mix = 0.95;
    const floor = 0.02;
    let sum = 0;
    let n = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const players = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed * 8 + s }));
      const game = new Game(dealCards(createRng(seed, 3), (seed & 3) as Seat));
      const rule = createPredictor({ kind: 'rule', seed, ruleMix: mix, floor, candidates: 128 });
      while (!game.isOver) {
        const seat = game.toMove;
        const view = new SeatView(game, seat);
        const card = players[seat]!.choose(view);
        if (seat !== 0 && game.trick >= 8) {
          const p = rule.predict(infoSetOf(game, 0, game.hand(0)), seat);
          if (p.hands === 1) {
            // Narrowed to the seat's true hand: the model's own odds, mixed as configured.
            const hand = [0, 1, 2, 3].map((k) => game.handMask(seat, k as 0 | 1 | 2 | 3));
            const played = [0, 1, 2, 3].map((k) => game.playedMask(k as 0 | 1 | 2 | 3));
            const led = game.cardsInTrick ? game.ledSuit : -1;
            const winning = game.cardsInTrick ? game.winningCard : -1;
            const legal = view.legalCards().length;
            const odds = ruleProbability(hand, 0, played, 0, game.trump, led, winning, card);
            expect(probabilityOf(p, card)).toBeCloseTo(
              (1 - floor) * (mix * odds + (1 - mix) / legal) + floor / p.cards.length,
              9,
            );
            sum += probabilityOf(p, card);
            n++;
          }
        }
        game.play(card);
      }
    }
    expect(n).toBeGreaterThan(20);
    expect(sum / n).toBeGreaterThan(0.7);
  });
});

describe('the expert softmax and tom1', () => {
  it('beat uniform on log-likelihood over seeded games of expert players', () => {
    const predictors = [small('uniform', 11), small('expert', 11), tom1(11)];
    const scorer = new PredictionScorer(predictors);
    for (let g = 0; g < 3; g++) {
      const deal = dealCards(createRng(600, g), (g & 3) as Seat);
      const players = [0, 1, 2, 3].map((s) => new ExpertPlayer({ seat: s as Seat, seed: g * 4 + s }));
      const game = new Game(deal);
      const plays: Card[] = [];
      while (!game.isOver) {
        const c = players[game.toMove]!.choose(new SeatView(game, game.toMove));
        plays.push(c);
        game.play(c);
      }
      scorer.add({
        dealer: deal.dealer,
        trumpCard: deal.trumpCard,
        observer: 0,
        observerHand: deal.hands[0]!,
        plays,
        who: ['expert', 'expert', 'expert', 'expert'],
      });
    }
    const [row] = scorer.summary();
    expect(row!.who).toBe('expert');
    expect(row!.decisions).toBe(90);
    const [uniform, expert, tomOne] = row!.models;
    expect(uniform!.gainOverBaseline).toBe(0);
    expect(expert!.meanLogLikelihood).toBeGreaterThan(uniform!.meanLogLikelihood);
    expect(tomOne!.meanLogLikelihood).toBeGreaterThan(uniform!.meanLogLikelihood);
    // The gain is shown game by game, not by luck: its interval lies above 0.
    expect(expert!.gainCi95[0]).toBeGreaterThan(0);
    expect(tomOne!.gainCi95[0]).toBeGreaterThan(0);
  });
});

describe('worlds weighed by the expert model (timed:model=expert)', () => {
  it('weigh the true deal above the average consistent world when the others play as experts', () => {
    let above = 0;
    let tried = 0;
    const likelihoodOf = (info: InfoSet): PolicyPlayLikelihood =>
      new PolicyPlayLikelihood(info, 0.5, new ExpertSoftmaxPolicy(1.5, 1));
    for (let seed = 1; seed <= 10; seed++) {
      const game = advanced(seed, 20, (s) => new ExpertPlayer({ seat: s, seed: seed + s }));
      const info = infoSetOf(game, 0, game.hand(0));
      const likelihood = likelihoodOf(info);
      const truth = likelihood.weight([0, 1, 2, 3].map((s) => game.hand(s as Seat)));
      const sampler = createDealSampler(info);
      const rng = createRng(seed, 9);
      let mean = 0;
      for (let k = 0; k < 100; k++) mean += likelihood.weight(sampler.sample(rng)) / 100;
      expect(truth).toBeGreaterThan(0);
      if (truth > mean) above++;
      tried++;
    }
    expect(above).toBeGreaterThanOrEqual(tried - 1);
  });

  it('is a parameter of the timed player, by name or number', async () => {
    const { playerFactory, PlayerSpecError } = await import('../../game/index.js');
    expect(() => playerFactory('timed:infer=50:model=expert')).not.toThrow();
    expect(() => playerFactory('timed:model=1')).not.toThrow();
    expect(() => playerFactory('timed:model=tom9')).toThrow(PlayerSpecError);
    expect(parseCard('AS')).toBe(9);
  });
});

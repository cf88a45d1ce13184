// The hand assessment at the deal (after Marincic et al.'s Tarok bidding): the features a player reads,
// the fitted model's direction (better cards, better estimate), its bounds, its combination with the
// search (as Marincic et al. weigh knowledge and simulation), and the fuzzy strength classes (after
// Yano and Onisawa).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DECK,
  FEATURE_COUNT,
  HAND_FEATURES,
  HandAssessor,
  combineEstimates,
  createRng,
  dealCards,
  handFeatures,
  parseCard,
  shuffleInPlace,
  strengthOf,
} from '../../game/index.js';
import type { Card, HandFeature, Seat } from '../../game/index.js';

const cards = (s: string): Card[] => s.split(' ').map((c) => parseCard(c));
const feature = (x: Float64Array, name: HandFeature): number => x[HAND_FEATURES.indexOf(name)]!;

describe('the features a player reads at the deal', () => {
  it('counts trumps by rank, side aces and sevens, voids and singletons, and where the turned-up card lies', () => {
    // Trump hearts (the turned-up 7H lies with seat 2, the dealer). Seat 0 holds AH KH 2H, AS 7S, 7D, 3C QC 4C 5C: no void.
    const hand = cards('AH KH 2H AS 7S 7D 3C QC 4C 5C');
    const x = handFeatures(hand, 0, 2, parseCard('7H'));
    expect(x).toHaveLength(FEATURE_COUNT);
    expect(feature(x, 'trumps')).toBe(3);
    expect([feature(x, 'trumpAce'), feature(x, 'trumpSeven'), feature(x, 'trumpKing')]).toEqual([1, 0, 1]);
    expect(feature(x, 'sideAces')).toBe(1);
    expect(feature(x, 'sideSevensWithAce')).toBe(1); // 7S with AS
    expect(feature(x, 'sideSevensBare')).toBe(1); // 7D alone
    expect(feature(x, 'voids')).toBe(0);
    expect(feature(x, 'singletons')).toBe(1); // diamonds
    expect(feature(x, 'sideLength')).toBe(4);
    expect(feature(x, 'pointsInHand')).toBe(11 + 4 + 11 + 10 + 10 + 2);
    // Seat 2 dealt: the partner holds the turned-up seven of trumps; seat 3 leads first.
    expect([
      feature(x, 'partnerTurnedUp'),
      feature(x, 'partnerTurnedUpPoints'),
      feature(x, 'opponentTurnedUp'),
      feature(x, 'leadsFirst'),
    ]).toEqual([1, 10, 0, 0]);
    // Seat 3 dealt: an opponent holds it, and seat 0 leads.
    const y = handFeatures(hand, 0, 3, parseCard('7H'));
    expect([
      feature(y, 'partnerTurnedUp'),
      feature(y, 'opponentTurnedUp'),
      feature(y, 'opponentTurnedUpPoints'),
      feature(y, 'leadsFirst'),
    ]).toEqual([0, 1, 10, 1]);
  });

  it('a hand with no card of a side suit has a void there', () => {
    const x = handFeatures(cards('AS 7S KS JS QS 2S 3S AH 7H KH'), 1, 1, parseCard('2S'));
    expect(feature(x, 'voids')).toBe(2); // diamonds and clubs
    expect(feature(x, 'trumps')).toBe(7);
    expect([feature(x, 'partnerTurnedUp'), feature(x, 'opponentTurnedUp')]).toEqual([0, 0]); // it dealt
  });
});

describe('the fitted model', () => {
  const assessor = new HandAssessor();

  it("was fitted to this build's features, and says on what", () => {
    expect(assessor.model.features).toEqual(HAND_FEATURES);
    expect(assessor.model.fittedOn).toMatch(/hand-assessment\.js fit .*expert/);
  });

  it('rates a hand of masters far above a hand of small cards, and an even hand near an even game', () => {
    const strong = assessor.assess(cards('AH 7H KH JH QH AS 7S AD 7D AC'), 0, 3, parseCard('2H'));
    const weak = assessor.assess(cards('2S 3S 4S 5S 2D 3D 4D 2C 3C 4C'), 0, 3, parseCard('AH'));
    expect(strong.expectedPoints).toBeGreaterThan(90);
    expect(strong.winProbability).toBeGreaterThan(0.9);
    expect(weak.expectedPoints).toBeLessThan(50);
    expect(weak.winProbability).toBeLessThan(0.3);
  });

  it('swapping a small trump for the ace of trumps never lowers the estimate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 3 }), (seed, seat) => {
        const deal = dealCards(createRng(seed), ((seed >> 3) & 3) as Seat);
        const trump = Math.floor(deal.trumpCard / 10);
        const ace = (trump * 10 + 9) as Card;
        const hand = deal.hands[seat]!;
        const small = hand.find((c) => Math.floor(c / 10) === trump && c % 10 < 5 && c !== deal.trumpCard);
        if (small === undefined || hand.includes(ace) || deal.trumpCard === ace) return;
        const before = assessor.assess(hand, seat as Seat, deal.dealer, deal.trumpCard);
        const after = assessor.assess(
          hand.map((c) => (c === small ? ace : c)),
          seat as Seat,
          deal.dealer,
          deal.trumpCard,
        );
        expect(after.expectedPoints).toBeGreaterThanOrEqual(before.expectedPoints);
        expect(after.winProbability).toBeGreaterThanOrEqual(before.winProbability);
      }),
      { numRuns: 300 },
    );
  });

  it('always answers within 0..120 points and a probability, for any ten cards', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const deck = shuffleInPlace(DECK.slice(), createRng(seed));
        const a = assessor.assess(deck.slice(0, 10), (seed & 3) as Seat, ((seed >> 2) & 3) as Seat, deck[10]!);
        expect(a.expectedPoints).toBeGreaterThanOrEqual(0);
        expect(a.expectedPoints).toBeLessThanOrEqual(120);
        expect(a.winProbability).toBeGreaterThan(0);
        expect(a.winProbability).toBeLessThan(1);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a model fitted to other features', () => {
    expect(() => new HandAssessor({ ...assessor.model, features: ['trumps'] })).toThrow(/fit it again/);
  });
});

describe('combining with the search, and the fuzzy strength', () => {
  it('weighs the search by ks and the model by 1 - ks (ks clamped to 0..1)', () => {
    const model = { expectedPoints: 40, winProbability: 0.2 };
    const search = { expectedPoints: 80, winProbability: 0.8 };
    expect(combineEstimates(model, search, 0)).toEqual(model);
    expect(combineEstimates(model, search, 1)).toEqual(search);
    expect(combineEstimates(model, search, 0.25)).toEqual({ expectedPoints: 50, winProbability: 0.35000000000000003 });
    expect(combineEstimates(model, search, 7)).toEqual(search);
  });

  it('names a hand from very weak to very strong, with memberships that overlap between neighbours', () => {
    expect(strengthOf(20).class).toBe('very-weak');
    expect(strengthOf(47).class).toBe('weak');
    expect(strengthOf(60).class).toBe('average');
    expect(strengthOf(75).class).toBe('strong');
    expect(strengthOf(110).class).toBe('very-strong');
    const between = strengthOf(66).membership;
    expect(between.average).toBeCloseTo(0.5);
    expect(between.strong).toBeCloseTo(0.5);
    expect(between['very-weak']).toBe(0);
  });
});

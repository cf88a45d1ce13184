// The built-in players: only legal cards, deterministic by seed, read-only on the view, and the rule
// player follows the rules documented in game/players/rule.ts on hand-built positions.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, Player, Seat } from '../../game/index.js';
import {
  BUILTIN_PLAYERS,
  Game,
  RandomPlayer,
  RulePlayer,
  SeatView,
  builtinPlayerKinds,
  createRng,
  dealCards,
  formatCard,
  parseCard,
  playGame,
} from '../../game/index.js';
import { RefGame, completeDeal, dealSpec, rankL, sorted, toStrings } from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const seatArb = fc.constantFrom<Seat>(0, 1, 2, 3);
// The kinds that play by rules; the search players (pimc, hybrid, timed, timed-v1) are tested in search.test.ts
// (mix, rollout, ismcts and blend in rollout-ismcts.test.ts),
// the advised player (a rule-based player advised by a search) in advised.test.ts, the levels of play
// (a search on the worlds a forgetful player believes; `level` needs a name) in memory*.test.ts, the
// imitation player (it needs a model file) in test/learned/onnx.test.ts.
const SEARCH_KINDS = [
  'pimc',
  'hybrid',
  'timed',
  'timed-v1',
  'mix',
  'rollout',
  'ismcts',
  'blend',
  'advised',
  'level',
  'imitation',
];
const KINDS = builtinPlayerKinds().filter((k) => !SEARCH_KINDS.includes(k));
const kindArb = fc.constantFrom(...KINDS);
const SEATS: Seat[] = [0, 1, 2, 3];

describe('built-in players', () => {
  it('include random and rule; each reports its own kind', () => {
    expect(KINDS).toContain('random');
    expect(KINDS).toContain('rule');
    for (const k of KINDS) expect(BUILTIN_PLAYERS[k]!({ seat: 0, seed: 1 }).kind).toBe(k);
  });

  it('only ever choose a legal card, and choosing does not change the game', () => {
    fc.assert(
      fc.property(seedArb, seatArb, fc.tuple(kindArb, kindArb, kindArb, kindArb), (seed, dealer, kinds) => {
        const deal = dealCards(createRng(seed, 1), dealer);
        const game = new Game(deal);
        const ref = new RefGame(
          dealer,
          formatCard(deal.trumpCard),
          deal.hands.map((h) => toStrings(h)),
        );
        const players = kinds.map((k, s) => BUILTIN_PLAYERS[k]!({ seat: s as Seat, seed: seed + s }));
        while (!ref.done) {
          const seat = ref.toMove;
          const view = new SeatView(game, seat);
          const before = JSON.stringify(view.snapshot());
          const card = players[seat]!.choose(view);
          const c = formatCard(card);
          if (!ref.legal().includes(c)) expect(ref.legal(), `seat ${seat} (${kinds[seat]}) chose ${c}`).toContain(c);
          if (JSON.stringify(view.snapshot()) !== before) expect(view.snapshot()).toEqual(JSON.parse(before));
          game.play(card);
          ref.play(c);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('same seed, same cards; for the random player another seed usually changes them', () => {
    const history = (kind: string, seed: number, dealSeed: number): string[] => {
      const players = SEATS.map((s) => BUILTIN_PLAYERS[kind]!({ seat: s, seed: seed * 4 + s }));
      const game = playGame(dealCards(createRng(dealSeed), (dealSeed & 3) as Seat), players);
      return Array.from({ length: game.plays }, (_, i) => formatCard(game.playAt(i)));
    };
    let differ = 0;
    for (let i = 0; i < 40; i++) {
      for (const kind of KINDS) expect(history(kind, i, 1000 + i)).toEqual(history(kind, i, 1000 + i));
      if (history('random', i, 1000 + i).join() !== history('random', i + 1, 1000 + i).join()) differ++;
    }
    expect(differ).toBeGreaterThan(35);
  });

  it('the random player can pick each legal card', () => {
    // Seat 0 leads trick 0 with ten legal cards.
    const deal = dealCards(createRng(99), 3);
    const seen = new Set<Card>();
    for (let seed = 0; seed < 300; seed++)
      seen.add(new RandomPlayer({ seat: 0, seed }).choose(new SeatView(new Game(deal), 0)));
    expect(sorted(toStrings([...seen]))).toEqual(sorted(toStrings(deal.hands[0]!)));
  });
});

// ---- the rule player on hand-built positions --------------------------------------------------------

/**
 * A position: dealer 3 turned up 2H (hearts trump), seat 0 leads trick 0. `fixed` pins (part of) the
 * hands, `voids` keeps suits away from seats, `script` is played first.
 */
function position(fixed: string[][], script: string[] = [], voids: string[][] = [[], [], [], []]): SeatView {
  const dealer: Seat = 3;
  const hands = completeDeal(
    fixed.map((h, s) => (s === dealer && !h.includes('2H') ? [...h, '2H'] : h)),
    voids,
  );
  const game = new Game(dealSpec(dealer, '2H', hands));
  for (const c of script) game.play(parseCard(c));
  return new SeatView(game, game.toMove);
}

/** The rule player's choices at a position over many seeds. */
function ruleChoices(view: SeatView, seeds = 40, literal = false): Set<string> {
  const out = new Set<string>();
  for (let seed = 0; seed < seeds; seed++)
    out.add(formatCard(new RulePlayer({ seat: view.seat, seed, literal }).choose(view)));
  return out;
}

const ZERO = ['2', '3', '4', '5', '6'];
const isZero = (c: string): boolean => ZERO.includes(rankL(c));

describe('rule player: leading', () => {
  it('leads the ace of a side suit with fewer than 5 cards when it is the highest unplayed', () => {
    const view = position([['AS', '2S', '3S', '2D', '3D', '4D', '5D', '6D', '2C', '3C']]);
    expect(ruleChoices(view)).toEqual(new Set(['AS']));
    const four = position([['AS', 'QS', '2S', '3S', '2D', '3D', '4D', '5D', '6D', '2C']]);
    expect(ruleChoices(four)).toEqual(new Set(['AS']));
  });

  it('does not lead that ace with 5 or more cards of the suit: a random zero-point card instead', () => {
    const view = position([['AS', '2S', '3S', '4S', '5S', '2D', '3D', '4D', '5D', '6D']]);
    const choices = ruleChoices(view, 60);
    expect(choices.has('AS')).toBe(false);
    for (const c of choices) expect(isZero(c), c).toBe(true);
    expect(choices.size).toBeGreaterThan(3);
  });

  it('the trump ace is exempt from the 5-card limit; a side ace is preferred to it', () => {
    const trumps = position([['AH', '3H', '4H', '5H', '6H', 'QH', '2S', '3S', '2D', '3D']]);
    expect(ruleChoices(trumps)).toEqual(new Set(['AH']));
    const both = position([['AH', '3H', '4H', 'AS', '2S', '3S', '2D', '3D', '2C', '3C']]);
    expect(ruleChoices(both)).toEqual(new Set(['AS']));
  });

  it('between two side aces it picks either', () => {
    const view = position([['AS', '2S', 'AD', '2D', '3D', '3S', '4D', '2C', '3C', '4C']]);
    expect(ruleChoices(view)).toEqual(new Set(['AS', 'AD']));
  });

  it('a 7 is the top once the ace is played; it is not while the ace is out', () => {
    // Trick 0: seat 0 leads AC and wins (seat 3 has no club and throws AS); seat 0 leads again.
    const hand = ['AC', '7S', '2S', '3S', '2D', '3D', '4D', '5D', '6D', '3H'];
    const after = position([hand, ['3C'], ['4C'], ['AS']], ['AC', '3C', '4C', 'AS'], [[], [], [], ['C']]);
    expect(after.toMove).toBe(0);
    expect(ruleChoices(after)).toEqual(new Set(['7S']));
    const before = position([['7S', '2S', '3S', '2D', '3D', '4D', '5D', '6D', '3H', '4H']]);
    const choices = ruleChoices(before);
    expect(choices.has('7S')).toBe(false);
    for (const c of choices) expect(isZero(c), c).toBe(true);
  });
});

describe('rule player: following and cutting', () => {
  it('plays its top card of the led suit when it wins the trick now', () => {
    const view = position([['KS'], ['AS', '2S', '3S', '2D', '3D', '4D', '5D', '6D', '2C', '3C']], ['KS']);
    expect(view.seat).toBe(1);
    expect(ruleChoices(view)).toEqual(new Set(['AS']));
  });

  it('does not chase a trick already cut by a trump with its ace: a zero-point card of the suit', () => {
    const cut = position(
      [['KS'], ['3H'], ['AS', '2S', '4S', '2D', '3D', '4D', '5D', '6D', '2C', '3C']],
      ['KS', '3H'],
      [[], ['S'], [], []],
    );
    expect(cut.seat).toBe(2);
    expect(ruleChoices(cut)).toEqual(new Set(['2S', '4S']));
    const uncut = position(
      [['KS'], ['5S'], ['AS', '2S', '4S', '2D', '3D', '4D', '5D', '6D', '2C', '3C']],
      ['KS', '5S'],
    );
    expect(ruleChoices(uncut)).toEqual(new Set(['AS']));
  });

  it('unable to follow, cuts with its top trump only when it is the highest trump left', () => {
    const top = position([['KS'], ['AH', '3H', '2D', '3D', '4D', '5D', '6D', '2C', '3C', '4C']], ['KS']);
    expect(ruleChoices(top)).toEqual(new Set(['AH']));
    const notTop = position([['KS'], ['KH', '3H', '2D', '3D', '4D', '5D', '6D', '2C', '3C', '4C']], ['KS']);
    const choices = ruleChoices(notTop, 60);
    expect(choices.has('KH')).toBe(false);
    for (const c of choices) expect(isZero(c), c).toBe(true);
  });

  it('does not throw the top card of a third suit, which cannot win', () => {
    const view = position([['KS'], ['AD', '2D', '3D', '4D', 'AC', '2C', '3C', '4C', 'QC', 'JD']], ['KS']);
    const choices = ruleChoices(view, 60);
    expect(choices.has('AD')).toBe(false);
    expect(choices.has('AC')).toBe(false);
    for (const c of choices) expect(isZero(c), c).toBe(true);
  });

  it('with no zero-point legal card it gives away the cheapest (Q before J, K, 7, A)', () => {
    // Following spades with only QS and KS (AS is still out): QS.
    const follow = position([['2S'], ['QS', 'KS', '2D', '3D', '4D', '5D', '6D', '2C', '3C', '4C']], ['2S']);
    expect(ruleChoices(follow)).toEqual(new Set(['QS']));
    // No spade and only court cards: a queen, from either suit.
    const honours = position([['2S'], ['QD', 'JD', 'KD', '7D', 'QC', 'JC', 'KC', '7C', 'JH', 'KH']], ['2S']);
    expect(ruleChoices(honours)).toEqual(new Set(['QD', 'QC']));
  });
});

describe('rule-literal: the paper word for word', () => {
  it('throws its top card even on a trick it cannot win', () => {
    const cut = position(
      [['KS'], ['3H'], ['AS', '2S', '4S', '2D', '3D', '4D', '5D', '6D', '2C', '3C']],
      ['KS', '3H'],
      [[], ['S'], [], []],
    );
    expect(ruleChoices(cut, 20, true)).toEqual(new Set(['AS']));
    expect(BUILTIN_PLAYERS['rule-literal']?.({ seat: 2, seed: 0 }).choose(cut)).toBe(parseCard('AS'));
  });

  it('unable to follow, any allowed suit top card is a candidate', () => {
    const view = position([['KS'], ['AD', '2D', '3D', '2C', '3C', '4C', '5C', '6C', 'QC', 'JC']], ['KS']);
    expect(ruleChoices(view, 20, true)).toEqual(new Set(['AD']));
  });
});

describe('players through playGame', () => {
  it('every mix of random and rule players finishes legal games with 120 points', () => {
    fc.assert(
      fc.property(seedArb, seatArb, fc.tuple(kindArb, kindArb, kindArb, kindArb), (seed, dealer, kinds) => {
        const players: Player[] = kinds.map((k, s) => BUILTIN_PLAYERS[k]!({ seat: s as Seat, seed: seed ^ s }));
        const game = playGame(dealCards(createRng(seed), dealer), players);
        expect(game.status).toBe('complete');
        expect(game.points(0) + game.points(1)).toBe(120);
      }),
      { numRuns: 300 },
    );
  });
});

// The rules of Sueca against an independent reference model (test/game/helpers.ts): trick winners,
// trick points, 120 points per game, victories, legal moves, who leads, and scripted deals that pin
// the tricky cases.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent, Player, Seat } from '../../game/index.js';
import {
  BUILTIN_PLAYERS,
  CardParseError,
  DECK,
  Game,
  PlayError,
  PlayResult,
  SeatView,
  createRng,
  dealCards,
  formatCard,
  outcomeFromPoints,
  parseCard,
  playGame,
} from '../../game/index.js';
import {
  ALL_CARDS,
  DEAL_C,
  RefGame,
  cardPoints,
  completeDeal,
  dealSpec,
  handsFromTricks,
  mulberry32,
  pick,
  playErrorCode,
  refDeal,
  refOutcome,
  refTrickWinnerIndex,
  same,
  sorted,
  suitL,
  toStrings,
} from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const seatArb = fc.constantFrom<Seat>(0, 1, 2, 3);
const kindArb = fc.constantFrom('random', 'rule');

describe('card notation', () => {
  it('formats and parses the 40 cards of the notation one to one', () => {
    const ids = ALL_CARDS.map((s) => parseCard(s));
    expect(new Set(ids).size).toBe(40);
    for (const s of ALL_CARDS) expect(formatCard(parseCard(s))).toBe(s);
    expect(sorted(toStrings([...DECK]))).toEqual(sorted(ALL_CARDS));
    expect(formatCard(parseCard(' 7h '))).toBe('7H');
    expect(formatCard(parseCard('qd'))).toBe('QD');
  });

  it('rejects strings that are not cards', () => {
    for (const bad of ['', 'A', '1S', '10H', 'AX', 'SA', '8C', 'A S', 'KSS', 42, null, 19]) {
      expect(() => parseCard(bad)).toThrow(CardParseError);
    }
  });

  it('points per card add to 120', () => {
    expect(ALL_CARDS.reduce((p, c) => p + cardPoints(c), 0)).toBe(120);
  });
});

describe('dealing', () => {
  it('deals 10 distinct cards to each seat and the dealer keeps the turned-up trump card', () => {
    fc.assert(
      fc.property(seedArb, seatArb, (seed, dealer) => {
        const deal = dealCards(createRng(seed), dealer);
        expect(deal.dealer).toBe(dealer);
        expect(deal.hands).toHaveLength(4);
        for (const h of deal.hands) expect(h).toHaveLength(10);
        expect(new Set(deal.hands.flat()).size).toBe(40);
        expect(deal.hands[dealer]).toContain(deal.trumpCard);
        const again = dealCards(createRng(seed), dealer);
        expect(again).toEqual(deal);
      }),
      { numRuns: 200 },
    );
  });
});

describe('victories from points', () => {
  it('61-90 = 1, 91-119 = 2, 120 = 4, 60-60 a draw, for every split', () => {
    for (let a = 0; a <= 120; a++) expect(outcomeFromPoints(a)).toEqual(refOutcome(a));
    expect(outcomeFromPoints(61)).toEqual({ winner: 'A', victories: 1 });
    expect(outcomeFromPoints(90)).toEqual({ winner: 'A', victories: 1 });
    expect(outcomeFromPoints(91)).toEqual({ winner: 'A', victories: 2 });
    expect(outcomeFromPoints(119)).toEqual({ winner: 'A', victories: 2 });
    expect(outcomeFromPoints(120)).toEqual({ winner: 'A', victories: 4 });
    expect(outcomeFromPoints(60)).toEqual({ winner: 'draw', victories: 0 });
    expect(outcomeFromPoints(29)).toEqual({ winner: 'B', victories: 2 });
    expect(outcomeFromPoints(30)).toEqual({ winner: 'B', victories: 1 });
    expect(outcomeFromPoints(0)).toEqual({ winner: 'B', victories: 4 });
  });
});

/** Checks everything the engine says about the position against the reference model. */
function checkPosition(game: Game, ref: RefGame): void {
  const legal = sorted(ref.legal());
  const w = ref.table.length ? refTrickWinnerIndex(ref.table, ref.trumpSuit) : -1;
  const actual = {
    status: game.status,
    toMove: game.toMove,
    leader: game.leader,
    trick: game.trick,
    cardsInTrick: game.cardsInTrick,
    plays: game.plays,
    points: [game.points(0), game.points(1)],
    legalCards: sorted(toStrings(game.legalCards())),
    isLegal: ALL_CARDS.filter((c) => game.isLegal(parseCard(c))).sort(),
    winningSeat: game.winningSeat,
    winningCard: game.winningCard === -1 ? -1 : formatCard(game.winningCard),
    ledSuit: game.ledSuit,
    trickPoints: game.trickPoints,
    handSizes: [0, 1, 2, 3].map((s) => game.handSize(s as Seat)),
  };
  const expected = {
    status: 'playing',
    toMove: ref.toMove,
    leader: ref.leader,
    trick: ref.trickIndex,
    cardsInTrick: ref.table.length,
    plays: ref.history.length,
    points: ref.points,
    legalCards: legal,
    isLegal: legal,
    winningSeat: w === -1 ? -1 : (ref.leader + w) % 4,
    winningCard: w === -1 ? -1 : ref.table[w],
    ledSuit: ref.table.length ? 'SHDC'.indexOf(suitL(ref.table[0]!)) : -1,
    trickPoints: ref.table.reduce((p, c) => p + cardPoints(c), 0),
    handSizes: ref.hands.map((h) => h.length),
  };
  same(actual, expected);
}

/** Plays `card` on both, checks the play result and, at the end of a trick, its winner and points. */
function playBoth(game: Game, ref: RefGame, card: string): void {
  const k = ref.trickIndex;
  const before: [number, number] = [game.points(0), game.points(1)];
  const result = game.play(parseCard(card));
  const trick = ref.play(card);
  if (!trick) {
    expect(result).toBe(PlayResult.Continue);
    return;
  }
  expect(result).toBe(ref.done ? PlayResult.GameOver : PlayResult.TrickComplete);
  expect(game.trickWinner(k)).toBe(trick.winner);
  const won = trick.winner! % 2;
  expect(game.points(won as 0 | 1) - before[won]!).toBe(trick.points);
  expect(game.points((1 - won) as 0 | 1)).toBe(before[1 - won]);
  // The winner leads the next trick.
  if (!ref.done) {
    expect(game.leader).toBe(trick.winner);
    expect(game.toMove).toBe(trick.winner);
  }
}

function checkEnd(game: Game, ref: RefGame): void {
  expect(game.status).toBe('complete');
  expect(game.isOver).toBe(true);
  expect(game.trick).toBe(10);
  expect(game.points(0) + game.points(1)).toBe(120);
  expect([game.points(0), game.points(1)]).toEqual(ref.points);
  expect(ref.points[0] + ref.points[1]).toBe(120);
  expect(game.outcome).toEqual(refOutcome(ref.points[0]));
  expect(game.legalCards()).toEqual([]);
  for (let k = 0; k < 10; k++) expect(game.trickWinner(k)).toBe(ref.tricks[k]!.winner);
  expect(toStrings(Array.from({ length: 40 }, (_, i) => game.playAt(i)))).toEqual(ref.history);
}

describe('complete games against the reference model', () => {
  it('random and rule players: legal moves, trick winners and points, 120 points, victories', () => {
    fc.assert(
      fc.property(seedArb, seatArb, fc.tuple(kindArb, kindArb, kindArb, kindArb), (seed, dealer, kinds) => {
        const deal = dealCards(createRng(seed), dealer);
        const hands = deal.hands.map((h) => toStrings(h));
        const game = new Game(deal);
        const ref = new RefGame(dealer, formatCard(deal.trumpCard), hands);
        expect(game.toMove).toBe((dealer + 1) % 4);
        const players: Player[] = kinds.map((k, s) =>
          BUILTIN_PLAYERS[k]!({ seat: s as Seat, seed: seed ^ (s * 7919) }),
        );
        const views = [0, 1, 2, 3].map((s) => new SeatView(game, s as Seat));
        while (!ref.done) {
          checkPosition(game, ref);
          const seat = game.toMove;
          const card = formatCard(players[seat]!.choose(views[seat]!));
          expect(ref.legal()).toContain(card);
          playBoth(game, ref, card);
        }
        checkEnd(game, ref);
      }),
      { numRuns: 200 },
    );
  });

  it('our own deals and our own random choices among the reference legal cards', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        const d = refDeal(seed);
        const game = new Game(dealSpec(d.dealer, d.trumpCard, d.hands));
        const ref = new RefGame(d.dealer, d.trumpCard, d.hands);
        const rand = mulberry32(seed ^ 0x5bd1e995);
        while (!ref.done) {
          checkPosition(game, ref);
          playBoth(game, ref, pick(ref.legal(), rand));
        }
        checkEnd(game, ref);
      }),
      { numRuns: 200 },
    );
  });

  it('playGame reports every trick and the end as events that match the reference', () => {
    fc.assert(
      fc.property(seedArb, seatArb, (seed, dealer) => {
        const deal = dealCards(createRng(seed), dealer);
        const players = [0, 1, 2, 3].map((s) => BUILTIN_PLAYERS.rule!({ seat: s as Seat, seed: seed + s }));
        const events: GameEvent[] = [];
        const game = playGame(deal, players, { onEvent: (e) => events.push(e) });
        const ref = new RefGame(
          dealer,
          formatCard(deal.trumpCard),
          deal.hands.map((h) => toStrings(h)),
        );
        for (let i = 0; i < 40; i++) ref.play(formatCard(game.playAt(i)));
        const deals = events.filter((e) => e.type === 'deal');
        expect(deals.map((e) => e.seat)).toEqual([0, 1, 2, 3]);
        const plays = events.filter((e) => e.type === 'play');
        expect(plays.map((e) => formatCard(e.card))).toEqual(ref.history);
        const tricks = events.filter((e) => e.type === 'trick');
        expect(tricks.map((e) => [e.leader, toStrings(e.cards), e.winner, e.points])).toEqual(
          ref.tricks.map((t) => [t.leader, t.cards, t.winner, t.points]),
        );
        const ends = events.filter((e) => e.type === 'end');
        expect(ends).toHaveLength(1);
        expect(ends[0]).toMatchObject({ points: ref.points, outcome: refOutcome(ref.points[0]), renounce: null });
        expect(events.at(-1)?.type).toBe('end');
      }),
      { numRuns: 100 },
    );
  });
});

describe('who leads', () => {
  it('the first trick is led by the seat after the dealer', () => {
    for (const dealer of [0, 1, 2, 3] as Seat[]) {
      const game = new Game({ dealer, trumpCard: parseCard('AH'), hands: null });
      expect(game.leader).toBe((dealer + 1) % 4);
      expect(game.toMove).toBe((dealer + 1) % 4);
      expect(() => game.play(parseCard('2S'), dealer)).toThrow(PlayError);
    }
  });
});

describe('clone', () => {
  it('a clone plays on without touching the original', () => {
    const deal = dealCards(createRng(7), 0);
    const game = new Game(deal);
    for (let i = 0; i < 13; i++) game.play(game.legalCards()[0]!);
    const snapshot = {
      plays: game.plays,
      toMove: game.toMove,
      points: [game.points(0), game.points(1)],
      hand: game.hand(game.toMove),
    };
    const copy = game.clone();
    while (!copy.isOver) copy.play(copy.legalCards()[0]!);
    expect(copy.status).toBe('complete');
    expect({
      plays: game.plays,
      toMove: game.toMove,
      points: [game.points(0), game.points(1)],
      hand: game.hand(snapshot.toMove),
    }).toEqual(snapshot);
    expect(game.status).toBe('playing');
  });
});

// ---- scripted deals -------------------------------------------------------------------------------

function playScript(game: Game, ref: RefGame, cards: readonly string[]): void {
  for (const c of cards) {
    expect(ref.legal()).toContain(c);
    playBoth(game, ref, c);
  }
}

describe('scripted deals', () => {
  it('a trump cuts an ace of the led suit, a higher trump over-cuts, a trump beats a 7', () => {
    const { dealer, trumpCard, hands } = DEAL_C;
    expect(sorted(hands.flat())).toEqual(sorted(ALL_CARDS));
    const game = new Game(dealSpec(dealer, trumpCard, hands));
    const ref = new RefGame(dealer, trumpCard, hands);
    // Trick 0: seat 0 leads AS, seat 1 (no spade) cuts with 3H.
    playScript(game, ref, ['AS', '3H', '2S', '5S']);
    expect(game.trickWinner(0)).toBe(1);
    expect([game.points(0), game.points(1)]).toEqual([0, 11]);
    expect(game.toMove).toBe(1);
    // Trick 1: seat 1 leads 2D, seat 2 cuts 4H, seat 3 over-cuts 5H, seat 0's AD loses.
    playScript(game, ref, ['2D', '4H', '5H', 'AD']);
    expect(game.trickWinner(1)).toBe(3);
    expect([game.points(0), game.points(1)]).toEqual([0, 22]);
    expect(game.leader).toBe(3);
    // Trick 2: seat 3 leads 7S, seat 0 follows KS, seat 1 cuts 6H, seat 2 follows 3S.
    playScript(game, ref, ['7S', 'KS', '6H', '3S']);
    expect(game.trickWinner(2)).toBe(1);
    expect([game.points(0), game.points(1)]).toEqual([0, 36]);
    // The rest: any legal play; the game still adds to 120.
    const rand = mulberry32(3);
    while (!ref.done) {
      checkPosition(game, ref);
      playBoth(game, ref, pick(ref.legal(), rand));
    }
    checkEnd(game, ref);
  });

  it('a trump led is won by the highest trump; an off-suit high card never wins', () => {
    // Dealer 0, clubs trump (the dealer turned up 3C); seat 1 leads. Seat 3 holds no diamond.
    const hands = completeDeal(
      [
        ['3C', '5D'],
        ['4C', '6D'],
        ['KC', '4D'],
        ['QC', 'AS'],
      ],
      [[], [], [], ['D']],
    );
    const game = new Game(dealSpec(0, '3C', hands));
    const ref = new RefGame(0, '3C', hands);
    playScript(game, ref, ['4C', 'KC', 'QC', '3C']);
    expect(game.trickWinner(0)).toBe(2);
    expect([game.points(0), game.points(1)]).toEqual([6, 0]);
    playScript(game, ref, ['4D', 'AS', '5D', '6D']);
    expect(game.trickWinner(1)).toBe(1);
    expect([game.points(0), game.points(1)]).toEqual([6, 11]);
  });

  it('a 120-point capot gives 4 victories; the dealer holds the turned-up trump card to the last trick', () => {
    // Dealer 2 turns up AH and holds every heart; seat 0 every spade, 1 every diamond, 3 every club.
    const ranks = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'];
    const hands = [
      ranks.map((r) => r + 'S'),
      ranks.map((r) => r + 'D'),
      ranks.map((r) => r + 'H'),
      ranks.map((r) => r + 'C'),
    ];
    const game = new Game(dealSpec(2, 'AH', hands));
    expect(game.trump).toBe('SHDC'.indexOf('H'));
    expect(game.hand(2).map(formatCard)).toContain('AH');
    expect(game.toMove).toBe(3);
    const expectedTrickPoints = [0, 0, 0, 0, 0, 8, 12, 16, 40, 44];
    for (let k = 0; k < 10; k++) {
      const r = ranks[k]!;
      const order = k === 0 ? [r + 'C', r + 'S', r + 'D', r + 'H'] : [r + 'H', r + 'C', r + 'S', r + 'D'];
      const view = new SeatView(game, 0).snapshot();
      expect(view.trumpCardInDealerHand).toBe(true);
      expect(view.unseen.map(formatCard)).toContain('AH');
      const before = game.points(0);
      for (const c of order) game.play(parseCard(c));
      expect(game.trickWinner(k)).toBe(2);
      expect(game.points(0) - before).toBe(expectedTrickPoints[k]);
      expect(game.points(1)).toBe(0);
    }
    expect(new SeatView(game, 0).snapshot().trumpCardInDealerHand).toBe(false);
    expect(game.status).toBe('complete');
    expect([game.points(0), game.points(1)]).toEqual([120, 0]);
    expect(game.outcome).toEqual({ winner: 'A', victories: 4 });
  });

  it('a 60-60 draw', () => {
    // Dealer 3, clubs trump (2C turned up); tricks in order of play from each leader.
    const tricks = [
      ['AS', '2S', '3S', '4S'],
      ['7S', '5S', '6S', 'QS'],
      ['2D', 'AD', '3D', '4D'],
      ['7D', '5D', '6D', 'QD'],
      ['2H', '3H', 'AH', '4H'],
      ['7H', '5H', '6H', 'QH'],
      ['3C', '4C', '5C', 'AC'],
      ['7C', '2C', 'QC', '6C'],
      ['KS', 'JS', 'KD', 'JD'],
      ['JH', 'KC', 'KH', 'JC'],
    ];
    const hands = handsFromTricks(3, 'C', tricks);
    expect(hands[3]).toContain('2C');
    const game = new Game(dealSpec(3, '2C', hands));
    for (const t of tricks) for (const c of t) game.play(parseCard(c));
    expect(Array.from({ length: 10 }, (_, k) => game.trickWinner(k))).toEqual([0, 0, 1, 1, 3, 3, 2, 2, 2, 3]);
    expect([game.points(0), game.points(1)]).toEqual([60, 60]);
    expect(game.status).toBe('complete');
    expect(game.outcome).toEqual({ winner: 'draw', victories: 0 });
  });

  it('moving one 14-point trick off the 60-60 draw gives 74-46: 1 victory', () => {
    // Same shape as the draw, with the last trick going the other way.
    const base = [
      ['AS', '2S', '3S', '4S'],
      ['7S', '5S', '6S', 'QS'],
      ['2D', 'AD', '3D', '4D'],
      ['7D', '5D', '6D', 'QD'],
      ['2H', '3H', 'AH', '4H'],
      ['7H', '5H', '6H', 'QH'],
      ['3C', '4C', '5C', 'AC'],
      ['7C', '2C', 'QC', '6C'],
      ['KS', 'JS', 'KD', 'JD'],
    ];
    // Seat 2 leads the last trick; seat 0's KC over-cuts seat 3's JC: team A takes the 14.
    const tricks = [...base, ['JH', 'JC', 'KC', 'KH']];
    const hands = handsFromTricks(3, 'C', tricks);
    const game = new Game(dealSpec(3, '2C', hands));
    for (const t of tricks) for (const c of t) game.play(parseCard(c));
    expect(game.trickWinner(9)).toBe(0);
    expect([game.points(0), game.points(1)]).toEqual([74, 46]);
    expect(game.outcome).toEqual({ winner: 'A', victories: 1 });
  });
});

describe('PlayError for impossible plays', () => {
  const known = (): Game => new Game(dealSpec(DEAL_C.dealer, DEAL_C.trumpCard, DEAL_C.hands));
  const state = (g: Game) => ({
    plays: g.plays,
    toMove: g.toMove,
    inTrick: g.cardsInTrick,
    points: [g.points(0), g.points(1)],
    status: g.status,
  });
  const code = playErrorCode;

  it('out of turn, not in hand, already played, game over (hands known)', () => {
    const game = known();
    const s0 = state(game);
    expect(code(() => game.play(parseCard('AS'), 1))).toBe('out-of-turn');
    expect(code(() => game.play(parseCard('2D')))).toBe('not-in-hand');
    expect(code(() => game.play(parseCard('2D'), 0))).toBe('not-in-hand');
    expect(state(game)).toEqual(s0);
    game.play(parseCard('AS'));
    expect(code(() => game.play(parseCard('AS')))).toBe('already-played');
    expect(code(() => game.play(parseCard('AS'), 1))).toBe('already-played');
    expect(code(() => game.play(parseCard('3H'), 2))).toBe('out-of-turn');
    const s1 = state(game);
    expect(code(() => game.play(parseCard('2S')))).toBe('not-in-hand');
    expect(state(game)).toEqual(s1);
    while (!game.isOver) game.play(game.legalCards()[0]!);
    expect(code(() => game.play(parseCard('AS')))).toBe('game-over');
    expect(code(() => game.play(parseCard('2C'), game.toMove))).toBe('game-over');
  });

  it('out of turn, already played, the trump card from a non-dealer, game over (hands unknown)', () => {
    const game = new Game({ dealer: 3, trumpCard: parseCard('2H'), hands: null });
    expect(game.handsKnown).toBe(false);
    expect(code(() => game.play(parseCard('AS'), 2))).toBe('out-of-turn');
    expect(code(() => game.play(parseCard('2H'), 0))).toBe('trump-card-in-dealer-hand');
    game.play(parseCard('AS'), 0);
    expect(code(() => game.play(parseCard('AS'), 1))).toBe('already-played');
    game.play(parseCard('3S'), 1);
    game.play(parseCard('4S'), 2);
    game.play(parseCard('2H'), 3); // the dealer may play the trump card
    expect(game.trickWinner(0)).toBe(3);
    expect(game.points(1)).toBe(11);
  });

  it('at every step of random games: impossible plays throw and change nothing', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        const d = refDeal(seed);
        const game = new Game(dealSpec(d.dealer, d.trumpCard, d.hands));
        const ref = new RefGame(d.dealer, d.trumpCard, d.hands);
        const rand = mulberry32(seed);
        while (!ref.done) {
          const s = state(game);
          const seat = ref.toMove;
          const other = ((seat + 1 + Math.floor(rand() * 3)) % 4) as Seat;
          expect(code(() => game.play(parseCard(pick(ref.hands[seat]!, rand)), other))).toBe('out-of-turn');
          if (ref.hands[other]!.length)
            expect(code(() => game.play(parseCard(pick(ref.hands[other]!, rand))))).toBe('not-in-hand');
          if (ref.history.length)
            expect(code(() => game.play(parseCard(pick(ref.history, rand))))).toBe('already-played');
          expect(state(game)).toEqual(s);
          playBoth(game, ref, pick(ref.legal(), rand));
        }
        expect(code(() => game.play(parseCard(pick(ALL_CARDS, rand))))).toBe('game-over');
      }),
      { numRuns: 100 },
    );
  });
});

// Checks on the solver's test harness itself, so that a disagreement in solver.test.ts points at the
// solver and not at the harness:
// - the reference's card tables match the engine's notation, and its rules (legal cards, trick winner,
//   points) match the engine's Game over random complete games;
// - the reference gets the hand-worked scripted positions right, by minimax and by alpha-beta;
// - plain alpha-beta equals plain minimax on thousands of random positions (1-4 tricks, mid-trick too);
// - playing the reference's best moves through the engine's Game scores exactly the reference's value;
// - the generators make only valid positions, deterministically for a seed, covering every case.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, Seat } from '../../game/index.js';
import { DECK, Game, formatCard, parseCard, positionOf } from '../../game/index.js';
import { SCRIPTED } from './scripted.js';
import type { SolverPosition } from './reference.js';
import {
  REF_SUITS,
  cardId,
  cardName,
  checkPosition,
  describePosition,
  fromStrPosition,
  legalCards,
  referenceMoveValues,
  seatToMove,
  suitLetter,
  sumPoints,
  toStrPosition,
  trickWinnerIndex,
} from './reference.js';
import { buildPosition, mulberry32, positionArb, randomParams, randomPositions } from './positions.js';

const sortedStr = (cards: readonly string[]): string[] => [...cards].sort();

/** A random full game of the engine with our own deal: returns the game after `plays` random legal plays. */
function engineGame(rand: () => number, plays: number): Game {
  const deck = [...DECK];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  const hands = [0, 1, 2, 3].map((s) => deck.slice(s * 10, s * 10 + 10));
  const dealer = Math.floor(rand() * 4) as Seat;
  const game = new Game({ dealer, trumpCard: hands[dealer]![Math.floor(rand() * 10)]!, hands });
  for (let i = 0; i < plays; i++) {
    const legal = game.legalCards();
    game.play(legal[Math.floor(rand() * legal.length)]!);
  }
  return game;
}

describe('reference: cards and rules against the engine', () => {
  it('card ids and names match the engine notation', () => {
    for (let id = 0; id < 40; id++) {
      expect(cardName(id)).toBe(formatCard(id as Card));
      expect(cardId(cardName(id))).toBe(id);
      expect(parseCard(cardName(id))).toBe(id);
    }
    expect(() => cardName(40)).toThrow();
    expect(() => cardId('1S')).toThrow();
  });

  it('legal cards, trick winners and points agree with the engine over 300 random games', () => {
    const rand = mulberry32(7);
    for (let g = 0; g < 300; g++) {
      const game = engineGame(rand, 0);
      const trump = REF_SUITS[game.trump]!;
      let table: string[] = [];
      let leader = game.leader as number;
      const points = [0, 0];
      while (!game.isOver) {
        const seat = game.toMove;
        const hand = game.hand(seat).map(cardName);
        const legal = legalCards(hand, table);
        expect(sortedStr(legal)).toEqual(sortedStr(game.legalCards().map(cardName)));
        const card = legal[Math.floor(rand() * legal.length)]!;
        const trickNo = game.trick;
        game.play(cardId(card));
        table = [...table, card];
        if (table.length === 4) {
          const winner = (leader + trickWinnerIndex(table, trump)) % 4;
          expect(game.trickWinner(trickNo)).toBe(winner);
          points[winner % 2]! += sumPoints(table);
          expect([game.points(0), game.points(1)]).toEqual(points);
          leader = winner;
          table = [];
        }
      }
      expect(game.status).toBe('complete');
      expect(points[0]! + points[1]!).toBe(120);
    }
  });

  it('trick winners: the highest trump, else the highest card of the led suit', () => {
    expect(trickWinnerIndex(['AS', '2H', 'KS', '7D'], 'H')).toBe(1);
    expect(trickWinnerIndex(['AS', '2H', '3H', '7D'], 'H')).toBe(2);
    expect(trickWinnerIndex(['QD', 'AD', '7S', 'KD'], 'C')).toBe(1);
    expect(trickWinnerIndex(['2D', 'AS', 'AC', 'AH'], 'S')).toBe(1);
    expect(trickWinnerIndex(['2D', 'AS', 'AC', 'AH'], 'D')).toBe(0);
    expect(trickWinnerIndex(['KS', '7S', 'AH', 'AD'], 'C')).toBe(1);
    expect(legalCards(['AS', '2H', '3S'], ['KS'])).toEqual(['AS', '3S']);
    expect(legalCards(['AS', '2H', '3S'], ['KD'])).toEqual(['AS', '2H', '3S']);
    expect(legalCards(['AS', '2H', '3S'], [])).toEqual(['AS', '2H', '3S']);
  });
});

describe('reference: hand-worked positions', () => {
  for (const s of SCRIPTED) {
    it(s.name, () => {
      for (const algorithm of ['minimax', 'alphabeta'] as const) {
        const r = referenceMoveValues(s.position, algorithm);
        expect(r.toMove, algorithm).toBe(s.toMove);
        expect(r.moves, algorithm).toEqual(s.moves);
        expect(r.value, algorithm).toBe(Math.max(...Object.values(s.moves)));
        // The same through the solver's card-id form.
        expect(referenceMoveValues(fromStrPosition(s.position), algorithm).moves).toEqual(s.moves);
      }
    });
  }
});

describe('reference: plain alpha-beta equals plain minimax', () => {
  it('on 4,000 seeded positions with 1 to 3 tricks left, every move', () => {
    for (const [k, n] of [
      [1, 800],
      [2, 1200],
      [3, 2000],
    ] as const) {
      for (const p of randomPositions(100 + k, n, { tricks: k })) {
        const a = referenceMoveValues(p, 'minimax');
        const b = referenceMoveValues(p, 'alphabeta');
        if (JSON.stringify(a.moves) !== JSON.stringify(b.moves) || a.value !== b.value) {
          throw new Error(
            `minimax ${JSON.stringify(a.moves)} vs alpha-beta ${JSON.stringify(b.moves)} on ${describePosition(p)}`,
          );
        }
      }
    }
  });

  it('on 160 seeded positions with 4 tricks left (40 per number of cards on the table)', () => {
    for (const t of [0, 1, 2, 3]) {
      for (const p of randomPositions(200 + t, 40, { tricks: 4, onTable: t })) {
        const a = referenceMoveValues(p, 'minimax');
        const b = referenceMoveValues(p, 'alphabeta');
        expect(b.moves, describePosition(p)).toEqual(a.moves);
        expect(b.nodes).toBeLessThanOrEqual(a.nodes);
      }
    }
  }, 60_000);

  it('values lie between the points already won and those plus every point still in play', () => {
    for (const p of randomPositions(300, 1000, { tricks: [1, 4] })) {
      const r = referenceMoveValues(p, 'alphabeta');
      const team = seatToMove(p) % 2;
      const inPlay = sumPoints([...p.hands.flat(), ...p.trick].map(cardName));
      for (const v of Object.values(r.moves)) {
        expect(v).toBeGreaterThanOrEqual(p.points[team]!);
        expect(v).toBeLessThanOrEqual(p.points[team]! + inPlay);
      }
      expect(Object.keys(r.moves).length).toBe(
        legalCards(p.hands[r.toMove]!.map(cardName), p.trick.map(cardName)).length,
      );
    }
  });
});

describe('reference: best play through the engine scores the reference value', () => {
  it('from 300 positions of random engine games with 1 to 3 tricks left', () => {
    const rand = mulberry32(11);
    for (let g = 0; g < 300; g++) {
      const tricksLeft = 1 + (g % 3);
      const game = engineGame(rand, 40 - 4 * tricksLeft + (g % 4));
      const root = positionOf(game);
      checkPosition(toStrPosition(root));
      const rootTeam = game.toMove & 1;
      const rootValue = referenceMoveValues(root, 'minimax').value;
      // Both teams play a best move of the reference at every turn (the first in hand order).
      while (!game.isOver) {
        const r = referenceMoveValues(positionOf(game), 'minimax');
        const best = Object.entries(r.moves).find(([, v]) => v === r.value)![0];
        game.play(cardId(best));
      }
      expect(game.points(rootTeam as 0 | 1), describePosition(root)).toBe(rootValue);
    }
  });
});

describe('positions: generators', () => {
  /** Throws unless `p` is a valid position with no renounce on the table. */
  function checkGenerated(p: SolverPosition, slackAllowed = true): void {
    const s = toStrPosition(p);
    checkPosition(s);
    const led = s.trick[0] ? suitLetter(s.trick[0]) : null;
    for (let i = 1; i < s.trick.length; i++) {
      const seat = (s.leader + i) % 4;
      if (suitLetter(s.trick[i]!) !== led && s.hands[seat]!.some((c) => suitLetter(c) === led)) {
        throw new Error(`renounce on the table: ${describePosition(s)}`);
      }
    }
    const inPlay = sumPoints([...s.hands.flat(), ...s.trick]);
    const sum = s.points[0] + s.points[1] + inPlay;
    if (s.points[0] < 0 || s.points[1] < 0 || sum > 120 || (!slackAllowed && sum !== 120))
      throw new Error(`bad points: ${describePosition(s)}`);
  }

  it('seeded positions are valid, deterministic and cover 1-4 tricks, 0-3 cards on the table, both points modes', () => {
    const ps = randomPositions(5, 2000);
    expect(randomPositions(5, 2000)).toEqual(ps);
    expect(randomPositions(6, 10)).not.toEqual(ps.slice(0, 10));
    const seen = new Set<string>();
    let exact = 0;
    for (const p of ps) {
      checkGenerated(p);
      seen.add(`${p.hands[p.leader]!.length + (p.trick.length ? 1 : 0)}/${p.trick.length}/${p.trump}/${p.leader}`);
      if (p.points[0] + p.points[1] + sumPoints([...p.hands.flat(), ...p.trick].map(cardName)) === 120) exact++;
    }
    expect(seen.size).toBe(4 * 4 * 4 * 4);
    expect(exact).toBeGreaterThan(1200);
    expect(exact).toBeLessThan(1950);
    for (const k of [5, 6, 10]) for (const p of randomPositions(k, 50, { tricks: k })) checkGenerated(p);
  });

  it('points mode "tricks" adds up to 120 exactly', () => {
    const rand = mulberry32(9);
    for (let i = 0; i < 500; i++)
      checkGenerated(buildPosition({ ...randomParams(rand, { tricks: [1, 10] }), pointsMode: 'tricks' }), false);
  });

  it('the fast-check arbitrary makes valid positions with the requested numbers of tricks and table cards', () => {
    fc.assert(
      fc.property(positionArb({ minTricks: 1, maxTricks: 10 }), (p) => checkGenerated(p)),
      { numRuns: 1000 },
    );
    for (let k = 1; k <= 6; k++) {
      for (let t = 0; t <= 3; t++) {
        for (const p of fc.sample(positionArb({ minTricks: k, maxTricks: k, minOnTable: t, maxOnTable: t }), {
          numRuns: 20,
          seed: k * 4 + t,
        })) {
          checkGenerated(p);
          expect(p.trick.length).toBe(t);
          expect(p.hands[p.leader]!.length + (t ? 1 : 0)).toBe(k);
        }
      }
    }
  });
});

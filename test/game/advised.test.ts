// Advice to a human partner (the training mode): advice only when the best card beats the
// person's likely card by the margin, in victories when the search valued them, else in points; the
// advised player follows it with its probability, and at 0 never searches.

import { describe, expect, it } from 'vitest';
import {
  AdvisedPlayer,
  DEFAULT_ADVICE_MARGIN,
  Game,
  SeatView,
  adviceFor,
  createRng,
  dealCards,
  parseCard,
  playerFactory,
} from '../../game/index.js';
import type { Beliefs, Seat } from '../../game/index.js';

const beliefs = (moves: [string, number, number, number?][]): Beliefs => ({
  moves: moves.map(([card, mean, winProbability, victories]) => ({
    card: parseCard(card),
    mean,
    sd: 5,
    winProbability,
    ...(victories === undefined ? {} : { victories }),
  })),
  worlds: 100,
  nodes: 1,
  timeMs: 1,
  winProbability: moves[0]![2],
  exactFromTrick: 5,
});

describe('the advice rule', () => {
  it('advises the best card when it beats the likely one by the margin in victories', () => {
    const b = beliefs([
      ['AH', 70, 0.7, 0.6],
      ['2C', 66, 0.6, 0.4],
      ['3C', 50, 0.3, -0.2],
    ]);
    expect(adviceFor(b, parseCard('3C'))).toMatchObject({
      card: parseCard('AH'),
      gain: { victories: expect.closeTo(0.8, 9), points: 20 },
    });
    expect(adviceFor(b, parseCard('2C'))).toMatchObject({ card: parseCard('AH') });
  });

  it('stays quiet when the likely card is the best, or within the margin', () => {
    const b = beliefs([
      ['AH', 70, 0.7, 0.6],
      ['2C', 68, 0.68, 0.55],
    ]);
    expect(adviceFor(b, parseCard('AH'))).toBeNull();
    expect(adviceFor(b, parseCard('2C'))).toBeNull();
    expect(adviceFor(b, parseCard('2C'), { victories: 0.01, points: 5 })).toMatchObject({ card: parseCard('AH') });
  });

  it('judges by points when the search valued no victories, and never advises a fallback or a forced card', () => {
    const b = beliefs([
      ['AH', 70, 0.7],
      ['2C', 64, 0.6],
    ]);
    expect(adviceFor(b, parseCard('2C'))).toMatchObject({ card: parseCard('AH'), gain: { points: 6 } });
    expect(adviceFor({ ...b, fallback: 'rule' }, parseCard('2C'))).toBeNull();
    expect(adviceFor(beliefs([['AH', 70, 0.7]]), parseCard('AH'))).toBeNull();
    expect(DEFAULT_ADVICE_MARGIN).toEqual({ victories: 0.1, points: 5 });
  });
});

describe('the advised player', () => {
  const clock = (): number => performance.now();
  const play = (follow: number) => {
    const deal = dealCards(createRng(3), 0);
    const game = new Game(deal);
    const advised = new AdvisedPlayer({ seat: 2, seed: 9, follow, budgetMs: 30, clock });
    const others = [0, 1, 3].map((s) => playerFactory('rule')({ seat: s as Seat, seed: s }));
    while (!game.isOver) {
      const s = game.toMove;
      const p = s === 2 ? advised : others.find((_, i) => [0, 1, 3][i] === s)!;
      game.play(p.choose(new SeatView(game, s)), s);
    }
    return advised.stats;
  };

  it('at p = 0 plays as the rule-based player and never searches', () => {
    expect(play(0)).toEqual({ decisions: 10, advised: 0, followed: 0 });
  });

  it('at p = 1 follows every piece of advice it gets', () => {
    // How much advice comes depends on how much the search could do in its time: not counted here.
    const s = play(1);
    expect(s.decisions).toBe(10);
    expect(s.followed).toBe(s.advised);
  });

  it('is named by how often it follows, and refuses a bad parameter with what it takes', () => {
    expect(playerFactory('advised:p=25')({ seat: 2, seed: 1, clock }).kind).toBe('advised:p=25');
    expect(() => playerFactory('advised:p=150')).toThrow(/advised takes p=PCT \(0 to 100/);
  });
});

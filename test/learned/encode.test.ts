// The encoding of a decision (game/learned/encode.ts): its blocks say what the seat knows, the label is
// a legal card of its hand, and nothing of the other seats' hands gets in.

import { describe, expect, it } from 'vitest';
import type { Card, Player, Seat } from '../../game/index.js';
import {
  DECISION_FEATURES,
  DECISION_LAYOUT,
  Game,
  RandomPlayer,
  RulePlayer,
  SeatView,
  WorldBuilder,
  createDealSampler,
  createRng,
  dealCards,
  decisionRows,
  encodeInfoSet,
  infoSetOf,
  legalCardsOf,
  playSeats,
} from '../../game/index.js';

const L = DECISION_LAYOUT;
const block = (x: Float32Array, at: number, n = 40): number[] =>
  [...x.subarray(at, at + n)].flatMap((v, i) => (v ? [i] : []));

/** Every decision of `games` seeded games between rule and random players, with the game before it. */
function* decisions(games: number): Generator<{ game: Game; seat: Seat; card: Card }> {
  for (let g = 0; g < games; g++) {
    const game = new Game(dealCards(createRng(77, g), (g & 3) as Seat));
    const players: Player[] = [0, 1, 2, 3].map((s) =>
      s % 2
        ? new RandomPlayer({ seat: s as Seat, seed: g * 4 + s })
        : new RulePlayer({ seat: s as Seat, seed: g * 4 + s }),
    );
    while (!game.isOver) {
      const seat = game.toMove;
      const card = players[seat]!.choose(new SeatView(game, seat));
      yield { game, seat, card };
      game.play(card);
    }
  }
}

describe('the encoding of a decision', () => {
  it('has the hand, the legal cards (the label among them), the table and the plays by relative seat', () => {
    let n = 0;
    for (const { game, seat, card } of decisions(20)) {
      const x = encodeInfoSet(new SeatView(game, seat).snapshot());
      expect(x.length).toBe(DECISION_FEATURES);
      expect(block(x, L.hand)).toEqual(game.hand(seat).sort((a, b) => a - b));
      expect(legalCardsOf(x)).toEqual(game.legalCards().sort((a, b) => a - b));
      expect(x[L.hand + card]).toBe(1); // the label is in the hand...
      expect(x[L.legal + card]).toBe(1); // ...and legal
      // The cards played, each under the seat that played it, counted from the seat deciding.
      const plays = Array.from({ length: game.plays }, (_, i) => game.playAt(i));
      const by = playSeats(game.dealer, game.trumpCard, plays);
      for (let r = 0; r < 4; r++)
        expect(block(x, L.played + 40 * r)).toEqual(
          plays.filter((_, i) => (by[i]! - seat + 4) % 4 === r).sort((a, b) => a - b),
        );
      for (let i = 0; i < game.cardsInTrick; i++)
        expect(x[L.trick + 40 * (((game.leader + i - seat + 4) % 4) - 1) + game.trickCard(i)]).toBe(1);
      expect(block(x, L.trick, 120).length).toBe(game.cardsInTrick);
      expect(block(x, L.trump, 4)).toEqual([game.trump]);
      expect(block(x, L.trickNumber, 10)).toEqual([game.trick]);
      expect(block(x, L.trumpCard)).toEqual(game.trumpCardPlayed ? [] : [game.trumpCard]);
      expect(block(x, L.dealer, 4)).toEqual([(game.dealer - seat + 4) % 4]);
      expect(x[L.points]! * 120).toBeCloseTo(game.points((seat & 1) as 0 | 1));
      n++;
    }
    expect(n).toBe(20 * 40);
  });

  it("leaks nothing of the other hands: every deal consistent with the seat's view encodes the same", () => {
    const rng = createRng(5);
    let checked = 0;
    for (const { game, seat } of decisions(8)) {
      const view = new SeatView(game, seat);
      const info = view.snapshot();
      const x = encodeInfoSet(info);
      const sampler = createDealSampler(info);
      const builder = new WorldBuilder(info);
      for (let k = 0; k < 3; k++) {
        // Another world: the same public game and the same own hand, the unseen cards dealt otherwise.
        const hands = sampler.sample(rng);
        const other = builder.game(hands);
        const y = encodeInfoSet(new SeatView(other, seat).snapshot());
        expect(y).toEqual(x);
        checked++;
      }
    }
    expect(checked).toBe(8 * 40 * 3);
  });

  it('is what the dataset rows hold, seat by seat, for the seats asked for', () => {
    const deal = dealCards(createRng(3, 0), 2);
    const game = new Game(deal);
    const players = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }));
    while (!game.isOver) game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
    const plays = Array.from({ length: 40 }, (_, i) => game.playAt(i));
    const rows = [
      ...decisionRows(
        { dealer: deal.dealer, trumpCard: deal.trumpCard, hands: deal.hands.map((h) => [...h!]) },
        plays,
        new Set<Seat>([1, 3]),
      ),
    ];
    expect(rows.length).toBe(20);
    expect(rows.every((r) => r.seat === 1 || r.seat === 3)).toBe(true);
    const replay = new Game(deal);
    let i = 0;
    for (const c of plays) {
      const s = replay.toMove;
      if (s === 1 || s === 3) {
        expect(rows[i]!.label).toBe(c);
        expect(rows[i]!.features).toEqual(encodeInfoSet(infoSetOf(replay, s, replay.hand(s))));
        i++;
      }
      replay.play(c);
    }
  });

  it('refuses a seat that is not to move', () => {
    const game = new Game(dealCards(createRng(1), 0));
    const other = ((game.toMove + 1) % 4) as Seat;
    expect(() => encodeInfoSet(infoSetOf(game, other, game.hand(other)))).toThrow(/not to move/);
  });
});

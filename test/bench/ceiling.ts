// The double-dummy ceiling: a team that sees every hand and plays the best card of the true deal
// (most victories, then most points, under best replies) against two players of a kind, on the
// tournament's duplicate deals. Not a legal player: an upper reference for what searching worlds can
// reach against those opponents (it does not exploit their mistakes either).
//   node dist/test/bench/ceiling.js [deals=100] [seed=2026] [opponents=rule]

import { BUILTIN_PLAYERS, Game, SeatView, Solver, boardDeals, positionOf, victoriesFor } from '../../game/index.js';
import type { Card, Seat } from '../../game/index.js';

const deals = Number(process.argv[2] ?? 100);
const seed = Number(process.argv[3] ?? 2026);
const kind = process.argv[4] ?? 'rule';
const factory = BUILTIN_PLAYERS[kind];
if (!factory || !Number.isInteger(deals) || deals < 1 || !Number.isInteger(seed)) {
  process.stderr.write(`usage: ceiling.js [deals] [seed] [opponents: ${Object.keys(BUILTIN_PLAYERS).join(', ')}]\n`);
  process.exit(2);
}
const solver = new Solver();
let wins = 0;
let draws = 0;
let points = 0;
const victories = [0, 0];
for (let i = 0; i < deals; i++) {
  // The deals of the tournament's boards with one game a board.
  const deal = boardDeals(
    { teamA: ['rule', 'rule'], teamB: ['rule', 'rule'], games: deals * 2, seed, duplicate: true, sessionGames: 1 },
    i,
  )[0]!;
  for (const side of [0, 1]) {
    const game = new Game(deal);
    const others = [0, 1, 2, 3].map((s) => factory({ seat: s as Seat, seed: seed * 8 + i * 4 + s }));
    while (!game.isOver) {
      const s = game.toMove;
      let card: Card;
      if ((s & 1) !== side) card = others[s]!.choose(new SeatView(game, s));
      else {
        const legal = new SeatView(game, s).legalCards();
        if (legal.length === 1) card = legal[0]!;
        else {
          solver.clearTable();
          const { moves } = solver.moveValues(positionOf(game));
          moves.sort((a, b) => victoriesFor(b.value) - victoriesFor(a.value) || b.value - a.value);
          card = moves[0]!.card;
        }
      }
      game.play(card);
    }
    const p = game.points(side as 0 | 1);
    points += p;
    if (p > 60) wins++;
    else if (p === 60) draws++;
    const v = victoriesFor(p);
    victories[v > 0 ? 0 : 1]! += Math.abs(v);
  }
}
const games = deals * 2;
console.log(
  JSON.stringify({
    opponents: kind,
    seed,
    games,
    wins,
    draws,
    losses: games - wins - draws,
    winRate: wins / games,
    meanPoints: points / games,
    victories,
  }),
);

// A finished tournament game as a plain JSON record (`parceiro tournament --records FILE` writes one a
// line): who sat where, the deal, every card, the points and winner by tournament team, and the turns
// a fallback played. Nothing in it depends on time or on the number of workers.

import type { Deal, FaultKind, Game, Seat } from '../../game/index.js';
import { formatCard, formatCards } from '../../game/index.js';

/** One finished game, as `--records` writes it (one JSON line each). */
export interface GameRecord {
  type: 'game';
  /** The game's place in the schedule (0, 1, ...): boards in order, each board's passes and games in order. */
  seq: number;
  board: number;
  /** 0, or 1 for a duplicate board's replay with the seats swapped. */
  pass: number;
  /** The game's index in its session (0 when sessions are single games). */
  game: number;
  /** The player at each seat. */
  seats: [string, string, string, string];
  /** The seats of the tournament's team A: [0, 2] or [1, 3]. */
  teamASeats: [Seat, Seat];
  dealer: Seat;
  trump: string;
  hands: string[][];
  plays: string[];
  /** Card points of the tournament's teams. */
  points: { A: number; B: number };
  /** Winner by tournament team. */
  winner: 'A' | 'B' | 'draw';
  victories: number;
  renounce: { seat: Seat; trick: number; card: string } | null;
  /** The turns whose card was a fallback's, and why. */
  faults: { seat: Seat; player: string; trick: number; kind: FaultKind }[];
}

export function gameRecord(
  seq: number,
  board: number,
  pass: number,
  index: number,
  seat: { teamASide: 0 | 1; names: [string, string, string, string] },
  deal: Deal,
  game: Game,
  faults: GameRecord['faults'],
): GameRecord {
  const side = seat.teamASide;
  const outcome = game.outcome!;
  const tableA = side === 0 ? 'A' : 'B';
  const winner = outcome.winner === 'draw' ? 'draw' : outcome.winner === tableA ? 'A' : 'B';
  const plays: string[] = [];
  for (let i = 0; i < game.plays; i++) plays.push(formatCard(game.playAt(i)));
  const r = game.renounce;
  return {
    type: 'game',
    seq,
    board,
    pass,
    game: index,
    seats: seat.names,
    teamASeats: side === 0 ? [0, 2] : [1, 3],
    dealer: deal.dealer,
    trump: formatCard(deal.trumpCard),
    hands: deal.hands.map((h) => formatCards(h)),
    plays,
    points: { A: game.points(side), B: game.points(side === 0 ? 1 : 0) },
    winner,
    victories: outcome.victories,
    renounce: r ? { seat: r.seat, trick: r.trick, card: formatCard(r.card) } : null,
    faults,
  };
}

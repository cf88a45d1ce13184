// Team A's figures over the records files of duplicate tournaments (`parceiro tournament --records`),
// paired by deal: each board's two games (the seats swapped) give its wins, victories and points of
// team A minus team B, and the 95% intervals are over boards. Files of different seeds are independent
// boards, so runs add up; a board with one game only (a run stopped mid-board) is left out.
//   node dist/test/bench/duplicate-records.js FILE.jsonl [FILE.jsonl ...]

import { readFileSync } from 'node:fs';

interface GameLine {
  type: string;
  board: number;
  winner: 'A' | 'B' | 'draw';
  victories: number;
  points: { A: number; B: number };
}

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: node dist/test/bench/duplicate-records.js FILE.jsonl [FILE.jsonl ...]');
  process.exit(2);
}

const boards: { wins: number; draws: number; victories: number; points: number }[] = [];
for (const file of files) {
  const byBoard = new Map<number, GameLine[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const g = JSON.parse(line) as GameLine;
    if (g.type !== 'game') continue;
    byBoard.set(g.board, [...(byBoard.get(g.board) ?? []), g]);
  }
  for (const games of byBoard.values()) {
    if (games.length !== 2) continue;
    const b = { wins: 0, draws: 0, victories: 0, points: 0 };
    for (const g of games) {
      if (g.winner === 'A') b.wins++;
      else if (g.winner === 'draw') b.draws++;
      b.victories += g.winner === 'A' ? g.victories : g.winner === 'B' ? -g.victories : 0;
      b.points += g.points.A - g.points.B;
    }
    boards.push(b);
  }
}

/** The mean a game of `f` (per board / 2) with its 95% interval over boards. */
function perGame(f: (b: (typeof boards)[number]) => number): [number, number, number] {
  const xs = boards.map((b) => f(b) / 2);
  const n = xs.length;
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  const r = (x: number): number => Math.round(x * 10_000) / 10_000;
  return [r(mean), r(mean - half), r(mean + half)];
}

const sum = (f: (b: (typeof boards)[number]) => number): number => boards.reduce((a, b) => a + f(b), 0);
const games = 2 * boards.length;
console.log(
  JSON.stringify(
    {
      files,
      boards: boards.length,
      games,
      winsDrawsLosses: [sum((b) => b.wins), sum((b) => b.draws), games - sum((b) => b.wins) - sum((b) => b.draws)],
      winRate: perGame((b) => b.wins),
      victoryMarginAGame: perGame((b) => b.victories),
      pointsMarginAGame: perGame((b) => b.points),
    },
    null,
    1,
  ),
);

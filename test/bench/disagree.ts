// Positions where `timed` and `rollout` choose different cards, judged by playing both continuations
// out in many worlds of the seat's information set (drawn uniformly: neither player's inference). Two
// judges, each the assumption of one player: the double-dummy judge values the world after the card by
// its victory class under best play with every hand seen (what `timed` assumes); the expert judge
// plays the world out with the expert policy at every seat (what `rollout` assumes). Where the two
// judges agree on which card is better, that card is better; where they split, the position is one of
// strategy fusion (the double-dummy value assumes knowledge nobody has) or of the expert's mistakes.
// Positions come from games of four expert players on the tournament's deals.
//   node dist/test/bench/disagree.js [positions=200] [budget=50] [worlds=100] [seed=37] [A=timed] [B=rollout]

import {
  BUILTIN_PLAYERS,
  Game,
  SeatView,
  Solver,
  WorldBuilder,
  boardDeals,
  createDealSampler,
  createRng,
  playerFactory,
  positionOf,
  victoriesFor,
} from '../../game/index.js';
import type { Card, Player, Seat } from '../../game/index.js';

const positions = Number(process.argv[2] ?? 200);
const budgetMs = Number(process.argv[3] ?? 50);
const worlds = Number(process.argv[4] ?? 100);
const seed = Number(process.argv[5] ?? 37);
const specA = process.argv[6] ?? 'timed';
const specB = process.argv[7] ?? 'rollout';
if (![positions, budgetMs, worlds, seed].every((x) => Number.isInteger(x) && x >= 0)) {
  process.stderr.write('usage: disagree.js [positions] [budget ms] [worlds] [seed] [player A] [player B]\n');
  process.exit(2);
}
const clock = (): number => performance.now();
const solver = new Solver();
const rng = createRng(seed, 0xd15a);

/** Our victories after `card` in the world `game` (a clone is played), by each judge. */
function judge(game: Game, seat: Seat, card: Card, experts: Player[]): { dd: number; expert: number } {
  const ours = seat & 1;
  const g = game.clone();
  g.play(card);
  let dd: number;
  if (g.isOver) dd = victoriesFor(g.points(ours as 0 | 1));
  else {
    solver.classOf(positionOf(g));
    const v = victoriesFor(solver.classLower);
    dd = (g.toMove & 1) === ours ? v : -v;
  }
  while (!g.isOver) g.play(experts[g.toMove]!.choose(new SeatView(g, g.toMove)));
  return { dd, expert: victoriesFor(g.points(ours as 0 | 1)) };
}

interface Row {
  trick: number;
  a: Card;
  b: Card;
  /** Mean victories of A's card minus B's, by each judge, and the standard error. */
  dd: number;
  ddSe: number;
  expert: number;
  expertSe: number;
}

const rows: Row[] = [];
let asked = 0;
const spec = { teamA: ['rule', 'rule'] as [string, string], teamB: ['rule', 'rule'] as [string, string] };
for (let board = 0; asked < positions; board++) {
  const deal = boardDeals({ ...spec, games: 2, seed, duplicate: true, sessionGames: 1 }, board)[0]!;
  const game = new Game(deal);
  const players = [0, 1, 2, 3].map((s) =>
    BUILTIN_PLAYERS.expert!({ seat: s as Seat, seed: seed * 64 + board * 4 + s }),
  );
  // One position a game, at a trick that moves with the board, so the positions spread over the game.
  const at = board % 9;
  while (!game.isOver) {
    const s = game.toMove;
    const view = new SeatView(game, s);
    if (game.trick === at && view.legalCards().length > 1 && asked < positions) {
      asked++;
      const opts = { seat: s, seed: seed + board, clock, budgetMs };
      const a = playerFactory(specA)(opts).choose(view);
      const b = playerFactory(specB)(opts).choose(view);
      if (a !== b) {
        const info = view.snapshot();
        const sampler = createDealSampler(info);
        const builder = new WorldBuilder(info);
        const experts = [0, 1, 2, 3].map((x) => BUILTIN_PLAYERS.expert!({ seat: x as Seat, seed: board * 4 + x }));
        const d = { dd: [] as number[], expert: [] as number[] };
        for (let w = 0; w < worlds; w++) {
          const g = builder.game(sampler.sample(rng));
          const ja = judge(g, s, a, experts);
          const jb = judge(g, s, b, experts);
          d.dd.push(ja.dd - jb.dd);
          d.expert.push(ja.expert - jb.expert);
        }
        const [dd, ddSe] = meanSe(d.dd);
        const [expert, expertSe] = meanSe(d.expert);
        rows.push({ trick: game.trick, a, b, dd, ddSe, expert, expertSe });
      }
      break; // one position a game
    }
    game.play(players[s]!.choose(view));
  }
}

function meanSe(xs: number[]): [number, number] {
  const n = xs.length;
  const m = xs.reduce((p, x) => p + x, 0) / n;
  const v = xs.reduce((p, x) => p + (x - m) * (x - m), 0) / Math.max(1, n - 1);
  return [m, Math.sqrt(v / n)];
}

/** Over the disagreements: mean of each judge's per-position difference, its 95% CI (between positions), and who each judge prefers. */
function summary(rs: Row[]): Record<string, unknown> {
  const one = (k: 'dd' | 'expert'): Record<string, unknown> => {
    const [m, se] = meanSe(rs.map((r) => r[k]));
    const se2 = k === 'dd' ? 'ddSe' : 'expertSe';
    return {
      mean: round(m),
      ci95: [round(m - 1.96 * se), round(m + 1.96 * se)],
      prefersA: rs.filter((r) => r[k] > 1.96 * r[se2]).length,
      prefersB: rs.filter((r) => r[k] < -1.96 * r[se2]).length,
    };
  };
  return {
    disagreements: rs.length,
    doubleDummy: rs.length > 1 ? one('dd') : null,
    expertPlayout: rs.length > 1 ? one('expert') : null,
    judgesSplit: rs.filter((r) => Math.sign(r.dd) * Math.sign(r.expert) < 0).length,
  };
}
const round = (x: number): number => Math.round(x * 1000) / 1000;

const phases: [string, number, number][] = [
  ['tricks 1-3', 0, 2],
  ['tricks 4-6', 3, 5],
  ['tricks 7-9', 6, 8],
];
process.stdout.write(
  JSON.stringify(
    {
      players: { A: specA, B: specB },
      budgetMs,
      positions: asked,
      worldsPerPosition: worlds,
      seed,
      all: summary(rows),
      byPhase: Object.fromEntries(
        phases.map(([name, lo, hi]) => [name, summary(rows.filter((r) => r.trick >= lo && r.trick <= hi))]),
      ),
    },
    null,
    2,
  ) + '\n',
);

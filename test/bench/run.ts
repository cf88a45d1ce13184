// npm run bench: whole games per second on one core (the main thread, no workers), fixed seeds.
// Prints JSON. Figures are for comparing runs on the same machine; quote medians of a few runs.

import { arch, cpus, platform } from 'node:os';
import { performance } from 'node:perf_hooks';
import { BUILTIN_PLAYERS, createRng, dealCards, playGame } from '../../game/index.js';
import type { Player, Seat } from '../../game/index.js';

interface BenchResult {
  name: string;
  games: number;
  seconds: number;
  gamesPerSecond: number;
  meanPointsA: number;
}

function gamesPerSecond(kind: string, games: number, seed: number): BenchResult {
  const players: Player[] = [0, 1, 2, 3].map((s) => BUILTIN_PLAYERS[kind]!({ seat: s as Seat, seed: seed + s }));
  let pointsA = 0;
  const t0 = performance.now();
  for (let i = 0; i < games; i++) {
    // Dealing is part of a game: a tournament pays for it too.
    const game = playGame(dealCards(createRng(seed, i), (i & 3) as Seat), players);
    pointsA += game.points(0);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { name: `${kind} vs ${kind}`, games, seconds: +seconds.toFixed(3), gamesPerSecond: Math.round(games / seconds), meanPointsA: +(pointsA / games).toFixed(3) };
}

const GAMES = Number(process.env.BENCH_GAMES ?? 200_000);
const SEED = 2017;
const results: BenchResult[] = [];
for (const kind of ['random', 'rule']) {
  gamesPerSecond(kind, Math.min(20_000, GAMES), SEED); // warm-up: let the JIT settle
  // Median of three runs: the machines are shared and noisy.
  const runs = [0, 1, 2].map(() => gamesPerSecond(kind, GAMES, SEED)).sort((a, b) => a.gamesPerSecond - b.gamesPerSecond);
  results.push({ ...runs[1]!, name: `${runs[1]!.name} (median of 3)` });
}
console.log(
  JSON.stringify(
    { bench: 'games per second, one core', seed: SEED, node: process.version, platform: `${platform()} ${arch()}`, cpu: cpus()[0]?.model ?? 'unknown', results },
    null,
    2,
  ),
);

// How much each level of play forgets (game/memory): games played by four `expert` players
// (fast, and the memory does not depend on who plays), with each level's memory following seat 0 and
// recalling at each of its turns, as the level player does. Prints JSON: per level, the played cards
// (before the current trick) forgotten at the seat's turn in each trick, their share, the voids
// forgotten, and how often a forgotten card is a trump or carries 10 or 11 points.
//
//   node dist/test/bench/memory.js [--games 500] [--seed 22] [--levels FILE]

import { parseArgs } from 'node:util';
import {
  CardMemory,
  DEFAULT_LEVELS,
  ExpertPlayer,
  Game,
  LEVEL_NAMES,
  SeatView,
  createRng,
  dealCards,
  deriveSeed,
  memoryOf,
  pointsOf,
  suitOf,
} from '../../game/index.js';
import type { LevelName, LevelTable, Seat } from '../../game/index.js';
import { loadLevels } from '../../launch/levels.js';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '500' },
    seed: { type: 'string', default: '22' },
    levels: { type: 'string' },
  },
});
const games = Number(values.games);
const seed = Number(values.seed);
if (!Number.isInteger(games) || games < 1 || !Number.isInteger(seed) || seed < 0) {
  process.stderr.write(
    `memory bench: --games and --seed expect whole numbers, got "${values.games}" and "${values.seed}"\n`,
  );
  process.exit(2);
}
const table: LevelTable = values.levels ? loadLevels(values.levels) : DEFAULT_LEVELS;

interface Tally {
  /** Per trick 0..9 of the seat's turn: forgotten cards summed, played cards summed, turns. */
  forgotten: number[];
  played: number[];
  turns: number[];
  forgottenVoids: number;
  shownVoids: number;
  forgottenTrumps: number;
  forgottenHigh: number;
}

const levels = LEVEL_NAMES.filter((l) => memoryOf(table, l));
const tallies = new Map<LevelName, Tally>(
  levels.map((l) => [
    l,
    {
      forgotten: Array(10).fill(0),
      played: Array(10).fill(0),
      turns: Array(10).fill(0),
      forgottenVoids: 0,
      shownVoids: 0,
      forgottenTrumps: 0,
      forgottenHigh: 0,
    },
  ]),
);

for (let i = 0; i < games; i++) {
  const deal = dealCards(createRng(seed, i), (i & 3) as Seat);
  const game = new Game(deal);
  const players = [0, 1, 2, 3].map((s) => new ExpertPlayer({ seat: s as Seat, seed: deriveSeed(seed, i, s) }));
  const memories = levels.map((l) => new CardMemory(memoryOf(table, l)!, createRng(seed, i, 0x3e3047)));
  const observer = new SeatView(game, 0);
  while (!game.isOver) {
    if (game.toMove === 0) {
      const info = observer.snapshot();
      const legal = observer.legalCards();
      levels.forEach((l, k) => {
        const r = memories[k]!.recall(info, legal);
        const t = tallies.get(l)!;
        t.forgotten[info.trick]! += r.forgotten.length;
        t.played[info.trick]! +=
          info.trick * 4 - (info.plays.slice(0, info.trick * 4).includes(info.trumpCard) ? 1 : 0);
        t.turns[info.trick]!++;
        if (info.trick === 9) {
          t.forgottenVoids += popcount(r.forgottenVoids);
          t.shownVoids += popcount(r.forgottenVoids | r.voids);
          t.forgottenTrumps += r.forgotten.filter((c) => suitOf(c) === info.trump).length;
          t.forgottenHigh += r.forgotten.filter((c) => pointsOf(c) >= 10).length;
        }
      });
    }
    const s = game.toMove;
    game.play(players[s]!.choose(new SeatView(game, s)));
  }
}

function popcount(m: number): number {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

const round = (x: number, d = 2): number => Math.round(x * 10 ** d) / 10 ** d;
const out = {
  games,
  seed,
  secondsPerCard: table.secondsPerCard,
  levels: Object.fromEntries(
    levels.map((l) => {
      const t = tallies.get(l)!;
      const last = t.turns[9]!;
      return [
        l,
        {
          parameters: table.levels[l].memory,
          /** At the seat's turn in the last trick: the played cards it does not recall (of about 36). */
          forgottenAtLastTrick: round(t.forgotten[9]! / last),
          playedAtLastTrick: round(t.played[9]! / last),
          shareForgottenAtLastTrick: round(t.forgotten[9]! / t.played[9]!, 3),
          /** By trick of the seat's turn (1-based): mean cards forgotten. */
          forgottenByTrick: t.forgotten.map((f, k) => round(f / t.turns[k]!)),
          trumpsForgottenAtLastTrick: round(t.forgottenTrumps / last),
          acesAndSevensForgottenAtLastTrick: round(t.forgottenHigh / last),
          voidsForgottenAtLastTrick: round(t.forgottenVoids / last),
          voidsShownAtLastTrick: round(t.shownVoids / last),
        },
      ];
    }),
  ),
};
console.log(JSON.stringify(out, null, 2));

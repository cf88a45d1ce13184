// A worker thread of the tournament pool: plays a range of boards with the built-in players, and, when
// asked, keeps a record of each game (robot/arena/game-record.ts).

import { performance } from 'node:perf_hooks';
import {
  BUILTIN_PLAYERS,
  BoardTally,
  boardPasses,
  decisionRecorder,
  emptyStats,
  playGame,
  playerFactory,
  playerOptions,
  runBoards,
} from '../../../game/index.js';
import type { Player, Seat, TournamentSpec, TournamentStats } from '../../../game/index.js';
import type { GameRecord } from '../game-record.js';
import { gameRecord } from '../game-record.js';
import { installModelLoader } from '../../learned/load.js';
import { cpuNow } from './cpu-clock.js';

// Specs may name model files (imitation:model=FILE): this thread reads them itself.
installModelLoader();

export interface BoardRange {
  spec: TournamentSpec;
  from: number;
  to: number;
  /** Keep a record of each game. */
  records?: boolean;
}

export interface BoardRangeResult {
  stats: TournamentStats;
  records: GameRecord[];
}

export function playBoardRange({ spec, from, to, records }: BoardRange): BoardRangeResult {
  const clock = spec.cpuClock ? cpuNow : (): number => performance.now();
  if (!records) return { stats: runBoards(spec, from, to, { players: BUILTIN_PLAYERS, clock }), records: [] };
  // runBoards' loop, keeping each game.
  const stats = emptyStats();
  const tally = new BoardTally(stats);
  const out: GameRecord[] = [];
  const perBoard = (spec.duplicate ? 2 : 1) * spec.sessionGames;
  let seq = from * perBoard;
  for (const { board, pass, deals, seating: seat, lastOfBoard } of boardPasses(spec, from, to)) {
    const players: Player[] = seat.names.map((name, s) =>
      (BUILTIN_PLAYERS[name] ?? playerFactory(name))(playerOptions(spec, s as Seat, seat.seeds[s]!, clock)),
    );
    const hooks = { clock, onDecision: decisionRecorder(stats, seat.names) };
    for (const [index, deal] of deals.entries()) {
      const game = playGame(deal, players, hooks);
      tally.addGame(game, seat.teamASide);
      out.push(gameRecord(seq++, board, pass, index, seat, deal, game, []));
    }
    tally.endSession();
    if (lastOfBoard) tally.endBoard();
  }
  return { stats, records: out };
}

export default playBoardRange;

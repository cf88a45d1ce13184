// A worker thread of the tournament pool: plays a range of boards with the built-in players.

import { performance } from 'node:perf_hooks';
import { BUILTIN_PLAYERS, runBoards } from '../../game/index.js';
import type { TournamentSpec, TournamentStats } from '../../game/index.js';

export interface BoardRange {
  spec: TournamentSpec;
  from: number;
  to: number;
}

export default function playBoards({ spec, from, to }: BoardRange): TournamentStats {
  return runBoards(spec, from, to, { players: BUILTIN_PLAYERS, clock: () => performance.now() });
}

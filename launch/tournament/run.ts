// Runs a tournament: built-in players on a pool of worker threads (one per core), or, when an
// external program plays, on the main thread with the async runner (the programs are processes of
// their own and run in parallel anyway). The split of the boards never changes the result: each
// board's deals and players' seeds derive from the tournament seed and the board number.

import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { BUILTIN_PLAYERS, boardCount, emptyStats, mergeStats, runBoards } from '../../game/index.js';
import type { TournamentSpec, TournamentStats } from '../../game/index.js';
import { UsageError } from '../errors.js';
import type { BoardRange } from './worker.js';

export interface ExternalProgram {
  command: string;
  args: string[];
}

export interface TournamentRunOptions {
  workers?: number;
  external?: Record<string, ExternalProgram>;
  moveTimeoutMs?: number;
  onProgress?: (boardsDone: number, boardsTotal: number) => void;
  log?: (line: string) => void;
}

export async function runTournament(spec: TournamentSpec, options: TournamentRunOptions = {}): Promise<TournamentStats> {
  const total = boardCount(spec);
  const external = options.external ?? {};
  const names = [...spec.teamA, ...spec.teamB];
  if (names.some((n) => n in external)) {
    // Loaded only when needed: it brings in process handling that built-in players never use.
    const { runTournamentAsync, ExternalPlayerError } = await import('../../robot/index.js');
    try {
      return await runTournamentAsync(spec, {
        builtins: BUILTIN_PLAYERS,
        external,
        moveTimeoutMs: options.moveTimeoutMs ?? 2000,
        clock: () => performance.now(),
        ...(options.onProgress ? { onBoardDone: options.onProgress } : {}),
        ...(options.log ? { log: options.log } : {}),
      });
    } catch (e) {
      // A program that cannot start or never says ready is the user's to fix: one line, no trace.
      if (e instanceof ExternalPlayerError) throw new UsageError(e.message);
      throw e;
    }
  }

  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), total));
  // Enough tasks per worker for a smooth progress bar and balanced load, few enough to stay cheap.
  const perTask = Math.max(1, Math.ceil(total / (workers * 20)));
  const ranges: BoardRange[] = [];
  for (let from = 0; from < total; from += perTask) ranges.push({ spec, from, to: Math.min(total, from + perTask) });

  let done = 0;
  const finished = (r: BoardRange): void => {
    done += r.to - r.from;
    options.onProgress?.(done, total);
  };

  if (workers === 1) {
    const stats = emptyStats();
    for (const r of ranges) {
      mergeStats(stats, runBoards(spec, r.from, r.to, { players: BUILTIN_PLAYERS, clock: () => performance.now() }));
      finished(r);
    }
    return stats;
  }

  const pool = new Piscina<BoardRange, TournamentStats>({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
  });
  try {
    const parts = await Promise.all(
      ranges.map(async (r) => {
        const part = await pool.run(r);
        finished(r);
        return part;
      }),
    );
    // Merge in board order so the result never depends on which worker finished first.
    return parts.reduce(mergeStats, emptyStats());
  } finally {
    await pool.destroy();
  }
}

// Runs a tournament: built-in players on a pool of worker threads (one per core), or, when an
// external program plays (or a network in onnxruntime-node, which answers asynchronously), with the
// async runner, `workers` games at once, each with its own copies of the programs
// (robot/arena/tournament-async.ts). The split of the boards never changes the result: each
// board's deals and players' seeds derive from the tournament seed and the board number.
// A stop (`signal`) ends the run with what was finished: whole boards in the statistics, every finished
// game in the records.

import { builtModule } from '../../../config/index.js';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { BUILTIN_PLAYERS, boardCount, emptyStats, mergeStats, onnxImitationModel } from '../../../game/index.js';
import { ModelFileError } from '../../learned/index.js';
import { onnxImitationPlayers } from '../onnx-imitation.js';
import type { TournamentSpec, TournamentStats } from '../../../game/index.js';
import type { GameRecord } from '../game-record.js';
import { TournamentSetupError } from './errors.js';
import type { BoardRange, BoardRangeResult } from './worker.js';
import { cpuNow } from './cpu-clock.js';
import { playBoardRange } from './worker.js';

export interface ExternalProgram {
  command: string;
  args: string[];
}

export interface TournamentRunOptions {
  workers?: number;
  external?: Record<string, ExternalProgram>;
  moveTimeoutMs?: number;
  helloTimeoutMs?: number;
  /** Stops the run: see the top of this file. */
  signal?: AbortSignal;
  onProgress?: (boardsDone: number, boardsTotal: number) => void;
  /** Each finished game, in schedule order. */
  onGame?: (record: GameRecord) => void;
  log?: (line: string) => void;
}

export interface TournamentRun {
  /** Whole boards only. */
  stats: TournamentStats;
  stopped: boolean;
  boardsTotal: number;
  /** Every finished game, including any of a board a stop left unfinished. */
  gamesFinished: number;
}

/** Built-in players that search: on the async runner they think on the main thread, one at a time. */
const SEARCHERS = /^(pimc|hybrid|timed)(:|$)/;

export async function runTournament(spec: TournamentSpec, options: TournamentRunOptions = {}): Promise<TournamentRun> {
  const total = boardCount(spec);
  const external = options.external ?? {};
  const names = [...spec.teamA, ...spec.teamB];
  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), total));
  // Networks run in onnxruntime-node (imitation:model=FILE:runtime=onnx) answer asynchronously too.
  const onnxNames = [
    ...new Set(names.filter((n) => !Object.hasOwn(external, n) && onnxImitationModel(n) !== undefined)),
  ];
  if (names.some((n) => Object.hasOwn(external, n)) || onnxNames.length) {
    // Loaded only when needed: it brings in process handling that built-in players never use.
    const [{ playTournamentAsync }, { ExternalPlayerError }] = await Promise.all([
      import('../tournament-async.js'),
      import('../external-player/external-player.js'),
    ]);
    const searchers = names.filter((n) => !Object.hasOwn(external, n) && SEARCHERS.test(n));
    if (workers > 1 && searchers.length) {
      options.log?.(
        `parceiro: note: ${workers} games at once${onnxNames.length ? '' : `, each external program in ${workers} copies`}; the built-in search players (${[...new Set(searchers)].join(', ')}) think on this one thread, one decision at a time`,
      );
    }
    let onnx: Awaited<ReturnType<typeof onnxImitationPlayers>> | null = null;
    try {
      if (onnxNames.length) onnx = await onnxImitationPlayers(onnxNames);
      return await playTournamentAsync(spec, {
        builtins: BUILTIN_PLAYERS,
        ...(onnx ? { asyncBuiltins: onnx.players } : {}),
        external,
        workers,
        moveTimeoutMs: options.moveTimeoutMs ?? 2000,
        ...(options.helloTimeoutMs !== undefined ? { helloTimeoutMs: options.helloTimeoutMs } : {}),
        clock: spec.cpuClock ? cpuNow : () => performance.now(),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onBoardDone: options.onProgress } : {}),
        ...(options.onGame ? { onGame: options.onGame } : {}),
        ...(options.log ? { log: options.log } : {}),
      });
    } catch (e) {
      // A program that cannot start or never says ready, or a model onnxruntime cannot open, is the user's to fix: one line, no trace.
      if (e instanceof ExternalPlayerError || e instanceof ModelFileError) throw new TournamentSetupError(e.message);
      throw e;
    } finally {
      await onnx?.close();
    }
  }

  const records = options.onGame !== undefined;
  // Enough tasks per worker for a smooth progress bar and balanced load, few enough to stay cheap.
  const perTask = Math.max(1, Math.ceil(total / (workers * 20)));
  const ranges: BoardRange[] = [];
  for (let from = 0; from < total; from += perTask)
    ranges.push({ spec, from, to: Math.min(total, from + perTask), records });

  const parts: (BoardRangeResult | undefined)[] = new Array(ranges.length);
  let done = 0;
  let emitted = 0;
  const finished = (i: number, part: BoardRangeResult): void => {
    parts[i] = part;
    const r = ranges[i]!;
    done += r.to - r.from;
    options.onProgress?.(done, total);
    // Records in schedule order: each range's once every earlier range's are out.
    while (emitted < parts.length && parts[emitted]) for (const g of parts[emitted++]!.records) options.onGame?.(g);
  };
  const result = (stopped: boolean): TournamentRun => {
    if (stopped)
      for (let i = emitted; i < parts.length; i++) for (const g of parts[i]?.records ?? []) options.onGame?.(g);
    const stats = emptyStats();
    for (const p of parts) if (p) mergeStats(stats, p.stats);
    return { stats, stopped, boardsTotal: total, gamesFinished: stats.games };
  };
  const signal = options.signal;

  if (workers === 1) {
    for (let i = 0; i < ranges.length && !signal?.aborted; i++) {
      finished(i, playBoardRange(ranges[i]!));
      // Lets a signal in between ranges.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result(signal?.aborted === true);
  }

  // Ranges are handed out in schedule order, so the records come out as the run goes, not at its end,
  // and a run that dies keeps what came before: piscina 5.3 hands tasks out of order unless told
  // stricterFIFO, and even then takes tasks with an abort signal last first (measured). So no task
  // has a signal: a stop destroys the pool, which ends every range at once.
  const pool = new Piscina<BoardRange, BoardRangeResult>({
    filename: builtModule('robot', 'arena', 'tournament', 'worker.js').href,
    minThreads: workers,
    maxThreads: workers,
    stricterFIFO: true,
  });
  let stopping = false;
  let destroyed: Promise<void> | null = null;
  const destroy = (): Promise<void> => (destroyed ??= pool.destroy());
  const onAbort = (): void => {
    stopping = true;
    void destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(
      ranges.map(async (r, i) => {
        try {
          finished(i, await pool.run(r));
        } catch (e) {
          if (!stopping) throw e;
        }
      }),
    );
    return result(signal?.aborted === true);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await destroy();
  }
}

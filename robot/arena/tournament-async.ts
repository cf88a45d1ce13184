// Tournaments in which some players are external programs. The boards, seating, tallies and histograms
// are the engine's (game/tournament.ts, game/stats.ts); only the game loop is asynchronous.
//
// `workers` games are played at once, each in a slot of its own: a slot starts its own copy of each
// external program at each table position (team A first or second player, team B first or second),
// keeps them for the whole tournament and tells them their seat with every deal, so they follow the
// duplicate swaps. Slots take the next board as they finish one. The results never depend on the number
// of slots: each board is tallied on its own and the boards are summed, and each game's players and the
// programs' fallback are seeded from the tournament seed and the board (the programs' own answers, and
// faults that depend on time, are theirs). Built-in players think on this thread, one decision at a
// time, while the programs think in their own processes.
//
// Stopping (`signal`): no new move is asked for, every program is stopped at once (SIGTERM, then SIGKILL
// after a grace), the games being played are dropped, and the run resolves with what was finished.

import type {
  Clock,
  Player,
  PlayerFactory,
  PlayerOptions,
  Seat,
  TournamentSpec,
  TournamentStats,
} from '../../game/index.js';
import {
  BoardTally,
  boardCount,
  boardPasses,
  decisionRecorder,
  deriveSeed,
  emptyStats,
  mergeStats,
  playerFactory,
  playerOptions,
  recordFault,
} from '../../game/index.js';
import { ExternalPlayer } from './external-player/external-player.js';
import type { GameRecord } from './game-record.js';
import { gameRecord } from './game-record.js';
import type { AsyncPlayerLike, PlayerFault } from './play-async.js';
import { playGameAsync } from './play-async.js';

export type { GameRecord } from './game-record.js';

export interface ExternalCommand {
  command: string;
  args: string[];
}

export interface AsyncTournamentOptions {
  /** Factories of the built-in players by name. */
  builtins: Readonly<Record<string, PlayerFactory>>;
  /** Players that answer asynchronously by name (a network in onnxruntime-node), made per game like the built-in ones. */
  asyncBuiltins?: Readonly<Record<string, (o: PlayerOptions) => AsyncPlayerLike>>;
  /** External programs by player name; an external name shadows a built-in of the same name. */
  external: Readonly<Record<string, ExternalCommand>>;
  /** The deadline of each external move. */
  moveTimeoutMs: number;
  /** Time allowed for each program's ready (default 5000 ms). */
  helloTimeoutMs?: number;
  /** When stopping a program: the time between SIGTERM and SIGKILL (default 1000 ms). */
  killGraceMs?: number;
  /** Games played at once, each slot with its own copy of every program (default 1). */
  workers?: number;
  clock: Clock['now'];
  /** Stops the tournament: see the top of this file. */
  signal?: AbortSignal;
  onBoardDone?: (done: number, total: number) => void;
  /** Each finished game, in schedule order whatever the number of workers (on a stop, every finished one, gaps skipped). */
  onGame?: (record: GameRecord) => void;
  /** The programs' stderr and notices about them, line by line. */
  log?: (line: string) => void;
  /** Called with each external player once it is created, before it starts (for inspection and tests). */
  onExternalPlayer?: (player: ExternalPlayer) => void;
}

interface AsyncTournamentRun {
  /** The boards played to the end (on a stop, the boards being played are left out). */
  stats: TournamentStats;
  stopped: boolean;
  boardsTotal: number;
  /** Every game finished, including those of boards left unfinished by a stop. */
  gamesFinished: number;
}

/** Table positions: team A's first and second player, team B's first and second. */
type Position = 0 | 1 | 2 | 3;

/** The position of the player at `seat`, given on which side team A sits (see `seating`). */
const positionOf = (seat: Seat, teamASide: 0 | 1): Position =>
  (((seat & 1) === teamASide ? 0 : 2) + (seat >> 1)) as Position;
const positionName = (spec: TournamentSpec, p: Position): string => [...spec.teamA, ...spec.teamB][p]!;

class Stopped extends Error {}

/** Plays a tournament; the statistics only. A stop resolves with the boards finished. */
export async function runTournamentAsync(
  spec: TournamentSpec,
  options: AsyncTournamentOptions,
): Promise<TournamentStats> {
  return (await playTournamentAsync(spec, options)).stats;
}

export async function playTournamentAsync(
  spec: TournamentSpec,
  options: AsyncTournamentOptions,
): Promise<AsyncTournamentRun> {
  const boards = boardCount(spec);
  if (!Number.isInteger(boards) || boards < 0)
    throw new RangeError(`games (${spec.games}) must be a multiple of the games per board`);
  const { builtins, external, clock, log } = options;
  const asyncBuiltins = options.asyncBuiltins ?? {};
  const positions: Position[] = [0, 1, 2, 3];
  for (const p of positions) {
    const name = positionName(spec, p);
    if (!Object.hasOwn(external, name) && !Object.hasOwn(asyncBuiltins, name) && !Object.hasOwn(builtins, name))
      playerFactory(name); // throws PlayerSpecError
  }
  const slots = Math.max(1, Math.min(options.workers ?? 1, boards));
  const perBoard = (spec.duplicate ? 2 : 1) * spec.sessionGames;

  // Stops on the caller's signal, or on a slot's error (the others then stop too).
  const inner = new AbortController();
  const stopAll = (): void => {
    if (!inner.signal.aborted) inner.abort(new Stopped('stopped'));
  };
  const stopped = (): boolean => options.signal?.aborted === true;
  const externals: Map<Position, ExternalPlayer>[] = [];
  const all = (): ExternalPlayer[] => externals.flatMap((m) => [...m.values()]);
  inner.signal.addEventListener('abort', () => void Promise.all(all().map((x) => x.close({ stop: true }))), {
    once: true,
  });
  const onOuterAbort = (): void => stopAll();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const boardStats: (TournamentStats | undefined)[] = new Array(boards);
  let boardsDone = 0;
  let gamesFinished = 0;
  // Records wait here until every earlier game of the schedule is out, so they come in schedule order.
  const waiting = new Map<number, GameRecord>();
  let nextSeq = 0;
  const emit = (r: GameRecord): void => {
    waiting.set(r.seq, r);
    while (waiting.has(nextSeq)) {
      options.onGame?.(waiting.get(nextSeq)!);
      waiting.delete(nextSeq++);
    }
  };

  try {
    for (let k = 0; k < slots; k++) {
      const mine = new Map<Position, ExternalPlayer>();
      externals.push(mine);
      for (const p of positions) {
        const name = positionName(spec, p);
        const cmd = Object.hasOwn(external, name) ? external[name] : undefined;
        if (!cmd) continue;
        const player = new ExternalPlayer({
          name,
          label: `${name}@${p < 2 ? 'A' : 'B'}${(p & 1) + 1}${slots > 1 ? `#${k + 1}` : ''}`,
          command: cmd.command,
          args: cmd.args,
          seed: deriveSeed(spec.seed, p, 0xfa11),
          moveTimeoutMs: options.moveTimeoutMs,
          ...(options.helloTimeoutMs !== undefined ? { helloTimeoutMs: options.helloTimeoutMs } : {}),
          ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
          ...(log ? { log } : {}),
        });
        mine.set(p, player);
        options.onExternalPlayer?.(player);
      }
    }
    if (stopped()) stopAll();
    // Let every start finish (ready or failed) before reporting, so none is torn down mid-handshake.
    const started = await Promise.allSettled(all().map((x) => x.start()));
    if (stopped()) return { stats: emptyStats(), stopped: true, boardsTotal: boards, gamesFinished: 0 };
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;

    let nextBoard = 0;
    const playSlot = async (mine: Map<Position, ExternalPlayer>): Promise<void> => {
      while (!inner.signal.aborted && nextBoard < boards) {
        const board = nextBoard++;
        const stats = emptyStats();
        const tally = new BoardTally(stats);
        let seq = board * perBoard;
        for (const { pass, deals, seating: seat, lastOfBoard } of boardPasses(spec, board, board + 1)) {
          const players: Array<Player | AsyncPlayerLike> = seat.names.map((name, s) => {
            const position = positionOf(s as Seat, seat.teamASide);
            if (positionName(spec, position) !== name) throw new Error(`seating mismatch at seat ${s}: '${name}'`);
            const ext = mine.get(position);
            if (ext) {
              ext.reseedFallback(deriveSeed(seat.seeds[s]!, 0xfa11));
              return ext;
            }
            const made = playerOptions(spec, s as Seat, seat.seeds[s]!, clock);
            if (Object.hasOwn(asyncBuiltins, name)) return asyncBuiltins[name]!(made);
            const factory = Object.hasOwn(builtins, name) ? builtins[name]! : playerFactory(name);
            return factory(made);
          });
          const onDecision = decisionRecorder(stats, seat.names);
          for (const [index, deal] of deals.entries()) {
            const faults: GameRecord['faults'] = [];
            let trick = 0;
            const onFault = (s: Seat, name: string, fault: PlayerFault): void => {
              recordFault(stats, name, fault.kind);
              faults.push({ seat: s, player: name, trick, kind: fault.kind });
            };
            const game = await playGameAsync(deal, players, {
              clock,
              onDecision,
              onFault,
              onEvent: (e) => {
                if (e.type === 'trick') trick = e.trick + 1;
              },
              moveTimeoutMs: options.moveTimeoutMs,
              signal: inner.signal,
            });
            tally.addGame(game, seat.teamASide);
            gamesFinished++;
            emit(gameRecord(seq++, board, pass, index, seat, deal, game, faults));
          }
          tally.endSession();
          if (lastOfBoard) tally.endBoard();
        }
        boardStats[board] = stats;
        options.onBoardDone?.(++boardsDone, boards);
      }
    };
    const results = await Promise.allSettled(
      externals.map(async (mine) => {
        try {
          await playSlot(mine);
        } catch (e) {
          if (!(inner.signal.aborted && e === inner.signal.reason)) stopAll();
          throw e;
        }
      }),
    );
    const error = results.find(
      (r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof Stopped),
    );
    if (error) throw error.reason;

    // On a stop, the finished games still waiting for an earlier unfinished one.
    for (const seq of [...waiting.keys()].sort((a, b) => a - b)) options.onGame?.(waiting.get(seq)!);
    waiting.clear();
    const stats = emptyStats();
    for (const b of boardStats) if (b) mergeStats(stats, b);
    return { stats, stopped: stopped(), boardsTotal: boards, gamesFinished };
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
    await Promise.all(all().map((x) => x.close(inner.signal.aborted ? { stop: true } : {})));
  }
}

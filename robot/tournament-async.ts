// Tournaments in which some players are external programs. The boards, seating, tallies and histograms
// are the engine's (game/tournament.ts, game/stats.ts); only the game loop is asynchronous. Each external
// name at each table position (team A first or second player, team B first or second) is one process,
// started once for the whole tournament and told its seat by every deal, so it follows the duplicate swaps.

import type { Clock, Player, PlayerFactory, Seat, TournamentSpec, TournamentStats } from '../game/index.js';
import { BoardTally, boardCount, boardPasses, decisionRecorder, deriveSeed, emptyStats, playerFactory, playerOptions, recordFault } from '../game/index.js';
import { ExternalPlayer } from './external-player/external-player.js';
import type { AsyncPlayerLike, PlayerFault } from './play-async.js';
import { playGameAsync } from './play-async.js';

export interface ExternalCommand {
  command: string;
  args: string[];
}

export interface AsyncTournamentOptions {
  /** Factories of the built-in players by name. */
  builtins: Readonly<Record<string, PlayerFactory>>;
  /** External programs by player name; an external name shadows a built-in of the same name. */
  external: Readonly<Record<string, ExternalCommand>>;
  /** The deadline of each external move. */
  moveTimeoutMs: number;
  /** Time allowed for each program's ready (default 5000 ms). */
  helloTimeoutMs?: number;
  clock: Clock;
  onBoardDone?: (done: number, total: number) => void;
  /** The programs' stderr and notices about them, line by line. */
  log?: (line: string) => void;
  /** Called with each external player once it is created, before it starts (for inspection and tests). */
  onExternalPlayer?: (player: ExternalPlayer) => void;
}

/** Table positions: team A's first and second player, team B's first and second. */
type Position = 0 | 1 | 2 | 3;

/** The position of the player at `seat`, given on which side team A sits (see `seating`). */
const positionOf = (seat: Seat, teamASide: 0 | 1): Position => (((seat & 1) === teamASide ? 0 : 2) + (seat >> 1)) as Position;
const positionName = (spec: TournamentSpec, p: Position): string => [...spec.teamA, ...spec.teamB][p]!;

export async function runTournamentAsync(spec: TournamentSpec, options: AsyncTournamentOptions): Promise<TournamentStats> {
  const boards = boardCount(spec);
  if (!Number.isInteger(boards) || boards < 0) throw new RangeError(`games (${spec.games}) must be a multiple of the games per board`);
  const { builtins, external, clock, log } = options;
  const positions: Position[] = [0, 1, 2, 3];
  for (const p of positions) {
    const name = positionName(spec, p);
    if (!Object.hasOwn(external, name) && !Object.hasOwn(builtins, name)) playerFactory(name); // throws PlayerSpecError
  }

  const stats = emptyStats();
  const tally = new BoardTally(stats);
  const externals = new Map<Position, ExternalPlayer>();
  try {
    for (const p of positions) {
      const name = positionName(spec, p);
      const cmd = Object.hasOwn(external, name) ? external[name] : undefined;
      if (!cmd) continue;
      const player = new ExternalPlayer({
        name,
        label: `${name}@${p < 2 ? 'A' : 'B'}${(p & 1) + 1}`,
        command: cmd.command,
        args: cmd.args,
        seed: deriveSeed(spec.seed, p, 0xfa11),
        moveTimeoutMs: options.moveTimeoutMs,
        ...(options.helloTimeoutMs !== undefined ? { helloTimeoutMs: options.helloTimeoutMs } : {}),
        ...(log ? { log } : {}),
      });
      externals.set(p, player);
      options.onExternalPlayer?.(player);
    }
    // Let every start finish (ready or failed) before reporting, so none is torn down mid-handshake.
    const started = await Promise.allSettled([...externals.values()].map((x) => x.start()));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;

    const onFault = (_seat: Seat, name: string, fault: PlayerFault): void => recordFault(stats, name, fault.kind);
    for (const { board, deals, seating: seat, lastOfBoard } of boardPasses(spec, 0, boards)) {
      const players: Array<Player | AsyncPlayerLike> = seat.names.map((name, s) => {
        const position = positionOf(s as Seat, seat.teamASide);
        if (positionName(spec, position) !== name) throw new Error(`seating mismatch at seat ${s}: '${name}'`);
        const ext = externals.get(position);
        if (ext) return ext;
        const factory = Object.hasOwn(builtins, name) ? builtins[name]! : playerFactory(name);
        return factory(playerOptions(spec, s as Seat, seat.seeds[s]!, clock));
      });
      const onDecision = decisionRecorder(stats, seat.names);
      for (const deal of deals) {
        const game = await playGameAsync(deal, players, { clock, onDecision, onFault, moveTimeoutMs: options.moveTimeoutMs });
        tally.addGame(game, seat.teamASide);
      }
      tally.endSession();
      if (lastOfBoard) {
        tally.endBoard();
        options.onBoardDone?.(board + 1, boards);
      }
    }
    return stats;
  } finally {
    await Promise.all([...externals.values()].map((x) => x.close()));
  }
}

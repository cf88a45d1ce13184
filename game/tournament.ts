// Tournaments: team A's two players against team B's, on boards of seeded deals. A board is one deal
// (or one session of n deals with the dealer rotating); with duplicate deals each board is played
// twice, the second time with the teams' seats swapped, so luck of the cards cancels out.
// Everything here is pure: the clock is injected and every random choice derives from the seed and
// the board number, so any split of the boards over workers gives the same result.

import type { Game } from './game.js';
import { dealCards } from './deal.js';
import type { Deal } from './deal.js';
import type { Clock } from './clock.js';
import type { LevelTable } from './memory/levels.js';
import { playGame } from './match.js';
import type { Player, PlayerFactory, PlayerOptions } from './players/player.js';
import { playerFactory } from './players/registry.js';
import { createRng, deriveSeed } from './rng.js';
import type { Seat } from './seats.js';
import type { Histogram } from './stats.js';
import { boardMeanCi95, boardRateCi95, emptyHistogram, mergeHistogram, quantile, record } from './stats.js';
import type { SessionScore } from './scoring.js';
import { addGame, emptySessionScore, sessionWinner } from './scoring.js';

export interface TournamentSpec {
  /** Player names of team A (first seat, its partner) and team B. */
  teamA: [string, string];
  teamB: [string, string];
  /** Total games; a multiple of the games per board. */
  games: number;
  seed: number;
  duplicate: boolean;
  /** Games per session; 1 for independent games. */
  sessionGames: number;
  /** Time budget per decision (ms) for anytime players; their own `budget=` parameter wins. */
  budgetMs?: number;
  /** The settings of the levels of play for `level:` players (config/levels.yaml); default: the embedded ones. */
  levels?: LevelTable;
  /**
   * Budgets and decision times in CPU time of the playing process instead of wall time: equal thinking
   * for both teams on a machine shared with other work (one worker, so the process is the one thread).
   */
  cpuClock?: boolean;
}

export const gamesPerBoard = (spec: TournamentSpec): number => spec.sessionGames * (spec.duplicate ? 2 : 1);
export const boardCount = (spec: TournamentSpec): number => spec.games / gamesPerBoard(spec);

/** One game of a board: the deal and which player name sits at each seat. */
interface BoardGame {
  board: number;
  /** 0, or 1 for the swapped replay of a duplicate board. */
  pass: number;
  /** Index of the game within the session. */
  index: number;
  deal: Deal;
  /** The team index (0 = seats 0/2, 1 = seats 1/3) where team A sits. */
  teamASide: 0 | 1;
  names: [string, string, string, string];
  /** Seeds for the players of this pass, by seat. */
  seeds: [number, number, number, number];
}

/** The deals of one board, in playing order. */
export function boardDeals(spec: TournamentSpec, board: number): Deal[] {
  const deals: Deal[] = [];
  for (let g = 0; g < spec.sessionGames; g++) {
    deals.push(dealCards(createRng(spec.seed, board, g), ((board + g) & 3) as Seat));
  }
  return deals;
}

/** The seating of a pass: team A at seats 0/2 on pass 0, at seats 1/3 on pass 1. */
export function seating(
  spec: TournamentSpec,
  board: number,
  pass: number,
): Pick<BoardGame, 'teamASide' | 'names' | 'seeds'> {
  const [a0, a1] = spec.teamA;
  const [b0, b1] = spec.teamB;
  const names: [string, string, string, string] = pass === 0 ? [a0, b0, a1, b1] : [b0, a0, b1, a1];
  const seeds = [0, 1, 2, 3].map((s) => deriveSeed(spec.seed, board, pass, s, 0x5eed)) as [
    number,
    number,
    number,
    number,
  ];
  return { teamASide: pass === 0 ? 0 : 1, names, seeds };
}

export type FaultKind = 'late' | 'illegal' | 'unreadable' | 'died';

export interface TournamentStats {
  boards: number;
  games: number;
  winsA: number;
  draws: number;
  lossesA: number;
  pointsA: number;
  pointsASq: number;
  pointsB: number;
  victoriesA: number;
  victoriesB: number;
  /** Per-board sums for the confidence intervals: Σw and Σw² of team A's and team B's wins. */
  boardWinsA: number;
  boardWinsASq: number;
  boardWinsB: number;
  boardWinsBSq: number;
  /** Per-board sums of team A's victories minus team B's, and of A's points minus B's (and their squares). */
  boardVictoryMargin: number;
  boardVictoryMarginSq: number;
  boardPointMargin: number;
  boardPointMarginSq: number;
  renouncesA: number;
  renouncesB: number;
  sessions: { played: number; winsA: number; draws: number; lossesA: number };
  faults: Record<string, Partial<Record<FaultKind, number>>>;
  decisionMs: Record<string, Histogram>;
}

export const emptyStats = (): TournamentStats => ({
  boards: 0,
  games: 0,
  winsA: 0,
  draws: 0,
  lossesA: 0,
  pointsA: 0,
  pointsASq: 0,
  pointsB: 0,
  victoriesA: 0,
  victoriesB: 0,
  boardWinsA: 0,
  boardWinsASq: 0,
  boardWinsB: 0,
  boardWinsBSq: 0,
  boardVictoryMargin: 0,
  boardVictoryMarginSq: 0,
  boardPointMargin: 0,
  boardPointMarginSq: 0,
  renouncesA: 0,
  renouncesB: 0,
  sessions: { played: 0, winsA: 0, draws: 0, lossesA: 0 },
  faults: {},
  decisionMs: {},
});

export function mergeStats(into: TournamentStats, from: TournamentStats): TournamentStats {
  const numeric = [
    'boards',
    'games',
    'winsA',
    'draws',
    'lossesA',
    'pointsA',
    'pointsASq',
    'pointsB',
    'victoriesA',
    'victoriesB',
    'boardWinsA',
    'boardWinsASq',
    'boardWinsB',
    'boardWinsBSq',
    'boardVictoryMargin',
    'boardVictoryMarginSq',
    'boardPointMargin',
    'boardPointMarginSq',
    'renouncesA',
    'renouncesB',
  ] as const;
  for (const k of numeric) into[k] += from[k];
  into.sessions.played += from.sessions.played;
  into.sessions.winsA += from.sessions.winsA;
  into.sessions.draws += from.sessions.draws;
  into.sessions.lossesA += from.sessions.lossesA;
  for (const [name, faults] of Object.entries(from.faults)) {
    const f = (into.faults[name] ??= {});
    for (const [kind, n] of Object.entries(faults) as [FaultKind, number][]) f[kind] = (f[kind] ?? 0) + n;
  }
  for (const [name, h] of Object.entries(from.decisionMs))
    mergeHistogram((into.decisionMs[name] ??= emptyHistogram()), h);
  return into;
}

/** Counts finished games into the statistics, board by board (a board's wins feed the confidence interval). */
export class BoardTally {
  private winsA = 0;
  private winsB = 0;
  /** This board's victories and points of team A minus team B: the paired margins. */
  private victoryMargin = 0;
  private pointMargin = 0;
  private session: SessionScore = emptySessionScore();

  constructor(private readonly stats: TournamentStats) {}

  addGame(game: Game, teamASide: 0 | 1): void {
    const s = this.stats;
    const outcome = game.outcome!;
    const sideA = teamASide === 0 ? 'A' : 'B';
    const pointsA = game.points(teamASide);
    s.games++;
    s.pointsA += pointsA;
    s.pointsASq += pointsA * pointsA;
    s.pointsB += game.points(teamASide === 0 ? 1 : 0);
    this.pointMargin += pointsA - game.points(teamASide === 0 ? 1 : 0);
    // Outcomes are by table team (A = seats 0/2); translate to the tournament's team A.
    const oriented =
      outcome.winner === 'draw'
        ? outcome
        : { ...outcome, winner: outcome.winner === sideA ? ('A' as const) : ('B' as const) };
    if (oriented.winner === 'draw') s.draws++;
    else if (oriented.winner === 'A') {
      s.winsA++;
      this.winsA++;
      s.victoriesA += oriented.victories;
      this.victoryMargin += oriented.victories;
    } else {
      s.lossesA++;
      this.winsB++;
      s.victoriesB += oriented.victories;
      this.victoryMargin -= oriented.victories;
    }
    const r = game.renounce;
    if (r) {
      if ((r.seat & 1) === teamASide) s.renouncesA++;
      else s.renouncesB++;
    }
    this.session = addGame(this.session, oriented);
  }

  /** Closes a session (one pass of a board) when sessions are longer than one game. */
  endSession(): void {
    if (this.session.games > 1) {
      const s = this.stats.sessions;
      s.played++;
      const w = sessionWinner(this.session);
      if (w === 'A') s.winsA++;
      else if (w === 'B') s.lossesA++;
      else s.draws++;
    }
    this.session = emptySessionScore();
  }

  endBoard(): void {
    const s = this.stats;
    s.boards++;
    s.boardWinsA += this.winsA;
    s.boardWinsASq += this.winsA * this.winsA;
    s.boardWinsB += this.winsB;
    s.boardWinsBSq += this.winsB * this.winsB;
    s.boardVictoryMargin += this.victoryMargin;
    s.boardVictoryMarginSq += this.victoryMargin * this.victoryMargin;
    s.boardPointMargin += this.pointMargin;
    s.boardPointMarginSq += this.pointMargin * this.pointMargin;
    this.winsA = 0;
    this.winsB = 0;
    this.victoryMargin = 0;
    this.pointMargin = 0;
  }
}

/** One pass over a board: its deals, played in order by the players of `seating`. */
interface BoardPass {
  board: number;
  pass: number;
  deals: Deal[];
  seating: Pick<BoardGame, 'teamASide' | 'names' | 'seeds'>;
  /** The board's last pass: close the board after it. */
  lastOfBoard: boolean;
}

/** The schedule of boards [from, to): every runner, synchronous or not, plays exactly this. */
export function* boardPasses(spec: TournamentSpec, from: number, to: number): Generator<BoardPass> {
  const total = boardCount(spec);
  if (!Number.isInteger(total))
    throw new RangeError(`games (${spec.games}) must be a multiple of the games per board (${gamesPerBoard(spec)})`);
  const passes = spec.duplicate ? 2 : 1;
  for (let board = from; board < to; board++) {
    const deals = boardDeals(spec, board);
    for (let pass = 0; pass < passes; pass++) {
      yield { board, pass, deals, seating: seating(spec, board, pass), lastOfBoard: pass === passes - 1 };
    }
  }
}

/** Records each seat's decision times into the histogram of the player name at that seat. */
export function decisionRecorder(stats: TournamentStats, names: readonly string[]): (seat: Seat, ms: number) => void {
  const hists = names.map((name) => (stats.decisionMs[name] ??= emptyHistogram()));
  return (seat, ms) => record(hists[seat]!, ms);
}

export function recordFault(stats: TournamentStats, name: string, kind: FaultKind): void {
  const f = (stats.faults[name] ??= {});
  f[kind] = (f[kind] ?? 0) + 1;
}

/** What a player of a tournament is made with: its seat, its seed, the clock and the budget. */
export function playerOptions(spec: TournamentSpec, seat: Seat, seed: number, clock?: Clock['now']): PlayerOptions {
  return {
    seat,
    seed,
    ...(clock ? { clock } : {}),
    ...(spec.budgetMs !== undefined ? { budgetMs: spec.budgetMs } : {}),
    ...(spec.levels ? { levels: spec.levels } : {}),
  };
}

export interface RunOptions {
  /** Factories by player name; other names are made by `playerFactory` (e.g. `hybrid:n=5`). */
  players: Readonly<Record<string, PlayerFactory>>;
  clock?: Clock['now'];
}

/** Plays boards [from, to) with synchronous players. */
export function runBoards(spec: TournamentSpec, from: number, to: number, options: RunOptions): TournamentStats {
  const stats = emptyStats();
  const tally = new BoardTally(stats);
  const { clock } = options;
  for (const { deals, seating: seat, lastOfBoard } of boardPasses(spec, from, to)) {
    const players: Player[] = seat.names.map((name, s) => {
      const factory = options.players[name] ?? playerFactory(name);
      return factory(playerOptions(spec, s as Seat, seat.seeds[s]!, clock));
    });
    const hooks = clock ? { clock, onDecision: decisionRecorder(stats, seat.names) } : {};
    for (const deal of deals) tally.addGame(playGame(deal, players, hooks), seat.teamASide);
    tally.endSession();
    if (lastOfBoard) tally.endBoard();
  }
  return stats;
}

interface TeamSummary {
  players: [string, string];
  wins: number;
  draws: number;
  losses: number;
  /** Wins / games, 0..1. */
  winRate: number;
  ci95: [number, number];
  meanPoints: number;
  victories: number;
}

/**
 * A margin a game, team A minus team B, paired by deal: the games of one board (the two of a
 * duplicate deal, a session) count as one pair, so the interval is taken between boards.
 */
export interface PairedMargin {
  mean: number;
  ci95: [number, number];
  /** Boards (pairs of games with duplicate deals). */
  pairs: number;
}

export interface TournamentSummary {
  games: number;
  boards: number;
  seed: number;
  duplicate: boolean;
  sessionGames: number;
  teamA: TeamSummary & { pointsSd: number; renounces: number };
  teamB: TeamSummary & { renounces: number };
  /** Victories of team A minus team B a game, paired by deal. */
  pairedVictoryMargin: PairedMargin;
  /** Points of team A minus team B a game, paired by deal. */
  pairedPointMargin: PairedMargin;
  sessions: { played: number; teamAWins: number; draws: number; teamBWins: number } | null;
  faults: Record<string, Partial<Record<FaultKind, number>>>;
  decisionMs: Record<string, { decisions: number; p50: number; p95: number; max: number; mean: number }>;
}

const round = (x: number, digits = 4): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function summarize(spec: TournamentSpec, s: TournamentStats): TournamentSummary {
  const per = gamesPerBoard(spec);
  const g = Math.max(1, s.games);
  const meanA = s.pointsA / g;
  const sdA = s.games > 1 ? Math.sqrt(Math.max(0, (s.pointsASq - s.games * meanA * meanA) / (s.games - 1))) : 0;
  const ciA = boardRateCi95(s.boardWinsA, s.boardWinsASq, s.boards, per);
  const ciB = boardRateCi95(s.boardWinsB, s.boardWinsBSq, s.boards, per);
  const decisionMs: TournamentSummary['decisionMs'] = {};
  for (const [name, h] of Object.entries(s.decisionMs)) {
    if (!h.count) continue;
    decisionMs[name] = {
      decisions: h.count,
      p50: round(quantile(h, 0.5)),
      p95: round(quantile(h, 0.95)),
      max: round(h.maxMs),
      mean: round(h.sumMs / h.count),
    };
  }
  return {
    games: s.games,
    boards: s.boards,
    seed: spec.seed,
    duplicate: spec.duplicate,
    sessionGames: spec.sessionGames,
    teamA: {
      players: spec.teamA,
      wins: s.winsA,
      draws: s.draws,
      losses: s.lossesA,
      winRate: round(s.winsA / g),
      ci95: [round(ciA[0]), round(ciA[1])],
      meanPoints: round(meanA, 3),
      pointsSd: round(sdA, 3),
      victories: s.victoriesA,
      renounces: s.renouncesA,
    },
    teamB: {
      players: spec.teamB,
      wins: s.lossesA,
      draws: s.draws,
      losses: s.winsA,
      winRate: round(s.lossesA / g),
      ci95: [round(ciB[0]), round(ciB[1])],
      meanPoints: round(s.pointsB / g, 3),
      victories: s.victoriesB,
      renounces: s.renouncesB,
    },
    pairedVictoryMargin: pairedMargin(s.boardVictoryMargin, s.boardVictoryMarginSq, s.boards, per),
    pairedPointMargin: pairedMargin(s.boardPointMargin, s.boardPointMarginSq, s.boards, per),
    sessions:
      spec.sessionGames > 1
        ? {
            played: s.sessions.played,
            teamAWins: s.sessions.winsA,
            draws: s.sessions.draws,
            teamBWins: s.sessions.lossesA,
          }
        : null,
    faults: s.faults,
    decisionMs,
  };
}

function pairedMargin(sum: number, sumSq: number, boards: number, perBoard: number): PairedMargin {
  const { mean, ci95 } = boardMeanCi95(sum, sumSq, boards, perBoard);
  return { mean: round(mean), ci95: [round(ci95[0]), round(ci95[1])], pairs: boards };
}

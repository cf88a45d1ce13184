// parceiro tournament: team A's players against team B's, with duplicate deals, over the cores, or
// with --queue over the `parceiro worker`s of a Redis (docs/tournaments.md).

import { closeSync, openSync, writeSync } from 'node:fs';
import { SingleBar } from 'cli-progress';
import {
  PlayerSpecError,
  builtinPlayerKinds,
  gamesPerBoard,
  onnxImitationModel,
  playerFactory,
  summarize,
} from '../../game/index.js';
import type { PairedMargin, TournamentSpec, TournamentSummary } from '../../game/index.js';
import { UsageError } from '../errors.js';
import { loadLevels } from '../levels.js';
import { parseRedisUrl } from '../../robot/arena/index.js';
import { runTournamentOnQueue } from '../../robot/arena/index.js';
import type { ExternalProgram, TournamentRun, TournamentRunOptions } from '../../robot/arena/index.js';
import { runTournament } from '../../robot/arena/index.js';

interface TournamentCliOptions {
  teamA: string;
  teamB: string;
  games: number;
  seed: number;
  session: number;
  duplicate: boolean;
  workers?: number;
  json: boolean;
  progress?: boolean;
  external: string[];
  moveTimeout: number;
  helloTimeout: number;
  budget: number;
  /** Budgets in CPU time of the process, not wall time (a shared machine). */
  cpuClock?: boolean;
  /** A file of JSON lines: each game as it finishes, then the summary. */
  records?: string;
  /** A Redis URL: the boards go on its queue, for `parceiro worker` processes to play. */
  queue?: string;
  /** The levels of play's settings for `level:` players (default: config/levels.yaml). */
  levels?: string;
}

/** The summary, and whether a signal stopped the run before its end. */
type TournamentReport = TournamentSummary & {
  /** The signal that stopped the run, or null when it played every game. */
  stopped: NodeJS.Signals | null;
  /** Every game finished; on a stop, more than `games` when boards were left half played. */
  gamesFinished: number;
  boardsTotal: number;
};

/** `NAME=COMMAND ARGS...`: an external program that plays under NAME. */
function parseExternal(defs: string[]): Record<string, ExternalProgram> {
  const out: Record<string, ExternalProgram> = {};
  for (const def of defs) {
    const eq = def.indexOf('=');
    const name = eq > 0 ? def.slice(0, eq).trim() : '';
    const words = eq > 0 ? splitWords(def.slice(eq + 1)) : [];
    if (!/^[A-Za-z][\w.-]*$/.test(name) || !words.length) {
      throw new UsageError(`--external expects NAME=COMMAND (e.g. mybot="python3 bot.py"), got "${def}"`);
    }
    if (builtinPlayerKinds().includes(name))
      throw new UsageError(`--external ${name}: '${name}' is a built-in player kind; choose another name`);
    out[name] = { command: words[0]!, args: words.slice(1) };
  }
  return out;
}

/** Splits a command line on spaces, keeping "quoted words" together (no shell is involved). */
function splitWords(s: string): string[] {
  return [...s.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

export function parseTeam(option: string, value: string, external: string[] = []): [string, string] {
  const names = value.split(',').map((s) => s.trim());
  if (names.length !== 2 || names.some((n) => !n)) {
    throw new UsageError(`${option} expects two players separated by a comma (e.g. rule,random), got "${value}"`);
  }
  for (const n of names) {
    // External programs, and networks in onnxruntime-node (checked when the runner opens them), are not made here.
    if (external.includes(n) || onnxImitationModel(n) !== undefined) continue;
    try {
      playerFactory(n);
    } catch (e) {
      if (e instanceof PlayerSpecError)
        throw new UsageError(
          `${option}: ${e.message}${external.length ? ` or an --external name (${external.join(', ')})` : ''}`,
        );
      throw e;
    }
  }
  return names as [string, string];
}

function tournamentSpec(o: TournamentCliOptions, external: Record<string, ExternalProgram>): TournamentSpec {
  const known = Object.keys(external);
  const spec: TournamentSpec = {
    teamA: parseTeam('--team-a', o.teamA, known),
    teamB: parseTeam('--team-b', o.teamB, known),
    games: o.games,
    seed: o.seed,
    duplicate: o.duplicate,
    sessionGames: o.session,
    budgetMs: o.budget,
    ...(o.cpuClock ? { cpuClock: true } : {}),
  };
  // Levels of play take their settings from config/levels.yaml (or --levels), carried in the spec to every worker.
  if ([...spec.teamA, ...spec.teamB].some((n) => n.startsWith('level:')))
    spec.levels = loadLevels(...(o.levels !== undefined ? [o.levels] : []));
  else if (o.levels !== undefined)
    throw new UsageError(`--levels sets the levels of play, but no player is a level (level:name=LEVEL)`);
  const per = gamesPerBoard(spec);
  if (spec.games % per !== 0) {
    const what = spec.duplicate
      ? `each deal is played twice${spec.sessionGames > 1 ? ` in sessions of ${spec.sessionGames}` : ''}`
      : `sessions have ${spec.sessionGames} games`;
    throw new UsageError(
      `--games must be a multiple of ${per} (${what}); got ${spec.games}, try ${Math.max(per, Math.round(spec.games / per) * per)}`,
    );
  }
  return spec;
}

/**
 * Plays the tournament. SIGINT or SIGTERM stops it: the programs are stopped (SIGTERM, then SIGKILL),
 * and the report covers the boards played to the end (the records, every finished game); a second
 * signal kills the programs at once.
 */
export async function tournamentCommand(o: TournamentCliOptions): Promise<TournamentReport> {
  const external = parseExternal(o.external);
  if (o.cpuClock && Object.keys(external).length)
    throw new UsageError(
      '--cpu-clock counts the CPU time of this process, where an --external program does not think: leave out one of them',
    );
  if (o.cpuClock && o.workers !== 1)
    throw new UsageError(
      '--cpu-clock counts the CPU time of the whole process, so the games must be played one at a time: add --workers 1',
    );
  const spec = tournamentSpec(o, external);
  const queue = o.queue === undefined ? null : parseRedisUrl('--queue', o.queue);
  if (queue && o.external.length)
    throw new UsageError(
      '--queue plays built-in players only: an --external program runs on this machine (leave out --queue)',
    );
  const onnx = [...spec.teamA, ...spec.teamB].find((n) => onnxImitationModel(n) !== undefined);
  if (queue && onnx)
    throw new UsageError(
      `--queue plays players that answer at once: ${onnx} answers through onnxruntime-node on this machine (leave out --queue, or runtime=onnx)`,
    );
  if (queue && o.workers !== undefined)
    throw new UsageError(
      '--workers sets the local pool: with --queue, start `parceiro worker URL --concurrency N` on each machine instead',
    );
  let fd: number | null = null;
  if (o.records !== undefined) {
    try {
      fd = openSync(o.records, 'w');
    } catch (e) {
      throw new UsageError(
        `--records: cannot write ${o.records} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }
  const writeLine = (value: unknown): void => {
    if (fd !== null) writeSync(fd, `${JSON.stringify(value)}\n`);
  };
  const stop = new AbortController();
  let signal: NodeJS.Signals | null = null;
  const onSignal = (name: NodeJS.Signals): void => {
    if (signal === null) {
      signal = name;
      process.stderr.write(`parceiro: ${name}: stopping the tournament; the games being played are dropped\n`);
      stop.abort();
    } else {
      void import('../../robot/index.js').then((r) => r.killRunningPrograms());
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const showProgress = o.progress ?? Boolean(process.stderr.isTTY);
  const bar = showProgress
    ? new SingleBar({
        format: 'games {bar} {percentage}% | {value}/{total} boards | eta {eta_formatted}',
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: true,
      })
    : null;
  let started = false;
  try {
    const common = {
      signal: stop.signal,
      onProgress: (done: number, total: number) => {
        if (!bar) return;
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.update(done);
      },
      log: (line: string) => process.stderr.write(`${line}\n`),
    } satisfies TournamentRunOptions;
    const run: TournamentRun = queue
      ? // The workers send each game's record only when they are written.
        await runTournamentOnQueue(spec, queue, {
          ...common,
          ...(fd !== null ? { onGame: (record) => writeLine(record) } : {}),
        })
      : await runTournament(spec, {
          ...common,
          ...(o.workers !== undefined ? { workers: o.workers } : {}),
          external,
          moveTimeoutMs: o.moveTimeout,
          helloTimeoutMs: o.helloTimeout,
          onGame: (record) => writeLine(record),
        });
    const report: TournamentReport = {
      ...summarize(spec, run.stats),
      stopped: run.stopped ? signal : null,
      gamesFinished: run.gamesFinished,
      boardsTotal: run.boardsTotal,
    };
    writeLine({ type: 'summary', ...report });
    if (run.stopped) process.exitCode = signal === 'SIGINT' ? 130 : 143;
    return report;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (started) bar?.stop();
    if (fd !== null) closeSync(fd);
  }
}

const signed = (x: number, digits: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export function formatSummary(s: TournamentSummary & Partial<TournamentReport>): string {
  const lines: string[] = [];
  if (s.stopped) {
    lines.push(
      `Stopped by ${s.stopped} after ${s.boards} of ${s.boardsTotal} boards: this summary counts those ${s.boards} boards (${s.games} games)` +
        `${(s.gamesFinished ?? 0) > s.games ? `; ${s.gamesFinished! - s.games} more games finished in boards left unfinished (in --records)` : ''}`,
      '',
    );
  }
  const deals = s.duplicate ? `${s.boards} deals, each played twice with the seats swapped` : `${s.boards} deals`;
  lines.push(
    `Tournament: ${s.games} games${s.sessionGames > 1 ? ` in sessions of ${s.sessionGames}` : ''} (${deals}), seed ${s.seed}`,
  );
  lines.push('');
  const head = ['team', 'players', 'wins', 'draws', 'losses', 'win rate', '95% CI', 'mean points', 'victories'];
  const rows = (['A', 'B'] as const).map((t) => {
    const x = t === 'A' ? s.teamA : s.teamB;
    return [
      t,
      x.players.join(' + '),
      `${x.wins}`,
      `${x.draws}`,
      `${x.losses}`,
      pct(x.winRate),
      `${pct(x.ci95[0])} - ${pct(x.ci95[1])}`,
      x.meanPoints.toFixed(2),
      `${x.victories}`,
    ];
  });
  lines.push(...table([head, ...rows], 2));
  if (s.pairedVictoryMargin && s.pairedPointMargin) {
    const m = (x: PairedMargin, digits: number): string =>
      `${signed(x.mean, digits)} (95% CI ${signed(x.ci95[0], digits)} to ${signed(x.ci95[1], digits)})`;
    lines.push(
      '',
      `A minus B a game, paired by deal (${s.pairedVictoryMargin.pairs} ${s.duplicate ? 'pairs' : 'deals'}): ` +
        `victories ${m(s.pairedVictoryMargin, 3)}, points ${m(s.pairedPointMargin, 2)}`,
    );
  }
  if (s.sessions) {
    lines.push(
      '',
      `Sessions: ${s.sessions.played} played; team A won ${s.sessions.teamAWins}, team B ${s.sessions.teamBWins}, ${s.sessions.draws} drawn`,
    );
  }
  const renounces = s.teamA.renounces + s.teamB.renounces;
  if (renounces) lines.push('', `Renounces: team A ${s.teamA.renounces}, team B ${s.teamB.renounces}`);
  const faults = Object.entries(s.faults).filter(([, f]) => Object.values(f).some((n) => n));
  lines.push(
    '',
    faults.length
      ? `Faults: ${faults
          .map(
            ([n, f]) =>
              `${n} ${Object.entries(f)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ')}`,
          )
          .join('; ')}`
      : 'Faults: none',
  );
  lines.push('', 'Decision time (ms)');
  lines.push(
    ...table(
      [
        ['player', 'decisions', 'p50', 'p95', 'max'],
        ...Object.entries(s.decisionMs).map(([n, d]) => [
          n,
          `${d.decisions}`,
          fmtMs(d.p50),
          fmtMs(d.p95),
          fmtMs(d.max),
        ]),
      ],
      1,
    ),
  );
  return lines.join('\n');
}

const fmtMs = (ms: number): string => (ms < 0.1 ? ms.toFixed(4) : ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

/** Aligns columns: the first `textColumns` to the left, numbers to the right. */
function table(rows: string[][], textColumns: number): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i < textColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

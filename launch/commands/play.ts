// parceiro play: one person plays Sueca with the robot in a browser. The robot node starts with its
// table server and dashboard on 127.0.0.1, a simulated table plays the two seats the person does not
// take (over the same table protocol as any table), and the command prints the virtual table's link,
// which takes the person's seat at once. The person deals each game with "New game".

import { randomBytes } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { ConfigError } from '../../config/index.js';
import type { Seat } from '../../game/index.js';
import { deriveSeed } from '../../game/index.js';
import type { NodeLogger, NodeSummary } from '../../robot/index.js';
import { ParceiroNode, createLogger } from '../../robot/index.js';
import { choicesOf } from '../options.js';
import type { BotKind } from '../../table-bridge/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { UsageError, ensureRecordingsDir, startError, tokenOption } from '../errors.js';
import type { StartPlaces } from '../errors.js';
import { loadNodeSettings } from '../../robot/live/index.js';
import { levelOption, robotLevel } from '../levels.js';
import { StopSignals } from '../signals.js';
import { speechKind } from './simulate.js';

/** The robot's seat in `play`: the person is its partner in seat 2, or an opponent in 1 or 3. */
const PLAY_ROBOT_SEAT: Seat = 0;

interface PlayOptions {
  /** The person's seat: 1, 2 or 3, or partner (2) or opponent (1). */
  seat: string;
  /** The simulated players: rule or random. */
  bots: string;
  /** A pause before each simulated player's card (ms), so the person can follow. */
  botThink: number;
  games?: number;
  seed?: number;
  budget?: number;
  /** The robot's minimum think time (ms); default config/session.yaml. */
  minThink?: number;
  liftGrace?: number;
  inference?: number;
  /** The training mode: the robot suggests cards to its partner (default config/node.yaml, off). */
  advice?: boolean;
  /** The robot's level of play (beginner, casual, club, expert, full; default config/node.yaml, full): docs/levels.md. */
  level?: string;
  language?: string;
  character?: string;
  speech?: string;
  record: boolean;
  recordings?: string;
  /** json or ros2 (the rosbag2 MCAP profile); default config/node.yaml's. */
  /** json or ros2 (parsed by the session schema's codec). */
  recordingFormat?: 'json' | 'ros2';
  host?: string;
  /** The table server's port (0: a free one). */
  port: number;
  /** The dashboard's port, which also serves the virtual table (0: a free one). */
  dashboardPort: number;
  dashboardToken?: string;
}

/** A running session for one person: the node, the simulated players, and where to go. */
export interface PlaySession {
  node: ParceiroNode;
  bots: SimulatedTable;
  seat: Seat;
  botSeats: Seat[];
  /** Opens the virtual table in the person's seat (it joins at once), once: a one-time pass, not the token. */
  tableLink: string;
  /** The operator dashboard, logged in by the link's one-time pass. */
  dashboardLink: string;
  /** The token tables present (for a program that joins as a table itself). */
  tableToken: string;
  /** Resolves when the session is over; rejects when the simulated players fail. */
  finished(): Promise<void>;
  close(): Promise<NodeSummary>;
}

/** `2`, `partner` -> seat 2; the robot's seat and anything else are refused with a reason. */
function personSeat(value: string): Seat {
  const v = value.trim().toLowerCase();
  if (v === 'partner') return ((PLAY_ROBOT_SEAT + 2) & 3) as Seat;
  if (v === 'opponent') return ((PLAY_ROBOT_SEAT + 1) & 3) as Seat;
  if (v === String(PLAY_ROBOT_SEAT))
    throw new UsageError(
      `--seat: seat ${PLAY_ROBOT_SEAT} is the robot's; take 2 (its partner), or 1 or 3 (its opponents)`,
    );
  if (v === '1' || v === '2' || v === '3') return Number(v) as Seat;
  throw new UsageError(`--seat expects 1, 2 or 3 (or partner, opponent), got "${value}"`);
}

function botKind(value: string): BotKind {
  if (value === 'rule' || value === 'random') return value;
  throw new UsageError(`--bots expects rule or random, got "${value}"`);
}

const relation = (seat: Seat): string =>
  seat === ((PLAY_ROBOT_SEAT + 2) & 3) ? "the robot's partner" : "an opponent of the robot's";

/** Starts the node and the simulated players; the person joins through `tableLink`. */
export async function startPlay(
  o: PlayOptions,
  logger: NodeLogger = createLogger({ level: 'warn' }),
): Promise<PlaySession> {
  const seat = personSeat(o.seat);
  const bots = botKind(o.bots);
  const dashboardToken = tokenOption('--dashboard-token', o.dashboardToken);
  const speech = o.speech === undefined ? undefined : speechKind(o.speech);
  const token = randomBytes(12).toString('hex');
  const seed = o.seed ?? Date.now() & 0x7fffffff;
  const play = robotLevel(o.level === undefined ? undefined : levelOption(o.level), loadNodeSettings().player.level);
  const node = await ParceiroNode.start({
    seed,
    table: { host: o.host ?? '127.0.0.1', port: o.port, token },
    sessionId: `play-${seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    // The session settings the flags chose (session-settings.ts): games, budget, pace, advice...
    ...choicesOf(o),
    robotSeat: PLAY_ROBOT_SEAT,
    // Said when the person's table joins, not to the simulated players before anyone is there.
    greet: 'people',
    level: play.level,
    ...(play.levels ? { levels: play.levels } : {}),
    ...(speech === undefined ? {} : { speech }),
    ...(o.record ? (o.recordings === undefined ? {} : { recordingsDir: o.recordings }) : { recordingsDir: null }),
    dashboard: {
      port: o.dashboardPort,
      ...(o.host === undefined ? {} : { host: o.host }),
      ...(dashboardToken === undefined ? {} : { token: dashboardToken }),
    },
    logger,
  });
  const botSeats = ([0, 1, 2, 3] as Seat[]).filter((s) => s !== PLAY_ROBOT_SEAT && s !== seat);
  // The person deals each game from the virtual table, so the players wait for them.
  const table = new SimulatedTable({
    url: node.url,
    token,
    seed: deriveSeed(seed, 0x7ab1e),
    id: 'simulated-players',
    name: 'simulated players',
    seats: botSeats,
    bots,
    thinkMs: o.botThink,
    autoNewGame: false,
    logger,
  });
  try {
    await table.start();
  } catch (e) {
    table.close();
    await node.close();
    throw e;
  }
  const dashboard = node.dashboard!;
  // One-time passes, not tokens, in the links: a browser's history keeps every address it opened.
  const tableLink = dashboard.tableLink(seat, reachable(dashboard.url));
  return {
    node,
    bots: table,
    seat,
    botSeats,
    tableLink,
    tableToken: token,
    dashboardLink: dashboard.link(reachable(dashboard.url)),
    finished: async () => {
      // A failure of the simulated players ends the wait too, with its reason.
      await Promise.race([node.finished(), table.finished()]);
      await node.finished();
      await node.quiet();
    },
    close: async () => {
      table.close();
      return node.close();
    },
  };
}

/**
 * A link another computer can open: listening on every interface (`--host 0.0.0.0`, for a phone at the
 * table), the link names an address of this machine instead. The dashboard listens there too: it
 * serves the virtual table, and its operator page still asks for the operator's token.
 */
export function reachable(url: string): string {
  const every = /^(\w+:\/\/)(0\.0\.0\.0|\[::\])(?=[:/]|$)/;
  if (!every.test(url)) return url;
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;
  return url.replace(every, `$1${lan ?? hostname()}`);
}

/** What a person can fix (a port in use, an address that is not this machine's, a config file's mistake), as one line. */
function usageErrorOf(e: unknown, places: StartPlaces): unknown {
  if (e instanceof ConfigError) return new UsageError(e.message);
  return startError(e, places);
}

export async function playCommand(
  o: PlayOptions,
  write: (line: string) => void,
  signals: StopSignals = new StopSignals(),
): Promise<void> {
  const recordings = o.record
    ? o.recordings === undefined
      ? { value: loadNodeSettings().recordings.dir, from: 'config/node.yaml recordings.dir' }
      : { value: o.recordings, from: '--recordings' }
    : null;
  const places: StartPlaces = {
    host: { value: o.host ?? '127.0.0.1', from: '--host' },
    port: { value: o.port, from: '--port' },
    dashboardPort: { value: o.dashboardPort, from: '--dashboard-port' },
    ...(recordings ? { recordings } : {}),
  };
  // Checked before anything opens: a mistake stops here, in one line, and leaves no recording.
  if (recordings) ensureRecordingsDir(recordings);
  let play: PlaySession;
  try {
    play = await startPlay(o);
  } catch (e) {
    throw usageErrorOf(e, places);
  }
  const { node, seat, botSeats } = play;
  const team = (seat & 1) === (PLAY_ROBOT_SEAT & 1) ? 0 : 1;
  // Ctrl-C (or SIGTERM) stops cleanly at any moment: the handlers were installed before anything
  // opened (signals.ts; a signal during start-up is answered here, once the node is up).
  const stop = signals.stopped();
  write(
    `Parceiro: you play in seat ${seat}, ${relation(seat)}; the robot is in seat ${PLAY_ROBOT_SEAT}, simulated players (${o.bots}) in seats ${botSeats.join(' and ')}.`,
  );
  write(`Open the virtual table (it takes your seat): ${play.tableLink}`);
  write(`Operator dashboard: ${play.dashboardLink}`);
  write(`Table server: ${reachable(node.url)} (the link above joins it once: a one-time pass, not the token).`);
  write(node.recording ? `Recording to ${node.recording}` : 'Not recording.');
  write('Press "New game" at the table to deal each game. Ctrl-C stops.');
  const resultOf = (score: NodeSummary['score']): string => {
    const v = score.victories;
    const ours = v[team];
    const theirs = v[1 - team]!;
    return score.games === 0
      ? 'no game was finished'
      : `victories A ${v[0]} - B ${v[1]} after ${score.games} game${score.games === 1 ? '' : 's'}; your team ${ours > theirs ? 'wins' : ours < theirs ? 'loses' : 'draws'}`;
  };
  let why: string;
  try {
    why = await Promise.race([play.finished().then(() => 'over'), stop]);
    if (why === 'over') {
      // People are not done when the last card falls: they may ask how the game went, or why the
      // robot played its card. The table stays until they stop it.
      write(
        `The session is over: ${resultOf(node.runtime.score)}. The table stays open: ask the robot "How did the game go?" or "Why that card?". Ctrl-C stops.`,
      );
      why = await stop;
    }
  } catch (e) {
    why = `the simulated players stopped: ${e instanceof Error ? e.message : String(e)}`;
  }
  const summary = await play.close();
  write(`Stopped (${why}): ${resultOf(summary.score)}${summary.recording ? `; recording ${summary.recording}` : ''}.`);
}

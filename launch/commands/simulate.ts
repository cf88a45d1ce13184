// parceiro simulate: a whole session through the real node: the table server on 127.0.0.1 (a free
// port), a simulated table with rule-based bots in the three human seats over socket.io, and the
// robot in seat 0 on its timed player, appraising and behaving. Narrated from the bus.

import { randomBytes } from 'node:crypto';
import type { SpeechBackendKind } from '../../behaviours/index.js';
import { deriveSeed } from '../../game/index.js';
import type { NodeLogger } from '../../robot/index.js';
import { ParceiroNode, createLogger, playToTheEnd } from '../../robot/index.js';
import { choicesOf } from '../options.js';
import { loadNodeSettings } from '../../robot/live/index.js';
import { levelOption, robotLevel } from '../levels.js';
import { InProcessBus, TOPICS } from '../../robot/bus/index.js';
import type { TopicKey } from '../../robot/bus/index.js';
import type { RecordedMessage } from '../../robot/recording/index.js';
import { RecordingError } from '../../robot/recording/index.js';
import type { ResumeInfo } from '../../robot/offline/index.js';
import { resumeSession } from '../../robot/offline/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { UsageError, ensureRecordingsDir, sessionIdOption, startError } from '../errors.js';
import { StoppedError } from '../signals.js';
import type { StopReason, StopSignals } from '../signals.js';
import type { SessionFigures } from '../narration/narrator.js';
import { Narrator, medianAndMax } from '../narration/narrator.js';

/** Topic names to their keys, to tell recorded messages to a narrator. */
const TOPIC_KEYS = new Map(Object.entries(TOPICS).map(([k, t]) => [t.name, k as TopicKey]));

interface SimulateOptions {
  games: number;
  seed: number;
  /** The robot's budget per decision (ms). */
  budget: number;
  speech: string;
  record: boolean;
  recordings?: string;
  /** json or ros2 (the rosbag2 MCAP profile); default config/node.yaml's. */
  /** json or ros2 (parsed by the session schema's codec). */
  recordingFormat?: 'json' | 'ros2';
  /** Overrides config/session.yaml's minimum think time (ms). */
  minThink?: number;
  /** Overrides config/session.yaml's lift grace (ms). */
  liftGrace?: number;
  /** Overrides config/node.yaml's inference (percent). */
  inference?: number;
  /** A pause before each bot's card (ms), as a person takes; default 1000. */
  botThink?: number;
  json: boolean;
  /**
   * The simulated table deals real cards (PROTOCOL.md, physical deals): it sends new-game with the
   * dealer and trump card, reads the robot's ten cards into its hand area, and puts each card the
   * robot announces on its spot. Also on --resume (the table, not the recording, decides how it deals).
   */
  physicalDeal?: boolean;
  /** The robot's character: a preset of config/appraisal/ or a file (default: appraisal.yaml's). */
  character?: string;
  /** The robot's level of play (beginner, casual, club, expert, full; default config/node.yaml, full): docs/levels.md. */
  level?: string;
  /** The language the robot speaks, pt or en (default: config/behaviours.yaml's). */
  language?: string;
  /** Names the session (and its recording); default `sim-<seed>-<time>`. */
  session?: string;
  /**
   * Continue session ID from its recording after a crash: the seeds and settings are the recording's
   * (the options above other than --recordings, --bot-think and --json are ignored), the state is rebuilt from the
   * recorded events, and the recording goes on in `<ID>.<n>.mcap`.
   */
  resume?: string;
  /** With resume: go on from what could be read of a damaged recording (refused otherwise). */
  acceptDamage?: boolean;
}

export interface SimulateSummary {
  sessionId: string;
  games: number;
  victories: { A: number; B: number };
  points: { A: number; B: number }[];
  robotTeam: 'A';
  decisions: { searched: number; forced: number; p50Ms: number; maxMs: number; budgetMs: number };
  utterances: number;
  expressions: number;
  recording: string | null;
  messages: number;
  seconds: number;
  /** When resumed: what was rebuilt from which recordings. */
  resumed?: ResumeInfo;
  /** When a signal stopped the session before its end (SIGINT: interrupted, SIGTERM: terminated); the recording is closed. */
  stopped?: StopReason;
}

/** What the speech option accepts: the backends, with `say` for festival as in config/behaviours.yaml. */
export function speechKind(value: string): SpeechBackendKind {
  if (value === 'say') return 'festival';
  if (value === 'log' || value === 'espeak-ng' || value === 'publish' || value === 'festival') return value;
  throw new UsageError(`--speech expects log, espeak-ng, say or publish, got "${value}"`);
}

const botThink = (o: SimulateOptions): number => o.botThink ?? 1000;
/** The share of cards the simulated players think over for longer (3-5 times --bot-think), as people do. */
const HESITATE = 0.1;
/** People take a few seconds between games to gather the cards: four cards' thinking, at most 4 s. */
const betweenGames = (o: SimulateOptions): number => Math.min(4000, 4 * botThink(o));

export async function simulateCommand(
  o: SimulateOptions,
  write: (line: string) => void,
  logger: NodeLogger = createLogger({ level: 'warn' }),
  stop?: StopSignals,
): Promise<SimulateSummary> {
  const started = Date.now();
  const token = randomBytes(12).toString('hex');
  const say = o.json ? () => {} : write;
  // --resume and --session name a file in the recordings folder, never a path out of it.
  if (o.resume !== undefined)
    return resumeCommand(o, sessionIdOption('--resume', o.resume), token, write, say, logger, started, stop);
  if (o.session !== undefined) sessionIdOption('--session', o.session);
  const play = robotLevel(o.level === undefined ? undefined : levelOption(o.level), loadNodeSettings().player.level);
  // The recordings folder is made and tried before anything opens: a mistake stops here, in one line.
  const recordings = o.record
    ? {
        value: o.recordings ?? loadNodeSettings().recordings.dir,
        from: o.recordings === undefined ? 'config/node.yaml recordings.dir' : '--recordings',
      }
    : null;
  if (recordings) ensureRecordingsDir(recordings);
  // Stopped before the node is up: nothing is opened.
  if (stop?.reason) throw new StoppedError(stop.reason);
  let node: ParceiroNode;
  try {
    node = await ParceiroNode.start({
      seed: o.seed,
      table: { host: '127.0.0.1', port: 0, token },
      // The session settings the flags chose (session-settings.ts): games, budget, pace, character...
      ...choicesOf(o),
      level: play.level,
      ...(play.levels ? { levels: play.levels } : {}),
      speech: speechKind(o.speech),
      ...(recordings ? { recordingsDir: recordings.value } : { recordingsDir: null }),
      sessionId: o.session ?? `sim-${o.seed}-${new Date(started).toISOString().replace(/[:.]/g, '-')}`,
      logger,
    });
  } catch (e) {
    throw startError(e, recordings ? { recordings } : {});
  }
  const narrator = new Narrator(node.bus, say);
  say(`Parceiro: a simulated session of ${o.games} game${o.games === 1 ? '' : 's'}, seed ${o.seed}.`);
  say(
    `The robot (seat 0, team A, ${play.level === 'full' ? 'timed player' : `level ${play.level}: it forgets played cards`}, ${o.budget} ms a decision) partners seat 2 against seats 1 and 3 (rule-based bots, ${botThink(o)} ms a card),`,
  );
  say(`over the table protocol at ${node.url}.`);
  if (node.dashboard) say(`Operator dashboard: ${node.dashboard.link()}`);
  if (o.physicalDeal)
    say(
      'The table deals real cards: the robot reads its hand from its hand area, and its cards are put on its spot for it.',
    );
  const table = new SimulatedTable({
    url: node.url,
    token,
    seed: deriveSeed(o.seed, 0x7ab1e),
    bots: 'rule',
    thinkMs: botThink(o),
    hesitate: HESITATE,
    betweenGamesMs: betweenGames(o),
    physicalDeal: o.physicalDeal ?? false,
    logger,
  });
  await playUntilStopped(node, table, stop);
  return finish(o, await node.close(), narrator, write, started, undefined, stop?.reason);
}

async function resumeCommand(
  o: SimulateOptions,
  id: string,
  token: string,
  write: (line: string) => void,
  say: (line: string) => void,
  logger: NodeLogger,
  started: number,
  stop?: StopSignals,
): Promise<SimulateSummary> {
  let resumed: Awaited<ReturnType<typeof resumeSession>>;
  // The session before the restart, told silently from the recording as it is restored: the summary is the whole session's.
  const pastBus = new InProcessBus();
  const past = new Narrator(pastBus, () => {});
  const onRestored = (m: RecordedMessage): void => {
    const key = TOPIC_KEYS.get(m.topic.name);
    if (key) pastBus.publish(key, m.message as never);
  };
  try {
    resumed = await resumeSession({
      sessionId: id,
      token,
      host: '127.0.0.1',
      port: 0,
      logger,
      acceptDamage: o.acceptDamage === true,
      ...(o.character === undefined ? {} : { character: o.character }),
      onRestored,
      ...(o.recordings === undefined ? {} : { recordingsDir: o.recordings }),
    });
  } catch (e) {
    if (e instanceof RecordingError) throw new UsageError(e.message);
    throw e;
  }
  const { node, resume } = resumed;
  const s = resume.settings;
  const narrator = new Narrator(node.bus, say);
  const r = resume.restored;
  say(
    `Parceiro: resuming session ${id} (seed ${s.seed}, ${s.choices.games} games) from ${resume.parts.length} recording${resume.parts.length === 1 ? '' : 's'}:`,
  );
  say(
    `  rebuilt from ${r.tableEvents} table events, ${r.decisions} decisions and ${r.estimates} estimates: ${r.played} game${r.played === 1 ? '' : 's'} over, ${r.game ? `game ${r.game} at trick ${r.trick}` : 'no game in progress'}.`,
  );
  // Said in every mode (--json too: on standard error, and in the summary's resumed.damage).
  if (resume.damage)
    (o.json ? (line: string) => process.stderr.write(`${line}\n`) : write)(
      `  warning: resumed from a damaged recording, as asked (--accept-damage): ${resume.damage}.`,
    );
  for (const p of resume.problems) say(`  note: ${p}`);
  say(`  recording on in ${resume.recording}; the table reconnects at ${node.url}.`);
  if (!resume.over) {
    // The table comes back dealing as the recording did (a game in progress must go on the same way).
    const physicalDeal = resume.physicalDeal ?? o.physicalDeal ?? false;
    if (o.physicalDeal !== undefined && resume.physicalDeal !== null && o.physicalDeal !== resume.physicalDeal)
      say(
        `  note: the recording's games were ${resume.physicalDeal ? 'dealt by people' : 'dealt by the runtime'}; the table goes on that way.`,
      );
    const table = new SimulatedTable({
      url: node.url,
      token,
      seed: deriveSeed(s.seed, 0x7ab1e),
      bots: 'rule',
      thinkMs: botThink(o),
      hesitate: HESITATE,
      betweenGamesMs: betweenGames(o),
      physicalDeal,
      logger,
    });
    await playUntilStopped(node, table, stop);
  } else say('  the session was already over.');
  // The resume's account goes into the summary before it is written (--json carried none of it before).
  return finish(
    { ...o, games: s.choices.games, seed: s.seed, budget: resume.budgetMs },
    await resumed.close(),
    narrator,
    write,
    started,
    { figures: past.figures, resume },
    stop?.reason,
  );
}

/**
 * Plays the session to its end, or until SIGINT or SIGTERM: then the table leaves and the caller
 * closes the node as at the end (the recording is closed, and the summary says what was played).
 */
async function playUntilStopped(
  node: ParceiroNode,
  table: SimulatedTable,
  stop: StopSignals | undefined,
): Promise<void> {
  if (!stop) return playToTheEnd(node, table);
  if (stop.reason) return void table.close();
  const played = playToTheEnd(node, table);
  // Left waiting when a signal comes first: its end is of no interest then.
  played.catch(() => {});
  await Promise.race([played, stop.stopped()]);
  table.close();
}

/** The figures of a session told in two parts (before and after a restart), as one. */
function joined(before: SessionFigures, after: SessionFigures): SessionFigures {
  const emotions = { ...before.emotions };
  for (const [t, n] of Object.entries(after.emotions)) emotions[t] = (emotions[t] ?? 0) + n;
  return {
    games: before.games + after.games,
    victories: after.victories,
    points: [...before.points, ...after.points],
    decisionMs: [...before.decisionMs, ...after.decisionMs],
    forced: before.forced + after.forced,
    utterances: before.utterances + after.utterances,
    expressions: before.expressions + after.expressions,
    emotions,
  };
}

/** The summary; `before`: a resumed session's account, and the figures of its part before the restart, from its recording. */
async function finish(
  o: SimulateOptions,
  closed: Awaited<ReturnType<ParceiroNode['close']>>,
  narrator: Narrator,
  write: (line: string) => void,
  started: number,
  before?: { figures: SessionFigures; resume: ResumeInfo },
  stopped?: StopReason | null,
): Promise<SimulateSummary> {
  const f = before ? joined(before.figures, narrator.figures) : narrator.figures;
  // A signal after the last game changes nothing: the session is over, not stopped.
  const cut = stopped && closed.score.games < o.games ? stopped : null;
  const times = medianAndMax(f.decisionMs);
  const summary: SimulateSummary = {
    sessionId: closed.sessionId,
    games: closed.score.games,
    victories: { A: closed.score.victories[0], B: closed.score.victories[1] },
    points: f.points.map(([A, B]) => ({ A, B })),
    robotTeam: 'A',
    decisions: {
      searched: f.decisionMs.length,
      forced: f.forced,
      p50Ms: Math.round(times.p50),
      maxMs: Math.round(times.max),
      budgetMs: o.budget,
    },
    utterances: f.utterances,
    expressions: f.expressions,
    recording: closed.recording,
    messages: closed.messages,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    ...(before ? { resumed: before.resume } : {}),
    ...(cut ? { stopped: cut } : {}),
  };
  if (o.json) {
    write(JSON.stringify(summary, null, 2));
    return summary;
  }
  const { A, B } = summary.victories;
  write('');
  write(
    `${cut ? `Stopped (${cut})` : 'Session over'} after ${summary.games} game${summary.games === 1 ? '' : 's'}: victories A ${A} - B ${B}; the robot's team ${A > B ? 'wins' : A < B ? 'loses' : 'draws'}.`,
  );
  write(`Points by game (A-B): ${summary.points.map((p) => `${p.A}-${p.B}`).join(', ')}`);
  write(
    `The robot's decisions: ${summary.decisions.searched} searched, p50 ${(times.p50 / 1000).toFixed(2)} s, max ${(times.max / 1000).toFixed(2)} s (budget ${(o.budget / 1000).toFixed(2)} s); ${summary.decisions.forced} forced.`,
  );
  const felt = Object.entries(f.emotions)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 4)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  write(
    `It spoke ${summary.utterances} lines and changed its face ${summary.expressions} times; its strongest emotions: ${felt || 'none'}.`,
  );
  write(
    summary.recording
      ? `Recording: ${summary.recording} (${summary.messages} messages)`
      : `Not recorded (${summary.messages} messages crossed the bus).`,
  );
  write(`Took ${summary.seconds} s.`);
  return summary;
}

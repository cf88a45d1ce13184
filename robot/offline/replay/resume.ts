// Restarting a session after a crash: the runtime is started again with the same session id, reads
// the session's recording (`<dir>/<id>.mcap`, then `<id>.2.mcap`... for earlier restarts), and
// before its table server listens feeds the recorded table events, decisions and estimates into the
// fresh runtime silently, on a clock that runs the recorded times: nothing reaches a table (none is
// connected yet), the bus is closed to the outside (nothing is published or recorded twice) and
// speech is off. The state is then the recorded one: the same deal, the tricks already played, the
// score. The clock then goes live, the robot's own player and estimates take over, and the
// recording goes on in a new part `<id>.<n>.mcap` whose metadata names the part it continues. A
// table that says hello again gets the full state and carries on.

import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SpeechBackendKind } from '../../../behaviours/index.js';
import { SPEECH_BACKENDS, systemClock } from '../../../behaviours/index.js';
import { BUILTIN_PLAYERS } from '../../../game/index.js';
import type { Bus } from '../../bus/index.js';
import { InProcessBus } from '../../bus/index.js';
import type { NodeLogger, NodeSettings, ParceiroNodeOptions, RobotPlayer } from '../../live/index.js';
import {
  ExpectationEstimator,
  ParceiroNode,
  PoolSearchPlayer,
  createLogger,
  levelSearch,
  loadNodeSettings,
  poolRobotPlayer,
  readSessionMetadata,
  syncRobotPlayer,
} from '../../live/index.js';
import type { RecordedMessage, RecordingFormat, SessionInfo } from '../../recording/index.js';
import { RecordingError, RecordingStream } from '../../recording/index.js';
import { RecordedEstimator, RecordedRobotPlayer } from './recorded-answers.js';
import type { ReplaySettings } from './replay-settings.js';
import { peopleModelOf, replaySettings, sessionOptionsOf, tableSeqsOf } from './replay-settings.js';
import { GatedBus, RestoreClock, restoreSession } from './restore.js';
import type { RecordingFacts } from './scan.js';
import { chained, scanRecording } from './scan.js';

/** The recorded parts of a session, in order, read as streams. */
interface SessionParts {
  sessionId: string;
  files: string[];
  /** The first part's metadata: the seeds and settings. */
  info: SessionInfo;
  /** The messages of every part, in order (read again from the files on each call). */
  messages: () => Iterable<RecordedMessage>;
  /** What a pass over them learned. */
  facts: RecordingFacts;
  /** What could not be read, part by part. */
  problems: string[];
  /** How the first part holds its messages: the parts that follow are written the same way. */
  format: RecordingFormat;
  /**
   * Damage other than a part's cut-short end (the normal end of a part after a crash), in one sentence
   * naming the file, where, and what the messages before it restore; null when there is none.
   */
  damage: string | null;
}

/** What `facts` restore, in words: "1 game over, game 2 at trick 4". */
function restorable(facts: RecordingFacts): string {
  const over = facts.ends.length;
  const s = facts.states.at(-1);
  const now = s && s.status === 'playing' ? `, game ${s.game} at trick ${Math.min(10, s.trick + 1)}` : '';
  return `${facts.count} messages, ${over} game${over === 1 ? '' : 's'} over${now}`;
}

/** The recordings of session `id` in `dir`: `<id>.mcap`, `<id>.2.mcap`, ... */
function findSessionParts(dir: string, id: string): SessionParts {
  const first = join(dir, `${id}.mcap`);
  if (!existsSync(first)) throw new RecordingError(first, `no recording of session ${id} to resume from`);
  const files = [first];
  for (let n = 2; existsSync(join(dir, `${id}.${n}.mcap`)); n++) files.push(join(dir, `${id}.${n}.mcap`));
  const streams = files.map((f) => new RecordingStream(f));
  const messages = chained(streams);
  const facts = scanRecording(messages());
  const info = streams[0]!.session;
  const damaged = streams.find((p) => p.damaged);
  if (!info) {
    throw new RecordingError(
      first,
      damaged === streams[0]
        ? `is damaged before its session metadata (${streams[0]!.problems[0]}): it cannot be resumed`
        : 'has no session metadata (parceiro.session): it cannot be resumed',
    );
  }
  let damage: string | null = null;
  if (damaged) {
    const where = damaged.damagedAt !== null ? `damaged at byte ${damaged.damagedAt}` : 'damaged';
    const what = damaged.problems.find((p) => !p.startsWith('cut short after'))!;
    damage = `${damaged.path} is ${where} (${what})${damaged === streams.at(-1) ? '' : `, and ${streams.length - 1 - streams.indexOf(damaged)} later part(s) continue from a state it no longer holds`}; what could be read restores ${restorable(facts)}, not the whole session`;
  }
  return {
    sessionId: id,
    files,
    info,
    messages,
    facts,
    problems: streams.flatMap((p) => p.problems.map((x) => `${basename(p.path)}: ${x}`)),
    damage,
    format: streams[0]!.format,
  };
}

interface ResumeOptions {
  /** The folder of the recordings (default config/node.yaml). */
  recordingsDir?: string;
  sessionId: string;
  token: string;
  host?: string;
  port?: number;
  logger?: NodeLogger;
  settings?: NodeSettings;
  /** Anything else for the node (the dashboard...). */
  node?: Partial<ParceiroNodeOptions>;
  /** The bus to continue on (default in-process; `parceiro live --bus ros2` passes the ROS 2 one). */
  bus?: Bus;
  /**
   * Go on from what could be read of a damaged recording (see SessionParts.damage); without it a
   * damaged recording is refused with a RecordingError saying where and what could be restored.
   */
  acceptDamage?: boolean;
  /** The character file of a session that ran with one (a recording names it, it does not open it). */
  character?: string;
  /** Hears each recorded message as it is restored (all topics: the past of the session, e.g. for its summary). */
  onRestored?: (m: RecordedMessage) => void;
}

export interface ResumeInfo {
  /** The seeds and settings, from the first part. */
  settings: ReplaySettings;
  /** The robot's budget per decision (ms), from the first part. */
  budgetMs: number;
  parts: string[];
  /** The part being written now. */
  recording: string;
  restored: { tableEvents: number; decisions: number; estimates: number; game: number; trick: number; played: number };
  problems: string[];
  /** The damage accepted (acceptDamage): where the recording is damaged and what could be restored; null when none. */
  damage: string | null;
  /** The games over before the restart, from the recording: card points A and B, and the victories after each. */
  earlierGames: { points: [number, number]; victories: [number, number] }[];
  /** The session was already over when it stopped. */
  over: boolean;
  /** How the last recorded game was dealt: people dealt real cards (new-game with a dealer and trump card), or the runtime; null before any game. */
  physicalDeal: boolean | null;
}

/** Starts a node that continues session `sessionId` from its recordings (see the file's head). */
export async function resumeSession(
  o: ResumeOptions,
): Promise<{ node: ParceiroNode; resume: ResumeInfo; close: () => ReturnType<ParceiroNode['close']> }> {
  const settings = o.settings ?? loadNodeSettings();
  const dir = o.recordingsDir ?? settings.recordings.dir;
  const parts = findSessionParts(dir, o.sessionId);
  if (parts.damage && !o.acceptDamage)
    throw new RecordingError(
      parts.files[0]!,
      `cannot be resumed as recorded: ${parts.damage}. To start from what could be read, accept the damage (--accept-damage)`,
    );
  const notes: string[] = [];
  const s = replaySettings(
    { path: parts.files[0]!, session: parts.info },
    notes,
    parts.facts,
    o.character === undefined ? {} : { character: o.character },
  );
  const start = parts.facts.first?.time ?? systemClock.now();
  const clock = new RestoreClock(start);
  const bus = new GatedBus(o.bus ?? new InProcessBus());

  // The live player and estimator, as the first part ran them; the recorded answers come first.
  const closers: (() => Promise<void> | void)[] = [];
  // One logger for the node and the player built here for it.
  const log = o.logger ?? createLogger();
  // Read through the session schema (replaySettings above has noted what does not fit).
  const recorded = readSessionMetadata(parts.info).settings;
  const kind = recorded.player ?? 'timed';
  const budgetMs = recorded.budgetMs ?? settings.player.budgetMs;
  // Recordings made before inference existed searched uniformly.
  const inference = recorded.inference ?? 0;
  let live: RobotPlayer;
  /** What this part's search weighs its worlds by, for its recording: the recorded network when it is here, else the rule odds. */
  let weighedBy: NonNullable<typeof recorded.inferenceModel> | null | undefined;
  if (kind === 'timed' || !BUILTIN_PLAYERS[kind]) {
    // At a level of play, the level's search (the memory runs in the node, level-memory.ts).
    const levelPlay = s.level ? levelSearch(s.level.levels, s.level.name) : null;
    const people = peopleModelOf(parts.info.inferenceModel, recorded, (message) =>
      log.warn({ part: 'player' }, message),
    );
    weighedBy = people ? recorded.inferenceModel : null;
    const pool = new PoolSearchPlayer({
      seat: s.robotSeat,
      seed: s.seed,
      budgetMs,
      trust: levelPlay ? levelPlay.trust : inference / 100,
      ...(people ? { inferenceModel: { name: people.path, bytes: people.bytes } } : {}),
      ...(levelPlay?.maxWorlds !== undefined ? { maxWorlds: levelPlay.maxWorlds } : {}),
      log: (message) => log.info({ part: 'player' }, message),
    });
    closers.push(() => pool.close());
    live = poolRobotPlayer(pool);
  } else live = syncRobotPlayer(BUILTIN_PLAYERS[kind]!, { seat: s.robotSeat, seed: s.seed });
  const liveEstimator =
    s.expectationBudgetMs > 0
      ? new ExpectationEstimator({
          budgetMs: s.expectationBudgetMs,
          maxWorlds: settings.expectation.maxWorlds,
          exactTricks: settings.expectation.exactTricks,
          seed: s.seed ^ parts.files.length,
          trust: inference / 100,
        })
      : null;
  if (liveEstimator) closers.push(() => liveEstimator.close());
  const player = new RecordedRobotPlayer({ fallback: live });
  const estimator = new RecordedEstimator();
  const n = parts.files.length + 1;
  const recording = join(dir, `${o.sessionId}.${n}.mcap`);
  const restored = { tableEvents: 0, decisions: 0, estimates: 0, game: 0, trick: 0, played: 0 };
  let over = false;

  const node = await ParceiroNode.start({
    ...o.node,
    ...sessionOptionsOf(s),
    table: {
      ...o.node?.table,
      token: o.token,
      ...(o.host === undefined ? {} : { host: o.host }),
      ...(o.port === undefined ? {} : { port: o.port }),
    },
    sessionId: o.sessionId,
    // The training mode goes on as the session ran it (recordings made before it was recorded: the config's).
    ...(recorded.advice === undefined ? {} : { advice: recorded.advice }),
    ...((SPEECH_BACKENDS as readonly string[]).includes(recorded.speech ?? '')
      ? { speech: recorded.speech as SpeechBackendKind }
      : {}),
    budgetMs,
    bus,
    recordingsDir: dir,
    // The session's parts are in one format, whatever the config says now.
    recordingFormat: parts.format,
    sources: { player, estimator },
    clock,
    settings,
    logger: log,
    restore: {
      recordingName: `${o.sessionId}.${n}`,
      recordingInfo: {
        part: n,
        previous: basename(parts.files.at(-1)!),
        resumed: new Date().toISOString(),
        inference,
        ...(weighedBy === undefined ? {} : { inferenceModel: weighedBy }),
        ...(parts.damage ? { damaged: parts.damage } : {}),
      },
      // A session of a lab day had its versions shifted above the sessions before it: they go on from there.
      versionBase: recorded.versionBase ?? 0,
      // A session that greets people as they join, which crashed before any had joined, greets them now.
      greeted: parts.facts.peopleJoined,
      run: async ({ runtime, toggles, server }) => {
        // The seqs and answers the session began with (an earlier session of the day's), then its own.
        const seqs = tableSeqsOf(recorded);
        if (seqs) server.restoreLedger(seqs);
        const r = await restoreSession({
          runtime,
          toggles,
          // The tables' seqs and their answers carry on: an event sent again after the restart is a duplicate.
          answered: (table, name, event, verdict) => server.restoreAnswer(table, name, event, verdict),
          bus,
          clock,
          player,
          estimator,
          messages: parts.messages,
          decisions: parts.facts.decisions,
          ...(o.onRestored ? { onMessage: o.onRestored } : {}),
          settings: s,
          goLive: () => {
            player.goLive();
            estimator.goLive(liveEstimator);
          },
        });
        Object.assign(restored, r.restored);
        over = r.over;
      },
    },
  }).catch(async (e: unknown) => {
    for (const c of closers.reverse()) await c();
    throw e;
  });
  // The node, then the live player and estimator it was lent.
  const close = async (): ReturnType<ParceiroNode['close']> => {
    const summary = await node.close();
    for (const c of closers.splice(0).reverse()) await c();
    return summary;
  };
  const lastNewGame = parts.facts.lastNewGame;
  const physicalDeal = lastNewGame ? lastNewGame.dealer !== -1 : null;
  return {
    node,
    close,
    resume: {
      settings: s,
      budgetMs,
      parts: parts.files,
      recording,
      restored,
      problems: [...parts.problems, ...player.differences, ...notes],
      damage: parts.damage,
      earlierGames: parts.facts.ends,
      over,
      physicalDeal,
    },
  };
}

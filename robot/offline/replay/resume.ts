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
import type { Clock, SpeechBackendKind, TimerId, ToggleBoard } from '../../../behaviours/index.js';
import { SPEECH_BACKENDS, systemClock } from '../../../behaviours/index.js';
import { BUILTIN_PLAYERS } from '../../../game/index.js';
import type { BehaviourTogglesMessage, Bus, ExpectationMessage, GameEventMessage, LanguageMessage, NodeParameter, ParameterValues, TableEvent, TopicKey, TopicMessage, Unsubscribe } from '../../bus/index.js';
import { InProcessBus, TOPICS } from '../../bus/index.js';
import { ExpectationEstimator, ParceiroNode, PoolSearchPlayer, createLogger, gameStateOf, levelSearch, loadNodeSettings, poolRobotPlayer, statusOf, syncRobotPlayer, togglePatch } from '../../live/index.js';
import type { NodeLogger, NodeSettings, ParceiroNodeOptions, RobotPlayer, SessionRuntime } from '../../live/index.js';
import type { RecordedMessage, SessionInfo } from '../../recording/index.js';
import type { LedgerSnapshot } from '../../../table-bridge/index.js';
import { RecordingError, RecordingStream } from '../../recording/index.js';
import { RecordedEstimator, RecordedRobotPlayer } from './recorded-answers.js';
import { ReplayClock } from './replay-clock.js';
import type { ReplaySettings } from './replay-settings.js';
import { replaySettings } from './replay-settings.js';
import { TableFeeder } from './table-feeder.js';
import type { RecordedDecision } from './recorded-answers.js';
import type { RecordingFacts } from './scan.js';
import { chained, scanRecording } from './scan.js';
import { recordedModelHere } from '../../learned/index.js';

/** The table server's seqs and answers as the session began (recorded as `tableSeqs`); null in older recordings. */
function tableSeqsOf(info: SessionInfo): LedgerSnapshot | null {
  if (!info.tableSeqs) return null;
  try {
    return JSON.parse(info.tableSeqs) as LedgerSnapshot;
  } catch {
    return null;
  }
}

/** Why the tables of a stopped runtime are marked disconnected when it restarts. */
export const RESTART_REASON = 'the runtime restarted';

/** The recorded parts of a session, in order, read as streams. */
export interface SessionParts {
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
  /**
   * Damage other than a part's cut-short end (the normal end of a part after a crash), in one sentence
   * naming the file, where, and what the messages before it restore; null when there is none.
   */
  damage: string | null;
}

/**
 * The people's model a resumed session's search weighs its worlds by, as the first part did (its
 * recording's `inferenceModel`): the network's path and bytes when the same network is here; otherwise
 * none (the rule-based odds), and `warn` says why.
 */
function peopleModelOf(recorded: string | undefined, warn: (message: string) => void): { path: string; bytes: Uint8Array } | undefined {
  if (recorded === undefined || recorded === 'rule') return undefined;
  const fallback = ': the robot weighs its worlds by the rule-based odds';
  let m: { modelFile?: unknown; sha256?: unknown; featuresVersion?: unknown };
  try {
    m = JSON.parse(recorded) as typeof m;
  } catch {
    m = {};
  }
  if (typeof m.modelFile !== 'string') {
    warn(`the recording's inference model is unreadable (${recorded.slice(0, 60)})${fallback}`);
    return undefined;
  }
  const here = recordedModelHere({ modelFile: m.modelFile, sha256: m.sha256, featuresVersion: m.featuresVersion }, "people's model");
  if ('why' in here) {
    warn(`${here.why}${fallback}`);
    return undefined;
  }
  return here;
}

/** What `facts` restore, in words: "1 game over, game 2 at trick 4". */
function restorable(facts: RecordingFacts): string {
  const over = facts.ends.length;
  const s = facts.states.at(-1);
  const now = s && s.status === 'playing' ? `, game ${s.game} at trick ${Math.min(10, s.trick + 1)}` : '';
  return `${facts.count} messages, ${over} game${over === 1 ? '' : 's'} over${now}`;
}

/** The recordings of session `id` in `dir`: `<id>.mcap`, `<id>.2.mcap`, ... */
export function findSessionParts(dir: string, id: string): SessionParts {
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
    throw new RecordingError(first, damaged === streams[0] ? `is damaged before its session metadata (${streams[0]!.problems[0]}): it cannot be resumed` : 'has no session metadata (parceiro.session): it cannot be resumed');
  }
  let damage: string | null = null;
  if (damaged) {
    const where = damaged.damagedAt !== null ? `damaged at byte ${damaged.damagedAt}` : 'damaged';
    const what = damaged.problems.find((p) => !p.startsWith('cut short after'))!;
    damage = `${damaged.path} is ${where} (${what})${damaged === streams.at(-1) ? '' : `, and ${streams.length - 1 - streams.indexOf(damaged)} later part(s) continue from a state it no longer holds`}; what could be read restores ${restorable(facts)}, not the whole session`;
  }
  return { sessionId: id, files, info, messages, facts, problems: streams.flatMap((p) => p.problems.map((x) => `${basename(p.path)}: ${x}`)), damage };
}

/**
 * The bus of a restarting node: closed (nothing published, nothing recorded) until `open`. The game
 * events made while closed are kept: those the recording lost (a crash between a table event and
 * what it caused) are published once it opens.
 */
export class GatedBus implements Bus {
  open = false;
  readonly heldGameEvents: GameEventMessage[] = [];
  constructor(readonly inner: Bus) {}
  get kind(): Bus['kind'] {
    return this.inner.kind;
  }
  publish<K extends TopicKey>(key: K, message: TopicMessage<K>): void {
    if (this.open) this.inner.publish(key, message);
    else if (key === 'gameEvents') this.heldGameEvents.push(message as GameEventMessage);
  }
  subscribe<K extends TopicKey>(key: K, handler: (message: TopicMessage<K>) => void): Unsubscribe {
    return this.inner.subscribe(key, handler);
  }
  tap(handler: Parameters<Bus['tap']>[0]): Unsubscribe {
    return this.inner.tap(handler);
  }
  parameters<P extends Record<string, NodeParameter>>(defaults: P, integers?: readonly (keyof P)[]): ParameterValues<P> {
    return this.inner.parameters(defaults, integers);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The recorded times while restoring, then the live clock's (the system's; a replay of the part that
 * followed passes its own replay clock); timers waiting at the switch carry over.
 */
export class RestoreClock implements Clock {
  readonly replay: ReplayClock;
  readonly #clock: Clock;
  #live = false;
  #floor = 0;
  #nextId = 1;
  /** Our timer id to the underlying clock's. */
  readonly #ids = new Map<TimerId, { live: boolean; id: TimerId }>();
  readonly #byReplayId = new Map<TimerId, TimerId>();

  constructor(start: number, live: Clock = systemClock) {
    this.replay = new ReplayClock(start);
    this.#clock = live;
  }

  now(): number {
    return this.#live ? Math.max(this.#floor, this.#clock.now()) : this.replay.now();
  }

  setTimeout(callback: () => void, ms: number): TimerId {
    const id = this.#nextId++;
    const run = (): void => {
      this.#ids.delete(id);
      callback();
    };
    if (this.#live) this.#ids.set(id, { live: true, id: this.#clock.setTimeout(run, ms) });
    else {
      const rid = this.replay.setTimeout(run, ms);
      this.#ids.set(id, { live: false, id: rid });
      this.#byReplayId.set(rid, id);
    }
    return id;
  }

  clearTimeout(id: TimerId): void {
    const t = this.#ids.get(id);
    if (!t) return;
    this.#ids.delete(id);
    if (t.live) this.#clock.clearTimeout(t.id);
    else this.replay.clearTimeout(t.id);
  }

  /**
   * From now on, the live clock's time (never before the restored time). What was still waiting at
   * the crash (a face going back to rest, a look, a line) is done at once, in its order: the restart
   * comes seconds or minutes later, and what was left of a timer then counted from the moment the
   * node went live, which a replay of the part after the restart cannot know (it fell behind the
   * recorded messages under load, and the replay ran a look before a face).
   */
  goLive(): void {
    this.#floor = this.replay.now();
    this.#live = true;
    for (const t of this.replay.drain()) {
      const ours = this.#byReplayId.get(t.id);
      if (ours === undefined || !this.#ids.has(ours)) continue;
      this.#ids.set(ours, { live: true, id: this.#clock.setTimeout(t.callback, 0) });
    }
    this.#byReplayId.clear();
  }
}

export interface ResumeOptions {
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
export async function resumeSession(o: ResumeOptions): Promise<{ node: ParceiroNode; resume: ResumeInfo; close: () => ReturnType<ParceiroNode['close']> }> {
  const settings = o.settings ?? loadNodeSettings();
  const dir = o.recordingsDir ?? settings.recordings.dir;
  const parts = findSessionParts(dir, o.sessionId);
  if (parts.damage && !o.acceptDamage) throw new RecordingError(parts.files[0]!, `cannot be resumed as recorded: ${parts.damage}. To start from what could be read, accept the damage (--accept-damage)`);
  const notes: string[] = [];
  const s = replaySettings({ path: parts.files[0]!, session: parts.info }, notes, parts.facts);
  const start = parts.facts.first?.time ?? systemClock.now();
  const clock = new RestoreClock(start);
  const bus = new GatedBus(o.bus ?? new InProcessBus());

  // The live player and estimator, as the first part ran them; the recorded answers come first.
  const closers: (() => Promise<void> | void)[] = [];
  // One logger for the node and the player built here for it.
  const log = o.logger ?? createLogger();
  const kind = parts.info.player ?? 'timed';
  const budgetMs = Number(parts.info.budgetMs ?? settings.player.budgetMs);
  // Recordings made before inference existed searched uniformly.
  const inference = Number(parts.info.inference ?? 0);
  let live: RobotPlayer;
  /** What this part's search weighs its worlds by, for its recording: the recorded network when it is here, else the rule odds. */
  let weighedBy: string | undefined;
  if (kind === 'timed' || !BUILTIN_PLAYERS[kind]) {
    // At a level of play, the level's search (the memory runs in the node, level-memory.ts).
    const levelPlay = s.level ? levelSearch(s.level.levels, s.level.name) : null;
    const people = peopleModelOf(parts.info.inferenceModel, (message) => log.warn({ part: 'player' }, message));
    weighedBy = people ? parts.info.inferenceModel : 'rule';
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
      ? new ExpectationEstimator({ budgetMs: s.expectationBudgetMs, maxWorlds: settings.expectation.maxWorlds, exactTricks: settings.expectation.exactTricks, seed: s.seed ^ parts.files.length, trust: inference / 100 })
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
    seed: s.seed,
    token: o.token,
    games: s.games,
    sessionId: o.sessionId,
    robotSeat: s.robotSeat,
    firstDealer: s.firstDealer,
    ...(s.language ? { language: s.language } : {}),
    ...(s.character ? { character: s.character } : {}),
    ...((SPEECH_BACKENDS as readonly string[]).includes(parts.info.speech ?? '') ? { speech: parts.info.speech as SpeechBackendKind } : {}),
    budgetMs,
    expectationBudgetMs: s.expectationBudgetMs,
    handModel: s.handModel,
    prediction: s.prediction,
    ...(s.level ? { level: s.level.name, levels: s.level.levels } : { level: 'full' as const }),
    ...(s.minThinkMs === undefined ? {} : { minThinkMs: s.minThinkMs }),
    ...(s.liftGraceMs === undefined ? {} : { liftGraceMs: s.liftGraceMs }),
    bus,
    recordingsDir: dir,
    recordingName: `${o.sessionId}.${n}`,
    recordingInfo: {
      part: String(n),
      previous: basename(parts.files.at(-1)!),
      resumed: new Date().toISOString(),
      inference: String(inference),
      ...(weighedBy === undefined ? {} : { inferenceModel: weighedBy }),
      ...(parts.damage ? { damaged: parts.damage } : {}),
    },
    // A session of a lab day had its versions shifted above the sessions before it: they go on from there.
    versionBase: Number(parts.info.versionBase ?? 0),
    ...(o.host === undefined ? {} : { host: o.host }),
    ...(o.port === undefined ? {} : { port: o.port }),
    player,
    estimator,
    clock,
    greet: false,
    settings,
    logger: log,
    beforeListen: async ({ runtime, toggles, server }) => {
      // The seqs and answers the session began with (an earlier session of the day's), then its own.
      const seqs = tableSeqsOf(parts.info);
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
    resume: { settings: s, budgetMs, parts: parts.files, recording, restored, problems: [...parts.problems, ...player.differences, ...notes], damage: parts.damage, earlierGames: parts.facts.ends, over, physicalDeal },
  };
}

export interface RestoreOptions {
  runtime: SessionRuntime;
  toggles: ToggleBoard;
  /** Closed while the past is fed in; opened as the node goes live. */
  bus: GatedBus;
  clock: RestoreClock;
  player: RecordedRobotPlayer;
  estimator: RecordedEstimator;
  /** The recorded parts so far, in order (read again on each call). */
  messages: () => Iterable<RecordedMessage>;
  /** The robot's decisions among them, by index (recordedDecisions). */
  decisions: Map<number, RecordedDecision>;
  /** Hears every message as it is restored. */
  onMessage?: (m: RecordedMessage) => void;
  settings: ReplaySettings;
  /** Called as the clock goes live, before the bus opens (a restart hands over to the live player and estimates). */
  goLive: () => void;
  /** Hears each restored table event's answer (a restart rebuilds the table server's seq ledger). */
  answered?: Parameters<TableFeeder['feed']>[1];
}

export interface Restored {
  restored: { tableEvents: number; decisions: number; estimates: number; game: number; trick: number; played: number };
  over: boolean;
  /** Tables of the stopped runtime marked disconnected (their disconnect events open the next part). */
  disconnected: number;
}

/**
 * Feeds the recorded table events, decisions and estimates into a fresh runtime, silently, at their
 * recorded times, then goes live: the state, the old tables marked gone, the toggles and the language
 * in force. What a restart does before its table server listens, and what the replay of the part that
 * followed a restart does before it replays that part.
 */
export async function restoreSession(o: RestoreOptions): Promise<Restored> {
  const { runtime, toggles, bus, clock, player, estimator, decisions, settings: s } = o;
  const feeder = new TableFeeder(runtime, s.robotSeat);
  const hosted = new Set<string>();
  const restored = { tableEvents: 0, decisions: 0, estimates: 0, game: 0, trick: 0, played: 0 };
  let lastToggles: BehaviourTogglesMessage | null = null;
  let lastLanguage: LanguageMessage | null = null;
  // Silent: nothing is said while the past is fed in again.
  toggles.set({ speech: false }, 'restore');
  let i = -1;
  /** Game events the recording holds: the feeding makes them again, and maybe some it lost. */
  let recordedEvents = 0;
  const heldBefore = bus.heldGameEvents.length;
  for (const m of o.messages()) {
    i++;
    o.onMessage?.(m);
    const name = m.topic.name;
    if (name === TOPICS.gameEvents.name) recordedEvents++;
    if (name === TOPICS.toggles.name) lastToggles = m.message as BehaviourTogglesMessage;
    if (name === TOPICS.language.name) lastLanguage = m.message as LanguageMessage;
    if (name !== TOPICS.tableEvents.name && name !== TOPICS.decision.name && name !== TOPICS.expectation.name) continue;
    await clock.replay.advanceTo(m.time);
    if (name === TOPICS.tableEvents.name) {
      const t = m.message as TableEvent;
      if (t.kind === 'hello') hosted.add(t.table_id);
      if (t.kind === 'disconnect') hosted.delete(t.table_id);
      feeder.feed(t, o.answered);
      restored.tableEvents++;
    } else if (name === TOPICS.decision.name) {
      const d = decisions.get(i);
      if (d && !d.forced) {
        player.release(d);
        restored.decisions++;
      }
    } else {
      estimator.release(m.message as ExpectationMessage);
      restored.estimates++;
    }
  }
  await clock.replay.advanceTo(clock.replay.now());
  // Live from here: the clock, the player, the estimates, the bus and the recording.
  clock.goLive();
  o.goLive();
  bus.open = true;
  // What the last table events caused that the recording did not keep (it was cut between the two):
  // on record now, so the session's parts together hold every game event once.
  for (const e of bus.heldGameEvents.slice(heldBefore + recordedEvents)) bus.publish('gameEvents', e);
  const snap = runtime.actor.getSnapshot();
  const c = snap.context;
  const over = statusOf(snap) === 'session_over';
  restored.game = c.current ? c.current.index + 1 : 0;
  restored.trick = c.current ? Math.min(10, c.current.game.trick + 1) : 0;
  restored.played = c.score.games;
  bus.publish('gameState', gameStateOf(snap));
  // The tables of the stopped runtime are gone; they come back with a hello.
  let disconnected = 0;
  for (const id of hosted) {
    const info = feeder.tables.get(id);
    if (!info) continue;
    runtime.onDisconnect(info, RESTART_REASON);
    disconnected++;
  }
  if (lastToggles) toggles.set(togglePatch({ ...lastToggles, changed: [] }), 'restore');
  else toggles.set({ speech: true }, 'restore');
  // The language in force, latched for whoever listens (the dashboard), switched back if the operator had changed it.
  if (lastLanguage && lastLanguage.language !== s.language) bus.publish('setLanguage', { language: lastLanguage.language, by: 'restore' });
  else bus.publish('language', { language: lastLanguage?.language ?? s.language ?? 'pt', by: 'restore' });
  return { restored, over, disconnected };
}

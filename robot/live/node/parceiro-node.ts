// The robot node: the bus, the table server, the operator dashboard, and the session in force: its
// recording, its session runtime behind the table server, the robot's player, the appraisal and the
// behaviours, wired so that every message crosses the bus (and so is recorded).
//
//   table ──socket.io──► TableServer ──► SessionSwitch ──► SessionRuntime ──► gameState, gameEvents, decision, tableOutput
//                                                            │ robot's player (tapped): every event, every decision
//                                                            ▼
//                                                       RobotReactions: at once ─► Appraiser ─► emotions
//                                                         │                             └─► planBehaviour ─► BehaviourScheduler
//                                                         │                                   ─► expression, posture, lookAt, say, utterance
//                                                         └─ newest position ─► estimate (worker) ─► expectation ─► reappraisal
//   setToggles ─► ToggleBoard ─► toggles
//
// One node may serve session after session (a lab day, lab-day.ts): the bus, the table server (its
// connections and seq ledger) and the dashboard stay; each session has its own runtime, recording,
// player, estimator, reactions, scheduler and subscriptions, all made through a ScopedBus and all
// removed when it is finished, so nothing of it hears the next one. A session opens exactly as the
// first one does on a fresh node (the same messages in the same order), so its recording replays on
// its own. The tables connected when a session opens are admitted to it (their hellos go to it and
// into its recording) and get its state, whose version continues above the last one's
// (session-switch.ts).

import { mkdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Character } from '../../../appraisal/index.js';
import { Appraiser, loadCharacter } from '../../../appraisal/index.js';
import type { BehaviourSetup, Clock, SpeechBackendKind, UtteranceLibrary } from '../../../behaviours/index.js';
import {
  BehaviourScheduler,
  ConfigError,
  ToggleBoard,
  createSpeechOutput,
  defaultConfigDir,
  loadBehaviourSetup,
  packageRoot,
  systemClock,
} from '../../../behaviours/index.js';
import type { LevelName, LevelTable, Seat, SessionScore } from '../../../game/index.js';
import { DEFAULT_LEVELS, FITTED_MODEL, HandAssessor, parseCard } from '../../../game/index.js';
import type { TableInfo, TableOutbox } from '../../../table-bridge/index.js';
import { TableServer } from '../../../table-bridge/index.js';
import { ConnectionWatch, DashboardServer } from '../../web/index.js';
import type { StudyDeskHooks, StudyPanel } from '../../web/index.js';
import type { DaySessions, SessionRecord } from '../../web/index.js';
import { BusBehaviourPublisher, PublishedLooks } from '../behaviour-publisher.js';
import type { Bus, Unsubscribe } from '../../bus/index.js';
import { InProcessBus, createRos2Bus } from '../../bus/index.js';
import { Recorder } from '../../recording/index.js';
import { PoolSearchPlayer } from '../search/pool-player.js';
import type { RobotPlayer } from '../session/index.js';
import type { SessionChoices, SessionMetadata } from '../session/index.js';
import {
  CHOICE_KEYS,
  SessionRuntime,
  poolRobotPlayer,
  resolveChoices,
  writeSessionMetadata,
} from '../session/index.js';
import { ExpectationEstimator } from './expectation-estimator.js';
import type { ExpectationSource } from './expectation-estimator.js';
import type { NodeLogger } from './logger.js';
import { behaviourLog, createLogger, tableLog } from './logger.js';
import type { NodeSettings } from './node-settings.js';
import { NODE_FILE, loadNodeSettings } from './node-settings.js';
import { ReactionInstant } from './reaction-instant.js';
import { RobotReactions } from './reactions.js';
import { tappedPlayer } from './player-tap.js';
import { listenForToggles } from './toggle-requests.js';
import { listenForOperator } from './operator-controls.js';
import { listenForWhy } from './why.js';
import { startAdvice } from './advice.js';
import type { GameReviewer } from './review.js';
import { WorkerReviewer, listenForReview, startReviews } from './review.js';
import { Epochs, ScopedBus } from './scoped-bus.js';
import type { PredictionNetwork, PredictionSettings } from './prediction.js';
import { SeatPredictions } from './prediction.js';
import type { CheckedModel } from '../../learned/index.js';
import type { LiveModel } from '../../learned/onnx.js';
import { ModelFileError, checkModelFile, modelPath } from '../../learned/index.js';
import { SessionSwitch } from './session-switch.js';
import { forwardBehaviour } from './table-behaviour.js';
import { RobotMemory, levelSearch, levelSettingsText, withMemory } from './level-memory.js';

type BusChoice = 'in-process' | 'ros2';

/**
 * The node's lifecycle, in the states of a ROS 2 managed node: `configure` makes it inactive (its
 * parts made, nothing served), `activate` active (tables served, the robot greets), `close` finalized
 * (ROS 2's shutdown: every part closed, the recording complete). `start` is configure then activate.
 */
type NodeState = 'unconfigured' | 'inactive' | 'active' | 'finalized';

/** Where the table server listens and what the tables must present. */
export interface TableServerOptions {
  /** Default config/node.yaml. */
  host?: string;
  /** 0 picks a free port. Default config/node.yaml. */
  port?: number;
  /** The shared secret tables present in their hello. */
  token: string;
}

/**
 * What the node takes at start: the first session's settings at the top level (the same ones a later
 * session of a lab day takes, SessionOptions), then the node's own parts, one group each: the table
 * server, the dashboard, the bus, the clock, the logger, the settings (config/node.yaml), and what a
 * replay or a restart puts in place of the node's own parts (sources, restore).
 */
export interface ParceiroNodeOptions extends SessionChoices {
  /** Every deal and every seeded choice derives from it. */
  seed: number;
  /** Default `session-<seed>-<time>`; names the recording. */
  sessionId?: string;
  /** The hand model at each deal and its combination with the deal's estimate; null for none. Default config/node.yaml. */
  handModel?: { searchWeight: number } | null;
  /** The other seats' cards predicted live, and the surprise of each (robot/live/node/prediction.ts); null for none. Default config/node.yaml. */
  prediction?: PredictionSettings | null;
  /** A policy network of how the people play, the robot's worlds weighed by it (a file; null: the rule-based odds). Default config/node.yaml player.inferenceModelFile. */
  inferenceModelFile?: string | null;
  /** Default: config/behaviours.yaml. */
  speech?: SpeechBackendKind;
  /** The table server (socket.io), where the tables connect. */
  table: TableServerOptions;
  /** Default in-process; or a bus made by the caller. */
  bus?: BusChoice | Bus;
  /** Folder of the recording (`<dir>/<session id>.mcap`); null records nothing. Default config/node.yaml. */
  recordingsDir?: string | null;
  /**
   * The level of play (docs/levels.md): below full the robot forgets played cards and searches the
   * worlds of what it remembers, and publishes what it recalls (`memory`). Default config/node.yaml
   * (absent: full, today's player). With `sources.player` given (a replay), only the memory runs here.
   */
  level?: LevelName;
  /** The levels' settings (launch/levels.ts reads config/levels.yaml); default the embedded ones. */
  levels?: LevelTable;
  logger?: NodeLogger;
  /** Milliseconds since the epoch, with timers (default the system's). Stamps, decay, think time. */
  clock?: Clock;
  settings?: NodeSettings;
  /** The operator dashboard (HTTP and socket.io, token required); null for none. Default 127.0.0.1 on a free port, with a new token. */
  dashboard?: { host?: string; port?: number; token?: string } | null;
  /** Where the robot's answers and the time come from, when not from this node's own parts (a replay, a restart, a test). */
  sources?: SessionSources;
  /** The past of the session, restored before the table server listens (a restart; the replay of a part written after one). */
  restore?: RestoreStep;
}

/**
 * Every option the node takes: one given where it does not belong (a source at the top level, say)
 * stops the node at start instead of being silently left out.
 */
const NODE_OPTIONS = [
  ...CHOICE_KEYS,
  'seed',
  'sessionId',
  'handModel',
  'prediction',
  'inferenceModelFile',
  'speech',
  'bus',
  'recordingsDir',
  'table',
  'level',
  'levels',
  'logger',
  'clock',
  'settings',
  'dashboard',
  'sources',
  'restore',
] as const satisfies readonly (keyof ParceiroNodeOptions)[];
// The compiler checks that the list names every option.
const everyOptionListed: [Exclude<keyof ParceiroNodeOptions, (typeof NODE_OPTIONS)[number]>] extends [never]
  ? true
  : never = true;
/** The options of each group, checked like the top level's. */
const GROUPS = {
  table: ['host', 'port', 'token'] as const satisfies readonly (keyof TableServerOptions)[],
  dashboard: ['host', 'port', 'token'] as const satisfies readonly (keyof NonNullable<
    ParceiroNodeOptions['dashboard']
  >)[],
  sources: [
    'player',
    'estimator',
    'reviewer',
    'reactionClock',
    'stampClock',
  ] as const satisfies readonly (keyof SessionSources)[],
  restore: [
    'run',
    'recordingName',
    'recordingInfo',
    'versionBase',
    'greeted',
  ] as const satisfies readonly (keyof RestoreStep)[],
};
// The compiler checks that each group's list names every option of the group.
const everyGroupListed: [
  | Exclude<keyof TableServerOptions, (typeof GROUPS.table)[number]>
  | Exclude<keyof NonNullable<ParceiroNodeOptions['dashboard']>, (typeof GROUPS.dashboard)[number]>
  | Exclude<keyof SessionSources, (typeof GROUPS.sources)[number]>
  | Exclude<keyof RestoreStep, (typeof GROUPS.restore)[number]>,
] extends [never]
  ? true
  : never = true;

/** The options a caller gave that the node does not take, by name (programming mistakes: an Error). */
function checkOptions(o: object): void {
  const unknown = Object.keys(o).filter((k) => !(NODE_OPTIONS as readonly string[]).includes(k));
  for (const [group, keys] of Object.entries(GROUPS)) {
    const given: unknown = (o as Record<string, unknown>)[group];
    if (given && typeof given === 'object')
      for (const k of Object.keys(given)) if (!(keys as readonly string[]).includes(k)) unknown.push(`${group}.${k}`);
  }
  if (unknown.length || !everyOptionListed || !everyGroupListed) {
    throw new Error(`the robot node does not take ${unknown.join(', ')}`);
  }
}

/**
 * What differs between a live session, a replay and a restart: who answers for the robot and which
 * times its reactions and messages carry. The defaults are the live node's own parts.
 */
interface SessionSources {
  /** The robot's decisions; default the timed search on the worker pool. */
  player?: RobotPlayer;
  /** The quick estimates; default a worker thread (null: none). */
  estimator?: ExpectationSource | null;
  /** Who reviews each game at its end; default a worker thread (null: none, a replay feeds the recorded reviews). */
  reviewer?: GameReviewer | null;
  /** The instant of each reaction (default the node's clock): a replay gives each its recorded instant (decay and the plan's timing depend on it). */
  reactionClock?: () => number;
  /** The behaviour messages' header stamps (default the node's clock): a replay gives the recorded ones. */
  stampClock?: () => number;
}

/** The parts of a session a restore step feeds the recorded past into. */
interface RestoreTarget {
  runtime: SessionRuntime;
  reactions: RobotReactions;
  scheduler: BehaviourScheduler;
  toggles: ToggleBoard;
  bus: Bus;
  server: TableServer;
}

/**
 * A session that continues from its recording: restored while the node is configured, before its
 * table server listens; it does not greet the table again, and its recording is a new part.
 */
interface RestoreStep {
  /** Feeds the recorded past into the session's parts. */
  run(target: RestoreTarget): Promise<void>;
  /** The part's file name without `.mcap` (`<id>.2`); default the session id. */
  recordingName?: string;
  /** What the part's metadata adds (the part it continues, when, the damage accepted). */
  recordingInfo?: SessionMetadata;
  /** Where the tables' state versions start (the recording's, so they never go back). */
  versionBase?: number;
  /** People had joined before the restart (a session that greets people greeted them); default true. */
  greeted?: boolean;
}

/**
 * Another session on a running node (a lab day): its seeds and settings. The robot's seat (the
 * tables' seats depend on it), the bus, the clock, the table server and the dashboard are the node's.
 */
export type SessionOptions = Omit<SessionChoices, 'robotSeat'> &
  Pick<
    ParceiroNodeOptions,
    | 'seed'
    | 'sessionId'
    | 'handModel'
    | 'prediction'
    | 'inferenceModelFile'
    | 'speech'
    | 'recordingsDir'
    | 'level'
    | 'levels'
  > & { sources?: Pick<SessionSources, 'player'> };

/** What opening a session takes: a later session's options, and what only the first one may be given. */
type OpenOptions = Omit<SessionOptions, 'sources'> & { sources?: SessionSources; restore?: RestoreStep };

/** The languages the robot can be switched to during a session (config/utterances/<lang>.yaml). */
const LANGUAGES = ['pt', 'en'] as const;

/** What the tables are told, after the session-over prompt, when a next session is offered. */
export const NEXT_SESSION_TEXT = 'A new game starts the next session.';

export interface NodeSummary {
  sessionId: string;
  score: SessionScore;
  recording: string | null;
  /** Messages that crossed the bus during the session (and were recorded, when recording). */
  messages: number;
}

/** Tables where people sit (a table of simulated players is nobody to greet). */
const PEOPLE_TABLES: ReadonlySet<TableInfo['kind']> = new Set(['touch', 'virtual']);

const defaultSessionId = (seed: number): string => `session-${seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`;

/** One session's parts, opened on the node's bus through its own scope. */
class NodeSession {
  /** Its parts closing, once asked (memoized). */
  #closing: Promise<void> | null = null;
  /** Replaced by the next session: nothing of it reaches a table any more. */
  retired = false;

  constructor(
    readonly id: string,
    readonly recording: string | null,
    readonly runtime: SessionRuntime,
    readonly toggles: ToggleBoard,
    readonly reactions: RobotReactions,
    readonly scheduler: BehaviourScheduler,
    readonly counter: { messages: number },
    readonly finished: Promise<SessionScore>,
    readonly record: SessionRecord,
    /** Greets as it becomes the session in force (not when it greets people as they join, nor when restored). */
    readonly greet: boolean,
    private readonly closers: (() => unknown)[],
    private readonly log: NodeLogger,
  ) {}

  get closing(): Promise<void> | null {
    return this.#closing;
  }

  /** Closes its parts in the reverse order of opening (the runtime stays: it answers the tables until retired). */
  closeParts(): Promise<void> {
    this.#closing ??= (async () => {
      for (const c of this.closers.splice(0).reverse()) {
        try {
          await c();
        } catch (e) {
          this.log.error({ err: e instanceof Error ? e.message : String(e), session: this.id }, 'closing the session');
        }
      }
    })();
    return this.#closing;
  }

  /** The next session is in force: this one's runtime stops. */
  retire(): void {
    this.retired = true;
    this.runtime.stop();
  }

  /** Its record brought up to date from the runtime; true when something changed. */
  update(): boolean {
    const s = this.runtime.score;
    const r = this.record;
    if (
      r.played === s.games &&
      r.victories[0] === s.victories[0] &&
      r.victories[1] === s.victories[1] &&
      r.draws === s.draws
    )
      return false;
    r.played = s.games;
    r.victories = [s.victories[0], s.victories[1]];
    r.draws = s.draws;
    return true;
  }

  summary(score = this.runtime.score): NodeSummary {
    return { sessionId: this.id, score, recording: this.recording, messages: this.counter.messages };
  }
}

export class ParceiroNode {
  /**
   * Where the operator dashboard is served and its token; null when the node runs without one. Its
   * links open once (a one-time pass, not the token: robot/web/passes.ts); `base` is the address to print.
   */
  dashboard: {
    url: string;
    token: string;
    link(base?: string): string;
    tableLink(seat: number | null, base?: string, o?: { untilClosed?: boolean }): string;
    /** A study session's questionnaires and panel on this dashboard (`parceiro study run`). */
    attachStudy(study: StudyDeskHooks): void;
    /** The study session's panel, to every dashboard. */
    setStudy(panel: StudyPanel): void;
    /** A link to participant `code`'s questionnaires (a one-time pass). */
    participantLink(code: string, base?: string): string;
  } | null = null;
  #url: string | null = null;
  /** Opened before any session, closed after the last: the dashboard and the table server first, the bus last. */
  readonly #front: (() => unknown)[] = [];
  readonly #back: (() => unknown)[] = [];
  readonly #sessions: NodeSession[] = [];
  readonly #switch: SessionSwitch;
  readonly #watch: ConnectionWatch;
  readonly #epochs: Epochs;
  readonly #characters = new Map<string, Character>();
  /** The targets of the robot's looks, from each session's publisher to the tables' forwarding. */
  readonly #looks = new PublishedLooks();
  /** The prediction models (learned) opened in onnxruntime, by absolute path: opened once, released when the node closes. */
  readonly #models = new Map<string, Promise<LiveModel>>();
  #defaultSetup: BehaviourSetup | null;
  #dash: DashboardServer | null = null;
  #next: (() => Promise<void>) | null = null;
  #closed = false;
  #state: NodeState = 'unconfigured';
  /** What activation serves, kept from the configuration. */
  #activation: { token: string; dashboard: ParceiroNodeOptions['dashboard']; character: string } | null = null;

  private constructor(
    readonly bus: Bus,
    readonly server: TableServer,
    readonly log: NodeLogger,
    private readonly settings: NodeSettings,
    private readonly clock: Clock,
    /** The robot's seat, for every session of the node (the tables' seats depend on it). */
    readonly robotSeat: Seat,
    /** The behaviour setup of each language, the utterance libraries, for every session. */
    private readonly setups: Map<string, BehaviourSetup>,
    private readonly libraries: Map<string, UtteranceLibrary>,
    defaultSetup: BehaviourSetup | null,
    character: { key: string; character: Character },
    sw: SessionSwitch,
    watch: ConnectionWatch,
  ) {
    this.#defaultSetup = defaultSetup;
    this.#characters.set(character.key, character.character);
    this.#switch = sw;
    this.#watch = watch;
    this.#epochs = new Epochs(bus);
  }

  /** Configures a node and activates it: what `parceiro live` and every command that runs a session do. */
  static async start(o: ParceiroNodeOptions): Promise<ParceiroNode> {
    const node = await ParceiroNode.configure(o);
    await node.activate();
    return node;
  }

  /**
   * Inactive: the configuration read (a mistake in a file stops here, before anything opens), the bus
   * open, the first session's parts made and its recording begun, its past restored when it continues
   * one; no table is served yet.
   */
  static async configure(o: ParceiroNodeOptions): Promise<ParceiroNode> {
    checkOptions(o);
    const settings = o.settings ?? loadNodeSettings();
    const log = o.logger ?? createLogger();
    const clock = o.clock ?? systemClock;
    const robotSeat = o.robotSeat ?? 0;

    // Behaviours and character first: a mistake in a config file stops the node before it opens anything.
    const base = loadBehaviourSetup(o.language ? { language: o.language } : {});
    const setups = new Map<string, BehaviourSetup>([[base.utterances.language, base]]);
    for (const language of LANGUAGES) if (!setups.has(language)) setups.set(language, loadBehaviourSetup({ language }));
    // The libraries as they are: the robot's own plays are spoken of like anything else (the table
    // shows its card; it names it whenever someone must put it on its spot, card-line.ts).
    // The operator may have the robot say any line of its libraries (the wizard's picker).
    const libraries = new Map([...setups].map(([language, b]) => [language, b.utterances]));
    const character = loadCharacter(o.character);

    const onBusError = (e: unknown, topic: { name: string }): void =>
      log.error({ err: e instanceof Error ? e.stack : String(e), topic: topic.name }, 'a bus handler failed');
    const bus =
      typeof o.bus === 'object'
        ? o.bus
        : o.bus === 'ros2'
          ? await createRos2Bus({ onError: onBusError })
          : new InProcessBus(onBusError);
    let node: ParceiroNode | null = null;
    try {
      // The table server talks to the session in force through the switch; tables joining and leaving
      // go on the bus (connections), for the dashboard and the recording.
      const sw = new SessionSwitch();
      const watch = new ConnectionWatch(sw, bus);
      const server = new TableServer({
        token: o.table.token,
        handler: watch,
        host: o.table.host ?? settings.table.host,
        port: o.table.port ?? settings.table.port,
        logger: tableLog(log),
      });
      node = new ParceiroNode(
        bus,
        server,
        log,
        settings,
        clock,
        robotSeat,
        setups,
        libraries,
        o.language ? null : base,
        { key: o.character ?? '', character },
        sw,
        watch,
      );
      const n = node;
      n.#back.push(() => bus.close());
      n.#back.push(() => n.#epochs.close());
      // The operator's request for the next session (a lab day), from the dashboard or over ROS 2.
      n.#back.push(
        bus.subscribe('sessionControl', (m) => {
          if (m.action === 'next_session') n.#operatorNext(m.by);
        }),
      );
      n.#front.push(() => server.close());
      // The robot's face, gaze, speech and feeling, and the language, for the tables that show it.
      n.#back.push(
        forwardBehaviour(bus, server, { robotSeat, geometry: base.table, now: () => clock.now(), looks: n.#looks }),
      );

      const session = await n.#open({ ...o, language: base.utterances.language });
      if (o.restore)
        await o.restore.run({
          runtime: session.runtime,
          reactions: session.reactions,
          scheduler: session.scheduler,
          toggles: session.toggles,
          bus,
          server,
        });
      n.#activation = { token: o.table.token, dashboard: o.dashboard, character: character.name };
      n.#state = 'inactive';
      return n;
    } catch (e) {
      if (node) await node.#abandon();
      else await bus.close().catch(() => {});
      throw e;
    }
  }

  /**
   * Active: the table server listens, the operator dashboard is served, and the robot greets the
   * table (unless the session was restored: it greeted the first time; or it greets people, `greet:
   * 'people'`: then when the first table of people joins).
   */
  async activate(): Promise<void> {
    if (this.#state !== 'inactive' || !this.#activation) throw new Error(`the node is ${this.#state}, not inactive`);
    const { token, dashboard, character } = this.#activation;
    const session = this.#session;
    try {
      const { url } = await this.server.listen();
      this.#url = url;
      this.#announceRobot();
      if (dashboard !== null) {
        const d = dashboard ?? {};
        const dash = new DashboardServer({
          bus: this.bus,
          ...(d.token === undefined ? {} : { token: d.token }),
          ...(d.host === undefined ? {} : { host: d.host }),
          port: d.port ?? 0,
          virtualTable: { url, token },
          utterances: this.libraries,
          logger: this.log,
        });
        this.#front.push(() => dash.close());
        const served = await dash.listen();
        this.dashboard = {
          url: served.url,
          token: dash.token,
          link: (base) => dash.link(base),
          tableLink: (seat, base, o) => dash.tableLink(seat, base, o),
          attachStudy: (study) => dash.attachStudy(study),
          setStudy: (panel) => dash.setStudy(panel),
          participantLink: (code, base) => dash.participantLink(code, base),
        };
        // The virtual table is served there: its page may open a socket to the table port.
        this.server.allowPagesFrom(served.port);
        this.#dash = dash;
        this.#showSessions();
      }
    } catch (e) {
      await this.#abandon();
      throw e;
    }
    this.#state = 'active';
    this.log.info(
      {
        url: this.#url,
        sessionId: session.id,
        recording: session.recording,
        games: session.record.games,
        robotSeat: this.robotSeat,
        speech: session.scheduler.status().backend,
        character,
      },
      'the robot node is ready',
    );
    if (session.greet) session.reactions.sessionStart();
  }

  /** Where the node is in its lifecycle. */
  get state(): NodeState {
    return this.#state;
  }

  /** A node that failed to configure or activate (a port in use, a bad address) leaves no recording behind: no table was served. */
  async #abandon(): Promise<void> {
    const stray = this.#sessions.at(-1)?.recording ?? null;
    await this.close().catch(() => {});
    if (stray) rmSync(stray, { force: true });
  }

  // ---- the session in force -------------------------------------------------------------------

  get #session(): NodeSession {
    return this.#sessions.at(-1)!;
  }

  get sessionId(): string {
    return this.#session.id;
  }
  get runtime(): SessionRuntime {
    return this.#session.runtime;
  }
  /** The session's recording (for a resumed session, the part this run writes); null when not recording. */
  get recording(): string | null {
    return this.#session.recording;
  }
  get toggles(): ToggleBoard {
    return this.#session.toggles;
  }
  get reactions(): RobotReactions {
    return this.#session.reactions;
  }
  get scheduler(): BehaviourScheduler {
    return this.#session.scheduler;
  }
  /** Where the tables connect (add the /table namespace). */
  get url(): string {
    if (this.#url === null) throw new Error('the table server is not listening yet');
    return this.#url;
  }

  /** Resolves with the score when the session in force is over and every event has been reacted to. */
  finished(): Promise<SessionScore> {
    return this.#session.finished;
  }

  /** The session in force as it stands: its score so far, recording and messages. */
  summary(): NodeSummary {
    return this.#session.summary();
  }

  /** The sessions this node has served, oldest first (copies). */
  sessions(): SessionRecord[] {
    return this.#sessions.map((s) => structuredClone(s.record));
  }

  /**
   * Waits until the robot has done what it planned (its last lines, the return to rest), at most
   * `maxMs` of real time.
   */
  async quiet(maxMs = 10_000): Promise<void> {
    const s = this.#session;
    await s.reactions.idle();
    const until = Date.now() + maxMs;
    const busy = (): boolean => {
      const st = s.scheduler.status();
      return st.speaking !== null || st.queued > 0 || st.pending > 0;
    };
    while (busy() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  // ---- session after session ------------------------------------------------------------------

  /**
   * Offers a next session (a lab day): once the session in force is over, the session-over prompt
   * tells the tables that a new game starts the next one, the dashboard offers to start it, and a
   * table's new-game (or the operator's request) calls `start`, which must start it (startSession),
   * before the new-game is applied to it. Null: none is offered (the default).
   */
  offerNextSession(start: (() => Promise<void>) | null): void {
    this.#next = start;
    this.#switch.next = start;
    this.#showSessions();
  }

  /** Whether a next session is offered. */
  get offersNextSession(): boolean {
    return this.#next !== null;
  }

  /**
   * Finishes the session in force once it is over: waits until the robot is quiet, then closes its
   * parts and its recording. Its runtime still answers the tables (its final state, its refusals)
   * until the next session starts. Resolves with its summary; asking again returns the same.
   */
  async finishSession(): Promise<NodeSummary> {
    const s = this.#session;
    if (s.runtime.status !== 'session_over') throw new Error(`session ${s.id} is not over`);
    if (!s.closing) await this.quiet();
    await s.closeParts();
    this.#ended(s);
    return s.summary();
  }

  /**
   * Starts another session on this node, once the one in force is finished (finishSession): a new
   * runtime, recording, player and reactions; the tables connected now are admitted to it and get its
   * state; the robot greets them (with `greet: 'people'`, as the first table of people joins it).
   */
  async startSession(o: SessionOptions): Promise<void> {
    if (this.#closed) throw new Error('the node is closed');
    const previous = this.#session;
    if (!previous.closing) throw new Error(`session ${previous.id} is not finished: finishSession() first`);
    await previous.closing;
    const starting = (async () => {
      const s = await this.#open(o);
      this.#announceRobot();
      this.log.info(
        { sessionId: s.id, recording: s.recording, games: s.record.games, seed: s.record.seed },
        'a new session begins',
      );
      if (s.greet) s.reactions.sessionStart();
      // The tables already here join the new session: their hellos go to its runtime (and so into its recording).
      for (const table of this.server.tables()) {
        const v = this.#watch.onHello(table);
        if (!v.ok)
          this.log.warn(
            { table: table.id, code: v.code, reason: v.reason },
            'a connected table could not join the new session',
          );
      }
      this.#showSessions();
    })();
    this.#switch.hold(starting);
    await starting;
  }

  /** Closes everything, in the reverse order of opening; the recording is complete after this. */
  async close(): Promise<NodeSummary> {
    const s = this.#sessions.at(-1);
    const score = s?.runtime.score;
    if (!this.#closed) {
      this.#closed = true;
      this.#state = 'finalized';
      const safely = async (c: () => unknown): Promise<void> => {
        try {
          await c();
        } catch (e) {
          this.log.error({ err: e instanceof Error ? e.message : String(e) }, 'closing the node');
        }
      };
      for (const c of this.#front.splice(0).reverse()) await safely(c);
      if (s) {
        await safely(() => s.retire());
        await s.closeParts();
        this.#ended(s);
      }
      for (const c of this.#back.splice(0).reverse()) await safely(c);
    }
    if (!s || !score) throw new Error('the node had no session');
    return s.summary(score);
  }

  // ---- inside ---------------------------------------------------------------------------------

  /**
   * A learned model (`file`), opened once per node; `key` names where it was set: config/node.yaml's key
   * when `fromConfig`, so a bad file is a ConfigError naming it (one line, exit code 2 at the command line).
   */
  async #model(file: string | undefined, key: string, fromConfig: boolean): Promise<LiveModel> {
    return this.#named(key, fromConfig, async () => {
      if (file === undefined)
        throw new ModelFileError('model learned needs a model file (MODEL.onnx, written by parceiro train)');
      const { loadLiveModel } = await import('../../learned/onnx.js');
      const path = modelPath(file);
      let loading = this.#models.get(path);
      if (!loading) {
        loading = loadLiveModel(file);
        this.#models.set(path, loading);
        loading.catch(() => this.#models.delete(path));
        this.#back.push(async () => (await loading!.catch(() => null))?.onnx.close());
      }
      return await loading;
    });
  }

  /**
   * The people's model the search weighs its worlds by (`file`), read and checked afresh for each
   * session, without onnxruntime: the search workers build the network from the very bytes whose
   * digest the recording keeps (a file retrained during a lab day is the next session's). `key` as for #model.
   */
  async #peopleModel(file: string, key: string, fromConfig: boolean): Promise<CheckedModel> {
    return this.#named(key, fromConfig, async () => checkModelFile(file));
  }

  /** Runs `load`; a ModelFileError it throws names `key`, as a ConfigError of config/node.yaml when `fromConfig` (one line, exit code 2 at the command line). */
  async #named<T>(key: string, fromConfig: boolean, load: () => Promise<T>): Promise<T> {
    try {
      return await load();
    } catch (e) {
      if (!(e instanceof ModelFileError)) throw e;
      if (!fromConfig) throw new ModelFileError(`${key}: ${e.message}`);
      throw new ConfigError([
        { file: relative(packageRoot(), join(defaultConfigDir(), NODE_FILE)), line: null, key, reason: e.message },
      ]);
    }
  }

  /** Opens a session's parts on the node's bus, in the order a fresh node opens them, and puts it in force. */
  async #open(o: OpenOptions): Promise<NodeSession> {
    const { settings, log, clock, robotSeat } = this;
    const sw = this.#switch;
    // The chosen settings (session-settings.ts), each as given or its config default: what the session
    // runs with is what its recording says.
    const chosen = resolveChoices({ ...o, robotSeat }, settings);
    const games = chosen.games!;
    const inference = chosen.inference!;
    const expectationBudget = chosen.expectationBudgetMs!;
    const sessionId = o.sessionId ?? defaultSessionId(o.seed);
    // Recorded, so that a restart of this session goes on with the versions the tables saw.
    const versionBase = o.restore?.versionBase ?? sw.nextBase();
    const setup = this.#setupFor(o.language);
    const character = this.#characterFor(o.character);
    const handModel = o.handModel !== undefined ? o.handModel : (settings.expectation.handModel ?? null);
    const prediction = o.prediction !== undefined ? o.prediction : predictionOfSettings(settings);
    const advice = chosen.advice!;
    // A learned model is read, checked and opened in onnxruntime before the session opens anything:
    // a missing or wrong file stops here, in one line naming node.yaml's key (or the option) and the file.
    const model =
      prediction?.model === 'learned'
        ? await this.#model(
            prediction.modelFile,
            o.prediction === undefined ? 'prediction.modelFile' : 'the prediction model file',
            o.prediction === undefined,
          )
        : null;
    const level = o.level ?? settings.player.level ?? 'full';
    const levels = o.levels ?? DEFAULT_LEVELS;
    // Below full, the level's search (its worlds and inference) and the memory of the played cards.
    const levelPlay = levelSearch(levels, level);
    const trust = levelPlay ? levelPlay.trust : inference / 100;
    // The people's model the robot's own search weighs its worlds by, checked the same way (absent: the
    // rule-based odds). Not read when nothing weighs worlds (no inference, or a level without it), nor for
    // a given player (a replay, a resume), which is not this node's search.
    const given = o.sources ?? {};
    const inferenceFile =
      given.player || trust <= 0
        ? null
        : o.inferenceModelFile !== undefined
          ? o.inferenceModelFile
          : (settings.player.inferenceModelFile ?? null);
    const inferenceModel =
      inferenceFile === null
        ? null
        : await this.#peopleModel(
            inferenceFile,
            o.inferenceModelFile === undefined ? 'player.inferenceModelFile' : 'the inference model file',
            o.inferenceModelFile === undefined,
          );
    const closers: (() => unknown)[] = [];
    // Everything the session subscribes goes through its scope, removed when it is finished.
    const bus = new ScopedBus(this.bus, this.#epochs);
    closers.push(() => bus.close());
    try {
      const counter = { messages: 0 };
      bus.tap(() => counter.messages++);

      const dir = o.recordingsDir === undefined ? settings.recordings.dir : o.recordingsDir;
      let recording: string | null = null;
      let recorder: Recorder | null = null;
      if (dir !== null) {
        mkdirSync(dir, { recursive: true });
        recording = resolve(join(dir, `${o.restore?.recordingName ?? sessionId}.mcap`));
        recorder = await Recorder.start({
          path: recording,
          format: chosen.recordingFormat!,
          bus,
          clock: () => clock.now(),
          session: writeSessionMetadata({
            id: sessionId,
            seed: o.seed,
            // Its quick expectations always weigh worlds by `inference`, and its search when the node makes it.
            ...chosen,
            firstDealer: o.firstDealer ?? 0,
            player: given.player?.kind ?? 'timed',
            character: character.name,
            level,
            ...(level === 'full' ? {} : { levelSettings: levelSettingsText(levels, level) }),
            language: setup.utterances.language,
            speech: o.speech ?? setup.settings.speech.kind,
            handModel: handModel ? { searchWeight: handModel.searchWeight, fittedOn: FITTED_MODEL.fittedOn } : null,
            // A given player (a replay, a restart) is not this node's search: the restart says what its own weighs by.
            ...(given.player
              ? {}
              : {
                  inferenceModel: inferenceModel
                    ? {
                        modelFile: inferenceModel.modelFile,
                        featuresVersion: inferenceModel.featuresVersion,
                        sha256: inferenceModel.sha256,
                      }
                    : null,
                }),
            // A learned model with its sidecar's features version and a digest of its bytes (a replay checks them).
            prediction: prediction
              ? model
                ? {
                    model: prediction.model,
                    top: prediction.top,
                    modelFile: model.modelFile,
                    featuresVersion: model.featuresVersion,
                    sha256: model.sha256,
                  }
                : { model: prediction.model, top: prediction.top }
              : null,
            versionBase,
            // The tables' seqs and answers as the session begins: a restart puts them back before
            // restoring the session's own events (a table's events of an earlier session stay known).
            tableSeqs: this.server.ledgerSnapshot(),
            ...o.restore?.recordingInfo,
          }),
        });
        // Closed before the bus: the recorder drains what is queued and writes the summary.
        const r = recorder;
        closers.push(() => r.close());
        // Nothing reaches a table before the recording holds what caused it: a restart knows all a table was told.
        closers.push(() => this.server.setPersist(null));
      }

      const publisher = new BusBehaviourPublisher(bus, given.stampClock ?? (() => clock.now()), this.#looks);
      const toggles = new ToggleBoard(setup.settings.toggles, () => clock.now());
      const speechSettings = o.speech ? { ...setup.settings.speech, kind: o.speech } : setup.settings.speech;
      const speech = await createSpeechOutput(speechSettings, { log: behaviourLog(log), publisher });
      const scheduler = new BehaviourScheduler({
        publisher,
        speech,
        clock,
        toggles,
        postures: setup.postures,
        table: setup.table,
        log: behaviourLog(log),
      });
      closers.push(() => scheduler.dispose());
      const unToggles: Unsubscribe = listenForToggles(bus, toggles, log);
      closers.push(unToggles);

      // One clock reading per reaction, for its appraisal and its behaviours alike (reaction-instant.ts).
      const instant = new ReactionInstant(given.reactionClock ?? (() => clock.now()));
      const appraiser = new Appraiser(character, { seat: robotSeat, clock: () => instant.now() });
      const estimator =
        given.estimator !== undefined
          ? given.estimator
          : expectationBudget > 0
            ? new ExpectationEstimator({
                budgetMs: expectationBudget,
                maxWorlds: settings.expectation.maxWorlds,
                exactTricks: settings.expectation.exactTricks,
                seed: o.seed,
                trust: inference / 100,
              })
            : null;
      if (estimator instanceof ExpectationEstimator) closers.push(() => estimator.close());
      const network: PredictionNetwork | null = model
        ? { net: model.net, forward: (x, batch) => model.onnx.forward(x, batch) }
        : null;
      const predictions = prediction
        ? new SeatPredictions({
            bus,
            seed: o.seed,
            settings: prediction,
            network,
            warn: (detail, message) => log.warn(detail, message),
          })
        : null;
      // What the predictions cost, once the session is over (its median a fraction of a millisecond with the expert model).
      if (predictions)
        closers.push(
          () =>
            predictions.stats.predictions > 0 &&
            log.info(
              {
                model: prediction!.model,
                ...(model ? { modelFile: model.modelFile } : {}),
                predictions: predictions.stats.predictions,
                medianMs: predictions.medianMs(),
                p95Ms: predictions.quantileMs(0.95),
                meanMs: predictions.stats.totalMs / predictions.stats.predictions,
                maxMs: predictions.stats.maxMs,
              },
              "the other seats' cards predicted",
            ),
        );
      const reactions = new RobotReactions({
        bus,
        robotSeat,
        games,
        seed: o.seed,
        appraiser,
        estimator,
        handModel: handModel ? { assessor: new HandAssessor(), searchWeight: handModel.searchWeight } : null,
        predictions,
        setup,
        toggles,
        scheduler,
        instant,
        log,
      });
      // Events still being reacted to are finished before the scheduler and the recorder close.
      closers.push(() => reactions.idle());

      // Greeted once people can hear it: when the first table of people joins (a table of simulated
      // players is nobody). A restored session greeted the first time, unless nobody had joined it.
      let greeted = o.restore !== undefined && o.restore.greeted !== false;
      const greetPeople =
        chosen.greet === 'people'
          ? (table: TableInfo): void => {
              if (greeted || !PEOPLE_TABLES.has(table.kind)) return;
              greeted = true;
              reactions.sessionStart();
            }
          : null;

      let player = given.player;
      if (!player) {
        const pool = new PoolSearchPlayer({
          seat: robotSeat,
          seed: o.seed,
          budgetMs: chosen.budgetMs!,
          trust,
          ...(inferenceModel ? { inferenceModel: { name: inferenceModel.path, bytes: inferenceModel.bytes } } : {}),
          ...(levelPlay?.maxWorlds !== undefined ? { maxWorlds: levelPlay.maxWorlds } : {}),
          log: (message) => log.info({ part: 'player' }, message),
        });
        closers.push(() => pool.close());
        player = poolRobotPlayer(pool);
      }
      if (levelPlay) player = withMemory(player, new RobotMemory({ bus, level, levels, seed: o.seed }));
      const runtime = new SessionRuntime({
        seed: o.seed,
        games,
        bus,
        robotSeat,
        firstDealer: o.firstDealer ?? 0,
        sessionId,
        player: tappedPlayer(player, reactions),
        clock,
        minThinkMs: chosen.minThinkMs!,
        liftGraceMs: chosen.liftGraceMs!,
        warn: (detail, message) => log.warn(detail, message),
        ...(greetPeople ? { joined: greetPeople } : {}),
      });
      closers.push(
        listenForOperator({
          bus,
          runtime,
          reactions,
          scheduler,
          setups: this.setups,
          libraries: this.libraries,
          language: setup.utterances.language,
          robotSeat,
          clock,
          log,
        }),
      );
      // "Porquê?" from a table: the reason of the robot's last card, aloud.
      closers.push(
        listenForWhy({
          bus,
          scheduler,
          setups: this.setups,
          language: setup.utterances.language,
          robotSeat,
          clock,
          log,
        }),
      );
      // The end-of-game review: each game looked back on with all cards in view, told when a table asks.
      const reviews = startReviews({
        bus,
        reviewer: given.reviewer === undefined ? new WorkerReviewer() : given.reviewer,
        log,
      });
      closers.push(() => reviews.close());
      closers.push(
        listenForReview({
          bus,
          scheduler,
          setups: this.setups,
          language: setup.utterances.language,
          robotSeat,
          clock,
          log,
        }),
      );
      // The training mode: suggestions to the partner, as requests on the bus (recorded, replayed as said).
      if (advice) {
        const a = settings.advice;
        const adviser = startAdvice({
          bus,
          runtime,
          setups: this.setups,
          language: setup.utterances.language,
          robotSeat,
          seed: o.seed,
          log,
          budgetMs: a.budgetMs,
          margin: { victories: a.marginVictories, points: a.marginPoints },
        });
        closers.push(() => adviser.close());
      }

      let done!: (score: SessionScore) => void;
      const finished = new Promise<SessionScore>((r) => (done = r));
      const record: SessionRecord = {
        id: sessionId,
        seed: o.seed,
        startedAtMs: Date.now(),
        endedAtMs: null,
        games,
        played: 0,
        victories: [0, 0],
        draws: 0,
        status: 'running',
        recording,
        resumed: o.restore !== undefined,
        level,
      };
      const session = new NodeSession(
        sessionId,
        recording,
        runtime,
        toggles,
        reactions,
        scheduler,
        counter,
        finished,
        record,
        o.restore === undefined && chosen.greet !== 'people',
        closers,
        log,
      );

      // In force from here: the tables' events go to this runtime, and the one before stops. (No
      // await from here to the attachment: no table event falls in between.)
      const previous = this.#sessions.at(-1);
      sw.use(runtime, versionBase);
      previous?.retire();
      this.#sessions.push(session);
      if (recorder) {
        const r = recorder;
        this.server.setPersist(() => r.persist());
      }
      runtime.attach(this.#outbox(session));

      // After a physical deal the robot's card is said when announced, before anyone places it.
      bus.subscribe('tableOutput', (m) => {
        if (m.kind === 'robot_play' && m.seat === robotSeat) reactions.announced(parseCard(m.card));
      });
      bus.subscribe('gameEvents', (m) => {
        // The last game's review too: a session is over once everything about it is on the bus.
        if (m.type === 'session_end')
          void Promise.all([reactions.idle(), reviews.idle()]).then(() => {
            if (record.status === 'running') {
              record.status = 'over';
              this.#showSessions();
            }
            done(runtime.score);
          });
      });
      // The sessions' list follows the score. A pause drops a nudge waiting for its time; at the
      // resume, whoever is to play is thinking again.
      let paused = false;
      bus.subscribe('gameState', (m) => {
        if (m.status === 'paused' && !paused) reactions.paused();
        else if (m.status !== 'paused' && paused) reactions.resumed();
        paused = m.status === 'paused';
        if (session.update()) this.#showSessions();
      });
      return session;
    } catch (e) {
      for (const c of closers.reverse()) await Promise.resolve(c()).catch(() => {});
      throw e;
    }
  }

  /** The robot's own connection, on the latched topic (each session's recording opens with it). */
  #announceRobot(): void {
    this.bus.publish('connections', {
      component: 'robot',
      id: 'robot',
      name: 'EMYS',
      kind: this.bus.kind,
      connected: true,
      detail: this.bus.kind === 'ros2' ? 'behaviour topics over ROS 2' : 'in-process bus: no robot hardware attached',
    });
  }

  /** What a session sends the tables: nothing once it is retired; the session-over prompt says whether a next one follows. */
  #outbox(s: NodeSession): TableOutbox {
    const server = this.server;
    return {
      pushState: () => {
        if (!s.retired) server.pushState();
      },
      announceRobotPlay: (play) => (s.retired ? Promise.resolve([]) : server.announceRobotPlay(play)),
      sendHand: (game, seat, cards) => (s.retired ? Promise.resolve([]) : server.sendHand(game, seat, cards)),
      prompt: (prompt, to) => {
        if (s.retired) return;
        server.prompt(
          prompt.kind === 'session-over' && this.#next
            ? { ...prompt, text: `${prompt.text} ${NEXT_SESSION_TEXT}` }
            : prompt,
          to,
        );
      },
      reject: (rejection, to) => {
        if (!s.retired) server.reject(rejection, to);
      },
    };
  }

  #setupFor(language: string | undefined): BehaviourSetup {
    if (language === undefined) return (this.#defaultSetup ??= loadBehaviourSetup({}));
    let setup = this.setups.get(language);
    if (!setup) {
      setup = loadBehaviourSetup({ language });
      this.setups.set(language, setup);
      this.libraries.set(language, setup.utterances);
    }
    return setup;
  }

  #characterFor(name: string | undefined): Character {
    const key = name ?? '';
    let c = this.#characters.get(key);
    if (!c) this.#characters.set(key, (c = loadCharacter(name)));
    return c;
  }

  /** A session's parts are closed: finished if its games were all played, else interrupted. */
  #ended(s: NodeSession): void {
    if (s.record.endedAtMs !== null) return;
    s.update();
    s.record.endedAtMs = Date.now();
    s.record.status = s.runtime.status === 'session_over' ? 'finished' : 'interrupted';
    this.#showSessions();
  }

  #operatorNext(by: string): void {
    const next = this.#next;
    const s = this.#session;
    if (!next) return void this.log.warn({ by }, 'the next session was asked for, but this node offers none');
    if (s.runtime.status !== 'session_over')
      return void this.log.warn(
        { by, sessionId: s.id },
        'the next session was asked for while this one is still being played',
      );
    next().catch((e: unknown) =>
      this.log.error({ err: e instanceof Error ? e.message : String(e) }, 'the next session could not start'),
    );
  }

  #showSessions(): void {
    if (!this.#dash || this.#sessions.length === 0) return;
    const day: DaySessions = { sessions: this.sessions(), current: this.#session.id, next: this.#next !== null };
    this.#dash.setSessions(day);
  }
}

/** The prediction settings of config/node.yaml (null: off); the model file only for the learned model. */
function predictionOfSettings(settings: NodeSettings): PredictionSettings | null {
  const p = settings.prediction;
  if (!p.enabled) return null;
  return {
    model: p.model,
    top: p.top,
    ...(p.model === 'learned' && p.modelFile !== undefined ? { modelFile: p.modelFile } : {}),
  };
}

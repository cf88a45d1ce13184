// The robot node for one session: the bus, the recording, the table server with the session runtime
// behind it, the robot's player, the appraisal and the behaviours, wired so that every message
// crosses the bus (and so is recorded).
//
//   table ──socket.io──► TableServer ──► SessionRuntime ──► gameState, gameEvents, decision, tableOutput
//                                           │ robot's player (tapped): every event, every decision
//                                           ▼
//                                      RobotReactions: at once ─► Appraiser ─► emotions
//                                        │                             └─► planBehaviour ─► BehaviourScheduler
//                                        │                                   ─► expression, posture, lookAt, say, utterance
//                                        └─ newest position ─► estimate (worker) ─► expectation ─► reappraisal
//   setToggles ─► ToggleBoard ─► toggles

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Appraiser, loadCharacter } from '../../appraisal/index.js';
import type { BehaviourSetup, Clock, SpeechBackendKind } from '../../behaviours/index.js';
import { BehaviourScheduler, ToggleBoard, createSpeechOutput, loadBehaviourSetup, systemClock } from '../../behaviours/index.js';
import type { Seat, SessionScore } from '../../game/index.js';
import { parseCard } from '../../game/index.js';
import { TableServer } from '../../table-bridge/index.js';
import { ConnectionWatch, DashboardServer } from '../dashboard/index.js';
import { BusBehaviourPublisher } from '../behaviour-publisher.js';
import type { Bus, Unsubscribe } from '../bus/bus.js';
import { InProcessBus } from '../bus/in-process-bus.js';
import { createRos2Bus } from '../bus/ros2-bus.js';
import { Recorder } from '../recording/recorder.js';
import { PoolSearchPlayer } from '../search/pool-player.js';
import type { RobotPlayer } from '../session/index.js';
import { SessionRuntime, loadSessionSettings, poolRobotPlayer } from '../session/index.js';
import type { SessionInfo } from '../recording/recorder.js';
import { ExpectationEstimator } from './expectation-estimator.js';
import type { ExpectationSource } from './expectation-estimator.js';
import type { NodeLogger } from './logger.js';
import { behaviourLog, createLogger, tableLog } from './logger.js';
import type { NodeSettings } from './node-settings.js';
import { loadNodeSettings } from './node-settings.js';
import { ReactionInstant } from './reaction-instant.js';
import { RobotReactions } from './reactions.js';
import { tappedPlayer } from './player-tap.js';
import { listenForToggles } from './toggle-requests.js';
import { listenForOperator } from './operator-controls.js';

export type BusChoice = 'in-process' | 'ros2';

export interface ParceiroNodeOptions {
  /** Every deal and every seeded choice derives from it. */
  seed: number;
  /** The shared secret tables present in their hello. */
  token: string;
  /** Default: config/node.yaml. */
  games?: number;
  /** Default `session-<seed>-<time>`; names the recording. */
  sessionId?: string;
  robotSeat?: Seat;
  firstDealer?: Seat;
  /** Default: config/behaviours.yaml (pt). */
  language?: string;
  /** A preset or a preset file; default: the one config/appraisal/appraisal.yaml names. */
  character?: string;
  /** The timed player's budget per decision (ms); default config/node.yaml. */
  budgetMs?: number;
  /** Time per expectation estimate (ms), 0 for none; default config/node.yaml. */
  expectationBudgetMs?: number;
  /** Default: config/behaviours.yaml. */
  speech?: SpeechBackendKind;
  /** Default in-process; or a bus made by the caller. */
  bus?: BusChoice | Bus;
  /** Folder of the recording (`<dir>/<session id>.mcap`); null records nothing. Default config/node.yaml. */
  recordingsDir?: string | null;
  host?: string;
  /** 0 picks a free port. Default config/node.yaml. */
  port?: number;
  /** Default: the timed search on the worker pool. */
  player?: RobotPlayer;
  /** Default config/session.yaml. */
  minThinkMs?: number;
  liftGraceMs?: number;
  logger?: NodeLogger;
  /** Milliseconds since the epoch, with timers (default the system's). Stamps, decay, think time. */
  clock?: Clock;
  settings?: NodeSettings;
  /** The operator dashboard (HTTP and socket.io, token required); null for none. Default 127.0.0.1 on a free port, with a new token. */
  dashboard?: { host?: string; port?: number; token?: string } | null;
  /** Replay and restart (robot/replay/): the estimates' source instead of the worker (null for none). */
  estimator?: ExpectationSource | null;
  /** The recording's file name without `.mcap` (default the session id), e.g. `<id>.2` for a resumed session. */
  recordingName?: string;
  /** More session metadata for the recording (a resumed session names the part it continues). */
  recordingInfo?: SessionInfo;
  /** Runs after the runtime is attached and before the table server listens (a restart rebuilds its state here). */
  beforeListen?: (parts: { runtime: SessionRuntime; reactions: RobotReactions; scheduler: BehaviourScheduler; toggles: ToggleBoard; bus: Bus; server: TableServer }) => Promise<void>;
  /** Greet the table at start (default true; a resumed session has already). */
  greet?: boolean;
  /** The instant of each reaction (default the node's clock): its appraisal and behaviour plan share it; a replay gives each reaction its recorded instant (decay and the plan's timing depend on it). */
  appraisalClock?: () => number;
  /** The behaviour messages' header stamps (default the node's clock): a replay gives the recorded ones' times. */
  stampClock?: () => number;
}

/** The languages the robot can be switched to during a session (config/utterances/<lang>.yaml). */
const LANGUAGES = ['pt', 'en'] as const;

export interface NodeSummary {
  sessionId: string;
  score: SessionScore;
  recording: string | null;
  /** Messages that crossed the bus (and were recorded, when recording). */
  messages: number;
}

export class ParceiroNode {
  readonly #closers: (() => unknown)[] = [];
  #finished: Promise<SessionScore>;
  #closed = false;
  readonly #counter: { messages: number };
  /** Where the operator dashboard is served and its token; null when the node runs without one. */
  dashboard: { url: string; token: string } | null = null;

  private constructor(
    readonly sessionId: string,
    readonly bus: Bus,
    readonly runtime: SessionRuntime,
    readonly server: TableServer,
    readonly url: string,
    readonly recording: string | null,
    readonly toggles: ToggleBoard,
    readonly reactions: RobotReactions,
    readonly scheduler: BehaviourScheduler,
    readonly log: NodeLogger,
    finished: Promise<SessionScore>,
    counter: { messages: number },
  ) {
    this.#finished = finished;
    this.#counter = counter;
  }

  static async start(o: ParceiroNodeOptions): Promise<ParceiroNode> {
    const settings = o.settings ?? loadNodeSettings();
    const log = o.logger ?? createLogger();
    const clock = o.clock ?? systemClock;
    const robotSeat = o.robotSeat ?? 0;
    const games = o.games ?? settings.games;
    const sessionId = o.sessionId ?? `session-${o.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const closers: (() => unknown)[] = [];
    const fail = async (e: unknown): Promise<never> => {
      for (const c of closers.reverse()) await Promise.resolve(c()).catch(() => {});
      throw e;
    };

    try {
      // Behaviours and character first: a mistake in a config file stops the node before it opens anything.
      const base = loadBehaviourSetup(o.language ? { language: o.language } : {});
      const bases = new Map<string, BehaviourSetup>([[base.utterances.language, base]]);
      for (const language of LANGUAGES) if (!bases.has(language)) bases.set(language, loadBehaviourSetup({ language }));
      // The libraries as they are: the robot's own plays are spoken of like anything else (the table
      // shows its card; it names it whenever someone must put it on its spot, card-line.ts).
      const setups = bases;
      const setup: BehaviourSetup = setups.get(base.utterances.language)!;
      // The operator may have the robot say any line of its libraries (the wizard's picker).
      const libraries = new Map([...bases].map(([language, b]) => [language, b.utterances]));
      const character = loadCharacter(o.character);

      const onBusError = (e: unknown, topic: { name: string }): void => log.error({ err: e instanceof Error ? e.stack : String(e), topic: topic.name }, 'a bus handler failed');
      const bus = typeof o.bus === 'object' ? o.bus : o.bus === 'ros2' ? await createRos2Bus({ onError: onBusError }) : new InProcessBus(onBusError);
      closers.push(() => bus.close());
      const counter = { messages: 0 };
      bus.tap(() => counter.messages++);

      const dir = o.recordingsDir === undefined ? settings.recordings.dir : o.recordingsDir;
      let recording: string | null = null;
      let recorder: Recorder | null = null;
      if (dir !== null) {
        mkdirSync(dir, { recursive: true });
        recording = resolve(join(dir, `${o.recordingName ?? sessionId}.mcap`));
        const budget = o.budgetMs ?? settings.player.budgetMs;
        recorder = await Recorder.start({
          path: recording,
          bus,
          clock: () => clock.now(),
          session: {
            id: sessionId,
            seed: String(o.seed),
            games: String(games),
            robotSeat: String(robotSeat),
            firstDealer: String(o.firstDealer ?? 0),
            player: o.player?.kind ?? 'timed',
            budgetMs: String(budget),
            // How far (percent) the robot's beliefs weigh worlds by the others' plays: its quick
            // expectations always, and its search when the node makes it (a resume reads it back).
            inference: String(settings.player.inference),
            character: character.name,
            language: setup.utterances.language,
            // What a replay needs to run the same session again (robot/replay/replay.ts).
            speech: o.speech ?? setup.settings.speech.kind,
            expectationBudgetMs: String(o.expectationBudgetMs ?? settings.expectation.budgetMs),
            minThinkMs: String(o.minThinkMs ?? loadSessionSettings().minThinkMs),
            liftGraceMs: String(o.liftGraceMs ?? loadSessionSettings().liftGraceMs),
            ...o.recordingInfo,
          },
        });
        // Closed before the bus: the recorder drains what is queued and writes the summary.
        const r = recorder;
        closers.push(() => r.close());
      }

      const publisher = new BusBehaviourPublisher(bus, o.stampClock ?? (() => clock.now()));
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
      const instant = new ReactionInstant(o.appraisalClock ?? (() => clock.now()));
      const appraiser = new Appraiser(character, { seat: robotSeat, clock: () => instant.now() });
      const expectationBudget = o.expectationBudgetMs ?? settings.expectation.budgetMs;
      const estimator =
        o.estimator !== undefined
          ? o.estimator
          : expectationBudget > 0
          ? new ExpectationEstimator({ budgetMs: expectationBudget, maxWorlds: settings.expectation.maxWorlds, exactTricks: settings.expectation.exactTricks, seed: o.seed, trust: settings.player.inference / 100 })
          : null;
      if (estimator instanceof ExpectationEstimator) closers.push(() => estimator.close());
      const reactions = new RobotReactions({ bus, robotSeat, games, seed: o.seed, appraiser, estimator, setup, toggles, scheduler, instant, log });
      // Events still being reacted to are finished before the scheduler and the recorder close.
      closers.push(() => reactions.idle());

      let player = o.player;
      if (!player) {
        const pool = new PoolSearchPlayer({
          seat: robotSeat,
          seed: o.seed,
          budgetMs: o.budgetMs ?? settings.player.budgetMs,
          trust: settings.player.inference / 100,
          log: (message) => log.info({ part: 'player' }, message),
        });
        closers.push(() => pool.close());
        player = poolRobotPlayer(pool);
      }
      const runtime = new SessionRuntime({
        seed: o.seed,
        games,
        bus,
        robotSeat,
        firstDealer: o.firstDealer ?? 0,
        sessionId,
        player: tappedPlayer(player, reactions),
        clock,
        ...(o.minThinkMs === undefined ? {} : { minThinkMs: o.minThinkMs }),
        ...(o.liftGraceMs === undefined ? {} : { liftGraceMs: o.liftGraceMs }),
        warn: (detail, message) => log.warn(detail, message),
      });
      closers.push(listenForOperator({ bus, runtime, reactions, scheduler, setups, libraries, language: setup.utterances.language, robotSeat, clock, log }));
      // Tables joining and leaving go on the bus (connections), for the dashboard and the recording.
      const server = new TableServer({ token: o.token, handler: new ConnectionWatch(runtime, bus), host: o.host ?? settings.table.host, port: o.port ?? settings.table.port, logger: tableLog(log) });
      // Nothing reaches a table before the recording holds what caused it: a restart knows all a table was told.
      if (recorder) {
        const r = recorder;
        server.setPersist(() => r.persist());
      }
      runtime.attach(server);
      closers.push(() => runtime.stop());
      closers.push(() => server.close());

      // After a physical deal the robot's card is said when announced, before anyone places it.
      bus.subscribe('tableOutput', (m) => {
        if (m.kind === 'robot_play' && m.seat === robotSeat) reactions.announced(parseCard(m.card));
      });
      const finished = new Promise<SessionScore>((done) => {
        bus.subscribe('gameEvents', (m) => {
          if (m.type === 'session_end') void reactions.idle().then(() => done(runtime.score));
        });
      });
      if (o.beforeListen) await o.beforeListen({ runtime, reactions, scheduler, toggles, bus, server });
      const { url } = await server.listen();
      bus.publish('connections', {
        component: 'robot',
        id: 'robot',
        name: 'EMYS',
        kind: bus.kind,
        connected: true,
        detail: bus.kind === 'ros2' ? 'behaviour topics over ROS 2' : 'in-process bus: no robot hardware attached',
      });
      let dashboard: { url: string; token: string } | null = null;
      if (o.dashboard !== null) {
        const d = o.dashboard ?? {};
        const dash = new DashboardServer({
          bus,
          ...(d.token === undefined ? {} : { token: d.token }),
          ...(d.host === undefined ? {} : { host: d.host }),
          port: d.port ?? 0,
          virtualTable: { url, token: o.token },
          utterances: libraries,
          logger: log,
        });
        closers.push(() => dash.close());
        dashboard = { url: (await dash.listen()).url, token: dash.token };
      }
      log.info({ url, sessionId, recording, games, robotSeat, speech: speech.name, character: character.name }, 'the robot node is ready');
      if (o.greet !== false) reactions.sessionStart();
      const node = new ParceiroNode(sessionId, bus, runtime, server, url, recording, toggles, reactions, scheduler, log, finished, counter);
      node.#closers.push(...closers);
      node.dashboard = dashboard;
      return node;
    } catch (e) {
      return fail(e);
    }
  }

  /** Resolves with the score when the session is over and every event has been reacted to. */
  finished(): Promise<SessionScore> {
    return this.#finished;
  }

  /**
   * Waits until the robot has done what it planned (its last lines, the return to rest), at most
   * `maxMs` of real time.
   */
  async quiet(maxMs = 10_000): Promise<void> {
    await this.reactions.idle();
    const until = Date.now() + maxMs;
    const busy = (): boolean => {
      const s = this.scheduler.status();
      return s.speaking !== null || s.queued > 0 || s.pending > 0;
    };
    while (busy() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  /** Closes everything, in the reverse order of opening; the recording is complete after this. */
  async close(): Promise<NodeSummary> {
    const score = this.runtime.score;
    if (!this.#closed) {
      this.#closed = true;
      for (const c of this.#closers.splice(0).reverse()) {
        try {
          await c();
        } catch (e) {
          this.log.error({ err: e instanceof Error ? e.message : String(e) }, 'closing the node');
        }
      }
    }
    return { sessionId: this.sessionId, score, recording: this.recording, messages: this.#counter.messages };
  }
}

// parceiro live: starts the robot node and waits for a touch table. Prints where the table should
// connect and the token it must present. Serves session after session (a lab day, robot/live/node/lab-day.ts)
// on the same address and token: when one is over, a new game from a table starts the next, with its
// own id, seed and recording. Ends on Ctrl-C (or SIGTERM), or after --sessions sessions, with the
// day's summary; a recording is closed either way.

import { randomBytes } from 'node:crypto';
import type { Seat } from '../../game/index.js';
import type { NodeSummary, SessionOptions } from '../../robot/index.js';
import type { Bus, Ros2NodeBus } from '../../robot/bus/index.js';
import { Ros2UnavailableError, createRos2Bus } from '../../robot/bus/index.js';
import { loadBehaviourSetup } from '../../behaviours/index.js';
import { loadNodeSettings } from '../../robot/live/index.js';
import { levelOption, robotLevel } from '../levels.js';
import { LabDay, ParceiroNode, createLogger } from '../../robot/index.js';
import { choiceFlags } from '../../robot/index.js';
import { choicesOf } from '../options.js';
import { RecordingError } from '../../robot/recording/index.js';
import { resumeSession } from '../../robot/offline/index.js';
import { TABLE_NAMESPACE } from '../../table-bridge/index.js';
import { UsageError, ensureRecordingsDir, sessionIdOption, startError, tokenOption } from '../errors.js';
import type { StartPlaces } from '../errors.js';
import { StopSignals } from '../signals.js';
import { speechKind } from './simulate.js';
import { startLiveTuio } from './live-tuio.js';
import { followRosParameters } from './ros-parameters.js';
import { loadTuioSettings } from '../../table-bridge/tuio/index.js';

interface LiveOptions {
  port?: number;
  host?: string;
  token?: string;
  bus: string;
  seat: number;
  language?: string;
  character?: string;
  budget?: number;
  /** The robot's minimum time for an unforced play (ms); default config/session.yaml. */
  minThink?: number;
  liftGrace?: number;
  inference?: number;
  /** The robot's level of play (beginner, casual, club, expert, full; default config/node.yaml, full): docs/levels.md. */
  level?: string;
  games?: number;
  seed?: number;
  speech?: string;
  record: boolean;
  recordings?: string;
  /** json or ros2 (the rosbag2 MCAP profile); default config/node.yaml's. */
  /** json or ros2 (parsed by the session schema's codec). */
  recordingFormat?: 'json' | 'ros2';
  dashboardPort: number;
  dashboardToken?: string;
  /** Continue this session after a crash, from its recording (the day then goes on with new sessions). */
  resume?: string;
  /** With resume: go on from what could be read of a damaged recording. */
  acceptDamage?: boolean;
  /** Stop after this many sessions (the resumed one included); default: serve until stopped. */
  sessions?: number;
  /** Seconds a session over still answers the tables' questions before it is finished. */
  answerFor?: number;
  /** Also run the TUIO adapter for a camera table (`--tuio`: the settings' UDP port; `--tuio PORT`). */
  tuio?: true | number;
  /** The adapter's settings and zones (default config/table/tuio.yaml). */
  tuioConfig?: string;
}

/** Signal handlers of the command's own, when it is not run from the CLI (which installs them first). */
let ownSignals: StopSignals | null = null;
const own = (): StopSignals => (ownSignals ??= new StopSignals());

export async function liveCommand(o: LiveOptions, write: (line: string) => void, signals?: StopSignals): Promise<void> {
  // Every option is checked before anything opens: a mistake stops here, in one line, and leaves no recording.
  if (o.bus !== 'in-process' && o.bus !== 'ros2')
    throw new UsageError(`--bus expects in-process or ros2, got "${o.bus}"`);
  if (o.resume !== undefined) sessionIdOption('--resume', o.resume);
  const givenToken = tokenOption('--token', o.token);
  const dashboardToken = tokenOption('--dashboard-token', o.dashboardToken);
  const nodeSettings = loadNodeSettings();
  const play = robotLevel(o.level === undefined ? undefined : levelOption(o.level), nodeSettings.player.level);
  const places: StartPlaces = {
    host:
      o.host === undefined
        ? { value: nodeSettings.table.host, from: 'config/node.yaml table.host' }
        : { value: o.host, from: '--host' },
    port:
      o.port === undefined
        ? { value: nodeSettings.table.port, from: 'config/node.yaml table.port' }
        : { value: o.port, from: '--port' },
    dashboardPort: { value: o.dashboardPort, from: '--dashboard-port' },
    ...(o.record
      ? {
          recordings:
            o.recordings === undefined
              ? { value: nodeSettings.recordings.dir, from: 'config/node.yaml recordings.dir' }
              : { value: o.recordings, from: '--recordings' },
        }
      : {}),
  };
  if (places.recordings && o.resume === undefined) ensureRecordingsDir(places.recordings);
  // A camera table's settings are read before anything opens: a broken line stops here, in one line.
  const tuioSettings =
    o.tuio === undefined && o.tuioConfig === undefined
      ? null
      : loadTuioSettings(...(o.tuioConfig === undefined ? [] : [o.tuioConfig]));
  // An empty token is no token: the ROS 2 launch file passes `--token ''` when none is set.
  const token = givenToken ?? randomBytes(12).toString('hex');
  const logger = createLogger();
  // On ROS 2 the settings are parameters of the node (declared with the config values and the flags
  // as defaults, so `--ros-args -p seat:=2` or a launch file sets them); otherwise they are those values.
  let bus: Bus | 'in-process' = 'in-process';
  let seat = o.seat;
  let language = o.language;
  let character = o.character;
  let budget = o.budget;
  let toggles: Record<string, boolean | number> | null = null;
  let ros2: Ros2NodeBus | null = null;
  if (o.bus === 'ros2') {
    try {
      bus = ros2 = await createRos2Bus({
        onError: (e, topic) => logger.error({ err: String(e), topic: topic.name }, 'a bus handler failed'),
      });
    } catch (e) {
      if (e instanceof Ros2UnavailableError) throw new UsageError(e.message);
      throw e;
    }
    const ros = bus;
    const fail = async (message: string): Promise<never> => {
      await ros.close();
      throw new UsageError(message);
    };
    let setup: ReturnType<typeof loadBehaviourSetup>;
    try {
      setup = loadBehaviourSetup(language ? { language } : {});
    } catch (e) {
      await ros.close();
      throw e;
    }
    const t = setup.settings.toggles;
    const p = bus.parameters(
      {
        seat,
        language: setup.utterances.language,
        budget_ms: budget ?? loadNodeSettings().player.budgetMs,
        character: character ?? '',
        speech: t.speech,
        postures: t.postures,
        gaze: t.gaze,
        partner_speech: t.partnerSpeech,
        opponent_speech: t.opponentSpeech,
        expressiveness: t.expressiveness,
      },
      ['seat', 'budget_ms'],
    );
    if (!Number.isInteger(p.seat) || p.seat < 0 || p.seat > 3)
      await fail(`parameter seat: expected a seat 0..3, got ${p.seat}`);
    seat = p.seat;
    language = p.language;
    character = p.character || undefined;
    budget = p.budget_ms;
    toggles = {
      speech: p.speech,
      postures: p.postures,
      gaze: p.gaze,
      partnerSpeech: p.partner_speech,
      opponentSpeech: p.opponent_speech,
      expressiveness: p.expressiveness,
    };
  }
  if (o.resume !== undefined && !givenToken)
    write('Note: resuming with a new token; a table that kept the old one will be refused (pass --token to keep it).');
  // What each session of the day starts from: the day's settings (on ROS 2, the node's parameters).
  const sessionOf = (seed: number): SessionOptions => ({
    seed,
    ...choicesOf(o),
    // Said when the first table of people joins (before that nobody hears it).
    greet: 'people',
    ...(language === undefined ? {} : { language }),
    ...(character === undefined ? {} : { character }),
    ...(budget === undefined ? {} : { budgetMs: budget }),
    level: play.level,
    ...(play.levels ? { levels: play.levels } : {}),
    ...(o.speech === undefined ? {} : { speech: speechKind(o.speech) }),
    ...(o.record ? (o.recordings === undefined ? {} : { recordingsDir: o.recordings }) : { recordingsDir: null }),
  });
  let node: ParceiroNode;
  let close: () => ReturnType<ParceiroNode['close']> = () => node.close();
  try {
    if (o.resume !== undefined) {
      // The seeds, seat and settings are the recording's; the table and the dashboard are this run's.
      const resumed = await resumeSession({
        sessionId: o.resume,
        token,
        ...(o.host === undefined ? {} : { host: o.host }),
        ...(o.port === undefined ? {} : { port: o.port }),
        ...(o.recordings === undefined ? {} : { recordingsDir: o.recordings }),
        ...(typeof bus === 'object' ? { bus } : {}),
        acceptDamage: o.acceptDamage === true,
        ...(o.character === undefined ? {} : { character: o.character }),
        logger,
        node: {
          dashboard: { port: o.dashboardPort, ...(dashboardToken === undefined ? {} : { token: dashboardToken }) },
        },
      });
      node = resumed.node;
      close = resumed.close;
      const r = resumed.resume.restored;
      write(
        `Resuming session ${o.resume} from ${resumed.resume.parts.length} recording${resumed.resume.parts.length === 1 ? '' : 's'}: ${r.played} game${r.played === 1 ? '' : 's'} over, ${r.game ? `game ${r.game} at trick ${r.trick}` : 'no game in progress'}.`,
      );
      if (resumed.resume.damage)
        write(`  warning: resumed from a damaged recording, as asked (--accept-damage): ${resumed.resume.damage}.`);
      for (const p of resumed.resume.problems) write(`  note: ${p}`);
    } else
      node = await ParceiroNode.start({
        ...sessionOf(o.seed ?? Date.now() & 0x7fffffff),
        table: {
          token,
          ...(o.host === undefined ? {} : { host: o.host }),
          ...(o.port === undefined ? {} : { port: o.port }),
        },
        bus,
        robotSeat: seat as Seat,
        dashboard: { port: o.dashboardPort, ...(dashboardToken === undefined ? {} : { token: dashboardToken }) },
        logger,
      });
  } catch (e) {
    if (typeof bus === 'object') await bus.close();
    if (e instanceof Ros2UnavailableError || e instanceof RecordingError) throw new UsageError(e.message);
    throw startError(e, places);
  }
  const ros = toggles;
  const applyRosToggles = async (): Promise<void> => {
    if (!ros) return;
    try {
      node.toggles.set(ros, 'ros-parameters');
    } catch (e) {
      await close();
      throw new UsageError(`ROS parameters: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  if (o.resume === undefined) await applyRosToggles();
  // `ros2 param set` at run time: a toggle or the language takes effect now and for later sessions.
  if (ros2 && ros)
    followRosParameters(ros2, {
      toggles: () => ({ ...node.toggles.get() }),
      day: {
        toggles: ros,
        setLanguage: (l) => {
          language = l;
        },
      },
    });
  // Ctrl-C (or SIGTERM) stops cleanly at any moment: the handlers were installed before anything
  // opened (signals.ts; a signal during start-up is answered here, once the node is up).
  const stop = (signals ?? own()).stopped();
  write(`Parceiro is waiting for a table at ${node.url} (socket.io namespace ${TABLE_NAMESPACE}).`);
  write(`Token: ${token}`);
  if (node.dashboard)
    write(
      `Operator dashboard: ${node.dashboard.link()}  (a link that opens once; operator token ${node.dashboard.token} for more browsers; the virtual table is linked from it)`,
    );
  // The day's settings for the sessions after the first (the robot's seat is the node's). A resumed
  // session's own are its recording's; the resume command printed for a session carries these on.
  const dayFlags = [
    ...choiceFlags(choicesOf(o)),
    ...(o.level === undefined ? [] : ['--level', o.level]),
    ...(o.speech === undefined ? [] : ['--speech', o.speech]),
  ];
  const seedOf = (k: number): number => (o.seed === undefined ? Date.now() & 0x7fffffff : o.seed + k - 1);
  const announce = (k: number): void => {
    const record = node.sessions().at(-1)!;
    write(
      `Session ${k} of the day: ${node.sessionId} (seed ${record.seed}, ${record.games} game${record.games === 1 ? '' : 's'}${record.resumed ? ', resumed' : ''}).`,
    );
    write(node.recording ? `Recording to ${node.recording}` : 'Not recording.');
    if (node.recording) {
      const again = [
        'parceiro live --resume',
        node.sessionId,
        '--token',
        token,
        ...(o.recordings === undefined ? [] : ['--recordings', o.recordings]),
        ...(o.bus === 'ros2' ? ['--bus ros2'] : []),
        ...(o.host === undefined ? [] : ['--host', o.host]),
        ...(o.port === undefined ? [] : ['--port', String(o.port)]),
        // The sessions after it: the same settings, and seeds that go on from this one's.
        ...dayFlags,
        ...(o.seed === undefined ? [] : ['--seed', String(record.seed)]),
        ...(o.sessions === undefined ? [] : ['--sessions', String(Math.max(1, o.sessions - k + 1))]),
      ];
      write(`Session ${node.sessionId}: if this process stops mid-game, \`${again.join(' ')}\` continues it.`);
    }
  };
  announce(1);
  const scoreText = (s: NodeSummary): string => `victories A ${s.score.victories[0]} - B ${s.score.victories[1]}`;
  const day = new LabDay(node, {
    ...(o.sessions === undefined ? {} : { sessions: o.sessions }),
    session: (k) => sessionOf(seedOf(k)),
    onStart: (k) => {
      announce(k);
      // Each session starts from the day's settings: the ROS parameters' toggles too.
      if (ros) {
        try {
          node.toggles.set(ros, 'ros-parameters');
        } catch (e) {
          logger.error({ err: e instanceof Error ? e.message : String(e) }, 'the ROS parameters could not be applied');
        }
      }
    },
    ...(o.answerFor === undefined ? {} : { answerForMs: o.answerFor * 1000 }),
    // Said as the last card is down; the recording closes once the tables' questions are over.
    onOver: (summary, k, more) => {
      const played = node.sessions().find((r) => r.id === summary.sessionId)?.played ?? summary.score.games;
      write(
        `Session ${summary.sessionId} is over after ${played} game${played === 1 ? '' : 's'}: ${scoreText(summary)}${summary.recording ? `; recording ${summary.recording}` : ''}.${more ? ' A new game at a table starts the next session.' : ''}`,
      );
    },
  });
  // A camera table's adapter (--tuio, or a --tuio-config of its own), joined to this node's table server; a port in use stops the node.
  const tuio =
    tuioSettings === null
      ? null
      : await startLiveTuio({ tuio: o.tuio ?? true, settings: tuioSettings }, node, token, logger, write).catch(
          async (e: unknown) => {
            await close();
            throw e;
          },
        );
  const why = await Promise.race([
    day.done().then(() => (o.sessions === 1 ? 'the session is over' : `the day's ${o.sessions} sessions are over`)),
    stop,
  ]);
  await tuio?.close();
  const sessions = await day.stop();
  await close();
  const last = sessions.at(-1)!;
  write(
    `Stopped (${why}): victories A ${last.victories[0]} - B ${last.victories[1]}${last.recording ? `; recording ${last.recording}` : ''}.`,
  );
  write(`The day: ${sessions.length} session${sessions.length === 1 ? '' : 's'}.`);
  sessions.forEach((r, i) =>
    write(
      `  ${i + 1}. ${r.id}: ${r.status}, ${r.played} of ${r.games} game${r.games === 1 ? '' : 's'}, victories A ${r.victories[0]} - B ${r.victories[1]}${r.draws ? `, ${r.draws} draw${r.draws === 1 ? '' : 's'}` : ''}${r.recording ? `; ${r.recording}` : ''}`,
    ),
  );
}

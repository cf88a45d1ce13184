// Replays a recorded session through the same node: the recorded table events (and operator requests,
// and what other nodes sent the node over ROS 2: the messages recorded as incoming) are fed back, at
// their recorded times on a ReplayClock, into a ParceiroNode started with the seeds and settings of the
// recording's metadata. The robot's decisions and the quick estimates are time-bound searches, so they
// are taken from the recording (recorded-answers.ts); everything else (game state and events,
// emotions, postures, gaze, speech, table output) is recomputed and compared with what was recorded
// (compare.ts), as the recording holds it (JSON, or CDR with its float32 fields). A recording cut
// short replays as far as it goes.

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Bus, ExpectationMessage, TableEvent, TopicKey } from '../../bus/index.js';
import { ForwardingBus, InProcessBus, TOPICS } from '../../bus/index.js';
import type { NodeLogger } from '../../live/index.js';
import { ParceiroNode, createLogger, readSessionMetadata } from '../../live/index.js';
import type { RecordedMessage, Recording } from '../../recording/index.js';
import { RecordingStream, asRecorded } from '../../recording/index.js';
import type { Difference, TimedMessage } from './compare.js';
import { RunComparer } from './compare.js';
import type { RecordedDecision } from './recorded-answers.js';
import { RecordedEstimator, RecordedRobotPlayer } from './recorded-answers.js';
import { chained, messagesOf, scanRecording, stampOf } from './scan.js';
import { ReplayClock, settle } from './replay-clock.js';
import { GatedBus, RESTART_REASON, RestoreClock, restoreSession } from './restore.js';
import type { ReplaySettings } from './replay-settings.js';
import { replaySettings, sessionOptionsOf } from './replay-settings.js';
import { OPERATOR_TABLE, TableFeeder } from './table-feeder.js';

/** Operator and wizard requests: fed back by publishing them, as the dashboard did. */
// The reviews too: a replay does not review a game again (the node's reviewer is off), it feeds the
// recorded review where it came, so a question asked before it was ready is answered as it was.
const REQUEST_KEYS: readonly TopicKey[] = [
  'setToggles',
  'setLanguage',
  'sessionControl',
  'wizardSay',
  'wizardExpression',
  'review',
];
const REQUESTS = new Map(REQUEST_KEYS.map((k) => [TOPICS[k].name, k]));
const TOPIC_KEYS = new Map(Object.entries(TOPICS).map(([k, t]) => [t.name, k as TopicKey]));
export const GROUPS = {
  plays: [TOPICS.decision, TOPICS.gameEvents, TOPICS.gameState, TOPICS.tableOutput, TOPICS.memory].map((t) => t.name),
  emotions: [TOPICS.expectation, TOPICS.prediction, TOPICS.emotions].map((t) => t.name),
  behaviours: [
    TOPICS.expression,
    TOPICS.posture,
    TOPICS.lookAt,
    TOPICS.say,
    TOPICS.utterance,
    TOPICS.toggles,
    TOPICS.language,
  ].map((t) => t.name),
} as const;
export type GroupName = keyof typeof GROUPS;

/** A difference, with where it is in the session and what differs, in words. */
export interface ReadableDifference extends Difference {
  /** Seconds since the recording began. */
  at: number;
  /** e.g. "game 2, trick 5", from the recorded game state at that time. */
  context: string;
  /** The fields that differ, expected against actual. */
  text: string;
}

interface GroupResult {
  matches: boolean;
  compared: number;
  firstDifference: ReadableDifference | null;
}

export interface ReplayReport {
  recording: string;
  session: string;
  /** The settings it replayed with, in one flat object (the chosen ones beside the others). */
  settings: Omit<ReplaySettings, 'choices'> & ReplaySettings['choices'];
  mode: 'fast' | 'realtime';
  /** The file ended with its footer. */
  complete: boolean;
  /** The reader's account of what could not be read. */
  problems: string[];
  /** Damage other than a cut-short end (a crash's): the replay matched only what could be read. */
  damaged: boolean;
  /** What was not replayed, and why. */
  notReplayed: string[];
  /** How the replay was made (what comes from the recording rather than being recomputed). */
  notes: string[];
  fed: { tableEvents: number; requests: number; decisions: number; forcedDecisions: number; estimates: number };
  matches: boolean;
  compared: Record<string, number>;
  firstDifference: ReadableDifference | null;
  groups: Record<GroupName, GroupResult>;
  /** Questions the runtime asked that the recording does not answer as asked. */
  answerDifferences: string[];
  seconds: number;
}

interface ReplayOptions {
  mode?: 'fast' | 'realtime';
  /** The character file of a session that ran with one (a recording names it, it does not open it). */
  character?: string;
  logger?: NodeLogger;
  /** Every message the replay publishes, as it is published (for what-if studies of a recorded session). */
  onOutput?: (m: TimedMessage) => void;
}

/**
 * The replay's in-process bus, as the node sees it: of the kind the recorded session ran on. The node
 * says which bus it runs on (the robot's connection), and a replay, always in process, must say what
 * the session said for its messages to be the recorded ones.
 */
class RecordedKindBus extends ForwardingBus {
  constructor(
    inner: Bus,
    private readonly recordedKind: Bus['kind'],
  ) {
    super(inner);
  }
  override get kind(): Bus['kind'] {
    return this.recordedKind;
  }
}

const DRIVING = new Set([TOPICS.tableEvents.name, TOPICS.decision.name, TOPICS.expectation.name, ...REQUESTS.keys()]);

const json = (x: unknown): string => {
  const s = JSON.stringify(x);
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
};

function fieldsText(expected: unknown, actual: unknown): string {
  if (expected === null) return `the replay has one more: ${json(actual)}`;
  if (actual === null) return `the replay has none where the recording has ${json(expected)}`;
  if (typeof expected !== 'object' || typeof actual !== 'object')
    return `expected ${json(expected)}, got ${json(actual)}`;
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].filter(
    (k) => JSON.stringify(e[k]) !== JSON.stringify(a[k]),
  );
  return keys
    .map((k) => {
      const x = e[k];
      const y = a[k];
      if (Array.isArray(x) && Array.isArray(y)) {
        const i = Array.from({ length: Math.max(x.length, y.length) }, (_, n) => n).find(
          (n) => JSON.stringify(x[n]) !== JSON.stringify(y[n]),
        )!;
        return `${k}[${i}]: expected ${json(x[i] ?? null)}, got ${json(y[i] ?? null)}${x.length === y.length ? '' : ` (${x.length} items expected, ${y.length} got)`}`;
      }
      return `${k}: expected ${json(x)}, got ${json(y)}`;
    })
    .join('; ');
}

function readable(
  d: Difference | null,
  start: number,
  states: { time: number; game: number; trick: number; status: string }[],
): ReadableDifference | null {
  if (!d) return null;
  let s: (typeof states)[number] | undefined;
  for (const x of states) if (x.time <= d.time) s = x;
  const context =
    !s || s.game === 0
      ? 'before the first game'
      : `game ${s.game}, ${s.trick >= 0 && s.status === 'playing' ? `trick ${Math.min(10, s.trick + 1)}` : s.status.replace('_', ' ')}`;
  return { ...d, at: Math.round(d.time - start) / 1000, context, text: fieldsText(d.expected, d.actual) };
}

/** Drops what a replay cannot recompute: table connections come from the socket server, not the runtime. */
const comparable = (m: TimedMessage): boolean =>
  !(m.topic.name === TOPICS.connections.name && (m.message as { component: string }).component !== 'robot');

/**
 * The parts a restarted session's part continues, oldest first (each names the one before it in its
 * metadata, in the same folder), streamed, or why they cannot be had.
 */
function earlierParts(
  rec: Pick<Recording, 'path' | 'session'>,
): { files: string[]; streams: RecordingStream[] } | string {
  const files: string[] = [];
  const streams: RecordingStream[] = [];
  let previous = rec.session?.previous;
  const seen = new Set<string>();
  while (previous) {
    // A recording is data: the part it continues is a file beside it, never a path it names.
    if (!readSessionMetadata({ previous }).settings.previous) {
      return `the part it continues is named ${JSON.stringify(previous.slice(0, 80))}, not a recording file beside it`;
    }
    const file = join(dirname(rec.path), previous);
    if (seen.has(file)) return `the parts before it name each other in a loop (${previous})`;
    seen.add(file);
    if (!existsSync(file)) return `the part it continues, ${previous}, is not beside it`;
    let part: RecordingStream;
    let session: Recording['session'];
    try {
      part = new RecordingStream(file);
      session = part.sessionInfo();
    } catch (e) {
      return `the part it continues, ${previous}, cannot be read (${e instanceof Error ? e.message : String(e)})`;
    }
    if (session?.id !== rec.session?.id)
      return `${previous} belongs to session ${session?.id ?? '(none)'}, not ${rec.session?.id}`;
    files.unshift(file);
    streams.unshift(part);
    previous = session?.previous;
  }
  return { files, streams };
}

/**
 * Replays `rec` through a fresh node; see the file's head. A RecordingStream is read as it goes (a pass
 * for what must be known ahead, then the replay), and compared as it goes, so the memory a replay
 * takes does not grow with the recording's length.
 */
export async function replayRecording(rec: Recording | RecordingStream, o: ReplayOptions = {}): Promise<ReplayReport> {
  const wall0 = performance.now();
  const mode = o.mode ?? 'fast';
  const notes: string[] = [];
  const facts = scanRecording(messagesOf(rec));
  const settings = replaySettings(rec, notes, facts, o.character === undefined ? {} : { character: o.character });
  const start = facts.first?.time ?? 0;
  // A part written after a restart began from the state the earlier parts reached: the replay restores
  // it from them first, silently, exactly as the restart did, then replays and compares this part.
  const earlier = rec.session?.previous ? earlierParts(rec) : null;
  let chain: {
    files: string[];
    messages: () => Iterable<RecordedMessage>;
    decisions: Map<number, RecordedDecision>;
    first: number;
    problems: string[];
  } | null = null;
  if (earlier && typeof earlier === 'object') {
    const messages = chained(earlier.streams);
    const f = scanRecording(messages());
    const problems = earlier.streams.flatMap((p) => p.problems.map((x) => `${basename(p.path)}: ${x}`));
    if (f.first) chain = { files: earlier.files, messages, decisions: f.decisions, first: f.first.time, problems };
  }
  if (rec.session?.previous) {
    const i = notes.findIndex((n) => n.startsWith('this recording continues'));
    if (i >= 0) notes.splice(i, 1);
    notes.push(
      chain
        ? `this recording continues the session after a restart: the state it began from was restored from ${chain.files.map((f) => f.split('/').at(-1)).join(', ')} first, as the restart did${chain.problems.length ? ` (${chain.problems.join('; ')}: a part cut short by the crash is expected)` : ''}`
        : `this recording continues ${rec.session.previous} after a restart, but ${typeof earlier === 'string' ? earlier : 'that part holds nothing'}: the state it began from is missing, so it cannot replay to the same result`,
    );
  }
  const clock = new ReplayClock(start);
  // The node's clock: the earlier parts' times while restoring, then this replay's clock.
  const nodeClock = chain ? new RestoreClock(chain.first, clock) : clock;
  let restoring = chain !== null;
  let skipRestartDisconnects = 0;
  const tapped = new InProcessBus();
  const ranOn = facts.robotBus === 'ros2' ? new RecordedKindBus(tapped, 'ros2') : tapped;
  if (facts.robotBus === 'ros2') notes.push('the session ran on the ROS 2 bus; it is replayed in process');
  const bus = chain ? new GatedBus(ranOn) : ranOn;
  const comparer = new RunComparer();
  const counts = new Map<string, number>();
  // Each message the replay publishes, as the recording would hold it (a CDR recording's float32 fields are rounded so).
  const format = rec.format;
  tapped.tap((e) => {
    const out: TimedMessage = {
      topic: e.topic,
      time: clock.now(),
      message: asRecorded(format, e.topic, e.message),
    };
    if (comparable(out)) comparer.replayed(out);
    o.onOutput?.(out);
    counts.set(e.topic.name, (counts.get(e.topic.name) ?? 0) + 1);
  });
  // A behaviour message's stamp is read just before it is published, and they are published in stamp
  // order: the earliest stamp among the next recorded message of each stamped topic is the one it had
  // (the live clock may tick between the two messages of one gaze or posture).
  const stamped = [...facts.stamps].map(([name, stamps]) => ({ name, stamps }));
  const stampClock = (): number => {
    if (restoring) return nodeClock.now();
    let next = Infinity;
    for (const t of stamped) next = Math.min(next, t.stamps[counts.get(t.name) ?? 0] ?? Infinity);
    return Number.isFinite(next) ? next : clock.now();
  };
  const decisions = facts.decisions;
  // Each appraisal runs at the time its recorded emotions message gives (at_ms), in order.
  const appraisalTimes = facts.appraisalTimes;
  let lastAppraisal = -Infinity;
  const appraisalClock = (): number => {
    if (restoring) return nodeClock.now();
    const next = appraisalTimes[counts.get(TOPICS.emotions.name) ?? 0];
    lastAppraisal = Math.max(lastAppraisal, next ?? clock.now());
    return lastAppraisal;
  };
  const player = new RecordedRobotPlayer();
  const estimator = new RecordedEstimator();
  const node = await ParceiroNode.start({
    ...sessionOptionsOf(settings),
    table: { host: '127.0.0.1', port: 0, token: 'replay' },
    sessionId: settings.sessionId,
    // The training mode's suggestions are recorded requests, fed back as they came: none made again.
    advice: false,
    speech: settings.speech,
    bus,
    recordingsDir: null,
    // The recorded answers stand in for the robot's searches, and each reaction and message takes its recorded time.
    sources: {
      player,
      estimator: settings.expectationBudgetMs > 0 ? estimator : null,
      reviewer: null,
      reactionClock: appraisalClock,
      stampClock,
    },
    logger: o.logger ?? createLogger({ level: 'silent', pretty: false }),
    clock: nodeClock,
    dashboard: null,
    ...(chain && nodeClock instanceof RestoreClock && bus instanceof GatedBus
      ? {
          restore: {
            run: async ({ runtime, toggles }) => {
              const r = await restoreSession({
                runtime,
                toggles,
                bus,
                clock: nodeClock,
                player,
                estimator,
                messages: chain.messages,
                decisions: chain.decisions,
                settings,
                goLive: () => (restoring = false),
              });
              skipRestartDisconnects = r.disconnected;
            },
          },
        }
      : {}),
  });
  const feeder = new TableFeeder(node.runtime, settings.robotSeat);
  const answered: string[] = [];
  const fed = { tableEvents: 0, requests: 0, decisions: 0, forcedDecisions: 0, estimates: 0 };
  const seen = new Map<string, number>();
  let complete = rec instanceof RecordingStream ? false : rec.complete;
  try {
    let i = -1;
    for (const m of messagesOf(rec)) {
      i++;
      const name = m.topic.name;
      const index = seen.get(name) ?? 0;
      seen.set(name, index + 1);
      if (mode === 'realtime') {
        const wait = m.time - start - (performance.now() - wall0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      // Inputs at their recorded time; outputs at the time their publisher read the clock (a header's stamp).
      clock.moveTo(DRIVING.has(name) || m.direction === 'in' ? m.time : stampOf(m));
      if (m.direction === 'in') {
        // Another node sent it (over ROS 2): it reached the node's subscribers, and only them, as it does here.
        await settle();
        bus.publish(TOPIC_KEYS.get(name)!, m.message as never);
        fed.requests++;
      } else if (name === TOPICS.tableEvents.name) {
        const t = m.message as TableEvent;
        if (t.table_id === OPERATOR_TABLE) continue; // made again by the sessionControl request before it
        // The old tables the restore marked gone: made again by the restore above.
        if (skipRestartDisconnects > 0 && t.kind === 'disconnect' && t.reason === RESTART_REASON) {
          skipRestartDisconnects--;
          continue;
        }
        await settle();
        feeder.feed(t);
        fed.tableEvents++;
        await settle();
        continue;
      }
      const request = REQUESTS.get(name);
      if (m.direction === 'in') {
        // Fed above.
      } else if (request) {
        await settle();
        bus.publish(request, m.message as never);
        fed.requests++;
      } else if (name === TOPICS.decision.name) {
        const d = decisions.get(i);
        if (d && !d.forced) {
          player.release(d);
          fed.decisions++;
        } else if (d) fed.forcedDecisions++;
      } else if (name === TOPICS.expectation.name) {
        estimator.release(m.message as ExpectationMessage);
        fed.estimates++;
      }
      if (!comparable(m)) continue;
      // The recorded output at this time: fire the timers it needs, at this time, until the replay has it.
      for (;;) {
        await settle();
        if ((counts.get(name) ?? 0) > index) break;
        if (!clock.fireNext()) break;
      }
      comparer.recorded(m);
    }
    await settle();
    if (rec instanceof RecordingStream) complete = rec.complete;
  } finally {
    // A question still waiting at the end of a complete recording is a difference; at the end of a truncated one, expected.
    if (!complete) for (const d of [...player.differences, ...estimator.differences]) answered.push(d);
    // What the node publishes from here on (the questions left answered, its closing) is not compared.
    comparer.finish({ extraReplayed: complete });
    player.finish();
    estimator.finish();
    await node.close();
  }
  const problems = rec.problems;

  // ---- compare -----------------------------------------------------------------------------------
  const notReplayed: string[] = [];
  const states = facts.states;
  if (!complete) {
    // What the recording lost cannot be compared: the replay's outputs past each topic's recorded count were set aside.
    const last = facts.last;
    const where = last
      ? readable({ topic: last.topic.name, index: 0, time: last.time, expected: null, actual: null }, start, states)!
          .context
      : 'before anything';
    notReplayed.push(
      last
        ? `the recording stops ${Math.round(last.time - start) / 1000} s in (${where}): the rest of the session was not recorded, so it was not replayed or compared`
        : 'the recording holds no message: nothing was replayed',
    );
  }
  if (feeder.guessed.size)
    notes.push(`no hello was recorded for table ${[...feeder.guessed].join(', ')}: taken to host every human seat`);
  const forced = [...decisions.values()].filter((d) => d.forced).length;
  notes.unshift(
    `the robot's ${decisions.size - forced} searched decisions and ${fed.estimates} quick estimates are time-bound, so they are not recomputed: they are taken from the recording at their recorded times (an estimate where it took effect among the events); everything else is recomputed (${forced} forced cards included)`,
  );
  if (settings.expectationBudgetMs > 0 && !facts.estimates && facts.count) {
    notes.push(
      'the recording has no estimates (recorded before they were published): emotions between decisions may differ',
    );
  }
  // Since the session's start publishes the robot's emotions (one instant per reaction), the first
  // emotions message of a session comes before its first deal.
  if (
    !rec.session?.previous &&
    facts.firstDeal >= 0 &&
    (facts.firstEmotions < 0 || facts.firstEmotions > facts.firstDeal)
  ) {
    notes.push(
      "the recording was made before each of the robot's reactions recorded its instant (the session's start has no emotions message): its emotions and behaviours may differ from the first one on; its plays do not depend on them",
    );
  }
  if (facts.unplacedEstimates) {
    notes.push(
      `the recording's ${facts.unplacedEstimates} estimates do not say which event each was for or where it took effect (it was made when the robot waited for each estimate before reacting): they are answered in order, but the robot now reacts at once and takes an estimate when it comes back, so its emotions and behaviours may differ from the first estimate on; its plays do not depend on them`,
    );
  }
  const c = comparer.result();
  const groups = {} as Record<GroupName, GroupResult>;
  for (const [g, topics] of Object.entries(GROUPS) as [GroupName, readonly string[]][]) {
    const gc = comparer.result((t) => topics.includes(t));
    groups[g] = {
      matches: gc.matches,
      compared: Object.values(gc.compared).reduce((a, b) => a + b, 0),
      firstDifference: readable(gc.firstDifference, start, states),
    };
  }
  return {
    recording: rec.path,
    session: settings.sessionId,
    settings: (({ choices, ...rest }) => ({ ...choices, ...rest }))(settings),
    mode,
    complete,
    problems,
    damaged: problems.some((p) => !p.startsWith('cut short after')),
    notReplayed,
    notes,
    fed,
    matches: c.matches,
    compared: c.compared,
    firstDifference: readable(c.firstDifference, start, states),
    groups,
    answerDifferences: complete ? [...player.differences, ...estimator.differences] : answered,
    seconds: Math.round(performance.now() - wall0) / 1000,
  };
}

// Replays a recorded session through the same node: the recorded table events (and operator requests)
// are fed back, at their recorded times on a ReplayClock, into a ParceiroNode started with the seeds
// and settings of the recording's metadata. The robot's decisions and the quick estimates are
// time-bound searches, so they are taken from the recording (recorded-answers.ts); everything else
// (game state and events, emotions, postures, gaze, speech, table output) is recomputed and compared
// with what was recorded (compare.ts). A recording cut short replays as far as it goes.

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SpeechBackendKind } from '../../../behaviours/index.js';
import type { Seat } from '../../../game/index.js';
import type { LevelName, LevelTable } from '../../../game/index.js';
import { DEFAULT_LEVELS, FITTED_MODEL, PREDICTOR_KINDS, isLevelName, parseCard } from '../../../game/index.js';
import { recordedModelHere } from '../../learned/recorded-model.js';
import { levelTableOf } from '../../live/node/level-memory.js';
import type { CardEvent, ControlEvent, RejectCode, TableEventName, TableInfo, Verdict } from '../../../table-bridge/index.js';
import { isTableQuestion } from '../../../table-bridge/index.js';
import type { TopicKey } from '../../bus/topics.js';
import { TOPICS } from '../../bus/topics.js';
import { InProcessBus } from '../../bus/in-process-bus.js';
import type { ExpectationMessage, TableEvent } from '../../bus/messages.js';
import { ParceiroNode } from '../../live/node/parceiro-node.js';
import type { PredictionSettings } from '../../live/node/prediction.js';
import { createLogger } from '../../live/node/logger.js';
import type { NodeLogger } from '../../live/node/logger.js';
import type { RecordedMessage, Recording } from '../../recording/reader.js';
import { RecordingError, RecordingStream } from '../../recording/reader.js';
import type { Difference, TimedMessage } from './compare.js';
import { RunComparer } from './compare.js';
import type { RecordedDecision } from './recorded-answers.js';
import { RecordedEstimator, RecordedRobotPlayer } from './recorded-answers.js';
import type { RecordingFacts } from './scan.js';
import { chained, messagesOf, scanRecording, stampOf } from './scan.js';
import { ReplayClock, settle } from './replay-clock.js';
import { GatedBus, RESTART_REASON, RestoreClock, restoreSession } from './resume.js';

/** Operator and wizard requests: fed back by publishing them, as the dashboard did. */
// The reviews too: a replay does not review a game again (the node's reviewer is off), it feeds the
// recorded review where it came, so a question asked before it was ready is answered as it was.
const REQUEST_KEYS: readonly TopicKey[] = ['setToggles', 'setLanguage', 'sessionControl', 'wizardSay', 'wizardExpression', 'review'];
const REQUESTS = new Map(REQUEST_KEYS.map((k) => [TOPICS[k].name, k]));
/** The operator's pause and resume reach the session as a table event of this table (operator-controls.ts). */
const OPERATOR_TABLE = 'operator';

export const GROUPS = {
  plays: [TOPICS.decision, TOPICS.gameEvents, TOPICS.gameState, TOPICS.tableOutput, TOPICS.memory].map((t) => t.name),
  emotions: [TOPICS.expectation, TOPICS.prediction, TOPICS.emotions].map((t) => t.name),
  behaviours: [TOPICS.expression, TOPICS.posture, TOPICS.lookAt, TOPICS.say, TOPICS.utterance, TOPICS.toggles, TOPICS.language].map((t) => t.name),
} as const;
export type GroupName = keyof typeof GROUPS;

/** The settings a replay runs with, from the recording's metadata (or the defaults it names). */
export interface ReplaySettings {
  sessionId: string;
  seed: number;
  games: number;
  robotSeat: Seat;
  firstDealer: Seat;
  character?: string;
  language?: string;
  speech: SpeechBackendKind;
  expectationBudgetMs: number;
  /** The hand model at the deals (null: the recording was made without it). */
  handModel: { searchWeight: number } | null;
  /** The model that predicted the other seats' cards (null: the recording was made without predictions). */
  prediction: PredictionSettings | null;
  minThinkMs?: number;
  liftGraceMs?: number;
  /** The robot's level of play below full, with the recorded settings it recalls with (absent: full, no memory). */
  level?: { name: LevelName; levels: LevelTable };
}

/** A difference, with where it is in the session and what differs, in words. */
export interface ReadableDifference extends Difference {
  /** Seconds since the recording began. */
  at: number;
  /** e.g. "game 2, trick 5", from the recorded game state at that time. */
  context: string;
  /** The fields that differ, expected against actual. */
  text: string;
}

export interface GroupResult {
  matches: boolean;
  compared: number;
  firstDifference: ReadableDifference | null;
}

export interface ReplayReport {
  recording: string;
  session: string;
  settings: ReplaySettings;
  mode: 'fast' | 'realtime';
  /** The file ended with its footer. */
  complete: boolean;
  /** The reader's account of what could not be read. */
  problems: string[];
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

export interface ReplayOptions {
  mode?: 'fast' | 'realtime';
  logger?: NodeLogger;
  /** Every message the replay publishes, as it is published (for what-if studies of a recorded session). */
  onOutput?: (m: TimedMessage) => void;
}

const int = (v: string | undefined, fallback: number): number => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : fallback);

/**
 * The settings of `rec`, saying in `notes` which ones the recording does not give; `facts` (from a pass
 * over its messages) say how the robot spoke and whether there were estimates.
 */
export function replaySettings(rec: Pick<Recording, 'path' | 'session'>, notes: string[], facts: Pick<RecordingFacts, 'spoken' | 'estimates'>): ReplaySettings {
  const s = rec.session;
  if (!s) throw new RecordingError(rec.path, 'has no session metadata (parceiro.session): it cannot be replayed');
  if (s.seed === undefined || !/^\d+$/.test(s.seed)) throw new RecordingError(rec.path, 'its session metadata has no seed: it cannot be replayed');
  const missing = ['games', 'robotSeat', 'firstDealer', 'speech', 'expectationBudgetMs', 'minThinkMs', 'liftGraceMs'].filter((k) => s[k] === undefined);
  if (missing.length) notes.push(`the recording does not give ${missing.join(', ')}: the defaults are used`);
  if (s.previous) notes.push(`this recording continues ${s.previous} after a restart: the state it began from is not in it, so on its own it cannot replay to the same result`);
  const spoken = facts.spoken;
  const recordedSpeech = s.speech ?? spoken ?? 'log';
  // Only the log and publish backends take no time of their own: speech timing is the planned duration.
  const speech: SpeechBackendKind = recordedSpeech === 'publish' ? 'publish' : 'log';
  if (spoken !== undefined && spoken !== 'log' && spoken !== 'publish') {
    notes.push(`the robot spoke through ${spoken}, whose timing a replay cannot reproduce: it replays with the log backend, so utterances may differ`);
  }
  // Only whether there were estimates matters: their values come from the recording.
  const budget = int(s.expectationBudgetMs, facts.estimates > 0 ? 1 : 0);
  const handModel = handModelOf(s.handModel, notes);
  const prediction = predictionOf(s.prediction, notes);
  const level = levelOf(s.level, s.levelSettings, notes);
  return {
    sessionId: s.id ?? 'replay',
    seed: Number(s.seed),
    games: int(s.games, 5),
    robotSeat: int(s.robotSeat, 0) as Seat,
    firstDealer: int(s.firstDealer, 0) as Seat,
    ...(s.character ? { character: s.character } : {}),
    ...(s.language ? { language: s.language } : {}),
    speech,
    expectationBudgetMs: budget,
    handModel,
    prediction,
    ...(s.minThinkMs !== undefined ? { minThinkMs: int(s.minThinkMs, 0) } : {}),
    ...(s.liftGraceMs !== undefined ? { liftGraceMs: int(s.liftGraceMs, 0) } : {}),
    ...(level ? { level } : {}),
  };
}

/**
 * The level of play a recording's session ran at, with the settings it recorded (a replay recalls
 * with those, whatever config/levels.yaml says today); none when it does not say (made before the
 * levels) or says full.
 */
function levelOf(name: string | undefined, settings: string | undefined, notes: string[]): ReplaySettings['level'] {
  if (name === undefined || name === 'full') return undefined;
  if (!isLevelName(name)) {
    notes.push(`the recording's level of play (${name.slice(0, 40)}) is not one this build knows: replayed as full, so its memory messages differ`);
    return undefined;
  }
  try {
    return { name, levels: levelTableOf(settings ?? '', name, DEFAULT_LEVELS) };
  } catch {
    notes.push(`the recording's settings of level ${name} are unreadable: replayed with the embedded ones`);
    return { name, levels: DEFAULT_LEVELS };
  }
}

/**
 * The model a recording's session predicted the other seats' cards with: none when it does not say
 * (recorded before the predictions) or says "off". A learned model is the recorded file (relative to
 * the project root, as the node read it); when it is not here, or is another network than the one
 * recorded (its digest or features version differ), the replay says so and predicts without it.
 */
function predictionOf(recorded: string | undefined, notes: string[]): PredictionSettings | null {
  if (recorded === undefined || recorded === 'off') return null;
  let m: { model?: unknown; top?: unknown; modelFile?: unknown; featuresVersion?: unknown; sha256?: unknown };
  try {
    m = JSON.parse(recorded) as typeof m;
    if (!(PREDICTOR_KINDS as readonly unknown[]).includes(m.model) || typeof m.top !== 'number' || !(m.top >= 1)) throw new Error('no model');
    if (m.model === 'learned' && typeof m.modelFile !== 'string') throw new Error('no model file');
  } catch {
    notes.push(`the recording's prediction setting is unreadable (${recorded.slice(0, 80)}): replayed without predictions`);
    return null;
  }
  if (m.model !== 'learned') return { model: m.model as PredictionSettings['model'], top: m.top };
  const file = m.modelFile as string;
  const here = recordedModelHere({ modelFile: file, sha256: m.sha256, featuresVersion: m.featuresVersion }, 'prediction model');
  if ('why' in here) {
    notes.push(`${here.why}: replayed without predictions`);
    return null;
  }
  return { model: 'learned', top: m.top, modelFile: file };
}

/**
 * The hand model a recording's session ran with: none when it does not say (recorded before the
 * model) or says "off"; a model fitted on other games than this build's is noted, since the robot's
 * hope and fear at each deal may then differ.
 */
function handModelOf(recorded: string | undefined, notes: string[]): { searchWeight: number } | null {
  if (recorded === undefined || recorded === 'off') return null;
  try {
    const m = JSON.parse(recorded) as { searchWeight?: unknown; fittedOn?: unknown };
    if (typeof m.searchWeight !== 'number' || m.searchWeight < 0 || m.searchWeight > 1) throw new Error('no searchWeight');
    if (m.fittedOn !== FITTED_MODEL.fittedOn) notes.push(`the recording's hand model was fitted on other games (${String(m.fittedOn)}): the robot's hope and fear at the deals may differ`);
    return { searchWeight: m.searchWeight };
  } catch {
    notes.push(`the recording's hand model setting is unreadable (${recorded.slice(0, 80)}): replayed without it`);
    return null;
  }
}

const DRIVING = new Set([TOPICS.tableEvents.name, TOPICS.decision.name, TOPICS.expectation.name, ...REQUESTS.keys()]);

/** A recorded card event (or the copies of one) as the runtime hears it. */
const cardEventOf = (m: TableEvent, table: TableInfo): CardEvent => ({
  table,
  seq: m.seq,
  zone: { area: m.zone === 'hand' ? 'hand' : 'play', seat: m.seat as Seat },
  card: parseCard(m.card),
  fiducial: m.fiducial === -1 ? null : m.fiducial,
});

/** A recorded control event (or the copies of one) as the runtime hears it. */
const controlEventOf = (m: TableEvent, table: TableInfo): ControlEvent =>
  m.action === 'new_game'
    ? { table, seq: m.seq, action: 'new-game', deal: m.dealer === -1 ? null : { dealer: m.dealer as Seat, trumpCard: parseCard(m.trump_card) } }
    : { table, seq: m.seq, action: m.action === 'pause' ? 'pause' : isTableQuestion(m.action) ? m.action : 'resume' };

/** A restart remembers at most this many answers per table anyway (the table server's rememberAcks). */
const REFUSED_AGAIN_RESTORED = 256;

/** Feeds recorded table events into a runtime, knowing each table's seats from its recorded hello. */
export class TableFeeder {
  readonly tables = new Map<string, TableInfo>();
  readonly guessed = new Set<string>();
  constructor(
    private readonly handler: Pick<ParceiroNode['runtime'], 'onHello' | 'onDisconnect' | 'onCardDetected' | 'onCardRemoved' | 'onControl' | 'onRefusedAgain'>,
    private readonly robotSeat: Seat,
  ) {}

  /**
   * Feeds one recorded event. `answered` hears each table event's answer (a restart rebuilds the
   * table server's seq ledger from them); events the operator made (table id `operator`, seq 0) are not
   * a table's.
   */
  feed(m: TableEvent, answered?: (table: string, name: TableEventName, event: CardEvent | ControlEvent, verdict: Verdict) => void): void {
    if (m.kind === 'hello') {
      const info: TableInfo = { id: m.table_id, name: m.table_name, kind: m.table_kind as TableInfo['kind'], seats: m.seats as Seat[] };
      this.tables.set(info.id, info);
      this.handler.onHello(info);
      return;
    }
    const table = this.#table(m.table_id);
    const answer = (name: TableEventName, e: CardEvent | ControlEvent, verdict: Verdict | Promise<Verdict>): void => {
      if (!answered || e.seq < 1 || table.id === OPERATOR_TABLE) return;
      // The session runtime answers at once; a handler that answers later is not a restart's.
      if (!(verdict instanceof Promise)) answered(table.id, name, e, verdict);
    };
    switch (m.kind) {
      case 'disconnect':
        this.handler.onDisconnect(table, m.reason);
        return;
      case 'card_detected':
      case 'card_removed': {
        const e = cardEventOf(m, table);
        if (m.kind === 'card_detected') answer('card:detected', e, this.handler.onCardDetected(e));
        else answer('card:removed', e, this.handler.onCardRemoved(e));
        return;
      }
      case 'control': {
        const e = controlEventOf(m, table);
        answer('game:control', e, this.handler.onControl(e));
        return;
      }
      case 'refused_again': {
        // Copies of a refused event the table bridge answered itself: on record again, and their
        // answers back in a restart's ledger (each seq when they were numbered one after another).
        const name = m.event as TableEventName;
        const e = name === 'game:control' ? controlEventOf(m, table) : cardEventOf(m, table);
        const verdict = { ok: false as const, code: m.code as RejectCode, reason: m.reason };
        this.handler.onRefusedAgain({ name, event: e, firstSeq: m.first_seq, count: m.repeats, verdict });
        const numbered = m.repeats === m.seq - m.first_seq + 1;
        for (let seq = numbered ? Math.max(m.first_seq, m.seq - REFUSED_AGAIN_RESTORED + 1) : m.seq; seq <= m.seq; seq++) answer(name, { ...e, seq }, verdict);
        return;
      }
    }
  }

  #table(id: string): TableInfo {
    let t = this.tables.get(id);
    if (!t) {
      // A recording made before hellos were recorded: the table is taken to host every human seat.
      t = { id, name: id, kind: 'simulated', seats: ([0, 1, 2, 3] as Seat[]).filter((s) => s !== this.robotSeat) };
      this.tables.set(id, t);
      this.guessed.add(id);
    }
    return t;
  }
}

const json = (x: unknown): string => {
  const s = JSON.stringify(x);
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
};

function fieldsText(expected: unknown, actual: unknown): string {
  if (expected === null) return `the replay has one more: ${json(actual)}`;
  if (actual === null) return `the replay has none where the recording has ${json(expected)}`;
  if (typeof expected !== 'object' || typeof actual !== 'object') return `expected ${json(expected)}, got ${json(actual)}`;
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].filter((k) => JSON.stringify(e[k]) !== JSON.stringify(a[k]));
  return keys
    .map((k) => {
      const x = e[k];
      const y = a[k];
      if (Array.isArray(x) && Array.isArray(y)) {
        const i = Array.from({ length: Math.max(x.length, y.length) }, (_, n) => n).find((n) => JSON.stringify(x[n]) !== JSON.stringify(y[n]))!;
        return `${k}[${i}]: expected ${json(x[i] ?? null)}, got ${json(y[i] ?? null)}${x.length === y.length ? '' : ` (${x.length} items expected, ${y.length} got)`}`;
      }
      return `${k}: expected ${json(x)}, got ${json(y)}`;
    })
    .join('; ');
}

function readable(d: Difference | null, start: number, states: { time: number; game: number; trick: number; status: string }[]): ReadableDifference | null {
  if (!d) return null;
  let s: (typeof states)[number] | undefined;
  for (const x of states) if (x.time <= d.time) s = x;
  const context = !s || s.game === 0 ? 'before the first game' : `game ${s.game}, ${s.trick >= 0 && s.status === 'playing' ? `trick ${Math.min(10, s.trick + 1)}` : s.status.replace('_', ' ')}`;
  return { ...d, at: Math.round(d.time - start) / 1000, context, text: fieldsText(d.expected, d.actual) };
}

/** Drops what a replay cannot recompute: table connections come from the socket server, not the runtime. */
const comparable = (m: TimedMessage): boolean => !(m.topic.name === TOPICS.connections.name && (m.message as { component: string }).component !== 'robot');

/**
 * The parts a restarted session's part continues, oldest first (each names the one before it in its
 * metadata, in the same folder), streamed, or why they cannot be had.
 */
function earlierParts(rec: Pick<Recording, 'path' | 'session'>): { files: string[]; streams: RecordingStream[] } | string {
  const files: string[] = [];
  const streams: RecordingStream[] = [];
  let previous = rec.session?.previous;
  const seen = new Set<string>();
  while (previous) {
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
    if (session?.id !== rec.session?.id) return `${previous} belongs to session ${session?.id ?? '(none)'}, not ${rec.session?.id}`;
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
  const settings = replaySettings(rec, notes, facts);
  const start = facts.first?.time ?? 0;
  // A part written after a restart began from the state the earlier parts reached: the replay restores
  // it from them first, silently, exactly as the restart did, then replays and compares this part.
  const earlier = rec.session?.previous ? earlierParts(rec) : null;
  let chain: { files: string[]; messages: () => Iterable<RecordedMessage>; decisions: Map<number, RecordedDecision>; first: number; problems: string[] } | null = null;
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
  const bus = chain ? new GatedBus(tapped) : tapped;
  const comparer = new RunComparer();
  const counts = new Map<string, number>();
  tapped.tap((e) => {
    const out: TimedMessage = { topic: e.topic, time: clock.now(), message: JSON.parse(JSON.stringify(e.message)) as unknown };
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
    seed: settings.seed,
    token: 'replay',
    games: settings.games,
    sessionId: settings.sessionId,
    robotSeat: settings.robotSeat,
    firstDealer: settings.firstDealer,
    ...(settings.language ? { language: settings.language } : {}),
    ...(settings.character ? { character: settings.character } : {}),
    speech: settings.speech,
    bus,
    recordingsDir: null,
    host: '127.0.0.1',
    port: 0,
    player,
    estimator: settings.expectationBudgetMs > 0 ? estimator : null,
    reviewer: null,
    expectationBudgetMs: settings.expectationBudgetMs,
    handModel: settings.handModel,
    prediction: settings.prediction,
    ...(settings.level ? { level: settings.level.name, levels: settings.level.levels } : { level: 'full' as const }),
    ...(settings.minThinkMs === undefined ? {} : { minThinkMs: settings.minThinkMs }),
    ...(settings.liftGraceMs === undefined ? {} : { liftGraceMs: settings.liftGraceMs }),
    logger: o.logger ?? createLogger({ level: 'silent', pretty: false }),
    clock: nodeClock,
    appraisalClock,
    stampClock,
    dashboard: null,
    ...(chain && nodeClock instanceof RestoreClock && bus instanceof GatedBus
      ? {
          greet: false,
          beforeListen: async ({ runtime, toggles }: { runtime: ParceiroNode['runtime']; toggles: ParceiroNode['toggles'] }) => {
            const r = await restoreSession({ runtime, toggles, bus, clock: nodeClock, player, estimator, messages: chain.messages, decisions: chain.decisions, settings, goLive: () => (restoring = false) });
            skipRestartDisconnects = r.disconnected;
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
      clock.moveTo(DRIVING.has(name) ? m.time : stampOf(m));
      if (name === TOPICS.tableEvents.name) {
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
      if (request) {
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
    const where = last ? readable({ topic: last.topic.name, index: 0, time: last.time, expected: null, actual: null }, start, states)!.context : 'before anything';
    notReplayed.push(
      last
        ? `the recording stops ${Math.round(last.time - start) / 1000} s in (${where}): the rest of the session was not recorded, so it was not replayed or compared`
        : 'the recording holds no message: nothing was replayed',
    );
  }
  if (feeder.guessed.size) notes.push(`no hello was recorded for table ${[...feeder.guessed].join(', ')}: taken to host every human seat`);
  const forced = [...decisions.values()].filter((d) => d.forced).length;
  notes.unshift(
    `the robot's ${decisions.size - forced} searched decisions and ${fed.estimates} quick estimates are time-bound, so they are not recomputed: they are taken from the recording at their recorded times (an estimate where it took effect among the events); everything else is recomputed (${forced} forced cards included)`,
  );
  if (settings.expectationBudgetMs > 0 && !facts.estimates && facts.count) {
    notes.push('the recording has no estimates (recorded before they were published): emotions between decisions may differ');
  }
  // Since the session's start publishes the robot's emotions (one instant per reaction), the first
  // emotions message of a session comes before its first deal.
  if (!rec.session?.previous && facts.firstDeal >= 0 && (facts.firstEmotions < 0 || facts.firstEmotions > facts.firstDeal)) {
    notes.push("the recording was made before each of the robot's reactions recorded its instant (the session's start has no emotions message): its emotions and behaviours may differ from the first one on; its plays do not depend on them");
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
    groups[g] = { matches: gc.matches, compared: Object.values(gc.compared).reduce((a, b) => a + b, 0), firstDifference: readable(gc.firstDifference, start, states) };
  }
  return {
    recording: rec.path,
    session: settings.sessionId,
    settings,
    mode,
    complete,
    problems,
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

// What a dashboard shows, as one plain object, and the one reducer that folds a bus message into it.
// The server keeps a copy (the snapshot a new dashboard gets) and every browser applies the same
// updates to its own copy, so twenty dashboards show the same state. Pure and free of Node APIs.

import type {
  BehaviourTogglesMessage,
  ConnectionStateMessage,
  DecisionMessage,
  EmotionalStateMessage,
  ExpressionMessage,
  GameEventMessage,
  GameReviewMessage,
  MemoryMessage,
  PredictionMessage,
  GameStateMessage,
  JointTrajectoryMessage,
  LanguageMessage,
  PointStampedMessage,
  SessionControlMessage,
  TableEvent,
  TableOutput,
  UtteranceMessage,
  WizardExpressionMessage,
  WizardSayMessage,
} from '../bus/messages.js';
import { explainDecision } from './explain.js';
import { tableEventText, tableOutputText } from './log-words.js';
import type { WizardLibraries } from './wizard-lines.js';

/** The bus topics a dashboard follows, with their messages (keys of robot/bus TOPICS). */
export interface DashboardTopics {
  gameState: GameStateMessage;
  gameEvents: GameEventMessage;
  decision: DecisionMessage;
  emotions: EmotionalStateMessage;
  expression: ExpressionMessage;
  posture: JointTrajectoryMessage;
  lookAt: PointStampedMessage;
  utterance: UtteranceMessage;
  toggles: BehaviourTogglesMessage;
  setToggles: BehaviourTogglesMessage;
  language: LanguageMessage;
  setLanguage: LanguageMessage;
  sessionControl: SessionControlMessage;
  wizardSay: WizardSayMessage;
  wizardExpression: WizardExpressionMessage;
  connections: ConnectionStateMessage;
  tableEvents: TableEvent;
  tableOutput: TableOutput;
  review: GameReviewMessage;
  memory: MemoryMessage;
  prediction: PredictionMessage;
}
export type DashboardTopic = keyof DashboardTopics;
export const DASHBOARD_TOPICS: readonly DashboardTopic[] = [
  'gameState',
  'gameEvents',
  'decision',
  'emotions',
  'expression',
  'posture',
  'lookAt',
  'utterance',
  'toggles',
  'setToggles',
  'language',
  'setLanguage',
  'sessionControl',
  'wizardSay',
  'wizardExpression',
  'connections',
  'tableEvents',
  'tableOutput',
  'review',
  'memory',
  'prediction',
];

/**
 * One session this node served (`parceiro live` serves one after another, a lab day): what the
 * "Sessions today" panel lists. Kept by the node and handed to the dashboard server, not put on the
 * bus: each session's recording holds that session only.
 */
export interface SessionRecord {
  id: string;
  seed: number;
  /** When it began and when it finished or was interrupted (ms since the epoch; null while it runs). */
  startedAtMs: number;
  endedAtMs: number | null;
  /** Games planned and games played. */
  games: number;
  played: number;
  victories: [number, number];
  draws: number;
  /**
   * running; over (its games all played, still answering the tables' questions, the recording open);
   * finished (the recording closed); interrupted (the node stopped first).
   */
  status: 'running' | 'over' | 'finished' | 'interrupted';
  /** Its recording (the part this run wrote, for a resumed session); null when not recording. */
  recording: string | null;
  /** It continued a session after a restart (`parceiro live --resume`). */
  resumed: boolean;
  /** The robot's level of play (docs/levels.md); absent: full. */
  level?: string;
}

/** The sessions of this node so far, oldest first. */
export interface DaySessions {
  sessions: SessionRecord[];
  /** The session in force (running, or the last one finished). */
  current: string | null;
  /** Once it is over, a table's new-game (or the operator) starts the next session. */
  next: boolean;
}

/** One participant at a study session's table, by code only, and where they are with each questionnaire. */
export interface StudyParticipantView {
  code: string;
  seat: number;
  partner: 'robot' | 'human';
  progress: { questionnaire: string; phase: 'pre' | 'post'; answered: number; items: number; complete: boolean }[];
  /** A link for their own device (a one-time pass), made when the panel asks for one. */
}

/**
 * The study session this node runs (`parceiro study run`): the study, the session and its condition,
 * the seats, who has answered which questionnaire, and the operator's notes. Not on the bus: the
 * answers are the study's files, not the robot's recording.
 */
export interface StudyPanel {
  study: string;
  session: string;
  condition: string;
  /** The condition's session settings, as the study file gives them (e.g. `language=en`). */
  settings: string[];
  /** pre: questionnaires before the games; games; post: after them; ended. */
  stage: 'pre' | 'games' | 'post' | 'ended';
  participants: StudyParticipantView[];
  preDone: boolean;
  postDone: boolean;
  /** The operator's notes of this session, newest last. */
  notes: { at: string; text: string }[];
  /** While the operator has the games paused: since when (ISO time); null while they run. */
  pausedSince?: string | null;
  /** The operator's pauses in this session so far, and the seconds of those over (not the open one). */
  pauses?: { count: number; seconds: number };
}

/** One bus message as streamed: `seq` counts updates from 1, `atMs` is the server's clock (ms since the epoch). */
type BusUpdate = {
  [K in DashboardTopic]: { seq: number; atMs: number; topic: K; message: DashboardTopics[K] };
}[DashboardTopic];
/** The node's list of sessions, as it changes (a session begins, plays a game, ends). */
interface SessionsUpdate {
  seq: number;
  atMs: number;
  topic: 'sessions';
  message: DaySessions;
}
/** The study session's panel, as it changes (an answer, a stage, a note). */
interface StudyUpdate {
  seq: number;
  atMs: number;
  topic: 'study';
  message: StudyPanel;
}
export type DashboardUpdate = BusUpdate | SessionsUpdate | StudyUpdate;

export interface EmotionSample {
  atMs: number;
  mood: number;
  /** Intensity by emotion type (the strongest of a type when it has several targets). */
  emotions: Record<string, number>;
}

interface PostureSample {
  atMs: number;
  /** Joint targets in EMYS units (degrees, millimetres), by ROS joint name. */
  joints: Record<string, number>;
  /** Time to reach them (ms). */
  durationMs: number;
}

interface LogLine {
  atMs: number;
  kind: string;
  /** In people's words. */
  text: string;
  /** The raw names behind it (codes, line ids), for a tooltip. */
  detail?: string;
}

/** A line on the utterance topic as the dashboard keeps it: when it came (server clock). */
export type SpeechLine = UtteranceMessage & { atMs: number };

/** What the robot is saying and what waits to be said (announced as queued, not yet started or dropped). */
interface SpeechQueue {
  speaking: SpeechLine | null;
  /** Oldest first; `dueAtMs`: when it is planned to start (server clock), if it waits for its time. */
  waiting: (SpeechLine & { dueAtMs: number })[];
}

/** A table that left: kept out of `connections`, so closed pages do not pile up as connections. */
interface DepartedTable {
  id: string;
  name: string;
  kind: string;
  reason: string;
  /** The seats it hosted. */
  seats: number[];
  atMs: number;
}

export interface DashboardState {
  /** The server's clock when the snapshot was taken. */
  atMs: number;
  /** The last update folded in. */
  seq: number;
  bus: string;
  /** For the operator: where the virtual table connects, when one is offered. */
  virtualTable: { url: string; token: string } | null;
  /** The robot's utterance libraries by language, for the wizard's line picker (they do not change). */
  wizardLines: WizardLibraries;
  game: GameStateMessage | null;
  /** The events of the current game and session, newest last (bounded). */
  events: GameEventMessage[];
  decision: { message: DecisionMessage; explanation: string; atMs: number } | null;
  /** The review of the session's last game reviewed (each game is looked back on when it ends; renounce, incomplete and failed included). */
  review: { message: GameReviewMessage; atMs: number } | null;
  /** What the robot recalled of the played cards at its last decision, at a level of play below full (robot/live/node/level-memory.ts). */
  memory: { message: MemoryMessage; atMs: number } | null;
  /** The robot's prediction of the seat to play and, once its card is down, the card and its surprise (robot/live/node/prediction.ts). */
  prediction: { message: PredictionMessage; atMs: number } | null;
  emotions: EmotionalStateMessage | null;
  timeline: EmotionSample[];
  expression: { atMs: number; expression: string; valence: number; arousal: number; confidence: number } | null;
  posture: PostureSample | null;
  postures: PostureSample[];
  lookAt: { atMs: number; frame: string; x: number; y: number; z: number } | null;
  /** Lines said (start, end) and dropped, newest last; the queued announcements are in `speech`. */
  utterances: SpeechLine[];
  speech: SpeechQueue;
  toggles: BehaviourTogglesMessage | null;
  language: string | null;
  /** The robot and the tables connected now (a table that leaves moves to `left`). */
  connections: ConnectionStateMessage[];
  /** Tables that left, newest last (bounded; one entry per table id). */
  left: DepartedTable[];
  /** Operator requests seen on the bus (from any dashboard), newest last. */
  operator: LogLine[];
  /** Table events and what the runtime told the tables, newest last. */
  table: LogLine[];
  latency: { lastMs: number | null; samples: number[]; pendingSinceMs: number | null };
  /** The sessions this node has served (the "Sessions today" panel). */
  day: DaySessions;
  /** The study session this node runs, if any (`parceiro study run`). */
  study: StudyPanel | null;
}

const LIMITS = {
  events: 60,
  timeline: 900,
  postures: 20,
  utterances: 40,
  waiting: 30,
  left: 20,
  operator: 40,
  table: 40,
  latency: 100,
} as const;

export function emptyState(
  bus: string,
  atMs: number,
  virtualTable: DashboardState['virtualTable'] = null,
  wizardLines: WizardLibraries = {},
): DashboardState {
  return {
    atMs,
    seq: 0,
    bus,
    virtualTable,
    wizardLines,
    game: null,
    events: [],
    decision: null,
    review: null,
    memory: null,
    prediction: null,
    emotions: null,
    timeline: [],
    expression: null,
    posture: null,
    postures: [],
    lookAt: null,
    utterances: [],
    speech: { speaking: null, waiting: [] },
    toggles: null,
    language: null,
    connections: [],
    left: [],
    operator: [],
    table: [],
    latency: { lastMs: null, samples: [], pendingSinceMs: null },
    day: { sessions: [], current: null, next: false },
    study: null,
  };
}

const push = <T>(list: T[], item: T, max: number): void => {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
};

const RAD = 180 / Math.PI;
/** Joint targets back in EMYS units: degrees for angles, millimetres for the eye protrusion. */
export function postureSample(m: JointTrajectoryMessage, atMs: number): PostureSample | null {
  const last = m.points.at(-1);
  if (!last) return null;
  const joints: Record<string, number> = {};
  m.joint_names.forEach((name, i) => {
    const v = last.positions[i];
    if (v !== undefined) joints[name] = name.endsWith('protrusion') ? v * 1000 : v * RAD;
  });
  return { atMs, joints, durationMs: last.time_from_start.sec * 1000 + last.time_from_start.nanosec / 1e6 };
}

/** The first behaviour message after a table event closes the reaction-latency measurement. */
const BEHAVIOUR_TOPICS = new Set<DashboardUpdate['topic']>(['posture', 'lookAt', 'expression', 'utterance']);

/** Folds one update into the state (mutates it, and returns it). */
export function applyUpdate(s: DashboardState, u: DashboardUpdate): DashboardState {
  s.seq = u.seq;
  s.atMs = u.atMs;
  const at = u.atMs;
  if (BEHAVIOUR_TOPICS.has(u.topic) && s.latency.pendingSinceMs !== null) {
    const ms = at - s.latency.pendingSinceMs;
    s.latency.lastMs = ms;
    push(s.latency.samples, ms, LIMITS.latency);
    s.latency.pendingSinceMs = null;
  }
  switch (u.topic) {
    case 'gameState':
      // A new session (parceiro live serves one after another): its events, emotions and decisions start afresh.
      if (s.game && u.message.session_id !== s.game.session_id) {
        s.events = [];
        s.timeline = [];
        s.decision = null;
        s.review = null;
        s.memory = null;
        s.prediction = null;
        // A line of the last session never said (its scheduler gone with it) does not wait forever.
        s.speech.waiting = [];
      }
      s.game = u.message;
      break;
    case 'gameEvents':
      push(s.events, u.message, LIMITS.events);
      break;
    case 'prediction':
      s.prediction = { message: u.message, atMs: at };
      break;
    case 'review':
      s.review = { message: u.message, atMs: at };
      break;
    case 'memory':
      s.memory = { message: u.message, atMs: at };
      break;
    case 'decision':
      s.decision = { message: u.message, explanation: explainDecision(u.message), atMs: at };
      break;
    case 'emotions': {
      s.emotions = u.message;
      const emotions: Record<string, number> = {};
      for (const e of u.message.emotions) emotions[e.type] = Math.max(emotions[e.type] ?? 0, e.intensity);
      push(s.timeline, { atMs: at, mood: u.message.mood, emotions }, LIMITS.timeline);
      break;
    }
    case 'expression':
      s.expression = {
        atMs: at,
        expression: u.message.expression,
        valence: u.message.valence,
        arousal: u.message.arousal,
        confidence: u.message.confidence,
      };
      break;
    case 'posture': {
      const p = postureSample(u.message, at);
      if (p) {
        s.posture = { ...p, joints: { ...(s.posture?.joints ?? {}), ...p.joints } };
        push(s.postures, p, LIMITS.postures);
      }
      break;
    }
    case 'lookAt':
      s.lookAt = { atMs: at, frame: u.message.header.frame_id, ...u.message.point };
      break;
    case 'utterance':
      foldUtterance(s, { ...u.message, atMs: at });
      break;
    case 'toggles':
      s.toggles = u.message;
      break;
    case 'language':
      s.language = u.message.language;
      break;
    case 'connections':
      foldConnection(s, u.message, at);
      break;
    case 'setToggles':
      push(
        s.operator,
        {
          atMs: at,
          kind: 'toggles',
          text: `${u.message.by}: ${u.message.changed.map((k) => `${k.replaceAll('_', ' ')} ${k === 'expressiveness' ? u.message.expressiveness.toFixed(2) : u.message[k as 'speech'] ? 'on' : 'off'}`).join(', ')}`,
        },
        LIMITS.operator,
      );
      break;
    case 'setLanguage':
      push(
        s.operator,
        {
          atMs: at,
          kind: 'language',
          text: `${u.message.by}: language ${u.message.language === 'pt' ? 'Portuguese' : u.message.language === 'en' ? 'English' : u.message.language}`,
        },
        LIMITS.operator,
      );
      break;
    case 'sessionControl':
      push(
        s.operator,
        {
          atMs: at,
          kind: u.message.action,
          text: `${u.message.by}: ${CONTROL_WORDS[u.message.action] ?? u.message.action.replaceAll('_', ' ')}`,
          detail: u.message.action,
        },
        LIMITS.operator,
      );
      break;
    case 'wizardSay':
      push(
        s.operator,
        {
          atMs: at,
          kind: 'say',
          text: `${u.message.by}: say "${u.message.text}" to ${TARGET_WORDS[u.message.target] ?? u.message.target}`,
          ...(u.message.utterance_id ? { detail: u.message.utterance_id } : {}),
        },
        LIMITS.operator,
      );
      break;
    case 'wizardExpression':
      push(
        s.operator,
        {
          atMs: at,
          kind: 'expression',
          text: `${u.message.by}: show ${u.message.expression} (${Math.round(u.message.intensity * 100)}%)`,
        },
        LIMITS.operator,
      );
      break;
    case 'tableEvents': {
      const m = u.message;
      // Card events and controls start the reaction-latency measurement; joins, departures and refused copies do not.
      if (m.kind !== 'hello' && m.kind !== 'disconnect' && m.kind !== 'refused_again') s.latency.pendingSinceMs = at;
      push(s.table, { atMs: at, kind: m.kind, ...tableEventText(m, robotSeat(s)) }, LIMITS.table);
      break;
    }
    case 'tableOutput':
      push(s.table, { atMs: at, kind: u.message.kind, ...tableOutputText(u.message, robotSeat(s)) }, LIMITS.table);
      break;
    case 'sessions':
      s.day = u.message;
      break;
    case 'study':
      s.study = u.message;
      break;
  }
  return s;
}

const CONTROL_WORDS: Readonly<Record<string, string>> = {
  pause: 'pause',
  resume: 'resume',
  next_session: 'start the next session',
};
const TARGET_WORDS: Readonly<Record<string, string>> = {
  all: 'everyone',
  partner: 'the partner',
  opponent: 'the opponents',
};

const robotSeat = (s: DashboardState): number => s.game?.robot_seat ?? -1;

/** Seats a connection's detail names ("seats 1, 3"; "seats none"). */
export const seatsOf = (detail: string): number[] =>
  /^seats [\d, ]+$/.test(detail) ? detail.slice(6).split(',').map(Number) : [];

/**
 * The robot's connection is kept, connected or not (its loss matters all session). A table that
 * leaves moves to `left` (one entry per id; a watching page that hosted no seat leaves no trace) and
 * comes back out of it when it returns.
 */
function foldConnection(s: DashboardState, m: ConnectionStateMessage, at: number): void {
  const before = s.connections.find((c) => c.component === m.component && c.id === m.id);
  const others = s.connections.filter((c) => c !== before);
  if (m.component !== 'table') return void (s.connections = [...others, m]);
  const earlier = s.left.find((l) => l.id === m.id);
  s.left = s.left.filter((l) => l !== earlier);
  if (m.connected) return void (s.connections = [...others, m]);
  s.connections = others;
  // A second word of the same departure keeps the seats the first one knew.
  const seats = before ? seatsOf(before.detail) : (earlier?.seats ?? []);
  if (before && seats.length === 0) return;
  push(s.left, { id: m.id, name: m.name, kind: m.kind, reason: m.detail, seats, atMs: at }, LIMITS.left);
}

/** Same line: the queued announcement and the start or drop that follows it. */
const sameLine = (a: UtteranceMessage, b: UtteranceMessage): boolean =>
  a.id === b.id && a.text === b.text && a.target === b.target;

/** The speech queue: a queued line waits until it starts or is dropped; the one started is said until it ends. */
function foldUtterance(s: DashboardState, line: SpeechLine): void {
  const q = s.speech;
  if (line.phase === 'queued') {
    push(q.waiting, { ...line, dueAtMs: line.atMs + Math.max(0, line.due_in_ms) }, LIMITS.waiting);
    return;
  }
  if (line.phase === 'start' || line.phase === 'dropped') {
    const i = q.waiting.findIndex((w) => sameLine(w, line));
    if (i >= 0) q.waiting.splice(i, 1);
  }
  if (line.phase === 'start') q.speaking = line;
  else if (line.phase === 'end' && q.speaking && sameLine(q.speaking, line)) q.speaking = null;
  push(s.utterances, line, LIMITS.utterances);
}

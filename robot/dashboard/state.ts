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
}
export type DashboardTopic = keyof DashboardTopics;
export const DASHBOARD_TOPICS: readonly DashboardTopic[] = [
  'gameState', 'gameEvents', 'decision', 'emotions', 'expression', 'posture', 'lookAt', 'utterance', 'toggles', 'setToggles',
  'language', 'setLanguage', 'sessionControl', 'wizardSay', 'wizardExpression', 'connections', 'tableEvents', 'tableOutput',
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
  /** running; finished (its games all played, the recording closed); interrupted (the node stopped first). */
  status: 'running' | 'finished' | 'interrupted';
  /** Its recording (the part this run wrote, for a resumed session); null when not recording. */
  recording: string | null;
  /** It continued a session after a restart (`parceiro live --resume`). */
  resumed: boolean;
}

/** The sessions of this node so far, oldest first. */
export interface DaySessions {
  sessions: SessionRecord[];
  /** The session in force (running, or the last one finished). */
  current: string | null;
  /** Once it is over, a table's new-game (or the operator) starts the next session. */
  next: boolean;
}

/** One bus message as streamed: `seq` counts updates from 1, `atMs` is the server's clock (ms since the epoch). */
export type BusUpdate = { [K in DashboardTopic]: { seq: number; atMs: number; topic: K; message: DashboardTopics[K] } }[DashboardTopic];
/** The node's list of sessions, as it changes (a session begins, plays a game, ends). */
export interface SessionsUpdate {
  seq: number;
  atMs: number;
  topic: 'sessions';
  message: DaySessions;
}
export type DashboardUpdate = BusUpdate | SessionsUpdate;

export interface EmotionSample {
  atMs: number;
  mood: number;
  /** Intensity by emotion type (the strongest of a type when it has several targets). */
  emotions: Record<string, number>;
}

export interface PostureSample {
  atMs: number;
  /** Joint targets in EMYS units (degrees, millimetres), by ROS joint name. */
  joints: Record<string, number>;
  /** Time to reach them (ms). */
  durationMs: number;
}

export interface LogLine {
  atMs: number;
  kind: string;
  text: string;
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
  emotions: EmotionalStateMessage | null;
  timeline: EmotionSample[];
  expression: { atMs: number; expression: string; valence: number; arousal: number; confidence: number } | null;
  posture: PostureSample | null;
  postures: PostureSample[];
  lookAt: { atMs: number; frame: string; x: number; y: number; z: number } | null;
  utterances: (UtteranceMessage & { atMs: number })[];
  toggles: BehaviourTogglesMessage | null;
  language: string | null;
  connections: ConnectionStateMessage[];
  /** Operator requests seen on the bus (from any dashboard), newest last. */
  operator: LogLine[];
  /** Table events and what the runtime told the tables, newest last. */
  table: LogLine[];
  latency: { lastMs: number | null; samples: number[]; pendingSinceMs: number | null };
  /** The sessions this node has served (the "Sessions today" panel). */
  day: DaySessions;
}

export const LIMITS = { events: 60, timeline: 900, postures: 20, utterances: 40, operator: 40, table: 40, latency: 100 } as const;

export function emptyState(bus: string, atMs: number, virtualTable: DashboardState['virtualTable'] = null, wizardLines: WizardLibraries = {}): DashboardState {
  return {
    atMs,
    seq: 0,
    bus,
    virtualTable,
    wizardLines,
    game: null,
    events: [],
    decision: null,
    emotions: null,
    timeline: [],
    expression: null,
    posture: null,
    postures: [],
    lookAt: null,
    utterances: [],
    toggles: null,
    language: null,
    connections: [],
    operator: [],
    table: [],
    latency: { lastMs: null, samples: [], pendingSinceMs: null },
    day: { sessions: [], current: null, next: false },
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
      }
      s.game = u.message;
      break;
    case 'gameEvents':
      push(s.events, u.message, LIMITS.events);
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
      s.expression = { atMs: at, expression: u.message.expression, valence: u.message.valence, arousal: u.message.arousal, confidence: u.message.confidence };
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
      push(s.utterances, { ...u.message, atMs: at }, LIMITS.utterances);
      break;
    case 'toggles':
      s.toggles = u.message;
      break;
    case 'language':
      s.language = u.message.language;
      break;
    case 'connections': {
      const m = u.message;
      const before = s.connections.find((c) => c.component === m.component && c.id === m.id);
      const others = s.connections.filter((c) => c !== before);
      // A table that hosted no seat (a virtual table while its person chose a seat) is dropped when it
      // goes, rather than left in the list as gone.
      const watcherGone = !m.connected && m.component === 'table' && before?.detail === 'seats none';
      s.connections = watcherGone ? others : [...others, m];
      break;
    }
    case 'setToggles':
      push(s.operator, { atMs: at, kind: 'toggles', text: `${u.message.by}: ${u.message.changed.map((k) => `${k} ${k === 'expressiveness' ? u.message.expressiveness.toFixed(2) : u.message[k as 'speech'] ? 'on' : 'off'}`).join(', ')}` }, LIMITS.operator);
      break;
    case 'setLanguage':
      push(s.operator, { atMs: at, kind: 'language', text: `${u.message.by}: language ${u.message.language}` }, LIMITS.operator);
      break;
    case 'sessionControl':
      push(s.operator, { atMs: at, kind: u.message.action, text: `${u.message.by}: ${u.message.action}` }, LIMITS.operator);
      break;
    case 'wizardSay':
      push(s.operator, { atMs: at, kind: 'say', text: `${u.message.by}: say "${u.message.text}"${u.message.utterance_id ? ` (${u.message.utterance_id})` : ''} to ${u.message.target}` }, LIMITS.operator);
      break;
    case 'wizardExpression':
      push(s.operator, { atMs: at, kind: 'expression', text: `${u.message.by}: show ${u.message.expression} (${Math.round(u.message.intensity * 100)}%)` }, LIMITS.operator);
      break;
    case 'tableEvents': {
      const m = u.message;
      const card = (kind: string): string => `${kind === 'card_removed' || m.event === 'card:removed' ? 'lifted' : 'put down'} ${m.card} (${m.zone === 'hand' ? 'hand area' : 'spot'} of seat ${m.seat})`;
      if (m.kind === 'hello') {
        push(s.table, { atMs: at, kind: m.kind, text: `${m.table_id} joined (${m.seats.length ? `seats ${m.seats.join(', ')}` : 'watching, no seat'})` }, LIMITS.table);
      } else if (m.kind === 'disconnect') {
        push(s.table, { atMs: at, kind: m.kind, text: `${m.table_id} left (${m.reason})` }, LIMITS.table);
      } else if (m.kind === 'refused_again') {
        // Copies the table bridge refused without the runtime: nothing for the robot to react to.
        const what = m.event === 'game:control' ? m.action.replaceAll('_', ' ') : card(m.kind);
        push(s.table, { atMs: at, kind: m.kind, text: `${m.table_id} #${m.first_seq}-${m.seq}: ${what}, sent ${m.repeats} more time${m.repeats === 1 ? '' : 's'}, refused again (${m.code})` }, LIMITS.table);
      } else {
        s.latency.pendingSinceMs = at;
        const what = m.kind === 'control' ? m.action.replaceAll('_', ' ') : card(m.kind);
        push(s.table, { atMs: at, kind: m.kind, text: `${m.table_id} #${m.seq}: ${what}` }, LIMITS.table);
      }
      break;
    }
    case 'tableOutput': {
      const m = u.message;
      push(s.table, { atMs: at, kind: m.kind, text: m.kind === 'robot_play' ? `robot plays ${m.card}` : `${m.kind}${m.code ? ` (${m.code})` : ''}: ${m.text}` }, LIMITS.table);
      break;
    }
    case 'sessions':
      s.day = u.message;
      break;
  }
  return s;
}

// One pass over a recording's messages for what a replay or a restart must know ahead of the message
// it is at: where each of the robot's decisions was played, the stamps of the behaviour messages, when
// each appraisal ran, how the session went (game ends, the last state). Kept small: numbers and a few
// objects per game event, never the messages themselves, so the messages can be streamed past.

import type { Seat } from '../../../game/index.js';
import type {
  ConnectionStateMessage,
  DecisionMessage,
  ExpectationMessage,
  GameEventMessage,
  GameStateMessage,
  TableEvent,
} from '../../bus/index.js';
import { TOPICS } from '../../bus/index.js';
import type { RecordedMessage, Recording } from '../../recording/index.js';
import { RecordingStream } from '../../recording/index.js';
import type { RecordedDecision } from './recorded-answers.js';
import { decisionOf } from './recorded-answers.js';

/** The messages of a recording, in memory or streamed from its file (each call reads them again). */
export const messagesOf = (rec: Recording | RecordingStream): Iterable<RecordedMessage> =>
  rec instanceof RecordingStream ? rec.messages() : rec.messages;

/** The messages of several recordings, one after the other, read again on each pass. */
export function chained(streams: readonly RecordingStream[]): () => Iterable<RecordedMessage> {
  return function* () {
    for (const s of streams) yield* s.messages();
  };
}

/** Places the robot's decisions by the play event that follows each. */
export class DecisionPlacer {
  readonly placed = new Map<number, RecordedDecision>();
  #state: GameStateMessage | null = null;
  #pending: { i: number; d: Omit<RecordedDecision, 'game' | 'trick'>; card: string; state: GameStateMessage | null }[] =
    [];

  see(m: RecordedMessage, i: number): void {
    const name = m.topic.name;
    if (name === TOPICS.gameState.name) this.#state = m.message as GameStateMessage;
    else if (name === TOPICS.decision.name) {
      const x = m.message as DecisionMessage;
      this.#pending.push({
        i,
        card: x.card,
        state: this.#state,
        d: { seat: x.seat as Seat, decision: decisionOf(x), forced: x.fallback === 'forced', time: m.time },
      });
    } else if (name === TOPICS.gameEvents.name && this.#pending.length) {
      // applyPlay publishes the play right after the decision (after a physical deal, once the card is
      // put on the robot's spot).
      const ev = m.message as GameEventMessage;
      if (ev.type !== 'play') return;
      this.#pending = this.#pending.filter((p) => {
        if (ev.seat !== p.d.seat || ev.card !== p.card) return true;
        this.placed.set(p.i, { ...p.d, game: ev.game, trick: ev.trick });
        return false;
      });
    }
  }

  /** The decisions, by their message's index. */
  done(): Map<number, RecordedDecision> {
    // A physical deal's card announced but not yet put down when the recording ends (a crash): it is
    // placed by the game state before it (game there counts from 1), so a restart announces it again.
    for (const p of this.#pending) {
      const s = p.state;
      if (s && s.status === 'playing' && s.to_move === p.d.seat)
        this.placed.set(p.i, { ...p.d, game: s.game - 1, trick: s.trick });
    }
    this.#pending = [];
    return new Map([...this.placed].sort((a, b) => a[0] - b[0]));
  }
}

export interface GameState {
  time: number;
  game: number;
  trick: number;
  status: string;
}

/** What one pass over the messages learns. */
export interface RecordingFacts {
  count: number;
  first: RecordedMessage | null;
  last: RecordedMessage | null;
  /** Messages per topic. */
  counts: Map<string, number>;
  /** The backend of the first utterance. */
  spoken: string | undefined;
  estimates: number;
  /** Estimates that do not say which event they were for. */
  unplacedEstimates: number;
  decisions: Map<number, RecordedDecision>;
  /** The header stamps of the stamped behaviour topics' messages, in order. */
  stamps: Map<string, number[]>;
  /** When each appraisal ran (the emotions messages' at_ms). */
  appraisalTimes: number[];
  states: GameState[];
  firstEmotions: number;
  firstDeal: number;
  lastNewGame: TableEvent | null;
  /** A table of people (touch or virtual) had joined: a session that greets people had greeted them. */
  peopleJoined: boolean;
  /** The bus the session ran on, as the robot's connection said (in-process or ros2); undefined when not recorded. */
  robotBus: string | undefined;
  /** The games' ends, in order: card points A and B and the victories after each. */
  ends: { points: [number, number]; victories: [number, number] }[];
}

const STAMPED = [TOPICS.lookAt.name, TOPICS.posture.name, TOPICS.expression.name];

/** When a recorded output's publisher read the clock: its header's stamp when it has one, else when it was recorded. */
export function stampOf(m: RecordedMessage): number {
  const h = (m.message as { header?: { stamp: { sec: number; nanosec: number } } }).header;
  return h ? h.stamp.sec * 1000 + Math.round(h.stamp.nanosec / 1e6) : m.time;
}

export function scanRecording(messages: Iterable<RecordedMessage>): RecordingFacts {
  const f: RecordingFacts = {
    count: 0,
    first: null,
    last: null,
    counts: new Map(),
    spoken: undefined,
    estimates: 0,
    unplacedEstimates: 0,
    decisions: new Map(),
    stamps: new Map(STAMPED.map((n) => [n, []])),
    appraisalTimes: [],
    states: [],
    firstEmotions: -1,
    firstDeal: -1,
    lastNewGame: null,
    peopleJoined: false,
    robotBus: undefined,
    ends: [],
  };
  const placer = new DecisionPlacer();
  let i = 0;
  for (const m of messages) {
    const name = m.topic.name;
    f.first ??= m;
    f.last = m;
    f.counts.set(name, (f.counts.get(name) ?? 0) + 1);
    placer.see(m, i);
    f.stamps.get(name)?.push(stampOf(m));
    if (name === TOPICS.utterance.name && f.spoken === undefined && (m.message as { phase: string }).phase === 'start')
      f.spoken = (m.message as { backend: string }).backend;
    else if (name === TOPICS.expectation.name) {
      f.estimates++;
      if ((m.message as ExpectationMessage).event_index === -1) f.unplacedEstimates++;
    } else if (name === TOPICS.emotions.name) {
      f.appraisalTimes.push((m.message as { at_ms: number }).at_ms);
      if (f.firstEmotions < 0) f.firstEmotions = i;
    } else if (name === TOPICS.gameState.name) {
      const s = m.message as GameStateMessage;
      f.states.push({ time: m.time, game: s.game, trick: s.trick, status: s.status });
    } else if (name === TOPICS.gameEvents.name) {
      const e = m.message as GameEventMessage;
      if (e.type === 'deal' && f.firstDeal < 0) f.firstDeal = i;
      if (e.type === 'end')
        f.ends.push({
          points: [e.final_points[0] ?? 0, e.final_points[1] ?? 0],
          victories: [e.victories[0] ?? 0, e.victories[1] ?? 0],
        });
    } else if (name === TOPICS.tableEvents.name) {
      const t = m.message as TableEvent;
      if (t.kind === 'control' && t.action === 'new_game') f.lastNewGame = t;
      if (t.kind === 'hello' && (t.table_kind === 'touch' || t.table_kind === 'virtual')) f.peopleJoined = true;
    } else if (name === TOPICS.connections.name && m.direction !== 'in') {
      const c = m.message as ConnectionStateMessage;
      if (c.component === 'robot') f.robotBus ??= c.kind;
    }
    i++;
  }
  f.count = i;
  f.decisions = placer.done();
  return f;
}

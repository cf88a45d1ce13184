// Restoring a session's state from its recording: the recorded table events, decisions and estimates
// fed silently into a fresh runtime on a clock that runs the recorded times, behind a bus closed to the
// outside, then the hand-over to live. What a restart (resume.ts) does before its table server listens,
// and what the replay of a part written after a restart (replay.ts) does before it replays that part.

import type { Clock, TimerId, ToggleBoard } from '../../../behaviours/index.js';
import { systemClock } from '../../../behaviours/index.js';
import type {
  BehaviourTogglesMessage,
  ExpectationMessage,
  GameEventMessage,
  LanguageMessage,
  TableEvent,
  TopicKey,
  TopicMessage,
} from '../../bus/index.js';
import { ForwardingBus, TOPICS } from '../../bus/index.js';
import type { SessionRuntime } from '../../live/index.js';
import { togglePatch } from '../../live/index.js';
import type { RecordedMessage } from '../../recording/index.js';
import type { RecordedDecision, RecordedEstimator, RecordedRobotPlayer } from './recorded-answers.js';
import { ReplayClock } from './replay-clock.js';
import type { ReplaySettings } from './replay-settings.js';
import { TableFeeder } from './table-feeder.js';

/** Why the tables of a stopped runtime are marked disconnected when it restarts. */
export const RESTART_REASON = 'the runtime restarted';

/**
 * The bus of a restarting node: closed (nothing published, nothing recorded) until `open`. The game
 * events made while closed are kept: those the recording lost (a crash between a table event and
 * what it caused) are published once it opens.
 */
export class GatedBus extends ForwardingBus {
  open = false;
  readonly heldGameEvents: GameEventMessage[] = [];
  override publish<K extends TopicKey>(key: K, message: TopicMessage<K>): void {
    if (this.open) this.inner.publish(key, message);
    else if (key === 'gameEvents') this.heldGameEvents.push(message as GameEventMessage);
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

interface RestoreOptions {
  runtime: SessionRuntime;
  toggles: ToggleBoard;
  /** Closed while the past is fed in; opened as the node goes live. */
  bus: GatedBus;
  clock: RestoreClock;
  player: RecordedRobotPlayer;
  estimator: RecordedEstimator;
  /** The recorded parts so far, in order (read again on each call). */
  messages: () => Iterable<RecordedMessage>;
  /** The robot's decisions among them, by index (DecisionPlacer). */
  decisions: Map<number, RecordedDecision>;
  /** Hears every message as it is restored. */
  onMessage?: (m: RecordedMessage) => void;
  settings: ReplaySettings;
  /** Called as the clock goes live, before the bus opens (a restart hands over to the live player and estimates). */
  goLive: () => void;
  /** Hears each restored table event's answer (a restart rebuilds the table server's seq ledger). */
  answered?: Parameters<TableFeeder['feed']>[1];
}

interface Restored {
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
    // Sent by another node over ROS 2: it reached the node's listeners (a why answered), not the game.
    if (m.direction === 'in') continue;
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
  const c = runtime.view();
  const over = c.status === 'session_over';
  restored.game = c.current ? c.current.index + 1 : 0;
  restored.trick = c.current ? Math.min(10, c.current.game.trick + 1) : 0;
  restored.played = c.score.games;
  bus.publish('gameState', runtime.gameState());
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
  if (lastLanguage && lastLanguage.language !== s.choices.language)
    bus.publish('setLanguage', { language: lastLanguage.language, by: 'restore' });
  else bus.publish('language', { language: lastLanguage?.language ?? s.choices.language ?? 'pt', by: 'restore' });
  return { restored, over, disconnected };
}

// Whether a replay did what the recording says the session did: the outputs of the runtime (game
// state and events, the robot's decisions, emotions, postures, gaze, speech, table output), topic by
// topic and in order, and where they first part. The inputs (table events, toggle requests) are what
// the replay fed in, so they are not compared.

import { isDeepStrictEqual } from 'node:util';
import type { TopicSpec } from '../../bus/index.js';
import { TOPICS } from '../../bus/index.js';

export interface TimedMessage {
  topic: TopicSpec;
  /** Milliseconds on the session clock. */
  time: number;
  message: unknown;
}

export interface Difference {
  topic: string;
  /** Index of the message among that topic's messages (0-based). */
  index: number;
  /** Time of the recorded message (or of the replayed one when the recording has no more). */
  time: number;
  expected: unknown;
  actual: unknown;
}

interface Comparison {
  matches: boolean;
  /** Messages compared per topic (the recorded count). */
  compared: Record<string, number>;
  /** The earliest difference in time over all topics, or null. */
  firstDifference: Difference | null;
}

/** Topics whose messages the replay feeds in rather than produces. */
const INPUT_TOPICS: ReadonlySet<string> = new Set([TOPICS.tableEvents.name, TOPICS.setToggles.name]);

/**
 * Messages left out of the comparison: a line's `queued` announcement (for the dashboard's speech
 * queue) is not compared, so recordings made before lines were announced replay the same; what was
 * said and dropped, and why, still is.
 */
const notCompared = (m: TimedMessage): boolean =>
  INPUT_TOPICS.has(m.topic.name) ||
  (m.topic.name === TOPICS.utterance.name && (m.message as { phase?: unknown }).phase === 'queued');

/**
 * A replayed message as its recording could have said it: a line recorded before lines to the
 * opponents said whether they spoke to one or both (`audience` read as "", its default) is not told
 * apart by the audience its replay now knows.
 */
function sinceRecorded(topic: string, recorded: unknown, replayed: unknown): unknown {
  if (topic !== TOPICS.utterance.name) return replayed;
  const r = recorded as { audience?: unknown };
  const m = replayed as { audience?: unknown };
  return r.audience === '' && typeof m.audience === 'string' && m.audience !== '' ? { ...m, audience: '' } : replayed;
}

/** Compares two whole runs (see RunComparer, which does it as the messages come). */
export function compareRuns(recorded: readonly TimedMessage[], replayed: readonly TimedMessage[]): Comparison {
  const c = new RunComparer();
  for (const m of recorded) c.recorded(m);
  for (const m of replayed) c.replayed(m);
  c.finish();
  return c.result();
}

/** A first-in first-out list that forgets what it has handed out. */
class Queue<T> {
  #items: T[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(x: T): void {
    this.#items.push(x);
  }
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const x = this.#items[this.#head++];
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return x;
  }
  peek(): T | undefined {
    return this.#items[this.#head];
  }
  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}

interface TopicRun {
  recorded: number;
  matched: number;
  want: Queue<TimedMessage>;
  got: Queue<TimedMessage>;
  diff: Difference | null;
}

/**
 * How far one side of a topic may run ahead of the other. The replay answers each recorded input at its
 * recorded time, so on a session that replays a side is a few messages ahead; thousands ahead, the
 * other side lacks them, and the first of them is the difference finish() would name.
 */
const MAX_AHEAD = 10_000;

/**
 * compareRuns as the messages come: each recorded and each replayed message is compared as soon as its
 * counterpart (the same topic, the same index) is there, and then forgotten, so a long recording is
 * compared in memory that does not grow with it (only what one side is ahead of the other is held, at
 * most MAX_AHEAD messages a topic; after a topic's first difference, nothing of it).
 */
export class RunComparer {
  readonly #topics = new Map<string, TopicRun>();
  #finished = false;

  #run(topic: string): TopicRun {
    let t = this.#topics.get(topic);
    if (!t) this.#topics.set(topic, (t = { recorded: 0, matched: 0, want: new Queue(), got: new Queue(), diff: null }));
    return t;
  }

  recorded(m: TimedMessage): void {
    if (notCompared(m)) return;
    const t = this.#run(m.topic.name);
    t.recorded++;
    if (t.diff) return;
    t.want.push(m);
    this.#match(m.topic.name, t);
  }

  replayed(m: TimedMessage): void {
    if (notCompared(m) || this.#finished) return;
    const t = this.#run(m.topic.name);
    if (t.diff) return;
    t.got.push(m);
    this.#match(m.topic.name, t);
  }

  #match(topic: string, t: TopicRun): void {
    while (t.want.length && t.got.length) {
      const x = t.want.shift()!;
      const y = t.got.shift()!;
      if (isDeepStrictEqual(x.message, sinceRecorded(topic, x.message, y.message))) {
        t.matched++;
        continue;
      }
      this.#differ(topic, t, { topic, index: t.matched, time: x.time, expected: x.message, actual: y.message });
    }
    const x = t.want.peek();
    const y = t.got.peek();
    if (t.want.length > MAX_AHEAD && x)
      this.#differ(topic, t, { topic, index: t.matched, time: x.time, expected: x.message, actual: null });
    else if (t.got.length > MAX_AHEAD && y)
      this.#differ(topic, t, { topic, index: t.matched, time: y.time, expected: null, actual: y.message });
  }

  #differ(topic: string, t: TopicRun, d: Difference): void {
    t.diff = d;
    t.want.clear();
    t.got.clear();
  }

  /**
   * No more messages: what one side has beyond the other is a difference (`extraReplayed: false`
   * sets aside the replay's messages past the recording's, for a recording cut short).
   */
  finish(o: { extraReplayed?: boolean } = {}): void {
    this.#finished = true;
    for (const [topic, t] of this.#topics) {
      if (t.diff) continue;
      const x = t.want.peek();
      const y = t.got.peek();
      if (x) this.#differ(topic, t, { topic, index: t.matched, time: x.time, expected: x.message, actual: null });
      else if (y && o.extraReplayed !== false)
        this.#differ(topic, t, { topic, index: t.matched, time: y.time, expected: null, actual: y.message });
    }
  }

  /** The comparison over the topics `only` keeps (all by default). */
  result(only: (topic: string) => boolean = () => true): Comparison {
    const compared: Record<string, number> = {};
    let first: Difference | null = null;
    for (const [topic, t] of this.#topics) {
      if (!only(topic)) continue;
      compared[topic] = t.recorded;
      if (t.diff && (!first || t.diff.time < first.time)) first = t.diff;
    }
    return { matches: first === null, compared, firstDifference: first };
  }
}

// Whether a replay did what the recording says the session did: the outputs of the runtime (game
// state and events, the robot's decisions, emotions, postures, gaze, speech, table output), topic by
// topic and in order, and where they first part. The inputs (table events, toggle requests) are what
// the replay fed in, so they are not compared.

import { isDeepStrictEqual } from 'node:util';
import type { TopicSpec } from '../bus/topics.js';
import { TOPICS } from '../bus/topics.js';

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

export interface Comparison {
  matches: boolean;
  /** Messages compared per topic (the recorded count). */
  compared: Record<string, number>;
  /** The earliest difference in time over all topics, or null. */
  firstDifference: Difference | null;
}

/** Topics whose messages the replay feeds in rather than produces. */
export const INPUT_TOPICS: ReadonlySet<string> = new Set([TOPICS.tableEvents.name, TOPICS.setToggles.name]);

const byTopic = (messages: readonly TimedMessage[]): Map<string, TimedMessage[]> => {
  const out = new Map<string, TimedMessage[]>();
  for (const m of messages) {
    if (INPUT_TOPICS.has(m.topic.name)) continue;
    let list = out.get(m.topic.name);
    if (!list) out.set(m.topic.name, (list = []));
    list.push(m);
  }
  return out;
};

export function compareRuns(recorded: readonly TimedMessage[], replayed: readonly TimedMessage[]): Comparison {
  const want = byTopic(recorded);
  const got = byTopic(replayed);
  const compared: Record<string, number> = {};
  let first: Difference | null = null;
  const note = (d: Difference): void => {
    if (!first || d.time < first.time) first = d;
  };
  for (const topic of new Set([...want.keys(), ...got.keys()])) {
    const a = want.get(topic) ?? [];
    const b = got.get(topic) ?? [];
    compared[topic] = a.length;
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      const y = b[i];
      if (x && y && isDeepStrictEqual(x.message, y.message)) continue;
      note({ topic, index: i, time: (x ?? y)!.time, expected: x?.message ?? null, actual: y?.message ?? null });
      break;
    }
  }
  return { matches: first === null, compared, firstDifference: first };
}

// Records every message that crosses the bus into one MCAP file per session: one channel per topic,
// log time from the injected clock, in one of two formats: `json` (each message as JSON, with the
// topic's JSON schema: Foxglove opens it, and it keeps every number as the node computed it) or `ros2`
// (the rosbag2 MCAP profile, ros2-profile.ts: CDR messages with `ros2msg` schemas, which `ros2 bag` and
// Foxglove's ROS panels read). A message another node sent this one (`in` on the bus, e.g. a wizard line
// from `ros2 topic pub`) goes on a second channel of its topic, marked `parceiro.direction: in`, made
// when the first one comes: a replay feeds those back as they came. Each message is written as a chunk of its own as soon as it is recorded (the
// writer keeps unchunked records in memory until the file is closed, which a crash would lose), so a
// file cut short by a crash still reads up to its last complete message, and the sink has every
// message within its flush interval.

import { McapWriter } from '@mcap/core';
import type { Bus, TopicSpec, Unsubscribe } from '../bus/index.js';
import { ALL_TOPICS, jsonSchemaOf } from '../bus/index.js';
import { FileSink } from './file-sink.js';
import { ROS2_PROFILE, codecOf, offeredQos, plainMessage, ros2Definition } from './ros2-profile.js';

/** What a replay needs to run the same session again: the seeds and the settings. */
export type SessionInfo = Record<string, string>;

export const SESSION_METADATA = 'parceiro.session';

/** How a recording holds its messages: JSON (the default) or the rosbag2 MCAP profile (CDR, `ros2msg` schemas). */
export const RECORDING_FORMATS = ['json', 'ros2'] as const;
export type RecordingFormat = (typeof RECORDING_FORMATS)[number];

/** The channel metadata key that marks the channel of a topic's incoming messages (value `in`). */
export const DIRECTION_KEY = 'parceiro.direction';

/** A message as the recording holds it: what a replay compares its own messages with. */
export function asRecorded(format: RecordingFormat, topic: TopicSpec, message: unknown): unknown {
  if (format === 'ros2') return codecOf(topic.message).decode(codecOf(topic.message).encode(message));
  return JSON.parse(JSON.stringify(message)) as unknown;
}

const encoder = new TextEncoder();

/** The recordings of this process that are open, and those being opened: a second Ctrl-C closes them all at once. */
const open = new Set<Recorder>();
const opening = new Set<Promise<unknown>>();

/**
 * Closes every recording this process has open (each with its summary, as `close` does), after any
 * being opened: what a second SIGINT does before exiting (launch/signals.ts), whatever the rest of the
 * program was still waiting for.
 */
export async function closeOpenRecordings(): Promise<void> {
  await Promise.allSettled([...opening]);
  await Promise.all([...open].map((r) => r.close()));
}
// Microsecond steps, so a time in whole milliseconds reads back exactly.
const toNs = (ms: number): bigint => BigInt(Math.round(ms * 1000)) * 1000n;

export class Recorder {
  private readonly writer: McapWriter;
  private readonly sink: FileSink;
  private readonly channels = new Map<string, number>();
  /** The channels of incoming messages, made when the first one comes. */
  private readonly inChannels = new Map<string, Promise<number>>();
  private readonly schemas = new Map<string, number>();
  private readonly sequence = new Map<string, number>();
  /** McapWriter calls must not overlap: every write waits for the one before. */
  private chain: Promise<void> = Promise.resolve();
  private untap: Unsubscribe | null = null;
  private failure: unknown = null;
  private closing: Promise<void> | null = null;
  messages = 0;

  private constructor(
    readonly path: string,
    private readonly clock: () => number,
    flushMs: number,
    readonly format: RecordingFormat,
  ) {
    this.sink = new FileSink(path, flushMs);
    this.writer = new McapWriter({
      writable: this.sink,
      useChunks: true,
      chunkSize: 1,
      useStatistics: true,
      useSummaryOffsets: true,
      useMessageIndex: false,
      useChunkIndex: false,
    });
  }

  /** Starts a recording of `bus` into `path`, with the session's settings as metadata. */
  static async start(options: {
    path: string;
    bus: Bus;
    clock: () => number;
    session: SessionInfo;
    flushMs?: number;
    /** Default json. */
    format?: RecordingFormat;
  }): Promise<Recorder> {
    const starting = Recorder.#open(options);
    opening.add(starting);
    try {
      const r = await starting;
      open.add(r);
      return r;
    } finally {
      opening.delete(starting);
    }
  }

  static async #open(options: {
    path: string;
    bus: Bus;
    clock: () => number;
    session: SessionInfo;
    flushMs?: number;
    format?: RecordingFormat;
  }): Promise<Recorder> {
    const format = options.format ?? 'json';
    const r = new Recorder(options.path, options.clock, options.flushMs ?? 1000, format);
    await r.writer.start({ profile: format === 'ros2' ? ROS2_PROFILE : '', library: 'parceiro' });
    for (const topic of ALL_TOPICS) {
      // One schema per message type, as rosbag2 writes it (several topics may carry one type).
      let schemaId = r.schemas.get(topic.message.type);
      if (schemaId === undefined) {
        schemaId = await r.writer.registerSchema(
          format === 'ros2'
            ? {
                name: topic.message.type,
                encoding: 'ros2msg',
                data: encoder.encode(ros2Definition(topic.message)),
              }
            : {
                name: topic.message.type,
                encoding: 'jsonschema',
                data: encoder.encode(JSON.stringify(jsonSchemaOf(topic.message))),
              },
        );
        r.schemas.set(topic.message.type, schemaId);
      }
      r.channels.set(topic.name, await r.writer.registerChannel(r.channelOf(topic, schemaId, 'out')));
    }
    await r.writer.addMetadata({ name: SESSION_METADATA, metadata: new Map(Object.entries(options.session)) });
    r.sink.flush();
    r.untap = options.bus.tap((e) => r.record(e.topic, e.message, e.direction));
    return r;
  }

  private channelOf(
    topic: TopicSpec,
    schemaId: number,
    direction: 'in' | 'out',
  ): { schemaId: number; topic: string; messageEncoding: string; metadata: Map<string, string> } {
    const metadata = new Map<string, string>([['qos.durability', topic.qos.durability]]);
    if (this.format === 'ros2') metadata.set('offered_qos_profiles', offeredQos(topic.qos));
    if (direction === 'in') metadata.set(DIRECTION_KEY, 'in');
    return { schemaId, topic: topic.name, messageEncoding: this.format === 'ros2' ? 'cdr' : 'json', metadata };
  }

  /** The channel of a topic's incoming messages, made the first time one comes (in the write chain). */
  private inChannel(topic: TopicSpec): Promise<number> {
    let c = this.inChannels.get(topic.name);
    if (!c) {
      const schemaId = this.schemas.get(topic.message.type)!;
      c = this.writer.registerChannel(this.channelOf(topic, schemaId, 'in'));
      this.inChannels.set(topic.name, c);
    }
    return c;
  }

  /** Queues one message (called for every message on the bus): `in` when another node sent it. */
  record(topic: TopicSpec, message: unknown, direction: 'in' | 'out' = 'out'): void {
    const out = this.channels.get(topic.name);
    if (out === undefined) return;
    const key = direction === 'in' ? `in ${topic.name}` : topic.name;
    const seq = (this.sequence.get(key) ?? 0) + 1;
    this.sequence.set(key, seq);
    const t = toNs(this.clock());
    // What came from another node may hold typed arrays and 64-bit integers (as rclnodejs gives them).
    const data =
      this.format === 'ros2'
        ? codecOf(topic.message).encode(message)
        : encoder.encode(JSON.stringify(direction === 'in' ? plainMessage(message) : message));
    this.messages++;
    this.chain = this.chain
      .then(async () => {
        const channelId = direction === 'in' ? await this.inChannel(topic) : out;
        await this.writer.addMessage({ channelId, sequence: seq, logTime: t, publishTime: t, data });
      })
      .catch((e: unknown) => {
        this.failure ??= e;
      });
  }

  /** Waits for every queued message to be written. */
  async drain(): Promise<void> {
    await this.chain;
    if (this.failure) throw this.failure;
  }

  /**
   * Hands every message recorded so far to the operating system (no fsync: that stays on the sink's
   * timer). The table server waits for it before anything reaches a table, so what a table was told
   * survives a crash of the process (write-ahead, as a database logs before it answers).
   */
  async persist(): Promise<void> {
    await this.chain;
    if (!this.failure) this.sink.writeOut();
  }

  /** Writes the summary and closes the file. Called again (a second Ctrl-C while closing), it waits for the same close. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.untap?.();
      this.untap = null;
      try {
        await this.drain();
        await this.writer.end();
      } finally {
        this.sink.close();
        open.delete(this);
      }
    })();
    return this.closing;
  }

  /** Closes the file without a summary, as a crash just after a flush would leave it (for tests of recovery). */
  abandon(): void {
    this.untap?.();
    open.delete(this);
    this.sink.close();
  }
}

// Records every message that crosses the bus into one MCAP file per session: one channel per topic,
// JSON encoding with the topic's JSON schema (so Foxglove and ROS tooling can open it), log time from
// the injected clock. Each message is written as a chunk of its own as soon as it is recorded (the
// writer keeps unchunked records in memory until the file is closed, which a crash would lose), so a
// file cut short by a crash still reads up to its last complete message, and the sink has every
// message within its flush interval.

import { McapWriter } from '@mcap/core';
import type { Bus, TopicSpec, Unsubscribe } from '../bus/index.js';
import { ALL_TOPICS, jsonSchemaOf } from '../bus/index.js';
import { FileSink } from './file-sink.js';

/** What a replay needs to run the same session again: the seeds and the settings. */
export type SessionInfo = Record<string, string>;

export const SESSION_METADATA = 'parceiro.session';

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
  }): Promise<Recorder> {
    const r = new Recorder(options.path, options.clock, options.flushMs ?? 1000);
    await r.writer.start({ profile: '', library: 'parceiro' });
    for (const topic of ALL_TOPICS) {
      const schemaId = await r.writer.registerSchema({
        name: topic.message.type,
        encoding: 'jsonschema',
        data: encoder.encode(JSON.stringify(jsonSchemaOf(topic.message))),
      });
      const channelId = await r.writer.registerChannel({
        schemaId,
        topic: topic.name,
        messageEncoding: 'json',
        metadata: new Map([['qos.durability', topic.qos.durability]]),
      });
      r.channels.set(topic.name, channelId);
    }
    await r.writer.addMetadata({ name: SESSION_METADATA, metadata: new Map(Object.entries(options.session)) });
    r.sink.flush();
    r.untap = options.bus.tap((e) => r.record(e.topic, e.message));
    return r;
  }

  /** Queues one message (called for every message on the bus). */
  record(topic: TopicSpec, message: unknown): void {
    const channelId = this.channels.get(topic.name);
    if (channelId === undefined) return;
    const seq = (this.sequence.get(topic.name) ?? 0) + 1;
    this.sequence.set(topic.name, seq);
    const t = toNs(this.clock());
    const data = encoder.encode(JSON.stringify(message));
    this.messages++;
    this.chain = this.chain
      .then(() => this.writer.addMessage({ channelId, sequence: seq, logTime: t, publishTime: t, data }))
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

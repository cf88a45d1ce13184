// Reads a recording back, as far as it can, in either format (recorder.ts): JSON messages, or CDR ones
// read with the `ros2msg` definition the file itself carries (so a recording made before a message
// gained a field still reads, with FIELDS_ADDED_LATER filling it in). A file cut short (a crash) or damaged (a bad record, a
// message that is not what its topic carries) gives every message before the damage plus a plain
// account of what could not be read and where; nothing is dropped silently.

import { closeSync, openSync, readSync } from 'node:fs';
import { notAFile } from '../../config/index.js';
import { McapStreamReader, hasMcapPrefix } from '@mcap/core';
import { FIELDS_ADDED_LATER, checkMessage, topicByName } from '../bus/index.js';
import type { TopicSpec } from '../bus/index.js';
import { DIRECTION_KEY, SESSION_METADATA } from './recorder.js';
import type { RecordingFormat, SessionInfo } from './recorder.js';
import { CdrCodec, ROS2_PROFILE } from './ros2-profile.js';

export interface RecordedMessage {
  topic: TopicSpec;
  /** Milliseconds, from the recording clock. */
  time: number;
  message: unknown;
  /** `in`: another node sent it to this one (e.g. over ROS 2); absent: this node published it. */
  direction?: 'in';
}

/** A channel as read: its topic, how its messages are encoded, and whether it holds incoming ones. */
interface ChannelInfo {
  topic: TopicSpec | string;
  encoding: string;
  schemaId: number;
  incoming: boolean;
}

export interface Recording {
  path: string;
  session: SessionInfo | null;
  /** How the file holds its messages (JSON, or the rosbag2 profile's CDR). */
  format: RecordingFormat;
  messages: RecordedMessage[];
  /** True when the file ended with its footer: nothing was lost. */
  complete: boolean;
  /** What could not be read, each with where: empty for a clean recording. */
  problems: string[];
}

/** A file that is not a recording at all (missing, or no MCAP header): nothing can be replayed. */
export class RecordingError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'RecordingError';
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A message recorded before some of its fields existed, with those fields at their documented defaults. */
function withFieldsAddedLater(topic: TopicSpec, message: unknown): unknown {
  const added = FIELDS_ADDED_LATER[topic.message.type];
  if (!added || typeof message !== 'object' || message === null || Array.isArray(message)) return message;
  const missing = Object.keys(added).filter((k) => !(k in message));
  return missing.length ? { ...message, ...Object.fromEntries(missing.map((k) => [k, added[k]])) } : message;
}

/** Bytes read from the file at a time. */
const CHUNK = 1 << 20;
/**
 * The most a record may hold before the file is taken as damaged: the recorder writes each message as a
 * chunk of its own (a few kB), so a record announcing more is a damaged length, not a message, and
 * reading on would hold the rest of the file in memory.
 */
const MAX_RECORD_BYTES = 64 << 20;
/** Problems listed one by one; past this many, the rest are counted. */
const MAX_PROBLEMS = 50;

/**
 * A recording read as a stream: `messages()` yields each message as it is read, 1 MB of the file at a
 * time, so nothing depends on the file's size beyond reading it through. After the messages (or as
 * soon as the metadata is read) it says what the session was, whether the file was complete and
 * what could not be read.
 */
export class RecordingStream {
  session: SessionInfo | null = null;
  /** From the file's header, read with the first record (json until then). */
  format: RecordingFormat = 'json';
  complete = false;
  /** What could not be read, each with where (at most MAX_PROBLEMS listed, the rest counted). */
  readonly problems: string[] = [];
  /** Messages read so far. */
  count = 0;
  /** Where the first damage is (bytes from the file's start), when the rest of the file could not be read. */
  damagedAt: number | null = null;
  #more = 0;

  /** Checks that `path` is a regular file that begins with the MCAP magic; throws RecordingError when not. */
  constructor(readonly path: string) {
    const wrong = notAFile(path);
    if (wrong) throw new RecordingError(path, wrong);
    const head = Buffer.alloc(8);
    let n = 0;
    try {
      const fd = openSync(path, 'r');
      try {
        n = readSync(fd, head, 0, 8, 0);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw new RecordingError(path, `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    if (n < 8 || !hasMcapPrefix(new DataView(head.buffer, head.byteOffset, n)))
      throw new RecordingError(path, 'not an MCAP recording (no MCAP header)');
  }

  #problem(p: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
    else this.#more++;
  }

  /** The session's metadata, reading no further than the first message. */
  sessionInfo(): SessionInfo | null {
    for (const _ of this.messages()) break;
    return this.session;
  }

  /** Damage other than a cut-short end (which is what a crash leaves): a record that cannot be read, or messages skipped. */
  get damaged(): boolean {
    return this.damagedAt !== null || this.problems.some((p) => !p.startsWith('cut short after'));
  }

  /** Reads the file from its start (each call reads it again), yielding every message that can be read. */
  *messages(): Generator<RecordedMessage, void, undefined> {
    this.session = null;
    this.complete = false;
    this.problems.length = 0;
    this.count = 0;
    this.damagedAt = null;
    this.#more = 0;
    const reader = new McapStreamReader({ validateCrcs: true });
    const channels = new Map<number, ChannelInfo>();
    const schemas = new Map<number, { name: string; encoding: string; data: Uint8Array; codec?: CdrCodec | Error }>();
    let records = 0;
    let read = 0;
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (e) {
      throw new RecordingError(this.path, `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    const buf = Buffer.alloc(CHUNK);
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, CHUNK, read);
        if (n === 0) break;
        read += n;
        let r: ReturnType<McapStreamReader['nextRecord']>;
        try {
          reader.append(buf.subarray(0, n));
          r = reader.nextRecord();
        } catch (e) {
          this.#damaged(read - reader.bytesRemaining(), records, e);
          return;
        }
        while (r) {
          records++;
          const m = this.#record(r, channels, schemas);
          if (m) yield m;
          try {
            r = reader.nextRecord();
          } catch (e) {
            this.#damaged(read - reader.bytesRemaining(), records, e);
            return;
          }
        }
        if (reader.done()) break;
        if (reader.bytesRemaining() > MAX_RECORD_BYTES) {
          this.#damaged(
            read - reader.bytesRemaining(),
            records,
            new Error(`a record longer than ${MAX_RECORD_BYTES >> 20} MB begins there (a damaged length)`),
          );
          return;
        }
      }
      this.complete = reader.done();
      if (!this.complete) {
        this.#problem(
          `cut short after ${this.count} messages (${reader.bytesRemaining()} bytes of an unfinished record at the end): the session was not closed, e.g. the runtime stopped or crashed`,
        );
      }
    } finally {
      closeSync(fd);
      if (this.#more)
        this.problems.push(`and ${this.#more} more messages that could not be read, for the reasons above`);
    }
  }

  #damaged(at: number, records: number, e: unknown): void {
    this.damagedAt = at;
    this.#problem(
      `damaged after ${this.count} messages, at byte ${at} (record ${records + 1}): ${e instanceof Error ? e.message : String(e)}; the rest of the file cannot be read`,
    );
  }

  #record(
    r: NonNullable<ReturnType<McapStreamReader['nextRecord']>>,
    channels: Map<number, ChannelInfo>,
    schemas: Map<number, { name: string; encoding: string; data: Uint8Array; codec?: CdrCodec | Error }>,
  ): RecordedMessage | null {
    switch (r.type) {
      case 'Header':
        this.format = r.profile === ROS2_PROFILE ? 'ros2' : 'json';
        return null;
      case 'Schema':
        schemas.set(r.id, { name: r.name, encoding: r.encoding, data: r.data });
        return null;
      case 'Channel':
        channels.set(r.id, {
          topic: topicByName(r.topic) ?? r.topic,
          encoding: r.messageEncoding,
          schemaId: r.schemaId,
          incoming: r.metadata.get(DIRECTION_KEY) === 'in',
        });
        return null;
      case 'Metadata':
        if (r.name === SESSION_METADATA) this.session = Object.fromEntries(r.metadata);
        return null;
      case 'Message': {
        const channel = channels.get(r.channelId);
        const topic = channel?.topic;
        const at = `message ${this.count + 1} (${typeof topic === 'string' ? topic : (topic?.name ?? `channel ${r.channelId}`)}, t=${Number(r.logTime / 1000n) / 1000} ms)`;
        if (channel === undefined || topic === undefined) {
          this.#problem(`${at}: its channel was never declared; skipped`);
          return null;
        }
        if (typeof topic === 'string') {
          this.#problem(`${at}: not a topic of this version of Parceiro; skipped`);
          return null;
        }
        let message: unknown;
        if (channel.encoding === 'cdr') {
          const codec = this.#codec(schemas, channel.schemaId);
          if (codec instanceof Error) {
            this.#problem(`${at}: ${codec.message}; skipped`);
            return null;
          }
          try {
            message = codec.decode(r.data);
          } catch (e) {
            this.#problem(
              `${at}: its CDR data does not fit its definition (${e instanceof Error ? e.message : String(e)}); skipped`,
            );
            return null;
          }
        } else if (channel.encoding === 'json') {
          try {
            message = JSON.parse(decoder.decode(r.data));
          } catch {
            this.#problem(`${at}: its data is not JSON; skipped`);
            return null;
          }
        } else {
          this.#problem(`${at}: its encoding ${JSON.stringify(channel.encoding)} is neither json nor cdr; skipped`);
          return null;
        }
        message = withFieldsAddedLater(topic, message);
        const wrong = checkMessage(topic.message, message);
        if (wrong) {
          this.#problem(`${at}: ${wrong}; skipped`);
          return null;
        }
        this.count++;
        const time = Number(r.logTime / 1000n) / 1000;
        return channel.incoming ? { topic, time, message, direction: 'in' } : { topic, time, message };
      }
      default:
        return null;
    }
  }

  /** The CDR reader of a schema, made once; or why there is none. */
  #codec(
    schemas: Map<number, { name: string; encoding: string; data: Uint8Array; codec?: CdrCodec | Error }>,
    id: number,
  ): CdrCodec | Error {
    const s = schemas.get(id);
    if (!s) return new Error(`its CDR channel has no schema (${id})`);
    if (s.codec) return s.codec;
    if (s.encoding !== 'ros2msg') s.codec = new Error(`its schema ${s.name} is ${s.encoding}, not ros2msg`);
    else {
      try {
        s.codec = new CdrCodec(decoder.decode(s.data));
      } catch (e) {
        s.codec = new Error(`its schema ${s.name} cannot be read (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    return s.codec;
  }
}

/** A whole recording in memory (for small ones: tests, reports). Replay and resume stream it (RecordingStream). */
export function readRecording(path: string): Recording {
  const stream = new RecordingStream(path);
  const messages: RecordedMessage[] = [];
  for (const m of stream.messages()) messages.push(m);
  return {
    path,
    session: stream.session,
    format: stream.format,
    messages,
    complete: stream.complete,
    problems: stream.problems,
  };
}

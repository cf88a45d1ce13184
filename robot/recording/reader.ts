// Reads a recording back, as far as it can. A file cut short (a crash) or damaged (a bad record, a
// message that is not what its topic carries) gives every message before the damage plus a plain
// account of what could not be read and where; nothing is dropped silently.

import { closeSync, openSync, readSync } from 'node:fs';
import { notAFile } from '../../config/index.js';
import { McapStreamReader, hasMcapPrefix } from '@mcap/core';
import { FIELDS_ADDED_LATER, checkMessage, topicByName } from '../bus/index.js';
import type { TopicSpec } from '../bus/index.js';
import { SESSION_METADATA } from './recorder.js';
import type { SessionInfo } from './recorder.js';

export interface RecordedMessage {
  topic: TopicSpec;
  /** Milliseconds, from the recording clock. */
  time: number;
  message: unknown;
}

export interface Recording {
  path: string;
  session: SessionInfo | null;
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
    const channels = new Map<number, TopicSpec | string>();
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
          const m = this.#record(r, channels);
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
    channels: Map<number, TopicSpec | string>,
  ): RecordedMessage | null {
    switch (r.type) {
      case 'Channel':
        channels.set(r.id, topicByName(r.topic) ?? r.topic);
        return null;
      case 'Metadata':
        if (r.name === SESSION_METADATA) this.session = Object.fromEntries(r.metadata);
        return null;
      case 'Message': {
        const topic = channels.get(r.channelId);
        const at = `message ${this.count + 1} (${typeof topic === 'string' ? topic : (topic?.name ?? `channel ${r.channelId}`)}, t=${Number(r.logTime / 1000n) / 1000} ms)`;
        if (topic === undefined) {
          this.#problem(`${at}: its channel was never declared; skipped`);
          return null;
        }
        if (typeof topic === 'string') {
          this.#problem(`${at}: not a topic of this version of Parceiro; skipped`);
          return null;
        }
        let message: unknown;
        try {
          message = JSON.parse(decoder.decode(r.data));
        } catch {
          this.#problem(`${at}: its data is not JSON; skipped`);
          return null;
        }
        message = withFieldsAddedLater(topic, message);
        const wrong = checkMessage(topic.message, message);
        if (wrong) {
          this.#problem(`${at}: ${wrong}; skipped`);
          return null;
        }
        this.count++;
        return { topic, time: Number(r.logTime / 1000n) / 1000, message };
      }
      default:
        return null;
    }
  }
}

/** A whole recording in memory (for small ones: tests, reports). Replay and resume stream it (RecordingStream). */
export function readRecording(path: string): Recording {
  const stream = new RecordingStream(path);
  const messages: RecordedMessage[] = [];
  for (const m of stream.messages()) messages.push(m);
  return { path, session: stream.session, messages, complete: stream.complete, problems: stream.problems };
}

// Reads a recording back, as far as it can. A file cut short (a crash) or damaged (a bad record, a
// message that is not what its topic carries) gives every message before the damage plus a plain
// account of what could not be read and where; nothing is dropped silently.

import { readFileSync } from 'node:fs';
import { McapStreamReader, hasMcapPrefix } from '@mcap/core';
import { FIELDS_ADDED_LATER } from '../bus/messages.js';
import { checkMessage } from '../bus/spec.js';
import type { TopicSpec } from '../bus/topics.js';
import { topicByName } from '../bus/topics.js';
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

export function readRecording(path: string): Recording {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new RecordingError(path, `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (!hasMcapPrefix(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength))) throw new RecordingError(path, 'not an MCAP recording (no MCAP header)');
  const reader = new McapStreamReader({ validateCrcs: true });
  const out: Recording = { path, session: null, messages: [], complete: false, problems: [] };
  const channels = new Map<number, TopicSpec | string>();
  let records = 0;
  try {
    reader.append(bytes);
    for (let r = reader.nextRecord(); r; r = reader.nextRecord()) {
      records++;
      switch (r.type) {
        case 'Channel':
          channels.set(r.id, topicByName(r.topic) ?? r.topic);
          break;
        case 'Metadata':
          if (r.name === SESSION_METADATA) out.session = Object.fromEntries(r.metadata);
          break;
        case 'Message': {
          const topic = channels.get(r.channelId);
          const at = `message ${out.messages.length + 1} (${typeof topic === 'string' ? topic : (topic?.name ?? `channel ${r.channelId}`)}, t=${Number(r.logTime / 1000n) / 1000} ms)`;
          if (topic === undefined) {
            out.problems.push(`${at}: its channel was never declared; skipped`);
            break;
          }
          if (typeof topic === 'string') {
            out.problems.push(`${at}: not a topic of this version of Parceiro; skipped`);
            break;
          }
          let message: unknown;
          try {
            message = JSON.parse(decoder.decode(r.data));
          } catch {
            out.problems.push(`${at}: its data is not JSON; skipped`);
            break;
          }
          message = withFieldsAddedLater(topic, message);
          const wrong = checkMessage(topic.message, message);
          if (wrong) {
            out.problems.push(`${at}: ${wrong}; skipped`);
            break;
          }
          out.messages.push({ topic, time: Number(r.logTime / 1000n) / 1000, message });
          break;
        }
        default:
          break;
      }
    }
  } catch (e) {
    out.problems.push(`damaged after ${out.messages.length} messages (record ${records + 1}): ${e instanceof Error ? e.message : String(e)}; the rest of the file cannot be read`);
    return out;
  }
  out.complete = reader.done();
  if (!out.complete) {
    out.problems.push(`cut short after ${out.messages.length} messages (${reader.bytesRemaining()} bytes of an unfinished record at the end): the session was not closed, e.g. the runtime stopped or crashed`);
  }
  return out;
}

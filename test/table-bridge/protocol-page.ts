// Reads PROTOCOL.md's examples and runs its transcripts against the real runtime (a SessionRuntime
// behind a TableServer, on a simulated clock): the page's messages are checked against the schemas,
// and each transcript's table events are sent to the runtime, whose answers and messages must be the
// ones the page shows, in its order.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { SimulatedClock } from 'xstate';
import type { Seat } from '../../game/index.js';
import { InProcessBus } from '../../robot/bus/index.js';
import { SessionRuntime } from '../../robot/live/session/index.js';
import { TABLE_NAMESPACE, TableServer, defaultFiducials } from '../../table-bridge/index.js';

export const PROTOCOL_PAGE = fileURLToPath(new URL('../../table-bridge/PROTOCOL.md', import.meta.url));

export interface Block {
  /** The fence's words after the language, e.g. `state` or `transcript seed=4 robot=0`. */
  info: string[];
  lang: string;
  text: string;
  line: number;
}

/** The fenced code blocks of a markdown text. */
export function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
    blocks.push({
      lang: open[1]!,
      info: open[2]!.split(/\s+/).filter(Boolean),
      text: body.join('\n'),
      line: start + 1,
    });
  }
  return blocks;
}

export interface TranscriptLine {
  dir: '>' | '<';
  /** The event or message name; `ack` for an answer. */
  name: string;
  payload: unknown;
  /** `(answered {"ok":true})` after a runtime message that asks for an answer. */
  line: number;
  text: string;
}

/** `> event {json}` and `< message {json}` lines; anything after the JSON (a comment in brackets) is ignored. */
export function transcriptLines(block: Block): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  block.text.split('\n').forEach((text, k) => {
    const m = /^([<>])\s+(\S+)\s+(\{.*\})(\s+\(.*\))?\s*$/.exec(text);
    if (!m) {
      if (text.trim() && !text.trim().startsWith('...') && !text.trim().startsWith('#'))
        throw new Error(`PROTOCOL.md:${block.line + 1 + k}: not a transcript line: ${text}`);
      return;
    }
    out.push({ dir: m[1] as '>' | '<', name: m[2]!, payload: JSON.parse(m[3]!), line: block.line + 1 + k, text });
  });
  return out;
}

export interface Received {
  name: string;
  payload: unknown;
}

export interface TranscriptRun {
  received: Received[];
  close: () => Promise<void>;
}

const TOKEN = 'the-shared-secret';

/**
 * Runs a transcript's table events against a fresh runtime: `seed`, the robot's seat, one table
 * connection. Each event waits for its answer; the robot thinks for no time (its minimum think time is
 * passed on the simulated clock). Returns every message the table received, answers included, in order.
 */
export async function runTranscript(
  lines: readonly TranscriptLine[],
  o: { seed: number; robot: Seat },
): Promise<TranscriptRun> {
  const clock = new SimulatedClock();
  const bus = new InProcessBus();
  const runtime = new SessionRuntime({
    seed: o.seed,
    games: 5,
    bus,
    clock,
    robotSeat: o.robot,
    minThinkMs: 1000,
    liftGraceMs: 3000,
    sessionId: 'local-1',
  });
  const server = new TableServer({ token: TOKEN, port: 0, fiducials: defaultFiducials(), handler: runtime });
  runtime.attach(server);
  runtime.actor.subscribe((snap) => {
    if (snap.matches({ flow: { game: { robot: 'minimumTime' } } })) setImmediate(() => clock.increment(1000));
  });
  const { url } = await server.listen();
  const socket = io(`${url}${TABLE_NAMESPACE}`, { transports: ['websocket'], forceNew: true, reconnection: false });
  const received: Received[] = [];
  socket.onAny((name: string, payload: unknown, ack?: unknown) => {
    received.push({ name, payload });
    if (typeof ack === 'function') (ack as (r: unknown) => void)({ ok: true });
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  // Before each event, and at the end, wait until the table has what the page shows before it (the
  // robot's turn on the simulated clock included): on the messages, not on the wall clock.
  let at = 0;
  let next = 0;
  const shown = async (upTo: number): Promise<void> => {
    for (; next < upTo; next++) {
      const l = lines[next]!;
      if (l.dir !== '<') continue;
      const until = Date.now() + 30_000;
      for (;;) {
        const found = received.findIndex((r, k) => k >= at && r.name === l.name && contains(r.payload, l.payload));
        if (found >= 0) {
          at = found + 1;
          break;
        }
        // Not there in time: the test's own matching says which line and what came instead.
        if (Date.now() > until) return;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };
  for (const [k, l] of lines.entries()) {
    if (l.dir !== '>') continue;
    await shown(k);
    const payload = l.name === 'hello' ? { ...(l.payload as object), token: TOKEN } : l.payload;
    // A callback, not emitWithAck: the answer is recorded as it is read, in its place among the
    // messages (a promise's continuation runs after other messages read in the same network read).
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`PROTOCOL.md:${l.line}: no answer to ${l.name}`)), 30_000);
      socket.emit(l.name, payload, (answer: unknown) => {
        clearTimeout(timer);
        received.push({ name: 'ack', payload: answer });
        resolve();
      });
    });
  }
  await shown(lines.length);
  return {
    received,
    close: async () => {
      socket.disconnect();
      runtime.stop();
      await server.close();
    },
  };
}

/** `actual` has every field `expected` has, with the same values (arrays: same length, item by item). */
export function contains(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => contains(actual[i], e))
    );
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
}

export const readPage = (): string => readFileSync(PROTOCOL_PAGE, 'utf8');

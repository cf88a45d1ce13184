// TUIO over OSC: one UDP packet (an OSC bundle) to the frames it carries, and frames back to packets
// (the simulated camera and the tests). Only tangible objects matter here: TUIO 1.1's /tuio/2Dobj and
// TUIO 2.0's /tuio2/tok (with /tuio2/frm and /tuio2/alv); cursors, blobs and other profiles are ignored.
//
// OSC itself is decoded by osc-min (zero dependencies, TypeScript types): its tests cover bundles with
// no, one and several messages, nested bundles, a bad "#bundle" tag and element sizes larger than the
// packet, and it decodes the timetag argument ('t') that TUIO 2.0's /tuio2/frm carries. node-osc 11's
// own decoder does not know 't' and would refuse every TUIO 2.0 frame whole. osc-min drops a bundle
// element it cannot parse rather than failing the bundle, so a frame is only taken with its alive list
// and its frame number both present.

import { Buffer } from 'node:buffer';
import type { OscArgOutputOrArray, OscMessageOutput, OscPacketOutput } from 'osc-min';
import { fromBuffer, toBuffer } from 'osc-min';

/** One marker as the tracker reports it: its session (one placement, as the tracker sees it) and where. */
export interface TuioMarker {
  session: number;
  fiducial: number;
  x: number;
  y: number;
  angle: number;
}

/**
 * One frame of one tracker: every session alive now, and the markers whose place the frame states (a
 * tracker may state only those that moved; the others keep their last place).
 */
export interface TuioFrame {
  version: 1 | 2;
  /** The tracker's name (TUIO 1.1 `source`, TUIO 2.0 `frm` source), "" when it gives none. */
  source: string;
  /** The frame number; -1 in TUIO 1.1 marks a frame that repeats the last one. */
  fseq: number;
  alive: number[];
  markers: TuioMarker[];
}

/** A packet that is not OSC, or not TUIO as the specification has it. */
export class TuioPacketError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TuioPacketError';
  }
}

const OBJ_1 = '/tuio/2Dobj';
const FRM_2 = '/tuio2/frm';
const TOK_2 = '/tuio2/tok';
const ALV_2 = '/tuio2/alv';

function messagesOf(packet: OscPacketOutput, out: OscMessageOutput[] = []): OscMessageOutput[] {
  if (packet.oscType === 'message') out.push(packet);
  else for (const e of packet.elements) messagesOf(e, out);
  return out;
}

function num(arg: OscArgOutputOrArray | undefined, what: string): number {
  if (arg && (arg.type === 'integer' || arg.type === 'float' || arg.type === 'double')) return arg.value;
  if (arg && arg.type === 'bigint') return Number(arg.value);
  throw new TuioPacketError(`${what}: expected a number, got ${arg ? arg.type : 'nothing'}`);
}

function int(arg: OscArgOutputOrArray | undefined, what: string): number {
  const n = num(arg, what);
  if (!Number.isInteger(n)) throw new TuioPacketError(`${what}: expected a whole number, got ${n}`);
  return n;
}

const str = (arg: OscArgOutputOrArray | undefined): string | null =>
  arg && (arg.type === 'string' || arg.type === 'symbol') ? arg.value : null;

function marker(args: readonly OscArgOutputOrArray[], at: number, what: string): TuioMarker {
  // TUIO 1.1 set: s_id i x y a ...; TUIO 2.0 tok: s_id tu_id c_id x y a ...
  const fields =
    at === 1 ? { session: 0, fiducial: 1, x: 2, y: 3, angle: 4 } : { session: 0, fiducial: 2, x: 3, y: 4, angle: 5 };
  return {
    session: int(args[fields.session], `${what} session id`),
    fiducial: int(args[fields.fiducial], `${what} ${at === 1 ? 'fiducial id' : 'component id'}`),
    x: num(args[fields.x], `${what} x`),
    y: num(args[fields.y], `${what} y`),
    angle: num(args[fields.angle], `${what} angle`),
  };
}

function frame1(messages: readonly OscMessageOutput[]): TuioFrame {
  let source = '';
  let alive: number[] | null = null;
  let fseq: number | null = null;
  const markers: TuioMarker[] = [];
  for (const m of messages) {
    const command = str(m.args[0]);
    const rest = m.args.slice(1);
    if (command === 'source') source = str(rest[0]) ?? '';
    else if (command === 'alive') alive = rest.map((a, i) => int(a, `${OBJ_1} alive[${i}]`));
    else if (command === 'set') markers.push(marker(rest, 1, `${OBJ_1} set`));
    else if (command === 'fseq') fseq = int(rest[0], `${OBJ_1} fseq`);
  }
  if (alive === null) throw new TuioPacketError(`a ${OBJ_1} bundle without its alive message`);
  if (fseq === null) throw new TuioPacketError(`a ${OBJ_1} bundle without its fseq message`);
  return { version: 1, source, fseq, alive, markers };
}

function frame2(messages: readonly OscMessageOutput[]): TuioFrame {
  let source = '';
  let alive: number[] | null = null;
  let fseq: number | null = null;
  const markers: TuioMarker[] = [];
  for (const m of messages) {
    if (m.address === FRM_2) {
      fseq = int(m.args[0], `${FRM_2} frame id`);
      source = str(m.args[3]) ?? '';
    } else if (m.address === ALV_2) alive = m.args.map((a, i) => int(a, `${ALV_2}[${i}]`));
    else if (m.address === TOK_2) markers.push(marker(m.args, 2, TOK_2));
  }
  if (fseq === null) throw new TuioPacketError(`a TUIO 2.0 bundle without its ${FRM_2} message`);
  if (alive === null) throw new TuioPacketError(`a TUIO 2.0 bundle without its ${ALV_2} message`);
  return { version: 2, source, fseq, alive, markers };
}

/** The object frames in one UDP packet (none for other profiles); throws TuioPacketError. */
export function decodeTuioPacket(packet: Uint8Array): TuioFrame[] {
  let osc: OscPacketOutput;
  try {
    osc = fromBuffer(packet);
  } catch (err) {
    throw new TuioPacketError(`not an OSC packet (${err instanceof Error ? err.message : String(err)})`);
  }
  const messages = messagesOf(osc);
  const frames: TuioFrame[] = [];
  const v1 = messages.filter((m) => m.address === OBJ_1);
  if (v1.length) frames.push(frame1(v1));
  const v2 = messages.filter((m) => m.address.startsWith('/tuio2/'));
  if (v2.some((m) => m.address === TOK_2 || m.address === FRM_2)) frames.push(frame2(v2));
  return frames;
}

// ---- encoding ------------------------------------------------------------------------------------

const i = (value: number) => ({ type: 'integer' as const, value });
const f = (value: number) => ({ type: 'float' as const, value });

/** A frame as reacTIVision would send it, in TUIO 1.1 or 2.0. */
export function encodeTuioFrame(frame: Omit<TuioFrame, 'version'>, version: 1 | 2): Buffer {
  const elements =
    version === 1
      ? [
          ...(frame.source ? [{ address: OBJ_1, args: ['source', frame.source] }] : []),
          { address: OBJ_1, args: ['alive', ...frame.alive.map(i)] },
          ...frame.markers.map((m) => ({
            address: OBJ_1,
            args: ['set', i(m.session), i(m.fiducial), f(m.x), f(m.y), f(m.angle), f(0), f(0), f(0), f(0), f(0)],
          })),
          { address: OBJ_1, args: ['fseq', i(frame.fseq)] },
        ]
      : [
          // Frame id, time, sensor dimension (640x480 as two 16-bit halves), source.
          {
            address: FRM_2,
            args: [
              i(frame.fseq),
              { type: 'timetag' as const, value: [0, 1] as [number, number] },
              i((640 << 16) | 480),
              frame.source || 'parceiro',
            ],
          },
          ...frame.markers.map((m) => ({
            address: TOK_2,
            args: [i(m.session), i(0), i(m.fiducial), f(m.x), f(m.y), f(m.angle)],
          })),
          { address: ALV_2, args: frame.alive.map(i) },
        ];
  const view = toBuffer({ timetag: [0, 1], elements });
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

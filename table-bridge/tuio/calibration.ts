// Calibrating a camera table: the operator puts one marker at each corner of each zone in turn (every
// seat's play spot and hand area, then the trump area), and the corner is where the marker lay, averaged
// over the frames it stayed still. No keyboard is needed: a corner is taken once one marker has been still
// for `stillFrames` frames, and the next is asked for once the table has been clear for `clearFrames`,
// so the same flow runs from a test that sends the TUIO.

import { dirname, relative } from 'node:path';
import { isMap, isScalar, parseDocument } from 'yaml';
import type { Seat } from '../../game/index.js';
import { describeIssues, wording } from '../messages.js';
import { MarkerBoard } from './marker-board.js';
import type { TableZone } from './placements.js';
import { zoneName } from './placements.js';
import type { Point } from './polygons.js';
import { aroundCentre } from './polygons.js';
import type { TuioFile } from './tuio-config.js';
import { zonesSchema } from './tuio-config.js';
import type { TuioFrame } from './tuio-packets.js';

/** The zones in the order they are measured. */
const CALIBRATION_ZONES: readonly TableZone[] = [
  ...([0, 1, 2, 3] as Seat[]).flatMap((seat): TableZone[] => [
    { area: 'play', seat },
    { area: 'hand', seat },
  ]),
  { area: 'trump' },
];

const CORNERS = 4;

export class CalibrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalibrationError';
  }
}

interface CalibratorOptions {
  /** Frames a lone marker must stay still to be taken (default 15: half a second at 30 fps). */
  stillFrames?: number;
  /** How far it may wander meanwhile and count as still (default 0.005 of the image). */
  stillWithin?: number;
  /** Frames without any marker before the next corner is asked for (default 5). */
  clearFrames?: number;
  /** What to tell the operator. */
  say: (line: string) => void;
}

export class Calibrator {
  readonly #o: Required<CalibratorOptions>;
  readonly #board = new MarkerBoard();
  readonly #corners: Point[][] = CALIBRATION_ZONES.map(() => []);
  #zone = 0;
  #phase: 'place' | 'lift' | 'done' = 'place';
  #window: Point[] = [];
  #clear = 0;
  #finished!: (zones: TuioFile['zones']) => void;
  #failed!: (e: Error) => void;
  /** Resolves with the measured zones once every corner is taken; rejects when they do not make a table. */
  readonly done: Promise<TuioFile['zones']>;

  constructor(options: CalibratorOptions) {
    this.#o = { stillFrames: 15, stillWithin: 0.005, clearFrames: 5, ...options };
    this.done = new Promise((resolve, reject) => {
      this.#finished = resolve;
      this.#failed = reject;
    });
  }

  /** Asks for the first corner (once the operator can answer: the port is open). */
  start(): void {
    this.#ask();
  }

  /** The next corner asked for, or null when done. */
  get asking(): { zone: TableZone; corner: number } | null {
    return this.#phase === 'done'
      ? null
      : { zone: CALIBRATION_ZONES[this.#zone]!, corner: this.#corners[this.#zone]!.length + 1 };
  }

  frame(frame: TuioFrame): void {
    if (this.#phase === 'done' || !this.#board.apply(frame)) return;
    const markers = this.#board.present();
    if (this.#phase === 'lift') {
      this.#clear = markers.length === 0 ? this.#clear + 1 : 0;
      if (this.#clear >= this.#o.clearFrames) this.#next();
      return;
    }
    if (markers.length !== 1) {
      if (markers.length > 1 && this.#window.length > 0)
        this.#o.say(`${markers.length} markers are on the table: leave only the one at the corner.`);
      this.#window = [];
      return;
    }
    const m = markers[0]!;
    this.#window.push([m.x, m.y]);
    if (this.#window.length > this.#o.stillFrames) this.#window.shift();
    if (this.#window.length < this.#o.stillFrames) return;
    const mean: Point = [avg(this.#window.map((p) => p[0])), avg(this.#window.map((p) => p[1]))];
    if (this.#window.some((p) => Math.hypot(p[0] - mean[0], p[1] - mean[1]) > this.#o.stillWithin)) return;
    const corners = this.#corners[this.#zone]!;
    corners.push(mean);
    this.#o.say(
      `Corner ${corners.length} of ${zoneName(CALIBRATION_ZONES[this.#zone]!)}: (${mean[0].toFixed(3)}, ${mean[1].toFixed(3)}). Lift the marker.`,
    );
    this.#phase = 'lift';
    this.#clear = 0;
    this.#window = [];
  }

  #next(): void {
    if (this.#corners[this.#zone]!.length === CORNERS) this.#zone++;
    if (this.#zone < CALIBRATION_ZONES.length) {
      this.#phase = 'place';
      return this.#ask();
    }
    this.#phase = 'done';
    const zones = this.#zones();
    const checked = zonesSchema.safeParse(zones, { error: wording });
    if (checked.success) this.#finished(checked.data);
    else
      this.#failed(
        new CalibrationError(
          `the measured zones do not make a table: ${describeIssues('zones', checked.error.issues)}; run the calibration again`,
        ),
      );
  }

  #ask(): void {
    const c = this.asking!;
    this.#o.say(`Put a marker on corner ${c.corner} of ${CORNERS} of ${zoneName(c.zone)} and leave it still.`);
  }

  #zones(): TuioFile['zones'] {
    const polygon = (i: number): [number, number][] =>
      aroundCentre(this.#corners[i]!).map(([x, y]) => [round(x), round(y)]);
    return {
      trump: polygon(CALIBRATION_ZONES.length - 1),
      seats: ([0, 1, 2, 3] as Seat[]).map((seat) => ({ seat, play: polygon(seat * 2), hand: polygon(seat * 2 + 1) })),
    };
  }
}

const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const round = (v: number): number => Math.round(v * 10_000) / 10_000;

/**
 * The settings file with its zones replaced by measured ones: the rest of `baseText` (settings and
 * comments) is kept; the fiducials path is made to work from where the file is written.
 */
export function withZones(
  baseText: string,
  outFile: string,
  zones: TuioFile['zones'],
  fiducialsFile: string,
  when: Date,
): string {
  const doc = parseDocument(baseText);
  const poly = (p: readonly (readonly [number, number])[]) => {
    const node = doc.createNode(p.map(([x, y]) => [x, y]));
    node.flow = true;
    return node;
  };
  const seats = zones.seats.map((s) => {
    return doc.createNode({ seat: s.seat, play: poly(s.play), hand: poly(s.hand) });
  });
  doc.setIn(['zones', 'trump'], poly(zones.trump));
  doc.setIn(['zones', 'seats'], doc.createNode(seats));
  // The mapping stays the base file's, found from wherever this file is written.
  doc.set('fiducials', relative(dirname(outFile), fiducialsFile) || fiducialsFile);
  const pairs = isMap(doc.contents) ? doc.contents.items : [];
  const key = pairs.find((p) => isScalar(p.key) && p.key.value === 'zones')?.key;
  if (isScalar(key)) {
    const stamp = ` Measured by parceiro calibrate-table on ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
    key.commentBefore = key.commentBefore ? `${key.commentBefore}\n${stamp}` : stamp;
  }
  return doc.toString();
}

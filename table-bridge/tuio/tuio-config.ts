// The TUIO adapter's settings and the table's geometry: config/table/tuio.yaml. Zones are polygons in
// the camera's normalized coordinates (what reacTIVision reports, x and y in 0..1): each seat's play
// spot and hand area, and the area where the dealer shows the turned-up trump card. Validated with zod
// through config/'s loader, so a mistake is named with its file and line.

import { dirname, isAbsolute, join } from 'node:path';
import * as z from 'zod';
import type { Seat } from '../../game/index.js';
import { configPath, loadYamlConfig, parseYamlConfig } from '../../config/index.js';
import { TABLE_CONFIG_OPTIONS, seatSchema } from '../messages.js';
import type { Polygon } from './polygons.js';
import { doubleArea, overlap, selfIntersects } from './polygons.js';

const DEFAULT_TUIO_PORT = 3333;
export const DEFAULT_TUIO_FILE = (): string => configPath('table', 'tuio.yaml');

const coordinate = z.number().min(0).max(1);
const pointSchema = z.tuple([coordinate, coordinate], { error: 'expected a point [x, y] with x and y from 0 to 1' });
const polygonSchema = z
  .array(pointSchema)
  .min(3)
  .max(32)
  .superRefine((p, ctx) => {
    if (selfIntersects(p))
      ctx.addIssue({ code: 'custom', message: 'two edges cross: list the corners in order around the zone', input: p });
    else if (Math.abs(doubleArea(p)) < 1e-9)
      ctx.addIssue({ code: 'custom', message: 'the corners lie on one line: the zone has no area', input: p });
  });

const seatZonesSchema = z.object({ seat: seatSchema, play: polygonSchema, hand: polygonSchema });

export const zonesSchema = z
  .object({
    trump: polygonSchema,
    seats: z.array(seatZonesSchema).length(4, { error: 'expected the zones of all four seats, 0 to 3' }),
  })
  .superRefine((zones, ctx) => {
    const seen = new Set<number>();
    zones.seats.forEach((s, i) => {
      if (seen.has(s.seat))
        ctx.addIssue({
          code: 'custom',
          path: ['seats', i, 'seat'],
          message: `seat ${s.seat} is listed twice`,
          input: s.seat,
        });
      seen.add(s.seat);
    });
    // Any point in two zones would make a card's place ambiguous.
    const all: { path: PropertyKey[]; name: string; polygon: Polygon }[] = [
      { path: ['trump'], name: 'the trump area', polygon: zones.trump },
      ...zones.seats.flatMap((s, i) => [
        { path: ['seats', i, 'play'], name: `seat ${s.seat}'s play spot`, polygon: s.play },
        { path: ['seats', i, 'hand'], name: `seat ${s.seat}'s hand area`, polygon: s.hand },
      ]),
    ];
    for (let i = 0; i < all.length; i++) {
      for (let j = 0; j < i; j++) {
        if (overlap(all[i]!.polygon, all[j]!.polygon)) {
          ctx.addIssue({
            code: 'custom',
            path: all[i]!.path,
            message: `${all[i]!.name} overlaps ${all[j]!.name}`,
            input: all[i]!.polygon,
          });
          return;
        }
      }
    }
  });

const tuioFileSchema = z.strictObject({
  listen: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.int().min(0).max(65_535).default(DEFAULT_TUIO_PORT),
    })
    .prefault({}),
  /** The marker-to-card mapping, relative to this file. */
  fiducials: z.string().min(1).default('fiducials.yaml'),
  flickerMs: z.int().min(0).max(5000).default(200),
  settleMs: z.int().min(0).max(5000).default(100),
  firstDealer: z.union([seatSchema, z.literal('after-robot')]).default('after-robot'),
  zones: zonesSchema,
});
export type TuioFile = z.output<typeof tuioFileSchema>;

interface SeatZones {
  play: Polygon;
  hand: Polygon;
}

/** The table's geometry, by seat. */
export interface TableGeometry {
  trump: Polygon;
  seats: Record<Seat, SeatZones>;
}

export interface TuioSettings {
  /** Where the settings came from (for messages). */
  file: string;
  host: string;
  port: number;
  /** Absolute path of the fiducial mapping. */
  fiducialsFile: string;
  flickerMs: number;
  settleMs: number;
  firstDealer: Seat | 'after-robot';
  geometry: TableGeometry;
}

function geometryOf(zones: TuioFile['zones']): TableGeometry {
  const seats = {} as Record<Seat, SeatZones>;
  for (const s of zones.seats) seats[s.seat] = { play: s.play, hand: s.hand };
  return { trump: zones.trump, seats };
}

function settingsOf(file: string, parsed: TuioFile): TuioSettings {
  return {
    file,
    host: parsed.listen.host,
    port: parsed.listen.port,
    fiducialsFile: isAbsolute(parsed.fiducials) ? parsed.fiducials : join(dirname(file), parsed.fiducials),
    flickerMs: parsed.flickerMs,
    settleMs: parsed.settleMs,
    firstDealer: parsed.firstDealer,
    geometry: geometryOf(parsed.zones),
  };
}

/** Loads the adapter's settings (default config/table/tuio.yaml); throws ConfigError with file and line. */
export function loadTuioSettings(file: string = DEFAULT_TUIO_FILE()): TuioSettings {
  return settingsOf(file, loadYamlConfig(file, tuioFileSchema, TABLE_CONFIG_OPTIONS));
}

export function parseTuioSettings(file: string, text: string): TuioSettings {
  return settingsOf(file, parseYamlConfig(text, file, tuioFileSchema, TABLE_CONFIG_OPTIONS));
}

/** The dealer of the first physical game: a seat, or the seat after the robot's. */
export const firstDealerFor = (setting: Seat | 'after-robot', robotSeat: Seat): Seat =>
  setting === 'after-robot' ? (((robotSeat + 1) & 3) as Seat) : setting;

// parceiro tuio-sim: checks a lab's TUIO setup without cards. It plays the people at a camera table
// against a running `parceiro live --tuio`: a seeded deal of real cards, rule-based players, every card
// sent as a marker in TUIO bundles as reacTIVision sends them (frames at a steady rate, alive lists,
// frame numbers, now and then a lost marker and jitter), and it follows the game by watching the
// runtime as a table with no seats.

import { loadNodeSettings } from '../../robot/live/index.js';
import { loadFiducials } from '../../table-bridge/index.js';
import type { TuioPlayersSummary } from '../../table-bridge/tuio/index.js';
import {
  DEFAULT_TUIO_FILE,
  HelloRefused,
  TuioCamera,
  TuioPlayers,
  loadTuioSettings,
} from '../../table-bridge/tuio/index.js';
import { UsageError } from '../errors.js';

interface TuioSimOptions {
  /** The runtime (`parceiro live`). */
  host?: string;
  port?: number;
  token: string;
  /** Where the adapter listens for TUIO. */
  tuioHost: string;
  tuioPort?: number;
  /** The adapter's settings file (its zones say where the cards go). */
  tuioConfig?: string;
  tuioVersion: string;
  games?: number;
  seed: number;
  think: number;
  fps: number;
  /** How long to wait for the runtime to answer (s). */
  wait: number;
  flicker: number;
  jitter: number;
}

const share = (name: string, v: number): number => {
  if (!(v >= 0 && v <= 1)) throw new UsageError(`${name} expects a share from 0 to 1, got ${v}`);
  return v;
};

/** Parses a share option (0..1), naming the option when it is not one. */
export const shareOption =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n))
      throw new UsageError(`${name} expects a number from 0 to 1, got "${value}"`);
    return share(name, n);
  };

export async function tuioSimCommand(o: TuioSimOptions, write: (line: string) => void): Promise<TuioPlayersSummary> {
  if (o.tuioVersion !== '1' && o.tuioVersion !== '2')
    throw new UsageError(`--tuio-version expects 1 or 2, got "${o.tuioVersion}"`);
  if (!o.token) throw new UsageError('--token is required: the token `parceiro live` printed');
  const settings = loadTuioSettings(o.tuioConfig ?? DEFAULT_TUIO_FILE());
  const fiducials = loadFiducials(settings.fiducialsFile);
  const table = loadNodeSettings().table;
  const url = `http://${o.host ?? table.host}:${o.port ?? table.port}`;
  const tuioPort = o.tuioPort ?? settings.port;
  const camera = new TuioCamera({
    host: o.tuioHost,
    port: tuioPort,
    version: o.tuioVersion === '1' ? 1 : 2,
    seed: o.seed,
    fps: o.fps,
    flicker: o.flicker,
    jitter: o.jitter,
  });
  const people = new TuioPlayers({
    url,
    token: o.token,
    seed: o.seed,
    camera,
    geometry: settings.geometry,
    fiducials,
    firstDealer: settings.firstDealer,
    thinkMs: o.think,
    joinTimeoutMs: o.wait * 1000,
    ...(o.games === undefined ? {} : { games: o.games }),
    say: write,
  });
  write(
    `Playing the people at a camera table: TUIO ${o.tuioVersion === '1' ? '1.1' : '2.0'} at ${o.fps} frames a second to ${o.tuioHost}:${tuioPort}, following the game at ${url}; seed ${o.seed}.`,
  );
  const stop = new Promise<never>((_, reject) => {
    const halt = () => reject(new UsageError('stopped'));
    process.once('SIGINT', halt);
    process.once('SIGTERM', halt);
  });
  let summary: TuioPlayersSummary;
  try {
    summary = await Promise.race([people.run(), stop]);
  } catch (e) {
    if (e instanceof HelloRefused) throw new UsageError(e.message);
    if (e instanceof Error && e.message.startsWith('no runtime answered'))
      throw new UsageError(`${e.message}: is \`parceiro live --tuio\` running there, with this --port?`);
    if (e instanceof Error && e.message.startsWith('waited '))
      throw new UsageError(
        `${e.message}: does the adapter listen on ${o.tuioHost}:${tuioPort} with the same zones (--tuio-config)?`,
      );
    throw e;
  } finally {
    people.close();
    camera.close();
  }
  const s = summary;
  write('');
  write(
    `Played ${s.games} game${s.games === 1 ? '' : 's'}: victories A ${s.victories[0]} - B ${s.victories[1]}; points by game (A-B) ${s.points.map(([a, b]) => `${a}-${b}`).join(', ') || 'none'}.`,
  );
  write(
    `People played ${s.cards} cards (${s.slid} slid from a hand area), put ${s.robotCards} of the robot's on its spot and gathered ${s.tricksGathered} tricks.`,
  );
  write(`The camera sent ${s.frames} frames and lost a marker for a moment ${s.dropouts} times; every card was read.`);
  return summary;
}

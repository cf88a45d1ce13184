// parceiro calibrate-table: measures a camera table's zones from markers the operator puts at each
// corner in turn, and writes the adapter's settings file with them (the rest copied from the base
// file). No keyboard: a corner is taken when its marker has been still for a while, the next asked for
// when the table is clear, so it runs the same from a script that sends the TUIO.

import { writeFileSync } from 'node:fs';
import { readConfigText } from '../../config/index.js';
import { resolve } from 'node:path';
import {
  CalibrationError,
  Calibrator,
  DEFAULT_TUIO_FILE,
  TuioListener,
  loadTuioSettings,
  parseTuioSettings,
  withZones,
} from '../../table-bridge/tuio/index.js';
import { UsageError } from '../errors.js';

interface CalibrateOptions {
  host?: string;
  /** UDP port (0: a free one); default the base file's. */
  port?: number;
  /** The settings to start from; default config/table/tuio.yaml. */
  config?: string;
  out: string;
  stillFrames: number;
}

export async function calibrateCommand(o: CalibrateOptions, write: (line: string) => void): Promise<string> {
  const base = o.config ?? DEFAULT_TUIO_FILE();
  const settings = loadTuioSettings(base);
  const baseText = readConfigText(base);
  const out = resolve(o.out);
  const calibrator = new Calibrator({ stillFrames: o.stillFrames, say: write });
  const listener = new TuioListener({
    host: o.host ?? settings.host,
    port: o.port ?? settings.port,
    onFrame: (f) => calibrator.frame(f),
  });
  let address: { host: string; port: number };
  try {
    address = await listener.listen();
  } catch (e) {
    throw new UsageError(
      `cannot listen for TUIO on ${o.host ?? settings.host}:${o.port ?? settings.port} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    );
  }
  write(
    `Listening for TUIO on ${address.host}:${address.port}. One marker at a time; each corner is taken once the marker has been still for ${o.stillFrames} frames.`,
  );
  calibrator.start();
  const stop = new Promise<'stopped'>((done) => {
    process.once('SIGINT', () => done('stopped'));
    process.once('SIGTERM', () => done('stopped'));
  });
  let zones: Awaited<Calibrator['done']> | 'stopped';
  try {
    zones = await Promise.race([calibrator.done, stop]);
  } catch (e) {
    if (e instanceof CalibrationError) throw new UsageError(e.message);
    throw e;
  } finally {
    await listener.close();
  }
  if (zones === 'stopped') {
    write('Stopped before every corner was measured: nothing written.');
    process.exitCode = 1;
    return out;
  }
  const text = withZones(baseText, out, zones, settings.fiducialsFile, new Date());
  // What is written must load: the same checks as at `live --tuio`.
  parseTuioSettings(out, text);
  try {
    writeFileSync(out, text);
  } catch (e) {
    throw new UsageError(`cannot write ${out} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  write(`Wrote ${out}. Use it with: parceiro live --tuio --tuio-config ${out}`);
  return out;
}

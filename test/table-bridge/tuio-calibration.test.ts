// Calibrating a camera table, with TUIO sent over UDP as the operator's markers: a driver reads what
// the calibration asks ("Put a marker on corner 2 of 4 of seat 1's hand area") and answers with frames
// holding one marker at that corner of a known table, then empty frames once it is told to lift it. The
// calibration counts frames, not time, so this runs the same on a loaded machine. The same driver runs
// the built `parceiro calibrate-table` through its standard output.

import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Seat } from '../../game/index.js';
import type { Point, TableGeometry } from '../../table-bridge/tuio/index.js';
import {
  CalibrationError,
  Calibrator,
  DEFAULT_TUIO_FILE,
  TuioListener,
  aroundCentre,
  encodeTuioFrame,
  loadTuioSettings,
  parseTuioSettings,
  withZones,
} from '../../table-bridge/tuio/index.js';
import { CLI } from '../launch/run-cli.js';

const table = loadTuioSettings().geometry;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-calibrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** The corner a prompt asks for, on the table `truth`. */
function cornerAsked(line: string, truth: TableGeometry): Point | null {
  const m = /^Put a marker on corner (\d) of 4 of (?:seat (\d)'s (play spot|hand area)|the trump area)/.exec(line);
  if (!m) return null;
  const polygon =
    m[2] === undefined ? truth.trump : truth.seats[Number(m[2]) as Seat][m[3] === 'play spot' ? 'play' : 'hand'];
  return polygon[Number(m[1]) - 1]!;
}

/** Plays the operator: a marker where asked, none once told to lift it; frames every 2 ms until stopped. */
function operator(port: number, truth: TableGeometry, version: 1 | 2, extraMarker = false) {
  const socket = createSocket('udp4');
  let target: Point | null = null;
  let fseq = 0;
  let frames = 0;
  const timer = setInterval(() => {
    fseq++;
    frames++;
    // A little camera noise, well within what counts as still.
    const wobble = (fseq % 3) * 0.0002;
    const markers = target
      ? [{ session: 100, fiducial: 0, x: target[0] + wobble, y: target[1] - wobble, angle: 0 }]
      : [];
    if (target && extraMarker && frames >= 4 && frames < 40)
      markers.push({ session: 101, fiducial: 1, x: 0.05, y: 0.05, angle: 0 });
    socket.send(
      encodeTuioFrame({ source: 'op', fseq, alive: markers.map((m) => m.session), markers }, version),
      port,
      '127.0.0.1',
    );
  }, 2);
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    socket.close();
  };
  closers.push(stop);
  return {
    hear(line: string): void {
      const corner = cornerAsked(line, truth);
      if (corner) target = corner;
      else if (line.includes('Lift the marker')) target = null;
    },
    stop,
  };
}

const expectSameZones = (measured: TableGeometry, truth: TableGeometry): void => {
  const close = (a: readonly Point[], b: readonly Point[]) => {
    const bs = aroundCentre(b);
    expect(a).toHaveLength(4);
    a.forEach((p, i) => {
      expect(p[0]).toBeCloseTo(bs[i]![0], 3);
      expect(p[1]).toBeCloseTo(bs[i]![1], 3);
    });
  };
  close(measured.trump, truth.trump);
  for (const seat of [0, 1, 2, 3] as Seat[]) {
    close(measured.seats[seat].play, truth.seats[seat].play);
    close(measured.seats[seat].hand, truth.seats[seat].hand);
  }
};

describe('calibrating a camera table', () => {
  it('measures every corner of every zone from TUIO 2.0 over UDP, waiting for a lone still marker and a clear table', async () => {
    const said: string[] = [];
    let op: ReturnType<typeof operator> | null = null;
    const calibrator = new Calibrator({ stillFrames: 8, say: (line) => (said.push(line), op?.hear(line)) });
    const listener = new TuioListener({ host: '127.0.0.1', port: 0, onFrame: (f) => calibrator.frame(f) });
    closers.push(() => listener.close());
    const { port } = await listener.listen();
    op = operator(port, table, 2, true);
    calibrator.start();
    const zones = await calibrator.done;
    op.stop();
    const measured = parseTuioSettings(
      '/lab/tuio.yaml',
      withZones(readFileSync(DEFAULT_TUIO_FILE(), 'utf8'), '/lab/tuio.yaml', zones, '/lab/fiducials.yaml', new Date(0)),
    ).geometry;
    expectSameZones(measured, table);
    expect(said.filter((l) => l.startsWith('Put a marker'))).toHaveLength(36);
    expect(said[0]).toBe("Put a marker on corner 1 of 4 of seat 0's play spot and leave it still.");
    expect(said).toContain('2 markers are on the table: leave only the one at the corner.');
    expect(said.at(-1)).toMatch(/^Corner 4 of the trump area: \(0\.8\d\d, 0\.9\d\d\)\. Lift the marker\.$/);
  });

  it('refuses zones that do not make a table, saying which overlap', async () => {
    // Every zone measured on the same square: seat 0's hand area lies on its play spot.
    const same: TableGeometry = {
      trump: table.trump,
      seats: Object.fromEntries(
        ([0, 1, 2, 3] as Seat[]).map((s) => [s, { play: table.trump, hand: table.trump }]),
      ) as TableGeometry['seats'],
    };
    let op: ReturnType<typeof operator> | null = null;
    const calibrator = new Calibrator({ stillFrames: 3, clearFrames: 2, say: (line) => op?.hear(line) });
    const listener = new TuioListener({ host: '127.0.0.1', port: 0, onFrame: (f) => calibrator.frame(f) });
    closers.push(() => listener.close());
    const { port } = await listener.listen();
    op = operator(port, same, 1);
    calibrator.start();
    await expect(calibrator.done).rejects.toThrow(
      new CalibrationError(
        "the measured zones do not make a table: zones.seats[0].play: seat 0's play spot overlaps the trump area; run the calibration again",
      ),
    );
  });

  it("writes settings that keep the base file's other settings and comments, with the fiducials found from the new place", () => {
    const base = readFileSync(DEFAULT_TUIO_FILE(), 'utf8');
    const text = withZones(
      base,
      '/elsewhere/lab.yaml',
      {
        trump: table.trump.map((p) => [...p] as [number, number]),
        seats: ([0, 1, 2, 3] as Seat[]).map((seat) => ({
          seat,
          play: [...table.seats[seat].play] as [number, number][],
          hand: [...table.seats[seat].hand] as [number, number][],
        })),
      },
      loadTuioSettings().fiducialsFile,
      new Date('2026-01-02T03:04:00Z'),
    );
    expect(text).toContain('# A marker the camera loses and finds again');
    expect(text).toContain('# Measured by parceiro calibrate-table on 2026-01-02 03:04 UTC.');
    const s = parseTuioSettings('/elsewhere/lab.yaml', text);
    expect(s.fiducialsFile).toBe(loadTuioSettings().fiducialsFile);
    expect(s.flickerMs).toBe(200);
  });
});

describe('parceiro calibrate-table', () => {
  it('runs without a keyboard: TUIO 1.1 from a script, the zones written to --out', { timeout: 180_000 }, async () => {
    const out = join(dir, 'lab-tuio.yaml');
    const child = spawn(
      process.execPath,
      [CLI, 'calibrate-table', '--port', '0', '--out', out, '--still-frames', '6'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    closers.push(() => child.kill());
    let op: ReturnType<typeof operator> | null = null;
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const listening = /^Listening for TUIO on 127\.0\.0\.1:(\d+)/.exec(line);
        if (listening) op = operator(Number(listening[1]), table, 1);
        op?.hear(line);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Wrote ${out}. Use it with: parceiro live --tuio --tuio-config ${out}`);
    expectSameZones(loadTuioSettings(out).geometry, table);
  });
});

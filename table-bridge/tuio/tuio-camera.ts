// A camera made of code: it sends the markers lying on a pretend table as reacTIVision does, a TUIO
// bundle per frame at a steady rate (alive list, each marker's place, frame number), over UDP. It can
// behave like a real camera: a marker now and then lost for a frame or two (it comes back with a new
// session id, as reacTIVision gives it), and positions that jitter. Every random choice is seeded.

import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import type { Rng } from '../../game/index.js';
import { createRng } from '../../game/index.js';
import type { Point } from './polygons.js';
import type { TuioMarker } from './tuio-packets.js';
import { encodeTuioFrame } from './tuio-packets.js';

interface TuioCameraOptions {
  /** Where the adapter listens. */
  host: string;
  port: number;
  version: 1 | 2;
  seed: number;
  /** Frames a second. Default 30. */
  fps?: number;
  /** The chance per marker and frame that the camera loses it for 1 to `flickerFrames` frames. Default 0. */
  flicker?: number;
  /** Default 2: at 30 fps, under 100 ms. */
  flickerFrames?: number;
  /** Each frame moves each marker by up to this much in x and y (camera noise). Default 0. */
  jitter?: number;
  /** The tracker's name in its frames. */
  source?: string;
}

interface Lying {
  fiducial: number;
  session: number;
  at: Point;
  /** Frames the camera still misses it. */
  lostFor: number;
}

export class TuioCamera {
  readonly #o: Required<TuioCameraOptions>;
  readonly #rng: Rng;
  readonly #socket: Socket;
  readonly #lying = new Map<number, Lying>();
  readonly #frameWaiters: { at: number; resolve: () => void }[] = [];
  #nextSession = 1;
  #fseq = 0;
  #timer: NodeJS.Timeout | null = null;
  /** Frames sent, and markers lost for a while (each came back with a new session). */
  readonly counts = { frames: 0, dropouts: 0 };

  constructor(options: TuioCameraOptions) {
    this.#o = { fps: 30, flicker: 0, flickerFrames: 2, jitter: 0, source: 'parceiro-tuio-sim', ...options };
    this.#rng = createRng(options.seed, 0xca3e7a);
    this.#nextSession = 1 + this.#rng.int(1000);
    this.#socket = createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
    this.#socket.on('error', () => {});
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#sendFrame(), Math.max(1, Math.round(1000 / this.#o.fps)));
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    for (const w of this.#frameWaiters.splice(0)) w.resolve();
    this.#socket.close();
  }

  /** A card put down: a new session. */
  place(fiducial: number, at: Point): void {
    this.#lying.set(fiducial, { fiducial, session: this.#nextSession++, at, lostFor: 0 });
  }

  /** A card slid to `at`: the same session. */
  move(fiducial: number, at: Point): void {
    const m = this.#lying.get(fiducial);
    if (m) m.at = at;
    else this.place(fiducial, at);
  }

  lift(fiducial: number): void {
    this.#lying.delete(fiducial);
  }

  where(fiducial: number): Point | undefined {
    return this.#lying.get(fiducial)?.at;
  }

  /** Resolves once `n` more frames have been sent. */
  frames(n: number): Promise<void> {
    return new Promise((resolve) => this.#frameWaiters.push({ at: this.counts.frames + n, resolve }));
  }

  /** Slides a card to `to` over `steps` frames (a person's hand moving it), the same session all the way. */
  async slide(fiducial: number, to: Point, steps: number): Promise<void> {
    const from = this.where(fiducial) ?? to;
    for (let i = 1; i <= steps; i++) {
      this.move(fiducial, [from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps]);
      await this.frames(1);
    }
  }

  #sendFrame(): void {
    const seen: TuioMarker[] = [];
    for (const m of this.#lying.values()) {
      if (m.lostFor > 0) {
        // Found again: reacTIVision starts a new session for it.
        if (--m.lostFor === 0) m.session = this.#nextSession++;
        continue;
      }
      if (this.#o.flicker > 0 && this.#rng.next() < this.#o.flicker) {
        m.lostFor = 1 + this.#rng.int(this.#o.flickerFrames);
        this.counts.dropouts++;
        continue;
      }
      const j = this.#o.jitter;
      const noise = (): number => (j > 0 ? (this.#rng.next() * 2 - 1) * j : 0);
      seen.push({
        session: m.session,
        fiducial: m.fiducial,
        x: clamp(m.at[0] + noise()),
        y: clamp(m.at[1] + noise()),
        angle: 0,
      });
    }
    const packet = encodeTuioFrame(
      { source: this.#o.source, fseq: ++this.#fseq, alive: seen.map((m) => m.session), markers: seen },
      this.#o.version,
    );
    this.#socket.send(packet, this.#o.port, this.#o.host);
    this.counts.frames++;
    for (const w of [...this.#frameWaiters]) {
      if (w.at <= this.counts.frames) {
        this.#frameWaiters.splice(this.#frameWaiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }
}

const clamp = (v: number): number => Math.min(1, Math.max(0, v));

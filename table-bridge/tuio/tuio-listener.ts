// Receives TUIO over UDP (node:dgram) and hands on the frames it carries. A packet that is not TUIO is
// skipped and logged: the first from each sender with its reason, then only a count now and then, so a
// misconfigured sender at 30 frames a second does not drown the log.

import { createSocket } from 'node:dgram';
import type { RemoteInfo, Socket } from 'node:dgram';
import type { TableLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { TuioFrame } from './tuio-packets.js';
import { TuioPacketError, decodeTuioPacket } from './tuio-packets.js';

/** After the first bad packet from a sender, one line per this many more. */
const BAD_PACKET_EVERY = 500;

interface TuioListenerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  onFrame: (frame: TuioFrame) => void;
  logger?: TableLogger;
}

export class TuioListener {
  readonly #o: TuioListenerOptions;
  readonly #log: TableLogger;
  readonly #bad = new Map<string, number>();
  #socket: Socket | null = null;
  /** Packets received, frames decoded, packets skipped as malformed. */
  readonly counts = { packets: 0, frames: 0, malformed: 0 };

  constructor(options: TuioListenerOptions) {
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  /** Binds the port; resolves with the address, rejects (e.g. EADDRINUSE) when it cannot. */
  async listen(): Promise<{ host: string; port: number }> {
    const socket = createSocket({ type: this.#o.host.includes(':') ? 'udp6' : 'udp4' });
    socket.on('message', (msg, from) => this.#packet(msg, from));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.#o.port, this.#o.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', (err) => this.#log.error({ err: err.message }, 'TUIO socket error'));
    this.#socket = socket;
    const a = socket.address();
    return { host: a.address, port: a.port };
  }

  close(): Promise<void> {
    const s = this.#socket;
    this.#socket = null;
    return s ? new Promise((resolve) => s.close(() => resolve())) : Promise.resolve();
  }

  #packet(msg: Buffer, from: RemoteInfo): void {
    this.counts.packets++;
    let frames: TuioFrame[];
    try {
      frames = decodeTuioPacket(msg);
    } catch (err) {
      this.counts.malformed++;
      const sender = `${from.address}:${from.port}`;
      const n = (this.#bad.get(sender) ?? 0) + 1;
      this.#bad.set(sender, n);
      const reason = err instanceof TuioPacketError ? err.message : String(err);
      if (n === 1)
        this.#log.warn(
          { from: sender, bytes: msg.length, reason },
          'skipped a packet that is not TUIO (further ones from this sender are counted)',
        );
      else if (n % BAD_PACKET_EVERY === 0)
        this.#log.warn({ from: sender, count: n, reason }, 'still skipping packets that are not TUIO');
      return;
    }
    for (const f of frames) {
      this.counts.frames++;
      this.#o.onFrame(f);
    }
  }
}

// Connections an HTTP server holds, capped per address and in all, so that connections held open
// without ever finishing a request (a page or program that opens thousands and sends half a request)
// cannot take every file descriptor of the node, nor crowd out a table.
//
// A connection is *unfinished* once it has sent part of a request's headers and stopped (or has sent
// nothing for IDLE_MS). At most `unfinishedPerAddress` of an address's are kept: at each new
// connection, the oldest beyond that are dropped. A connection that has not been read yet is never
// dropped for another: a table sends its whole request at once and is finished as soon as it is read,
// so a flood of new connections, each dropping the one before it, cannot drop it first. Past
// `perAddress` (or `total`) connections in all, the oldest unfinished goes, or with none the new one
// is refused: that happens when a program opens connections faster than they can be read (hundreds
// accepted at once, none read yet), and a table's connection among them is refused then; tables
// connect again by themselves (socket.io's reconnection) and get in at the next try or the one after
// (docs/reliability.md has the figures). Node's headersTimeout and requestTimeout bound how long any
// one is held; this, how many.

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TableLogger } from './logger.js';

/** Connections an HTTP server holds at most (see the file's head). */
export interface ConnectionCaps {
  unfinishedPerAddress: number;
  perAddress: number;
  total: number;
}

/**
 * Far under the usual 1024 or more descriptors of a process, and far over what a lab uses: a few
 * tables, a dashboard or two, a virtual table, each one connection (a page a few more as it loads).
 */
export const DEFAULT_CONNECTION_CAPS: ConnectionCaps = { unfinishedPerAddress: 32, perAddress: 256, total: 512 };

/** A connection that has sent nothing for this long counts as unfinished: a client sends its request as it connects. */
const IDLE_MS = 2000;

interface Held {
  socket: Socket;
  address: string;
  at: number;
  /** It sent a whole request's headers (a request, or an upgrade to a websocket). */
  finished: boolean;
}

/** Caps the connections `server` holds. Returns how many it holds now, for tests and logs. */
export function guardConnections(
  server: Server,
  caps: ConnectionCaps,
  log: TableLogger,
  what: string,
): { held: () => number } {
  const all = new Set<Held>();
  const byAddress = new Map<string, Set<Held>>();
  const bySocket = new WeakMap<Socket, Held>();
  let dropped = 0;
  let loggedAt = -Infinity;

  const forget = (h: Held): void => {
    all.delete(h);
    const of = byAddress.get(h.address);
    of?.delete(h);
    if (of && !of.size) byAddress.delete(h.address);
  };
  const drop = (h: Held): void => {
    forget(h);
    h.socket.destroy();
    dropped++;
    const now = performance.now();
    // One line a second at most while it goes on.
    if (now - loggedAt >= 1000) {
      log.warn(
        { server: what, address: h.address, dropped, held: all.size },
        'connections that never finish a request: the oldest dropped',
      );
      dropped = 0;
      loggedAt = now;
    }
  };
  const unfinished = (h: Held, now: number): boolean =>
    !h.finished && (h.socket.bytesRead > 0 || now - h.at >= IDLE_MS);
  /** The oldest unfinished of `pool`, else `fresh` (the new one). */
  const victim = (pool: Set<Held>, fresh: Held, now: number): Held => {
    for (const h of pool) if (h !== fresh && unfinished(h, now)) return h;
    return fresh;
  };

  server.on('connection', (socket: Socket) => {
    const now = performance.now();
    const address = socket.remoteAddress ?? '';
    const h: Held = { socket, address, at: now, finished: false };
    bySocket.set(socket, h);
    all.add(h);
    let of = byAddress.get(address);
    if (!of) byAddress.set(address, (of = new Set()));
    of.add(h);
    socket.once('close', () => forget(h));
    const stale = [...of].filter((x) => unfinished(x, now));
    for (const x of stale.slice(0, Math.max(0, stale.length - caps.unfinishedPerAddress))) drop(x);
    if (of.size > caps.perAddress) drop(victim(of, h, now));
    if (all.size > caps.total && all.has(h)) drop(victim(all, h, now));
  });
  const finished = (socket: Socket): void => {
    const h = bySocket.get(socket);
    if (h) h.finished = true;
  };
  server.on('request', (req: { socket: Socket }) => finished(req.socket));
  server.on('upgrade', (_req: unknown, socket: Socket) => finished(socket));
  return { held: () => all.size };
}

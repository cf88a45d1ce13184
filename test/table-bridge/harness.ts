// Starts a real TableServer on 127.0.0.1 (port 0) with a LocalReferee, and simulated tables against it;
// `cleanup` closes everything a test opened.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Seat } from '../../game/index.js';
import type { SimulatedTableOptions, TableHandler, TableServerOptions } from '../../table-bridge/index.js';
import { SimulatedTable, TABLE_NAMESPACE, TableServer, defaultFiducials } from '../../table-bridge/index.js';
import type { LocalRefereeOptions } from './local-referee.js';
import { LocalReferee } from './local-referee.js';

export const TOKEN = 'test-token-4f1c';

const closers: (() => unknown)[] = [];

export async function cleanup(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close();
}

export interface Running {
  server: TableServer;
  referee: LocalReferee;
  url: string;
}

export async function startServer(
  referee: Partial<LocalRefereeOptions> = {},
  server: Partial<Omit<TableServerOptions, 'handler'>> & { handler?: TableHandler } = {},
): Promise<Running> {
  const ref = new LocalReferee({ seed: 1, games: 1, ...referee });
  const srv = new TableServer({ token: TOKEN, port: 0, fiducials: defaultFiducials(), handler: ref, ...server });
  ref.attach(srv);
  closers.push(() => srv.close());
  const { url } = await srv.listen();
  return { server: srv, referee: ref, url };
}

export function simTable(url: string, options: Partial<SimulatedTableOptions> = {}): SimulatedTable {
  const sim = new SimulatedTable({ url, token: TOKEN, seed: 7, fiducials: defaultFiducials(), ...options });
  closers.push(() => sim.close());
  return sim;
}

/** A bare socket.io client on /table, for messages no well-behaved table would send. */
export function rawClient(url: string): Socket {
  const socket = io(`${url}${TABLE_NAMESPACE}`, { transports: ['websocket'], forceNew: true, reconnection: false });
  closers.push(() => socket.disconnect());
  return socket;
}

export const helloMessage = (
  over: Record<string, unknown> = {},
  seats: Seat[] = [1, 2, 3],
): Record<string, unknown> => ({
  protocol: 1,
  token: TOKEN,
  table: { id: 'raw', name: 'raw client', kind: 'virtual' },
  seats,
  ...over,
});

/** Waits for one event on a socket. */
export const once = <T = unknown>(socket: Socket, event: string): Promise<T> =>
  new Promise((resolve) => socket.once(event, (v: T) => resolve(v)));

// A whole session for the dashboard's tests and bench: the bus, the session machine behind the real
// TableServer (wrapped to report table connections), the dashboard server, and stand-ins for the
// node's parts that answer the dashboard's requests (the ToggleBoard on setToggles, the language,
// pause and resume). Real time with no minimum think time: nothing waits on the clock.

import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { Toggles } from '../../behaviours/index.js';
import { ToggleBoard } from '../../behaviours/index.js';
import { InProcessBus } from '../../robot/bus/index.js';
import type { BusEntry } from '../../robot/bus/index.js';
import { ConnectionWatch, DASHBOARD_NAMESPACE, DashboardServer } from '../../robot/web/index.js';
import type { DashboardClientEvents, DashboardServerEvents } from '../../robot/web/index.js';
import { listenForToggles } from '../../robot/live/node/toggle-requests.js';
import { SessionRuntime } from '../../robot/live/session/index.js';
import type { TableInfo } from '../../table-bridge/index.js';
import { TableServer, defaultFiducials } from '../../table-bridge/index.js';

export const TABLE_TOKEN = 'table-token-dash-1';
export const OPERATOR_TOKEN = 'operator-token-7c2e9a';

export interface Composed {
  bus: InProcessBus;
  runtime: SessionRuntime;
  tables: TableServer;
  dashboard: DashboardServer;
  tableUrl: string;
  dashboardUrl: string;
  entries: BusEntry[];
  close(): Promise<void>;
}

const DEFAULT_TOGGLES: Toggles = {
  speech: true,
  postures: true,
  gaze: true,
  partnerSpeech: true,
  opponentSpeech: true,
  expressiveness: 1,
};
const snake = (n: string): string => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export async function compose(options: { seed?: number; games?: number } = {}): Promise<Composed> {
  const bus = new InProcessBus((e) => {
    throw e;
  });
  const entries: BusEntry[] = [];
  bus.tap((e) => entries.push(e));
  const runtime = new SessionRuntime({
    seed: options.seed ?? 1,
    games: options.games ?? 1,
    bus,
    minThinkMs: 0,
    liftGraceMs: 2000,
  });
  const tables = new TableServer({
    token: TABLE_TOKEN,
    port: 0,
    fiducials: defaultFiducials(),
    handler: new ConnectionWatch(runtime, bus),
  });
  runtime.attach(tables);
  const { url: tableUrl } = await tables.listen();

  // Stand-ins for the node (robot/live/node composes the real ones).
  const board = new ToggleBoard(DEFAULT_TOGGLES, () => Date.now());
  const publishToggles = (t: Toggles, changed: string[], by: string): void =>
    bus.publish('toggles', {
      speech: t.speech,
      postures: t.postures,
      gaze: t.gaze,
      partner_speech: t.partnerSpeech,
      opponent_speech: t.opponentSpeech,
      expressiveness: t.expressiveness,
      changed,
      by,
    });
  board.subscribe((c) => publishToggles(c.toggles, c.changed.map(snake), c.by));
  publishToggles(board.get(), [], 'config');
  const silent = { warn: () => {}, info: () => {}, error: () => {} } as unknown as Parameters<
    typeof listenForToggles
  >[2];
  listenForToggles(bus, board, silent);
  bus.publish('language', { language: 'pt', by: 'config' });
  bus.subscribe('setLanguage', (m) => bus.publish('language', m));
  const operatorTable: TableInfo = { id: 'dashboard', name: 'operator dashboard', kind: 'virtual', seats: [] };
  let seq = 0;
  bus.subscribe(
    'sessionControl',
    (m) =>
      void runtime.onControl({ table: operatorTable, seq: ++seq, action: m.action === 'pause' ? 'pause' : 'resume' }),
  );
  bus.publish('connections', {
    component: 'robot',
    id: 'emys',
    name: 'EMYS (simulated)',
    kind: bus.kind,
    connected: true,
    detail: 'no hardware: postures go to the dashboard',
  });

  const dashboard = new DashboardServer({
    bus,
    token: OPERATOR_TOKEN,
    port: 0,
    virtualTable: { url: tableUrl, token: TABLE_TOKEN },
  });
  const { url: dashboardUrl } = await dashboard.listen();
  // As the node does: the virtual table, served by the dashboard, is the one page the table port takes.
  tables.allowPagesFrom(Number(new URL(dashboardUrl).port));
  return {
    bus,
    runtime,
    tables,
    dashboard,
    tableUrl,
    dashboardUrl,
    entries,
    close: async () => {
      await dashboard.close();
      await tables.close();
      runtime.stop();
      await bus.close();
    },
  };
}

export type DashboardSocket = Socket<DashboardServerEvents, DashboardClientEvents>;

/** A dashboard client over socket.io (what the page does), not yet connected. */
export const dashboardClient = (url: string, token: string | undefined): DashboardSocket =>
  io(`${url}${DASHBOARD_NAMESPACE}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    autoConnect: false,
    ...(token === undefined ? {} : { auth: { token } }),
  });

// Dashboard fan-out: 20 dashboards connected, a session running (robot on the rule player, a simulated
// table in the other seats), and for every bus message a dashboard follows, the time from the server
// seeing it on the bus to each dashboard receiving it (same process, same clock).

import { performance } from 'node:perf_hooks';
import { SimulatedTable, defaultFiducials } from '../../table-bridge/index.js';
import { OPERATOR_TOKEN, TABLE_TOKEN, compose, dashboardClient } from '../robot/dashboard-harness.js';

export async function dashboardSection(options: { clients: number; games: number; log: (line: string) => void }) {
  // The server stamps updates with this clock; the clients compare against the same one.
  const c = await compose({ seed: 2017, games: options.games });
  const sockets = Array.from({ length: options.clients }, () => dashboardClient(c.dashboardUrl, OPERATOR_TOKEN));
  const delays: number[] = [];
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.once('snapshot', () => resolve());
          s.on('update', (u) => delays.push(performance.timeOrigin + performance.now() - u.atMs));
          s.connect();
        }),
    ),
  );
  const sim = new SimulatedTable({ url: c.tableUrl, token: TABLE_TOKEN, seed: 3, fiducials: defaultFiducials() });
  await sim.start();
  await sim.finished();
  await new Promise((r) => setTimeout(r, 200));
  for (const s of sockets) s.disconnect();
  await sim.close();
  await c.close();
  const sorted = [...delays].sort((a, b) => a - b);
  const q = (p: number): number =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 100) / 100;
  const out = {
    clients: options.clients,
    deliveries: sorted.length,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    maxMs: Math.round(sorted.at(-1)! * 100) / 100,
    targetMs: 100,
  };
  options.log(
    `dashboard: ${out.clients} dashboards, ${out.deliveries} deliveries: p50 ${out.p50Ms} ms, p99 ${out.p99Ms} ms, max ${out.maxMs} ms (target < 100 ms)`,
  );
  return out;
}

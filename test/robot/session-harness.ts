// The session machine behind a real TableServer, for the session tests (digital and physical deals):
// time is xstate's SimulatedClock, advanced by the tests only, and every message published is checked
// against its topic's message type after each test.

import { SimulatedClock } from 'xstate';
import { afterEach, expect } from 'vitest';
import type { Fault, SimulatedTableOptions, TableServerOptions } from '../../table-bridge/index.js';
import { TableServer, defaultFiducials } from '../../table-bridge/index.js';
import { InProcessBus, TOPICS, checkMessage } from '../../robot/bus/index.js';
import type { BusEntry, TopicKey } from '../../robot/bus/index.js';
import type { SessionRuntimeOptions } from '../../robot/live/session/index.js';
import { SessionRuntime } from '../../robot/live/session/index.js';
import { TOKEN, cleanup, simTable } from '../table-bridge/harness.js';

export interface Started {
  runtime: SessionRuntime;
  clock: SimulatedClock;
  url: string;
  bus: InProcessBus;
  on: <K extends TopicKey>(key: K) => unknown[];
}

/** Every message published in the test, checked after it. */
let published: BusEntry[] = [];
const servers: TableServer[] = [];
/** What the test has published so far. */
export const publishedMessages = (): readonly BusEntry[] => published;

afterEach(async () => {
  await cleanup();
  for (const s of servers.splice(0)) await s.close();
  const problems = published.map((e) => checkMessage(e.topic.message, e.message)).filter((p) => p !== null);
  published = [];
  expect(problems).toEqual([]);
});

/**
 * A TableServer driven by a SessionRuntime. `autoThink` advances the simulated clock past the robot's
 * minimum think time whenever the machine waits for it (whole-game tests); otherwise the test does.
 */
export async function startSession(
  options: Partial<SessionRuntimeOptions> & { autoThink?: boolean } = {},
  server: Partial<TableServerOptions> = {},
): Promise<Started> {
  const clock = new SimulatedClock();
  const bus = new InProcessBus((e) => {
    throw e;
  });
  bus.tap((e) => published.push(e));
  const { autoThink = true, ...rest } = options;
  const runtime = new SessionRuntime({ seed: 1, games: 1, bus, clock, minThinkMs: 1000, liftGraceMs: 2000, ...rest });
  const srv = new TableServer({ token: TOKEN, port: 0, fiducials: defaultFiducials(), handler: runtime, ...server });
  servers.push(srv);
  runtime.attach(srv);
  if (autoThink) {
    runtime.actor.subscribe((snap) => {
      if (snap.matches({ flow: { game: { robot: 'minimumTime' } } })) setImmediate(() => clock.increment(1000));
    });
  }
  const { url } = await srv.listen();
  return {
    runtime,
    clock,
    url,
    bus,
    on: (key) => published.filter((e) => e.topic.name === TOPICS[key].name).map((e) => e.message),
  };
}

export type SimTable = ReturnType<typeof simTable>;

/** A one-game session with `fault` injected at the simulated table's first turn where it can happen, played to its end. */
export async function withFault(
  fault: Fault,
  seed = 31,
  table: Partial<SimulatedTableOptions> = {},
): Promise<{ report: Awaited<ReturnType<SimTable['inject']>>; sim: SimTable; started: Started }> {
  const started = await startSession({ seed, games: 1 });
  const sim = simTable(started.url, { seed, ...table });
  const report = sim.inject(fault);
  await sim.start();
  const r = await report;
  await sim.finished();
  return { report: r, sim, started };
}

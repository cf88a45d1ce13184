// Shared by the replay tests: a live session recorded through the node, and a recording rewritten
// with some messages changed. The node runs compiled workers (the estimates), so everything is
// loaded from dist/.

import type * as Robot from '../../robot/index.js';
import type * as Recording from '../../robot/recording/index.js';
import type * as Replay from '../../robot/offline/replay/index.js';
import type * as Bus from '../../robot/bus/index.js';
import { RulePlayer } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const dist = (p: string): string => new URL(`../../dist/${p}`, import.meta.url).href;
export const robot = (await import(dist('robot/index.js'))) as typeof Robot;
export const recording = (await import(dist('robot/recording/index.js'))) as typeof Recording;
export const replay = (await import(dist('robot/offline/replay/index.js'))) as typeof Replay;
const bus = (await import(dist('robot/bus/index.js'))) as typeof Bus;

/** A live one-game session on the rule-based player, with estimates and speech, recorded. */
export async function recordSession(folder: string, id: string, games = 1): Promise<string> {
  const node = await robot.ParceiroNode.start({
    seed: 21,
    table: { host: '127.0.0.1', port: 0, token: 'replay-test' },
    games,
    sessionId: id,
    sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 21 }) },
    minThinkMs: 50,
    expectationBudgetMs: 20,
    speech: 'publish',
    recordingsDir: folder,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
    dashboard: null,
  });
  await playToEnd(node, 'replay-test');
  return (await node.close()).recording!;
}

/** Seats a simulated table (seed 8) at `node` and waits until its session is over and its reactions are done. */
export async function playToEnd(
  node: { url: string; finished(): Promise<unknown>; quiet(): Promise<unknown> },
  token: string,
): Promise<void> {
  const table = new SimulatedTable({ url: node.url, token, seed: 8 });
  try {
    await table.start();
    await node.finished();
    await node.quiet();
  } finally {
    table.close();
  }
}

/** A copy of a recording with its messages passed through `edit`. */
export async function rewrite(
  from: string,
  to: string,
  edit: (m: Recording.RecordedMessage, i: number) => unknown,
): Promise<void> {
  const rec = recording.readRecording(from);
  let now = 0;
  const r = await recording.Recorder.start({
    path: to,
    bus: new bus.InProcessBus(),
    clock: () => now,
    session: rec.session!,
  });
  rec.messages.forEach((m, i) => {
    now = m.time;
    r.record(m.topic, edit(m, i));
  });
  await r.close();
}

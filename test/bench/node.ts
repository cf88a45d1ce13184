// The robot node's figures (against the targets docs/performance.md sets), fixed seeds, from a live
// node with the simulated table:
// - reaction: from a table event arriving (another seat's card) or the robot's own card being played
//   (after its decision: its minimum think time is a deliberate delay, left out) to the appraisal's
//   `emotions` message (its immediate one, not a later reappraisal when its estimate comes back) and
//   to the first behaviour command published after it, with the timed search on the worker pool and
//   the estimates on their worker; and what became of the estimates;
// - replay: a recorded five-game session replayed with --fast (replayRecording), and whether it matches;
// - memory: heap used after a full GC every 20 games over 200 games in one session, and its slope
//   (the simulated table runs on a worker thread, so only the node's heap is counted).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { RulePlayer } from '../../game/index.js';
import type { ParceiroNodeOptions } from '../../robot/index.js';
import { ParceiroNode, createLogger, playToTheEnd, syncRobotPlayer } from '../../robot/index.js';
import { readRecording } from '../../robot/recording/index.js';
import { replayRecording } from '../../robot/offline/replay/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const BEHAVIOUR = new Set([
  '/robot_face/expression',
  '/emys/joint_trajectory',
  '/look_at',
  '/parceiro/behaviours/utterance',
  '/tts/say',
]);
const REACTED = new Set(['deal', 'play', 'trick', 'end']);

const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const r2 = (x: number): number => Math.round(x * 100) / 100;
const stats = (xs: number[]) => ({
  count: xs.length,
  p50: r2(quantile(xs, 0.5)),
  p90: r2(quantile(xs, 0.9)),
  p99: r2(quantile(xs, 0.99)),
  max: r2(Math.max(...xs)),
  over50: xs.filter((x) => x > 50).length,
});

/** A whole session: the node, the simulated table (on a worker thread when `tableThread`), wait for the end. */
async function session(
  o: Partial<ParceiroNodeOptions> & { seed: number; games: number; tableThread?: boolean },
  onNode?: (node: ParceiroNode) => void,
): Promise<{ recording: string | null; messages: number }> {
  const { tableThread, ...options } = o;
  const node = await ParceiroNode.start({
    table: { host: '127.0.0.1', port: 0, token: 'bench' },
    speech: 'log',
    recordingsDir: null,
    dashboard: null,
    logger: createLogger({ level: 'silent', pretty: false }),
    ...options,
  });
  onNode?.(node);
  if (tableThread) {
    const worker = new Worker(new URL('./sim-table-worker.js', import.meta.url), {
      workerData: { url: node.url, token: 'bench', seed: o.seed + 1 },
    });
    await Promise.all([
      node.finished(),
      new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject)),
    ]);
    await node.quiet();
    await worker.terminate();
  } else {
    const table = new SimulatedTable({ url: node.url, token: 'bench', seed: o.seed + 1 });
    await playToTheEnd(node, table);
  }
  const s = await node.close();
  return { recording: s.recording, messages: s.messages };
}

/** Event-to-reaction latencies of one session, from the bus with this process's clock. */
async function reaction(o: { games: number; budgetMs: number; expectationBudgetMs: number }) {
  const seen: { name: string; message: unknown; t: number }[] = [];
  let counts = { skipped: 0, overtaken: 0 };
  await session(
    { seed: 61, games: o.games, budgetMs: o.budgetMs, minThinkMs: 0, expectationBudgetMs: o.expectationBudgetMs },
    (node) => {
      node.bus.tap((e) => seen.push({ name: e.topic.name, message: e.message, t: performance.now() }));
      node.bus.subscribe('gameEvents', (m) => {
        if (m.type === 'session_end')
          counts = {
            skipped: node.reactions.stats.estimatesSkipped,
            overtaken: node.reactions.stats.estimatesOvertaken,
          };
      });
    },
  );
  // The reactions take the game events one by one, in order, and publish one `emotions` for each; an
  // estimate the appraisal takes later publishes its own right after its `expectation` message.
  const reacted = seen.filter(
    (e) => e.name === '/parceiro/game/events' && REACTED.has((e.message as { type: string }).type),
  );
  const followUp = (i: number): boolean =>
    i > 0 && seen[i - 1]!.name === '/parceiro/expectation' && (seen[i - 1]!.message as { applied: boolean }).applied;
  const emotions = seen
    .map((e, i) => [e, i] as const)
    .filter(([e, i]) => e.name === '/parceiro/emotions' && !followUp(i));
  const toEmotions: number[] = [];
  const toBehaviour: number[] = [];
  let lastInput = -Infinity;
  let inputAt = 0;
  for (const [i, e] of reacted.entries()) {
    const m = e.message as { type: string; seat: number };
    if (m.type !== 'play') continue;
    // Another seat's card arrives as a table event (published as it arrives, just before its play).
    const at = seen.indexOf(e);
    for (let j = at; j >= 0 && j > lastInput; j--) {
      if (seen[j]!.name === '/parceiro/table/events') {
        inputAt = seen[j]!.t;
        lastInput = j;
        break;
      }
    }
    const start = m.seat === 0 ? e.t : inputAt;
    const [em, k] = emotions[i] ?? [];
    if (!em) break;
    toEmotions.push(em.t - start);
    // The first behaviour command published after its emotions. A trick's last card, its trick and
    // maybe the game's end are reacted to in one go, and the scheduler lets each plan replace the
    // commands of the one before that are still waiting: the first command then is the trick's look.
    const first = seen.slice(k! + 1).find((x) => BEHAVIOUR.has(x.name));
    if (first) toBehaviour.push(first.t - start);
  }
  // What became of the estimates: taken by the appraisal, overtaken when they came back, or never made (a newer position came first).
  const estimates = seen
    .filter((e) => e.name === '/parceiro/expectation')
    .map((e) => e.message as { applied: boolean; event_index: number; at_event: number });
  const estimateStats = { made: estimates.length, applied: estimates.filter((e) => e.applied).length, ...counts };
  return {
    games: o.games,
    budgetMs: o.budgetMs,
    expectationBudgetMs: o.expectationBudgetMs,
    plays: toEmotions.length,
    eventToEmotionsMs: stats(toEmotions),
    eventToFirstBehaviourMs: stats(toBehaviour),
    estimates: estimateStats,
  };
}

async function replaySection(games: number) {
  const dir = mkdtempSync(join(tmpdir(), 'parceiro-bench-'));
  try {
    const rec = await session({
      seed: 62,
      games,
      sessionId: 'bench-replay',
      recordingsDir: dir,
      sources: { player: syncRobotPlayer((p) => new RulePlayer(p), { seat: 0, seed: 62 }) },
      minThinkMs: 200,
      expectationBudgetMs: 30,
    });
    const recording = readRecording(rec.recording!);
    const t0 = performance.now();
    const r = await replayRecording(recording, { mode: 'fast' });
    const seconds = (performance.now() - t0) / 1000;
    return {
      games,
      messages: recording.messages.length,
      seconds: r2(seconds),
      matches: r.matches,
      firstDifference: r.firstDifference
        ? `${r.firstDifference.topic} #${r.firstDifference.index}: ${r.firstDifference.text}`
        : null,
      targetSeconds: 10,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function memorySection(games: number, every: number, log: (line: string) => void) {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const samples: { games: number; heapMB: number }[] = [];
  const sample = (n: number): void => {
    gc();
    gc();
    samples.push({ games: n, heapMB: r2(v8.getHeapStatistics().used_heap_size / 2 ** 20) });
    log(`node: memory after ${n} games: ${samples.at(-1)!.heapMB} MB`);
  };
  sample(0);
  let ended = 0;
  let queued = 0;
  await session(
    {
      seed: 63,
      games,
      tableThread: true,
      sources: { player: syncRobotPlayer((p) => new RulePlayer(p), { seat: 0, seed: 63 }) },
      minThinkMs: 0,
      expectationBudgetMs: 0,
    },
    (node) => {
      // Games go by a hundred times faster than a person plays them, and lines take the time they take
      // to say: with speech on, lines pile up waiting for their turn (each dropped as late in the end).
      // That backlog is the fast simulation's, not a leak: speech is off here, the rest is on.
      node.bus.publish('setToggles', {
        speech: false,
        postures: true,
        gaze: true,
        partner_speech: true,
        opponent_speech: true,
        expressiveness: 1,
        changed: ['speech'],
        by: 'bench',
      });
      node.bus.subscribe('gameEvents', (m) => {
        if (m.type === 'end' && ++ended % every === 0) setImmediate(() => sample(ended));
        if (m.type === 'session_end') queued = node.scheduler.status().queued + node.scheduler.status().pending;
      });
    },
  );
  // Least squares over the samples after the first 20 games (warm-up: code, caches, the first game's buffers).
  const xs = samples.filter((s) => s.games >= every);
  const mx = xs.reduce((a, s) => a + s.games, 0) / xs.length;
  const my = xs.reduce((a, s) => a + s.heapMB, 0) / xs.length;
  const slope =
    xs.reduce((a, s) => a + (s.games - mx) * (s.heapMB - my), 0) / xs.reduce((a, s) => a + (s.games - mx) ** 2, 0);
  return {
    games,
    every,
    speech: false,
    samples,
    slopeKBPerGame: r2(slope * 1024),
    behaviourCommandsWaitingAtEnd: queued,
  };
}

export async function nodeSection(o: { log: (line: string) => void }) {
  const live = await reaction({ games: 2, budgetMs: 500, expectationBudgetMs: 150 });
  o.log(
    `node: reaction (estimates 150 ms): event to emotions p50 ${live.eventToEmotionsMs.p50} p99 ${live.eventToEmotionsMs.p99} ms; to first behaviour p50 ${live.eventToFirstBehaviourMs.p50} p99 ${live.eventToFirstBehaviourMs.p99} max ${live.eventToFirstBehaviourMs.max} ms`,
  );
  const e = live.estimates;
  o.log(
    `node: estimates: ${e.made} made, ${e.applied} taken by the appraisal, ${e.overtaken} overtaken when they came back, ${e.skipped} positions skipped for a newer one`,
  );
  const noEstimates = await reaction({ games: 2, budgetMs: 500, expectationBudgetMs: 0 });
  o.log(
    `node: reaction (no estimates): event to emotions p50 ${noEstimates.eventToEmotionsMs.p50} p99 ${noEstimates.eventToEmotionsMs.p99} ms; to first behaviour p50 ${noEstimates.eventToFirstBehaviourMs.p50} p99 ${noEstimates.eventToFirstBehaviourMs.p99} max ${noEstimates.eventToFirstBehaviourMs.max} ms`,
  );
  const replay = await replaySection(5);
  o.log(
    `node: replay of a ${replay.games}-game recording (${replay.messages} messages), --fast: ${replay.seconds} s, ${replay.matches ? 'matches' : `differs: ${replay.firstDifference}`}`,
  );
  const memory = await memorySection(200, 20, o.log);
  o.log(`node: memory over ${memory.games} games: slope ${memory.slopeKBPerGame} KB per game`);
  return { reaction: { targetP99Ms: 50, withEstimates: live, withoutEstimates: noEstimates }, replay, memory };
}

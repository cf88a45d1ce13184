// npm run bench [-- --json] [--only games,solver,timed,appraisal]: the project's performance figures, fixed seeds.
// - games:  whole games per second on one core (random vs random, rule vs rule).
// - solver: exact full-deal solves from the first trick with every root move valued, and positions
//           with fewer tricks left.
// - timed:  the timed player's decision latency per trick at its budget, on one core (in-thread)
//           and on all cores (the worker pool the robot uses).
// - appraisal: time to appraise one event, per character preset (appraisal.ts).
// - review: the end-of-game review (game/explain/review.ts): solver nodes and time to look back on a
//           whole game with all cards in view, and how many moments it finds, over games of each kind.
// - social: simulated five-game sessions through `parceiro simulate`, then `parceiro report` over their
//           recordings: the robot's mood, emotions toward each seat, faces, lines and checks (social.ts).
// - flood:  a table flooding a real `parceiro live` with refused events: hello and dashboard latency
//           meanwhile, what the flood was answered, the recording's growth (flood.ts).
// Figures are for comparing runs on one machine; the machines are shared, so quote medians.

import { availableParallelism, arch, cpus, platform } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import {
  BUILTIN_PLAYERS,
  Game,
  RulePlayer,
  SearchPlayer,
  SeatView,
  Solver,
  createRng,
  dealCards,
  playGame,
  positionOf,
  reviewGame,
  victoriesFor,
} from '../../game/index.js';
import type { Decision, Player, Seat } from '../../game/index.js';
import { PoolSearchPlayer, playGameAsync } from '../../robot/index.js';
import { appraisalSection } from './appraisal.js';
import { dashboardSection } from './dashboard.js';
import { floodSection } from './flood.js';
import { nodeSection } from './node.js';
import { socialLines, socialSection } from './social.js';
import { SOLVER_QUERIES, benchDeal, runQuery } from './solver.js';
import type { SolverQuery } from './solver.js';

const cli = new Command('bench')
  .option('--json', 'print one JSON document', false)
  .option(
    '--only <sections>',
    'comma-separated: games, solver, timed, appraisal, review, dashboard, node, social, flood',
    'games,solver,timed,appraisal',
  )
  .option('--review-games <n>', 'games per player kind for the review section', (v) => Number(v), 50)
  .option('--games <n>', 'games per run for the games section', (v) => Number(v), 100_000)
  .option('--deals <n>', 'full deals for the solver section', (v) => Number(v), 20)
  .option(
    '--deal-cap <ms>',
    'give up a full-deal query after this long (counted at the cap, as timed out)',
    (v) => Number(v),
    30_000,
  )
  .option('--timed-games <n>', 'games per configuration for the timed section', (v) => Number(v), 2)
  .option('--budget <ms>', 'budget of the timed player', (v) => Number(v), 2000)
  .option('--appraisal-events <n>', 'events appraised per preset for the appraisal section', (v) => Number(v), 5000)
  .option(
    '--social-sessions <n>',
    'simulated five-game sessions (seeds 1..n; odd warm, even competitive; the first half pt, the rest en) for the social section',
    (v) => Number(v),
    2,
  )
  .option(
    '--social-character <name|file>',
    "the robot's character in the social section's sessions (simulate --character)",
  )
  .option('--social-language <tag>', "the language of the social section's sessions (simulate --language)")
  .option('--social-keep <dir>', "keep the social section's recordings in this folder (for parceiro report --chart)")
  .option('--flood-seconds <n>', 'how long the flood section floods', (v) => Number(v), 10)
  .option('--social-parallel <n>', 'sessions simulated at once in the social section', (v) => Number(v), 2)
  .parse();
const opts = cli.opts<{
  reviewGames: number;
  json: boolean;
  only: string;
  games: number;
  deals: number;
  dealCap: number;
  timedGames: number;
  budget: number;
  appraisalEvents: number;
  socialSessions: number;
  socialCharacter?: string;
  socialLanguage?: string;
  socialKeep?: string;
  socialParallel: number;
  floodSeconds: number;
}>();
const sections = new Set(opts.only.split(',').map((s) => s.trim()));
const log = (line: string): void => {
  if (!opts.json) process.stderr.write(`${line}\n`);
};

const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const r2 = (x: number): number => Math.round(x * 100) / 100;
const summary = (xs: number[]) => ({
  count: xs.length,
  p50: r2(quantile(xs, 0.5)),
  p95: r2(quantile(xs, 0.95)),
  p99: r2(quantile(xs, 0.99)),
  max: r2(Math.max(...xs)),
});

// ---- games per second ------------------------------------------------------------------------

function gamesPerSecond(kind: string, games: number, seed: number): number {
  const players: Player[] = [0, 1, 2, 3].map((s) => BUILTIN_PLAYERS[kind]!({ seat: s as Seat, seed: seed + s }));
  const t0 = performance.now();
  for (let i = 0; i < games; i++) playGame(dealCards(createRng(seed, i), (i & 3) as Seat), players);
  return games / ((performance.now() - t0) / 1000);
}

function gamesSection() {
  const out: Record<string, { gamesPerSecond: number; runs: number[] }> = {};
  for (const kind of ['random', 'rule']) {
    gamesPerSecond(kind, Math.min(20_000, opts.games), 2017); // warm-up
    const runs = [0, 1, 2].map(() => Math.round(gamesPerSecond(kind, opts.games, 2017)));
    out[kind === 'rule' ? 'ruleVsRule' : 'randomVsRandom'] = { gamesPerSecond: quantile(runs, 0.5), runs };
    log(`games: ${kind} vs ${kind}: ${quantile(runs, 0.5)} games/s (runs ${runs.join(', ')})`);
  }
  return out;
}

// ---- the end-of-game review -------------------------------------------------------------------

function reviewSection() {
  const solver = new Solver();
  const out: Record<
    string,
    {
      games: number;
      ms: ReturnType<typeof summary>;
      nodes: ReturnType<typeof summary>;
      changes: number;
      moments: number;
      turned: number;
    }
  > = {};
  for (const kind of ['expert', 'rule', 'random']) {
    const ms: number[] = [];
    const nodes: number[] = [];
    let changes = 0;
    let moments = 0;
    let turned = 0;
    for (let i = 0; i < opts.reviewGames; i++) {
      const deal = dealCards(createRng(2611, i), (i & 3) as Seat);
      const game = playGame(
        deal,
        [0, 1, 2, 3].map((s) => BUILTIN_PLAYERS[kind]!({ seat: s as Seat, seed: 2611 + i * 4 + s })),
      );
      const plays = Array.from({ length: game.plays }, (_, k) => game.playAt(k));
      // As the robot's worker does it: a table of its own per game.
      solver.clearTable();
      const t0 = performance.now();
      const r = reviewGame({ dealer: deal.dealer, trumpCard: deal.trumpCard, plays }, solver);
      ms.push(performance.now() - t0);
      nodes.push(r.nodes);
      changes += r.changes;
      moments += r.moments.length;
      // Games whose victories as played differ from what the cards were worth.
      if (r.dealt !== null && r.final !== null && victoriesFor(r.dealt) !== victoriesFor(r.final)) turned++;
    }
    out[kind] = {
      games: opts.reviewGames,
      ms: summary(ms),
      nodes: summary(nodes),
      changes: r2(changes / opts.reviewGames),
      moments: r2(moments / opts.reviewGames),
      turned,
    };
    log(
      `review: ${kind} games: median ${r2(quantile(ms, 0.5))} ms (p95 ${r2(quantile(ms, 0.95))}, max ${r2(Math.max(...ms))}), median ${quantile(nodes, 0.5)} nodes; ${r2(changes / opts.reviewGames)} changes and ${r2(moments / opts.reviewGames)} moments told a game; ${turned} of ${opts.reviewGames} games ended in other victories than the cards were worth`,
    );
  }
  return out;
}

// ---- solver ----------------------------------------------------------------------------------

function solverSection() {
  const solver = new Solver();
  const clock = (): number => performance.now();
  // The bench's full deals, each valued three ways (test/bench/solver.ts): exact points, victory
  // classes and one win test per root move.
  const fullDeal: Record<
    string,
    {
      deals: number;
      solved: number;
      timedOut: number;
      capMs: number;
      medianMs: number;
      p90Ms: number;
      maxMs: number;
      medianCpuMs: number;
      p90CpuMs: number;
      maxCpuMs: number;
      medianNodes: number;
      p90Nodes: number;
      maxNodes: number;
    }
  > = {};
  const runs: Record<SolverQuery, { ms: number; cpuMs: number; nodes: number; done: boolean }[]> = {
    exact: [],
    classes: [],
    win: [],
  };
  for (let i = 0; i < opts.deals; i++) {
    const position = benchDeal(i);
    for (const q of SOLVER_QUERIES) runs[q].push(runQuery(solver, q, position, opts.dealCap));
    log(
      `solver: full deal ${i + 1}/${opts.deals}: ${SOLVER_QUERIES.map((q) => {
        const r = runs[q][i]!;
        return `${q} ${r.nodes} nodes, ${r.done ? `${r.ms.toFixed(1)} ms` : 'over the cap'}`;
      }).join('; ')}`,
    );
  }
  for (const q of SOLVER_QUERIES) {
    const ms = runs[q].map((r) => r.ms);
    const cpu = runs[q].map((r) => r.cpuMs);
    const nodes = runs[q].map((r) => r.nodes);
    const timedOut = runs[q].filter((r) => !r.done).length;
    fullDeal[q] = {
      deals: opts.deals,
      solved: opts.deals - timedOut,
      timedOut,
      capMs: opts.dealCap,
      medianMs: r2(quantile(ms, 0.5)),
      p90Ms: r2(quantile(ms, 0.9)),
      maxMs: r2(Math.max(0, ...ms)),
      medianCpuMs: r2(quantile(cpu, 0.5)),
      p90CpuMs: r2(quantile(cpu, 0.9)),
      maxCpuMs: r2(Math.max(0, ...cpu)),
      medianNodes: quantile(nodes, 0.5),
      p90Nodes: quantile(nodes, 0.9),
      maxNodes: Math.max(0, ...nodes),
    };
    log(
      `solver: ${q} every root move of a full deal: median ${quantile(nodes, 0.5)} nodes, ${r2(quantile(ms, 0.5))} ms (${r2(quantile(cpu, 0.5))} ms of CPU)`,
    );
  }
  const byTricksLeft: Record<string, { positions: number; medianMs: number; p90Ms: number; medianNodes: number }> = {};
  for (const left of [5, 6, 7, 8, 9]) {
    const ms: number[] = [];
    const nodes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const game = new Game(dealCards(createRng(777, left, i), (i & 3) as Seat));
      const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: i * 4 + s }));
      while (game.trick < 10 - left) game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
      solver.clearTable();
      const t0 = clock();
      const n0 = solver.nodes;
      solver.moveValues(positionOf(game));
      ms.push(clock() - t0);
      nodes.push(solver.nodes - n0);
    }
    byTricksLeft[String(left)] = {
      positions: ms.length,
      medianMs: r2(quantile(ms, 0.5)),
      p90Ms: r2(quantile(ms, 0.9)),
      medianNodes: quantile(nodes, 0.5),
    };
    log(`solver: ${left} tricks left: median ${r2(quantile(ms, 0.5))} ms, ${quantile(nodes, 0.5)} nodes`);
  }
  return {
    fullDeal,
    byTricksLeft,
  };
}

// ---- the timed player's latency ----------------------------------------------------------------

interface Sample {
  trick: number;
  ms: number;
  worlds: number;
  exactFromTrick: number;
}

function latencyReport(samples: Sample[], budget: number) {
  const perTrick: Record<string, ReturnType<typeof summary> & { worldsMedian: number; exactFromTrickMedian: number }> =
    {};
  for (let t = 0; t < 10; t++) {
    const at = samples.filter((s) => s.trick === t);
    if (at.length) {
      perTrick[String(t + 1)] = {
        ...summary(at.map((s) => s.ms)),
        worldsMedian: quantile(
          at.map((s) => s.worlds),
          0.5,
        ),
        exactFromTrickMedian: quantile(
          at.map((s) => s.exactFromTrick + 1),
          0.5,
        ),
      };
    }
  }
  const ms = samples.map((s) => s.ms);
  return { decisions: samples.length, ...summary(ms), late: ms.filter((x) => x > budget + 50).length, perTrick };
}

async function timedSection() {
  const budget = opts.budget;
  const clock = (): number => performance.now();
  const one: Sample[] = [];
  const all: Sample[] = [];
  const record = (into: Sample[], trick: number, ms: number, d: Decision): void => {
    if (d.beliefs?.fallback === 'forced') return; // forced cards are answered at once; they say nothing of the search
    into.push({ trick, ms, worlds: d.beliefs?.worlds ?? 0, exactFromTrick: d.beliefs?.exactFromTrick ?? trick });
  };
  for (let g = 0; g < opts.timedGames; g++) {
    const deal = dealCards(createRng(31337, g), (g & 3) as Seat);
    // One core: the search runs in this thread.
    const timed = new SearchPlayer({ kind: 'timed', seat: 0, seed: g, budgetMs: budget, clock });
    const measured: Player = {
      kind: 'timed',
      choose: (view) => {
        const t0 = clock();
        const d = timed.decide(view);
        record(one, view.trick, clock() - t0, d);
        return d.card;
      },
    };
    playGame(deal, [measured, ...[1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }))]);
    log(`timed: one core, game ${g + 1}/${opts.timedGames}`);
    // All cores: the worker pool of the robot.
    const pool = new PoolSearchPlayer({ seat: 0, seed: g, budgetMs: budget });
    try {
      const measuredPool = {
        kind: 'timed',
        choose: async (view: SeatView) => {
          const t0 = clock();
          const d = await pool.decide(view);
          record(all, view.trick, clock() - t0, d);
          return { card: d.card, fault: null };
        },
      };
      await playGameAsync(deal, [measuredPool, ...[1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }))]);
    } finally {
      await pool.close();
    }
    log(`timed: all cores, game ${g + 1}/${opts.timedGames}`);
  }
  return {
    budgetMs: budget,
    games: opts.timedGames,
    oneCore: latencyReport(one, budget),
    allCores: { threads: availableParallelism(), ...latencyReport(all, budget) },
  };
}

const report: Record<string, unknown> = {
  bench: 'parceiro',
  node: process.version,
  platform: `${platform()} ${arch()}`,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
};
if (sections.has('games')) report.games = gamesSection();
if (sections.has('solver')) report.solver = solverSection();
if (sections.has('timed')) report.timed = await timedSection();
if (sections.has('review')) report.review = reviewSection();
if (sections.has('appraisal')) report.appraisal = appraisalSection({ events: opts.appraisalEvents, seed: 2017, log });
if (sections.has('dashboard')) report.dashboard = await dashboardSection({ clients: 20, games: 2, log });
// `node` is taken (the Node.js version): the robot node's figures are `robotNode`.
if (sections.has('node')) report.robotNode = await nodeSection({ log });
if (sections.has('flood')) report.flood = await floodSection({ seconds: opts.floodSeconds, log });
if (sections.has('social')) {
  report.social = await socialSection({
    sessions: opts.socialSessions,
    ...(opts.socialCharacter ? { character: opts.socialCharacter } : {}),
    ...(opts.socialLanguage ? { language: opts.socialLanguage } : {}),
    ...(opts.socialKeep ? { keep: opts.socialKeep } : {}),
    parallel: opts.socialParallel,
    log,
  });
}
if (opts.json) console.log(JSON.stringify(report, null, 2));
else console.log(humanReport(report));

function humanReport(r: Record<string, unknown>): string {
  const lines = [`parceiro bench: ${r.cpu} (${r.cores} cores), node ${r.node}`];
  const games = r.games as Record<string, { gamesPerSecond: number }> | undefined;
  if (games)
    for (const [k, v] of Object.entries(games)) lines.push(`  games ${k}: ${v.gamesPerSecond} games/s on one core`);
  const solver = r.solver as ReturnType<typeof solverSection> | undefined;
  if (solver) {
    const what: Record<string, string> = {
      exact: 'exact points',
      classes: 'victory classes',
      win: 'one win test each',
    };
    for (const [q, f] of Object.entries(solver.fullDeal)) {
      lines.push(
        `  solver, full deal, ${what[q] ?? q} of every root move: median ${f.medianMs} ms, p90 ${f.p90Ms} ms (CPU: median ${f.medianCpuMs} ms, p90 ${f.p90CpuMs} ms), median ${f.medianNodes} nodes (max ${f.maxNodes}); ${f.solved}/${f.deals} within ${f.capMs} ms`,
      );
    }
    for (const [k, v] of Object.entries(solver.byTricksLeft))
      lines.push(`  solver, ${k} tricks left: median ${v.medianMs} ms, ${v.medianNodes} nodes`);
  }
  const timed = r.timed as Awaited<ReturnType<typeof timedSection>> | undefined;
  if (timed) {
    for (const [name, t] of [
      ['one core', timed.oneCore],
      ['all cores', timed.allCores],
    ] as const) {
      lines.push(
        `  timed (${timed.budgetMs} ms), ${name}: ${t.decisions} decisions, p50 ${t.p50} p95 ${t.p95} p99 ${t.p99} max ${t.max} ms, ${t.late} late`,
      );
      for (const [trick, v] of Object.entries(t.perTrick))
        lines.push(
          `    trick ${trick}: p50 ${v.p50} max ${v.max} ms, ${v.worldsMedian} worlds, exact from trick ${v.exactFromTrickMedian}`,
        );
    }
  }
  const appraisal = r.appraisal as ReturnType<typeof appraisalSection> | undefined;
  if (appraisal) {
    for (const [name, a] of Object.entries(appraisal.presets))
      lines.push(
        `  appraisal, ${name}: median ${a.medianUs} us, p99 ${a.p99Us} us, max ${a.maxUs} us per event (${appraisal.events} events)`,
      );
  }
  const robotNode = r.robotNode as Awaited<ReturnType<typeof nodeSection>> | undefined;
  if (robotNode) {
    for (const [name, x] of [
      ['with estimates', robotNode.reaction.withEstimates],
      ['without estimates', robotNode.reaction.withoutEstimates],
    ] as const) {
      lines.push(
        `  node reaction (${name}), ${x.plays} plays: event to emotions p50 ${x.eventToEmotionsMs.p50} p99 ${x.eventToEmotionsMs.p99} ms; to first behaviour p50 ${x.eventToFirstBehaviourMs.p50} p99 ${x.eventToFirstBehaviourMs.p99} max ${x.eventToFirstBehaviourMs.max} ms (target p99 < 50 ms)`,
      );
    }
    const rp = robotNode.replay;
    lines.push(
      `  node replay of ${rp.games} games (${rp.messages} messages), --fast: ${rp.seconds} s, ${rp.matches ? 'matches' : 'DIFFERS'} (target < ${rp.targetSeconds} s)`,
    );
    const m = robotNode.memory;
    lines.push(
      `  node memory over ${m.games} games: ${m.samples.map((x) => x.heapMB).join(', ')} MB every ${m.every}; slope ${m.slopeKBPerGame} KB per game`,
    );
  }
  const social = r.social as Awaited<ReturnType<typeof socialSection>> | undefined;
  if (social) lines.push(...socialLines(social));
  return lines.join('\n');
}

// node dist/test/bench/classes.js [DEALS] [REPEATS] [TT_BITS]: the victory class of every first lead of the
// bench's full deals (test/bench/solver.ts: seed 4242), each from an empty table, in nodes and in CPU
// time of this process (process.cpuUsage: the machine is shared, so wall time lies). Each deal is
// queried REPEATS times and keeps its least CPU time (the run least disturbed); nodes are exact.
// Prints the median and p90 over the deals, and a checksum of the classes so a change that alters
// them shows.

import { Solver } from '../../game/index.js';
import { benchDeal } from './solver.js';

const deals = Number(process.argv[2] ?? 20);
const repeats = Number(process.argv[3] ?? 5);
const ttBits = Number(process.argv[4] ?? 20);

/** As the bench's (run.ts): the lower median of an even count. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const solver = new Solver({ ttBits });
const nodes: number[] = [];
const ms: number[] = [];
let checksum = 0;
// Warm the code up first: the first deals would otherwise pay for compilation.
for (let i = 0; i < 3; i++) {
  solver.clearTable();
  solver.moveClasses(benchDeal(i));
}
for (let i = 0; i < deals; i++) {
  const position = benchDeal(i);
  let best = Infinity;
  let n = 0;
  for (let r = 0; r < repeats; r++) {
    solver.clearTable();
    const t0 = cpuMs();
    const result = solver.moveClasses(position);
    const t = cpuMs() - t0;
    if (t < best) best = t;
    n = result.nodes;
    if (r === 0) for (const m of result.moves) checksum = (Math.imul(checksum, 31) + m.card * 8 + m.victories + 4) | 0;
  }
  nodes.push(n);
  ms.push(best);
  console.log(`deal ${i}: ${n} nodes, ${best.toFixed(1)} ms of CPU`);
}
const totalNodes = nodes.reduce((a, b) => a + b, 0);
const totalMs = ms.reduce((a, b) => a + b, 0);
console.log(
  `classes of every first lead, ${deals} deals: median ${quantile(nodes, 0.5)} nodes (p90 ${quantile(nodes, 0.9)}), ` +
    `median ${quantile(ms, 0.5).toFixed(1)} ms of CPU (p90 ${quantile(ms, 0.9).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}); ` +
    `${(totalNodes / totalMs / 1000).toFixed(2)} M nodes a second; total ${totalNodes} nodes; classes checksum ${checksum >>> 0}`,
);

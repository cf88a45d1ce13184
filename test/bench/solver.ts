// The solver section of `npm run bench`: the bench's full deals (seed 4242, deal i dealt by seat i mod 4,
// the first lead after the dealer) valued three ways, each from an empty table: the exact points of
// every root move (`moveValues`), the victory class of every root move (`moveClasses`), and one win
// test per root move (the mover's team reaches 61, `testAfter`). Nodes are exact, so they compare
// across machines; times depend on the machine. Each query has its wall time and the CPU time of this
// process (process.cpuUsage): on a machine shared with other work only the second is its own. A query over the cap counts at the cap with the nodes
// it had searched, so a hard deal makes the figures lower bounds instead of flattering them.

import { performance } from 'node:perf_hooks';
import { SearchAborted, Solver, createRng, dealCards, suitOf } from '../../game/index.js';
import type { Position, Seat } from '../../game/index.js';

export type SolverQuery = 'exact' | 'classes' | 'win';
export const SOLVER_QUERIES: readonly SolverQuery[] = ['exact', 'classes', 'win'];

export function benchDeal(i: number): Position {
  const deal = dealCards(createRng(4242, i), (i & 3) as Seat);
  return {
    trump: suitOf(deal.trumpCard),
    hands: deal.hands,
    leader: ((deal.dealer + 1) & 3) as Seat,
    trick: [],
    points: [0, 0],
  };
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs one query on a position with a fresh table: its nodes, wall and CPU time, and whether it finished within the cap. */
export function runQuery(
  solver: Solver,
  query: SolverQuery,
  position: Position,
  capMs: number,
): { nodes: number; ms: number; cpuMs: number; done: boolean } {
  const clock = (): number => performance.now();
  solver.clearTable();
  const t0 = clock();
  const c0 = cpuMs();
  const n0 = solver.nodes;
  solver.setDeadline(t0 + capMs, clock);
  let done = true;
  try {
    if (query === 'exact') solver.moveValues(position);
    else if (query === 'classes') solver.moveClasses(position);
    else {
      solver.load(position);
      const seat = (position.leader + position.trick.length) & 3;
      for (const card of solver.legalCards(seat)) solver.testAfter(seat, card, position.points[seat & 1]!, 61);
    }
  } catch (e) {
    if (!(e instanceof SearchAborted)) throw e;
    done = false;
  } finally {
    solver.clearDeadline();
  }
  return { nodes: solver.nodes - n0, ms: clock() - t0, cpuMs: cpuMs() - c0, done };
}

// A search worker: values the legal cards over worlds for one share of a decision. Each worker keeps
// its solver (and its transposition table) from one decision to the next.

import { performance } from 'node:perf_hooks';
import { Solver, createRng, searchWorlds } from '../../game/index.js';
import type { Card, InfoSet, SearchResult } from '../../game/index.js';

export interface SearchTask {
  info: InfoSet;
  legal: Card[];
  /** Worlds this worker may value at most. */
  worlds: number;
  /** Time this worker may take from the moment it starts the task. */
  budgetMs: number;
  seed: number;
}

const solver = new Solver({ ttBits: 20 });

export default function search(task: SearchTask): SearchResult {
  const clock = (): number => performance.now();
  return searchWorlds(task.info, task.legal, solver, createRng(task.seed), {
    worlds: task.worlds,
    rollouts: 0,
    rolloutTricks: 0,
    clock,
    deadline: clock() + task.budgetMs,
    seed: task.seed,
  });
}

// A search worker: values the legal cards over worlds for one share of a decision. Each worker keeps
// its solver (and its transposition table) from one decision to the next.

import { performance } from 'node:perf_hooks';
import { workerData } from 'node:worker_threads';
import {
  MlpPolicyNet,
  Solver,
  believedWorlds,
  createRng,
  learnedInferenceModel,
  searchWorlds,
} from '../../../game/index.js';
import type {
  Card,
  InfoSet,
  PlayModel,
  PlayoutPolicy,
  Recollection,
  SearchObjective,
  SearchResult,
} from '../../../game/index.js';

export interface SearchTask {
  info: InfoSet;
  legal: Card[];
  /** Worlds this worker may value at most. */
  worlds: number;
  /** When the answer is due, in ms since the epoch (`performance.timeOrigin + performance.now()` agrees across threads). */
  deadline: number;
  seed: number;
  /** Inference from the other seats' plays (0..1; 0 samples worlds uniformly). */
  trust: number;
  /** What a world values a card by, and who rolls out the tricks before the exact horizon. */
  objective: SearchObjective;
  playout: PlayoutPolicy;
  /** At a level of play: what the robot recalls (robot/live/node/level-memory.ts); its worlds are those of what it remembers (game/memory). */
  recollection?: Recollection;
}

const solver = new Solver({ ttBits: 20 });
/** The exact horizon that fitted the budget last time, by tricks left (0 = not known yet). */
const horizonByTricksLeft = new Int8Array(11);

/** The pool's people's model (PoolPlayerOptions.inferenceModel), built once from the bytes the node checked. */
const people = (workerData as { inferenceModel?: { name: string; bytes: Uint8Array } } | null)?.inferenceModel;
const peopleModel: PlayModel | undefined = people
  ? learnedInferenceModel(MlpPolicyNet.fromOnnx(people.name, people.bytes))
  : undefined;

export default function search(task: SearchTask): SearchResult {
  // Wall time shared by all threads, so module loading or queueing in this worker eats into the same budget.
  const clock = (): number => performance.timeOrigin + performance.now();
  const tricksLeft = 10 - task.info.trick;
  const known = horizonByTricksLeft[tricksLeft]!;
  const result = searchWorlds(task.info, task.legal, solver, createRng(task.seed), {
    worlds: task.worlds,
    rollouts: 0,
    rolloutTricks: 0,
    clock,
    deadline: task.deadline,
    seed: task.seed,
    objective: task.objective,
    playout: task.playout,
    ...(task.trust > 0
      ? { inference: peopleModel ? { trust: task.trust, model: peopleModel } : { trust: task.trust } }
      : {}),
    ...(task.recollection ? { source: believedWorlds(task.info, task.recollection) } : {}),
    ...(known ? { startHorizon: known + 1 } : {}),
  });
  if (result.tally.worlds > 0) horizonByTricksLeft[tricksLeft] = 10 - result.exactFromTrick;
  return result;
}

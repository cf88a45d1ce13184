// Estimates of the robot team's final points and win probability after events the robot did not
// search itself, on a worker thread of their own (never this thread: the table and the bus must
// stay served), within a small budget. What the appraisal compares the robot's last expectation with.

import { builtModule } from '../../../config/index.js';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import type { Expectation } from '../../../appraisal/index.js';
import type { Card, InfoSet, Seat, Suit } from '../../../game/index.js';
import { deriveSeed } from '../../../game/index.js';
import type { ExpectationSums, ExpectationTask } from './expectation-worker.js';
import { workersLoaded } from '../search/workers-loaded.js';

/** An estimate of a position; after a play, also how likely its player had a choice. */
export interface Estimate extends Expectation {
  /**
   * After a play: the share of the worlds in which its player held another card it could have played
   * (0: it was the player's only legal card in every world; a choice is what praise or blame needs).
   */
  choice?: number;
}

/** The play that led to a position: its player, card and the suit led (null when it led). */
export interface PlayToJudge {
  seat: Seat;
  card: Card;
  led: Suit | null;
}

/** Where the reactions get their estimates: the worker below, or a replay's recorded answers. */
export interface ExpectationSource {
  /**
   * The expectation from `info`, the robot's information set just after event number `event` (its
   * index among the events the reactions observed this session), or undefined when none could be
   * made; rejects when it failed. A replay answers by the event; the worker needs only `info`.
   */
  estimate(info: InfoSet, event: number, play?: PlayToJudge): Promise<Estimate | undefined>;
}

interface ExpectationEstimatorOptions {
  /** Time per estimate (ms). */
  budgetMs: number;
  maxWorlds: number;
  exactTricks: number;
  seed: number;
  /** Default 1: the robot's search has the other cores. */
  threads?: number;
  /** Inference from the other seats' plays, 0..1, as the robot's search uses it (default 0: uniform worlds). */
  trust?: number;
}

/**
 * The means of a worker's sums, with their standard errors (the appraisal takes a smaller change as
 * sampling noise). A win share of 0 or 1 is given the error of one world in n + 1 either way, not 0:
 * every world sampled won is still an estimate.
 */
export function estimateOf(sums: Pick<ExpectationSums, 'worlds' | 'points' | 'pointsSq' | 'wins'>): Expectation {
  const n = sums.worlds;
  const mean = sums.points / n;
  const p = sums.wins / n;
  const variance = n > 1 ? Math.max(0, (sums.pointsSq - n * mean * mean) / (n - 1)) : 0;
  const q = Math.min(Math.max(p, 1 / (n + 1)), n / (n + 1));
  return {
    expectedPoints: mean,
    winProbability: p,
    pointsSe: Math.sqrt(variance / n),
    winSe: Math.sqrt((q * (1 - q)) / n),
  };
}

export class ExpectationEstimator implements ExpectationSource {
  private readonly pool: Piscina<ExpectationTask, ExpectationSums>;
  private count = 0;
  /** Its worker has loaded its module: only then may the pool be destroyed (workers-loaded.ts). */
  private readonly loaded: Promise<void>;

  constructor(private readonly o: ExpectationEstimatorOptions) {
    const threads = Math.max(1, o.threads ?? 1);
    this.pool = new Piscina({
      filename: builtModule('robot', 'live', 'node', 'expectation-worker.js').href,
      minThreads: threads,
      maxThreads: threads,
    });
    this.loaded = workersLoaded(this.pool);
  }

  /** The expectation from `info`, or undefined when not one world fitted the budget. */
  async estimate(info: InfoSet, _event: number, play?: PlayToJudge): Promise<Estimate | undefined> {
    const deadline = performance.timeOrigin + performance.now() + this.o.budgetMs;
    const n = this.count++;
    const sums = await this.pool.run({
      info,
      deadline,
      maxWorlds: this.o.maxWorlds,
      exactTricks: this.o.exactTricks,
      seed: deriveSeed(this.o.seed, n, 0xe5),
      trust: this.o.trust ?? 0,
      ...(play ? { play } : {}),
    });
    if (sums.worlds === 0) return undefined;
    const estimate: Estimate = estimateOf(sums);
    if (play) estimate.choice = 1 - sums.forced / sums.worlds;
    return estimate;
  }

  async close(): Promise<void> {
    await this.loaded;
    await this.pool.destroy();
  }
}

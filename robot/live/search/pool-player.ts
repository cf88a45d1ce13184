// The robot's player for live sessions: the timed search spread over worker threads, so the node's
// main thread (the table, the bus, the dashboard) is never blocked, and every core searches worlds.
// Each worker values its own share of worlds within the budget; their sums are added up.

import { builtModule } from '../../../config/index.js';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import {
  RulePlayer,
  SEARCH_DEFAULTS,
  beliefsOf,
  checkTrust,
  countConsistentDeals,
  decisionOf,
  deriveSeed,
  emptyTally,
  forcedDecision,
  mergeTally,
  withReason,
} from '../../../game/index.js';
import type {
  Decision,
  GameEvent,
  PlayoutPolicy,
  Recollection,
  SearchObjective,
  SearchResult,
  Seat,
  SeatView,
} from '../../../game/index.js';
import type { AsyncChoice, AsyncPlayerLike } from '../../arena/index.js';
import type { SearchTask } from './worker.js';
import { workersLoaded } from './workers-loaded.js';

export interface PoolPlayerOptions {
  seat: Seat;
  seed: number;
  /** Time per decision (default 2000 ms). */
  budgetMs?: number;
  /** Worker threads (default: one per core). */
  threads?: number;
  /** Worlds per decision at most, over all workers. */
  maxWorlds?: number;
  /** Kind shown in statistics (default `timed`). */
  name?: string;
  /** How far the other seats are believed to play like the rule-based player, 0..1 (default: the timed player's). */
  trust?: number;
  /**
   * A policy network the worlds are weighed by instead of the rule-based odds (game/learned/likelihood.ts):
   * a lab's model of how its people play. Its name and the bytes of its ONNX file (checked by the
   * caller): each worker builds the network from these bytes once, and never reads the file.
   */
  inferenceModel?: { name: string; bytes: Uint8Array };
  /** What a world values a card by, and who rolls out before the exact horizon (default: the timed player's, victories and expert). */
  objective?: SearchObjective;
  playout?: PlayoutPolicy;
  /** The search worker's module (default: ./worker.js; tests give one that never answers). */
  worker?: URL;
  /** Add to each decision the reason for its card against the next best (default true; a few ms, inside the time kept back). */
  explain?: boolean;
  /**
   * Told when a decision had to answer without some worker's result, for the operator. Routine at
   * budgets of tens of milliseconds (tests, quick simulations), rare at the default.
   */
  log?: (message: string) => void;
}

/** Time kept back for handing work to the workers, merging and answering. */
const OVERHEAD_MS = 40;
/**
 * The answer is due at the budget even if a worker is late (a stalled thread, a loaded machine): at
 * this long before it, the player answers with the workers that have answered, or the rule-based
 * player if none has. A late worker's result is dropped; its search ends at its own deadline.
 */
const BACKSTOP_MS = 15;

export class PoolSearchPlayer implements AsyncPlayerLike {
  readonly kind: string;
  private readonly pool: Piscina<SearchTask, SearchResult>;
  private readonly threads: number;
  private readonly budgetMs: number;
  private readonly maxWorlds: number;
  private readonly trust: number;
  private readonly objective: SearchObjective;
  private readonly playout: PlayoutPolicy;
  private readonly fallback: RulePlayer;
  private readonly explain: boolean;
  /** Its workers have loaded their module: only then may the pool be destroyed (workers-loaded.ts). */
  private readonly loaded: Promise<void>;
  private decisions = 0;
  /** Decisions answered without some worker's result, because it was late. */
  lateDecisions = 0;

  constructor(private readonly options: PoolPlayerOptions) {
    this.kind = options.name ?? 'timed';
    this.threads = Math.max(1, options.threads ?? availableParallelism());
    this.budgetMs = options.budgetMs ?? SEARCH_DEFAULTS.timed.budgetMs;
    this.maxWorlds = options.maxWorlds ?? SEARCH_DEFAULTS.timed.maxWorlds;
    this.trust = options.trust ?? SEARCH_DEFAULTS.timed.trust;
    checkTrust(this.trust);
    this.objective = options.objective ?? SEARCH_DEFAULTS.timed.objective;
    this.playout = options.playout ?? SEARCH_DEFAULTS.timed.playout;
    this.fallback = new RulePlayer({ seat: options.seat, seed: options.seed ^ 0x2545f491 });
    this.explain = options.explain ?? true;
    this.pool = new Piscina({
      filename: (options.worker ?? builtModule('robot', 'live', 'search', 'worker.js')).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      ...(options.inferenceModel ? { workerData: { inferenceModel: options.inferenceModel } } : {}),
    });
    this.loaded = workersLoaded(this.pool);
  }

  observe(_event: GameEvent): void {}

  async choose(view: SeatView): Promise<AsyncChoice> {
    return { card: (await this.decide(view)).card, fault: null };
  }

  /**
   * The card and the beliefs behind it, within the budget, without blocking this thread. With a
   * recollection (a level of play, robot/live/node/level-memory.ts) the workers search the worlds of what
   * the robot remembers instead of those of its true information set.
   */
  async decide(view: SeatView, recollection?: Recollection): Promise<Decision> {
    const t0 = performance.now();
    const legal = view.legalCards();
    const info = view.snapshot();
    if (legal.length === 1) {
      return forcedDecision(legal[0]!, info.trick);
    }
    // After a physical deal a renounce nobody has seen yet can leave no deal consistent with what the
    // robot saw: there are no worlds to search, so the rule-based player decides (said in the beliefs).
    if (countConsistentDeals(info) === 0)
      return decisionOf(beliefsOf(emptyTally(legal), performance.now() - t0, info.trick), () =>
        this.fallback.choose(view),
      );
    const n = this.decisions++;
    const deadline = performance.timeOrigin + t0 + Math.max(1, this.budgetMs - OVERHEAD_MS);
    // The worlds cap shared out exactly (a level's few worlds: a worker with no share is not asked).
    const workers = Math.min(this.threads, this.maxWorlds);
    const share = (w: number): number => Math.floor(this.maxWorlds / workers) + (w < this.maxWorlds % workers ? 1 : 0);
    const answered: (SearchResult | undefined)[] = [];
    const all = Promise.all(
      Array.from({ length: workers }, (_, w) =>
        this.pool
          .run({
            info,
            legal,
            worlds: share(w),
            deadline,
            seed: deriveSeed(this.options.seed, n, w),
            trust: this.trust,
            objective: this.objective,
            playout: this.playout,
            ...(recollection ? { recollection } : {}),
          })
          .then((r) => void (answered[w] = r)),
      ),
    ).then(() => false);
    let timer: NodeJS.Timeout | undefined;
    const backstop = new Promise<boolean>(
      (resolve) =>
        (timer = setTimeout(() => resolve(true), Math.max(0, t0 + this.budgetMs - BACKSTOP_MS - performance.now()))),
    );
    // A worker's failure before the answer fails the decision (the session plays a fallback and says why).
    const late = await Promise.race([all, backstop]).finally(() => clearTimeout(timer));
    // Only what had arrived by now: results that come later are not this decision's.
    const parts = answered.filter((r): r is SearchResult => r !== undefined);
    if (late) {
      this.lateDecisions++;
      const missing = workers - parts.length;
      this.options.log?.(
        `search: ${missing} of ${workers} search threads had not answered at the ${this.budgetMs} ms budget (trick ${info.trick + 1}); ` +
          (parts.length ? `the decision uses the other ${parts.length}` : 'the rule-based player decided') +
          '. A loaded machine or too small a budget causes this.',
      );
    }
    const tally = parts.reduce((t, p) => mergeTally(t, p.tally), emptyTally(legal, this.objective));
    // No worker answered in time: nothing was searched, as at a position with no consistent deal.
    const exactFrom = parts.length ? Math.max(...parts.map((p) => p.exactFromTrick)) : info.trick;
    // Each worker weighs its own candidates: together they weigh the sum.
    const weighed = parts.filter((p) => p.inference);
    const inference = weighed.length
      ? {
          trust: this.trust,
          candidates: weighed.reduce((n, p) => n + p.inference!.candidates, 0),
          effective: Math.round(weighed.reduce((n, p) => n + p.inference!.effective, 0) * 10) / 10,
        }
      : undefined;
    const decision = decisionOf(beliefsOf(tally, performance.now() - t0, exactFrom, inference), () =>
      this.fallback.choose(view),
    );
    // Why this card rather than the next best (a few milliseconds of play-outs), for "porquê?".
    return this.explain ? withReason(decision, info, deriveSeed(this.options.seed, n, 0x3a50)) : decision;
  }

  async close(): Promise<void> {
    await this.loaded;
    await this.pool.destroy();
  }
}

// The search players: `pimc` (N worlds, exact), `hybrid` (the paper's N worlds x M rule-based
// rollouts until trick T, exact after) and `timed` (the robot's default: anytime within a budget,
// as many worlds as fit, exact from as early a trick as the budget allows, playing for expected
// victories with the expert player rolling out the tricks before the exact horizon). `timed-v1` is
// the timed player as it was before that (expected points, rule-based rollouts), kept to measure
// against. Each decision comes with its beliefs: every card's expected victories, mean points and
// spread over the worlds, the win probability, the effort.

import type { Card } from '../cards.js';
import type { Clock } from '../clock.js';
import type { Rng } from '../rng.js';
import { createRng } from '../rng.js';
import { beliefsOf } from '../search/tally.js';
import { decisionOf, forcedDecision } from '../decision.js';
import type { Beliefs, Decision, MoveBelief, SearchObjective } from '../decision.js';
import { searchWorlds } from '../search/search.js';
import { checkTrust } from '../search/inference.js';
import type { InferenceModelName } from '../predict/likelihood.js';
import { inferenceModel } from '../predict/likelihood.js';
import type { PlayoutPolicy, SearchSettings, WorldSource } from '../search/search.js';
import { Solver } from '../solver/solver.js';
import type { InfoSet, SeatView } from '../view.js';
import type { PolicyNet } from '../learned/mlp.js';
import { ImitationPlayer } from '../learned/imitation.js';
import { learnedInferenceModel } from '../learned/likelihood.js';
import type { Player, PlayerOptions } from './player.js';
import { RulePlayer } from './rule.js';

export type SearchKind = 'pimc' | 'hybrid' | 'timed' | 'timed-v1' | 'mix';

interface SearchPlayerOptions extends PlayerOptions {
  kind: SearchKind;
  /** Name in statistics (defaults to the kind). */
  name?: string;
  /** Worlds per decision: exactly (pimc, hybrid) or at most (timed). */
  worlds?: number;
  /** hybrid: rollouts per world and card. */
  rollouts?: number;
  /** hybrid: tricks the rollout completes before exact search (the paper's T). */
  rolloutTricks?: number;
  /** mix: the last tricks valued exactly (default 4); the tricks before are played out by the expert. */
  exactTricks?: number;
  /**
   * How far the other seats are believed to play like the rule-based player, 0..1: worlds are
   * weighed by the likelihood of their plays (search/inference.ts). 0 samples worlds uniformly.
   */
  trust?: number;
  /** The model of play the worlds are weighed by (default `rule`, the rule-based player's odds; `expert`: game/predict). */
  inferenceModel?: InferenceModelName;
  /** A policy network the worlds are weighed by instead (game/learned/likelihood.ts): how people at a lab play, say. */
  inferenceNet?: PolicyNet;
  /** What a world values a card by (default: victories for `timed`, points for the others). */
  objective?: SearchObjective;
  /** Who rolls out the tricks before the exact horizon (default: expert for `timed`, rule for the others). */
  playout?: PlayoutPolicy;
  /** playout `policy`: the policy network (game/learned) whose most probable card each seat plays in the rollouts. */
  policyNet?: PolicyNet;
  /**
   * A prior at the root (game/learned): the network's probability of each card, times `priorWeight`
   * (victories; points / 30 with the points objective), is added to the card's searched value before
   * the best is taken. The beliefs keep the searched values.
   */
  priorNet?: PolicyNet;
  priorWeight?: number;
  /**
   * At each decision with a choice, the worlds to search when not those of the seat's true
   * information set: what a player who forgets remembers (game/memory). Absent or undefined: the true ones.
   */
  worldsFor?: (info: InfoSet, legal: readonly Card[]) => WorldSource | undefined;
}

export const SEARCH_DEFAULTS = {
  pimc: { worlds: 20 },
  hybrid: { worlds: 5, rollouts: 5, rolloutTricks: 5 },
  timed: { budgetMs: 2000, maxWorlds: 2000, trust: 0.5, objective: 'victories', playout: 'expert' },
  mix: { exactTricks: 4 },
} as const;

/** Time kept back from the budget for building the answer and handing it over. */
const SAFETY_MS = 15;

export class SearchPlayer implements Player {
  readonly kind: string;
  private readonly rng: Rng;
  private readonly solver: Solver;
  private readonly fallback: RulePlayer;
  private readonly settings: Omit<SearchSettings, 'seed' | 'deadline'>;
  private readonly budgetMs: number;
  private readonly clock: Clock['now'] | undefined;
  /** timed or timed-v1: within a budget, on a clock. */
  private readonly anytime: boolean;
  /** Timed: the exact horizon that fitted the budget last time, by tricks left (0 = not known yet). */
  private readonly horizonByTricksLeft = new Int8Array(11);
  /** The root prior's network, as a player that gives its probabilities (priorNet). */
  private readonly prior: ImitationPlayer | null = null;

  constructor(private readonly options: SearchPlayerOptions) {
    this.kind = options.name ?? options.kind;
    this.rng = createRng(options.seed, 0x5ea7c4);
    this.fallback = new RulePlayer({ seat: options.seat, seed: options.seed ^ 0x2545f491 });
    const k = options.kind;
    const anytime = (this.anytime = k === 'timed' || k === 'timed-v1' || k === 'mix');
    // mix: the timed player's worlds and choice, but every world played out by the expert to the last
    // `exactTricks` tricks and exact from there, whatever the budget: many cheap worlds.
    const forTimed = k === 'timed' || k === 'mix';
    this.solver = new Solver({ ttBits: anytime ? 20 : 18 });
    this.budgetMs = options.budgetMs ?? SEARCH_DEFAULTS.timed.budgetMs;
    this.clock = options.clock;
    if (anytime && !this.clock) throw new Error('the timed player needs a clock (PlayerOptions.clock)');
    this.settings = {
      worlds:
        options.worlds ??
        (k === 'pimc'
          ? SEARCH_DEFAULTS.pimc.worlds
          : k === 'hybrid'
            ? SEARCH_DEFAULTS.hybrid.worlds
            : SEARCH_DEFAULTS.timed.maxWorlds),
      rollouts: k === 'hybrid' ? (options.rollouts ?? SEARCH_DEFAULTS.hybrid.rollouts) : k === 'mix' ? 1 : 0,
      rolloutTricks:
        k === 'hybrid'
          ? (options.rolloutTricks ?? SEARCH_DEFAULTS.hybrid.rolloutTricks)
          : k === 'mix'
            ? 10 - (options.exactTricks ?? SEARCH_DEFAULTS.mix.exactTricks)
            : 0,
      ...(anytime && this.clock ? { clock: this.clock } : {}),
      objective: options.objective ?? (forTimed ? SEARCH_DEFAULTS.timed.objective : 'points'),
      playout: options.playout ?? (forTimed ? SEARCH_DEFAULTS.timed.playout : 'rule'),
      ...(options.policyNet ? { policyNet: options.policyNet } : {}),
    };
    // The paper's players sample uniformly unless told otherwise; the robot's timed player infers.
    if (options.priorNet) this.prior = new ImitationPlayer({ seat: options.seat, seed: 0, net: options.priorNet });
    const trust = options.trust ?? (anytime ? SEARCH_DEFAULTS.timed.trust : 0);
    checkTrust(trust);
    const model = options.inferenceNet
      ? learnedInferenceModel(options.inferenceNet)
      : options.inferenceModel
        ? inferenceModel(options.inferenceModel)
        : undefined;
    if (trust > 0) this.settings.inference = model ? { trust, model } : { trust };
  }

  choose(view: SeatView): Card {
    return this.decide(view).card;
  }

  decide(view: SeatView): Decision {
    const clock = this.clock;
    const t0 = clock ? clock() : 0;
    const legal = view.legalCards();
    const info = view.snapshot();
    if (legal.length === 1) {
      return forcedDecision(legal[0]!, info.trick);
    }
    const timed = this.anytime;
    const tricksLeft = 10 - info.trick;
    const known = this.horizonByTricksLeft[tricksLeft]!;
    const source = this.options.worldsFor?.(info, legal);
    const { tally, exactFromTrick, inference } = searchWorlds(info, legal, this.solver, this.rng, {
      ...this.settings,
      ...(source ? { source } : {}),
      seed: this.options.seed,
      // Start one trick deeper than what fitted last time: cheap to try, and it adapts to the machine.
      ...(timed ? { deadline: t0 + this.budgetMs - SAFETY_MS, ...(known ? { startHorizon: known + 1 } : {}) } : {}),
    });
    if (timed && tally.worlds > 0) this.horizonByTricksLeft[tricksLeft] = 10 - exactFromTrick;
    const elapsed = clock ? clock() - t0 : 0;
    const beliefs = beliefsOf(tally, elapsed, exactFromTrick, inference);
    if (this.prior && beliefs.worlds > 0) this.biasRoot(beliefs, view);
    // If not one world could be valued in time, play as the rule-based player would, and say so.
    return decisionOf(beliefs, () => this.fallback.choose(view));
  }

  /** Re-orders the moves by searched value plus the prior's weight times the network's probability. */
  private biasRoot(beliefs: Beliefs, view: SeatView): void {
    const p = this.prior!.probabilities(view);
    const w = this.options.priorWeight ?? 0.2;
    const victories = this.settings.objective === 'victories';
    const key = (m: MoveBelief): number => (victories ? (m.victories ?? 0) : m.mean / 30) + w * p[m.card]!;
    beliefs.moves.sort((a, b) => key(b) - key(a) || b.mean - a.mean);
  }
}

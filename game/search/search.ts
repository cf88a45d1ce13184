// Perfect Information Monte Carlo: sample worlds consistent with what the seat knows (uniformly, or
// in proportion to how likely the other seats' plays were in them: inference.ts), value every legal
// card in each world, and keep the sums. A world is valued exactly with the solver, or (the
// paper's hybrid) by rule-based rollouts up to a trick and exactly after it.
//
// The anytime variant (`budget`) keeps drawing worlds until its deadline. It first tries to search
// exactly from now; when one world cannot be solved within a slice of the budget, it searches exactly
// from one trick later (rolling out the tricks before), and so on, so that enough worlds fit. A world
// cut off by the deadline is dropped, never half-counted.

import type { Card } from '../cards.js';
import { pointsOf } from '../cards.js';
import type { Game } from '../game.js';
import type { Clock } from '../match.js';
import { RulePlayer } from '../players/rule.js';
import type { Rng } from '../rng.js';
import { deriveSeed } from '../rng.js';
import { createDealSampler } from '../sampler.js';
import type { Seat, Team } from '../seats.js';
import { teamOf } from '../seats.js';
import { SearchAborted } from '../solver/solver.js';
import type { Solver } from '../solver/solver.js';
import type { Position } from '../solver/position.js';
import type { InfoSet } from '../view.js';
import { SeatView } from '../view.js';
import type { InferenceReport, Tally } from './tally.js';
import { addWorld, emptyTally } from './tally.js';
import type { InferenceSettings } from './inference.js';
import { weighedWorlds } from './inference.js';
import { WorldBuilder, positionOf } from './world.js';

/** Worlds the anytime search aims to fit in its budget when choosing how deep to search exactly. */
const MIN_WORLDS = 32;

export interface SearchSettings {
  /** Worlds to value (the most, with a budget). */
  worlds: number;
  /** Rollouts per world and card; 0 values each world exactly from now. */
  rollouts: number;
  /** With rollouts: tricks completed by the rule-based rollout before the exact search takes over. */
  rolloutTricks: number;
  /** Anytime search: stop drawing worlds at this time of `clock` (ms). */
  deadline?: number;
  clock?: Clock;
  seed: number;
  /** Anytime search: the exact horizon (tricks) to try first, e.g. one more than what worked last time. */
  startHorizon?: number;
  /** Weigh worlds by how likely the other seats' plays were in them (see inference.ts); off when absent. */
  inference?: InferenceSettings;
}

export interface SearchResult {
  tally: Tally;
  /** Trick (0-based) from which the values are exact. */
  exactFromTrick: number;
  /** With inference: the trust, the candidate worlds weighed, and how many of them the weights amount to. */
  inference?: InferenceReport;
}

/** Values every legal card of the seat to move over sampled worlds. */
export function searchWorlds(info: InfoSet, legal: Card[], solver: Solver, rng: Rng, settings: SearchSettings): SearchResult {
  const sampler = createDealSampler(info);
  // With inference, worlds come from weighed candidates (null: the plain sampler serves).
  const weighted = weighedWorlds(info, sampler, rng, settings.inference, settings.clock, settings.deadline);
  /** Exact values of the weighed candidates already solved: a candidate drawn again costs nothing. */
  const solved = new Map<number, Float64Array>();
  const builder = settings.rollouts > 0 || settings.deadline !== undefined ? new WorldBuilder(info) : null;
  const tally = emptyTally(legal);
  const ours = teamOf(info.seat);
  const inPlay = pointsInPlay(info);
  const values = new Float64Array(legal.length);
  const tricksLeft = 10 - info.trick;
  const { clock, deadline } = settings;
  const timed = deadline !== undefined && clock !== undefined;
  const start = timed ? clock() : 0;
  // Exact horizon: how many of the remaining tricks the solver searches.
  let horizon = settings.rollouts > 0 ? Math.max(0, 10 - Math.max(settings.rolloutTricks, info.trick)) : tricksLeft;
  if (timed && settings.startHorizon !== undefined) horizon = Math.min(horizon, settings.startHorizon);
  if (horizon === 0) horizon = Math.min(tricksLeft, 1);
  const hands: Card[][] = [[], [], [], []];
  const rollout = settings.rollouts > 0 ? settings.rollouts : 1;
  const nodes0 = solver.nodes;
  let worldsAtHorizon = 0;

  for (let w = 0; w < settings.worlds; w++) {
    if (timed) {
      const now = clock();
      const spent = now - start;
      // Start another world only if the average world fits in what is left.
      if (tally.worlds > 0 && now + spent / tally.worlds > deadline) break;
      // The first world at a horizon must fit 1/32 of the budget (so that some 32 worlds fit in all);
      // failing that, search exactly one trick less. More worlds beat one more exact trick.
      const slice = worldsAtHorizon === 0 && horizon > 1 ? Math.min(deadline, now + (deadline - start) / MIN_WORLDS) : deadline;
      solver.setDeadline(slice, clock);
    }
    if (weighted) {
      weighted.next(rng, hands);
      const known = horizon === tricksLeft ? solved.get(weighted.index) : undefined;
      if (known) {
        addWorld(tally, known);
        worldsAtHorizon++;
        continue;
      }
    } else sampler.sample(rng, hands);
    try {
      if (horizon === tricksLeft) exactWorld(info, hands, legal, solver, ours, inPlay, values);
      else rolloutWorld(builder!.game(hands), info.seat, legal, solver, rng, 10 - horizon, rollout, values);
    } catch (e) {
      if (!(e instanceof SearchAborted)) throw e;
      if (!timed || clock() >= deadline || horizon <= 1 || tally.worlds > 0) break;
      horizon--; // too slow to search this deep: roll out one more trick and retry
      w--;
      continue;
    }
    addWorld(tally, values);
    if (weighted && horizon === tricksLeft) solved.set(weighted.index, Float64Array.from(values));
    worldsAtHorizon++;
  }
  if (timed) solver.clearDeadline();
  tally.nodes = solver.nodes - nodes0;
  return {
    tally,
    exactFromTrick: 10 - horizon,
    ...(weighted ? { inference: { trust: settings.inference!.trust, candidates: weighted.count, effective: Math.round(weighted.effective * 10) / 10 } } : {}),
  };
}

/** Points of the cards not yet won: the same in every world (own hand plus unseen plus table). */
function pointsInPlay(info: InfoSet): number {
  let p = 0;
  for (const c of info.hand) p += pointsOf(c);
  for (const c of info.unseen) p += pointsOf(c);
  for (const c of info.table) p += pointsOf(c);
  return p;
}

/** Exact value of each legal card in one world: our team's final points. */
function exactWorld(info: InfoSet, hands: Card[][], legal: Card[], solver: Solver, ours: Team, inPlay: number, out: Float64Array): void {
  const position: Position = { trump: info.trump, hands, leader: info.leader, trick: info.table, points: info.points };
  solver.load(position);
  let guess = inPlay >> 1;
  for (let i = 0; i < legal.length; i++) {
    const a = solver.valueAfter(info.seat, legal[i]!, guess);
    guess = a;
    out[i] = ours === 0 ? info.points[0] + a : info.points[1] + (inPlay - a);
  }
}

/** Hybrid value of each legal card in one world: rule-based rollouts to `exactFrom`, exact after. */
function rolloutWorld(game: Game, seat: Seat, legal: Card[], solver: Solver, rng: Rng, exactFrom: number, rollouts: number, out: Float64Array): void {
  const ours = teamOf(seat);
  const policySeed = rng.int(0x7fffffff);
  for (let i = 0; i < legal.length; i++) {
    let sum = 0;
    for (let m = 0; m < rollouts; m++) {
      const g = game.clone();
      g.play(legal[i]!);
      const policy = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: deriveSeed(policySeed, i, m, s) }));
      while (!g.isOver && g.trick < exactFrom) {
        const s = g.toMove;
        g.play(policy[s]!.choose(new SeatView(g, s)));
      }
      if (g.isOver) {
        sum += g.points(ours);
      } else {
        const { toMove, value } = solver.solve(positionOf(g));
        // A finished game shares out all 120 points.
        sum += teamOf(toMove) === ours ? value : 120 - value;
      }
    }
    out[i] = sum / rollouts;
  }
}

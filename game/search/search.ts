// Perfect Information Monte Carlo: sample worlds consistent with what the seat knows (uniformly, or
// in proportion to how likely the other seats' plays were in them: inference.ts), value every legal
// card in each world, and keep the sums. A world is valued exactly with the solver, or (the
// paper's hybrid) by rollouts up to a trick and exactly after it.
//
// What a card is worth in a world (`objective`): its exact final points (the paper's players), or
// its victory class (the robot's: the game is scored in victories, and a class takes a few
// zero-window tests where exact points take a full proof). Rollouts are played by the `rule` player
// (the paper's) or the far stronger `expert` (the robot's): the tricks before the exact horizon are
// only as good as the players that roll them out.
//
// The anytime variant (`budget`) keeps drawing worlds until its deadline. It first tries to search
// exactly from now; when one world cannot be solved within a slice of the budget, it searches exactly
// from one trick later (rolling out the tricks before), and so on, so that enough worlds fit. A world
// cut off by the deadline is dropped, never half-counted.

import type { Card } from '../cards.js';
import { pointsOf } from '../cards.js';
import type { Game } from '../game.js';
import type { Clock } from '../clock.js';
import { ExpertPlayer } from '../players/expert.js';
import type { Player } from '../players/player.js';
import { RulePlayer } from '../players/rule.js';
import { victoriesFor } from '../scoring.js';
import type { Rng } from '../rng.js';
import { deriveSeed } from '../rng.js';
import { createDealSampler } from '../sampler.js';
import type { DealSampler } from '../sampler.js';
import type { Seat, Team } from '../seats.js';
import { teamOf } from '../seats.js';
import { SearchAborted } from '../solver/solver.js';
import type { Solver } from '../solver/solver.js';
import type { Position } from '../solver/position.js';
import type { InfoSet } from '../view.js';
import { SeatView } from '../view.js';
import type { InferenceReport, SearchObjective } from '../decision.js';
import type { Tally } from './tally.js';
import { addWorld, emptyTally } from './tally.js';
import type { InferenceSettings } from './inference.js';
import { weighedWorlds } from './inference.js';
import { WorldBuilder, positionOf } from './world.js';
import { ImitationPlayer } from '../learned/imitation.js';
import type { PolicyNet } from '../learned/mlp.js';

/** Worlds the anytime search aims to fit in its budget when choosing how deep to search exactly. */
const MIN_WORLDS = 32;
/**
 * With the victories objective, positions with this many tricks left or fewer are valued exactly
 * (a millisecond or less a world): the points that break ties between cards of one class are then
 * exact, where a class proof's bounds are coarse.
 */
const EXACT_TRICKS = 5;

export interface SearchSettings {
  /** Worlds to value (the most, with a budget). */
  worlds: number;
  /** Rollouts per world and card; 0 values each world exactly from now. */
  rollouts: number;
  /** With rollouts: tricks completed by the rule-based rollout before the exact search takes over. */
  rolloutTricks: number;
  /** Anytime search: stop drawing worlds at this time of `clock` (ms). */
  deadline?: number;
  clock?: Clock['now'];
  seed: number;
  /** Anytime search: the exact horizon (tricks) to try first, e.g. one more than what worked last time. */
  startHorizon?: number;
  /** Weigh worlds by how likely the other seats' plays were in them (see inference.ts); off when absent. */
  inference?: InferenceSettings;
  /** What each world values a card by (default `points`, the paper's players; the robot's: `victories`). */
  objective?: SearchObjective;
  /** Who plays the tricks rolled out before the exact horizon (default `rule`, the paper's; the robot's: `expert`). */
  playout?: PlayoutPolicy;
  /** playout `policy`: the policy network whose most probable card each seat plays (game/learned). */
  policyNet?: PolicyNet;
  /** Where the worlds come from when not from `info` itself: what a player who forgets believes (game/memory). */
  source?: WorldSource;
}

/**
 * Worlds believed rather than known: a player who forgot some played cards may hold any of them to
 * be in a hand. The worlds keep the seat's own hand, the table, the hand sizes and the points in play
 * (the search's arithmetic relies on them); the search still values only the seat's real legal cards.
 */
export interface WorldSource {
  /** Draws the four hands of a world (the seat's own included), as a DealSampler does. */
  readonly sampler: DealSampler;
  /** The game in the world where the seats hold `hands`, for the tricks rolled out. */
  game(hands: readonly (readonly Card[])[]): Game;
}

/** The players that roll out the tricks before the exact horizon (`policy`: a policy network's imitation players, with `policyNet`). */
export type PlayoutPolicy = 'rule' | 'expert' | 'policy';

export interface SearchResult {
  tally: Tally;
  /** Trick (0-based) from which the values are exact. */
  exactFromTrick: number;
  /** With inference: the trust, the candidate worlds weighed, and how many of them the weights amount to. */
  inference?: InferenceReport;
}

/** Values every legal card of the seat to move over sampled worlds. */
export function searchWorlds(
  info: InfoSet,
  legal: Card[],
  solver: Solver,
  rng: Rng,
  settings: SearchSettings,
): SearchResult {
  const sampler = settings.source?.sampler ?? createDealSampler(info);
  // With inference, worlds come from weighed candidates (null: the plain sampler serves).
  const weighted = weighedWorlds(info, sampler, rng, settings.inference, settings.clock, settings.deadline);
  /** Exact values of the weighed candidates already solved: a candidate drawn again costs nothing. */
  const solved = new Map<number, Float64Array>();
  const builder =
    settings.source ?? (settings.rollouts > 0 || settings.deadline !== undefined ? new WorldBuilder(info) : null);
  const objective = settings.objective ?? 'points';
  const tally = emptyTally(legal, objective);
  const exactPoints = objective === 'points' || 10 - info.trick <= EXACT_TRICKS;
  if (!exactPoints) tally.points = 'bounds';
  const ours = teamOf(info.seat);
  const inPlay = pointsInPlay(info);
  const n = legal.length;
  // Per card of one world: final points (exact, or the middle of the class proof's bounds), victories,
  // and the proof's bounds (which settle a card of the same power as one already valued).
  const values = new Float64Array(n);
  const victories = new Float64Array(n);
  const bounds = new Int32Array(2 * n);
  const playout = settings.playout ?? 'rule';
  if (playout === 'policy' && !settings.policyNet)
    throw new RangeError('the policy playout needs a policy network (policyNet)');
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
      const slice =
        worldsAtHorizon === 0 && horizon > 1 ? Math.min(deadline, now + (deadline - start) / MIN_WORLDS) : deadline;
      solver.setDeadline(slice, clock);
    }
    if (weighted) {
      weighted.next(rng, hands);
      const known = horizon === tricksLeft ? solved.get(weighted.index) : undefined;
      if (known) {
        addWorld(tally, known.subarray(0, n), known.subarray(n));
        worldsAtHorizon++;
        continue;
      }
    } else sampler.sample(rng, hands);
    try {
      if (horizon === tricksLeft) {
        if (objective === 'victories' && !exactPoints)
          classWorld(info, hands, legal, solver, ours, values, victories, bounds);
        else exactWorld(info, hands, legal, solver, ours, inPlay, values, victories);
      } else
        rolloutWorld(
          builder!.game(hands),
          info.seat,
          legal,
          solver,
          rng,
          10 - horizon,
          rollout,
          values,
          objective,
          playout,
          victories,
          settings.policyNet,
        );
    } catch (e) {
      if (!(e instanceof SearchAborted)) throw e;
      if (!timed || clock() >= deadline || horizon <= 1 || tally.worlds > 0) break;
      horizon--; // too slow to search this deep: roll out one more trick and retry
      w--;
      continue;
    }
    addWorld(tally, values, victories);
    if (weighted && horizon === tricksLeft) {
      const both = new Float64Array(2 * n);
      both.set(values);
      both.set(victories, n);
      solved.set(weighted.index, both);
    }
    worldsAtHorizon++;
  }
  if (timed) solver.clearDeadline();
  tally.nodes = solver.nodes - nodes0;
  return {
    tally,
    exactFromTrick: 10 - horizon,
    ...(weighted
      ? {
          inference: {
            trust: settings.inference!.trust,
            candidates: weighted.count,
            effective: Math.round(weighted.effective * 10) / 10,
          },
        }
      : {}),
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

/** Exact value of each legal card in one world: our team's final points (and `vic` our victories). */
function exactWorld(
  info: InfoSet,
  hands: Card[][],
  legal: Card[],
  solver: Solver,
  ours: Team,
  inPlay: number,
  out: Float64Array,
  vic: Float64Array,
): void {
  const position: Position = { trump: info.trump, hands, leader: info.leader, trick: info.table, points: info.points };
  solver.load(position);
  let guess = inPlay >> 1;
  for (let i = 0; i < legal.length; i++) {
    const a = solver.valueAfter(info.seat, legal[i]!, guess);
    guess = a;
    out[i] = ours === 0 ? info.points[0] + a : info.points[1] + (inPlay - a);
    vic[i] = victoriesFor(out[i]!);
  }
}

/**
 * Victory class of each legal card in one world (Solver.classesAfter): a few zero-window tests each.
 * `out` gets the middle of the proven bounds on our team's final points, `vic` our victories.
 */
function classWorld(
  info: InfoSet,
  hands: Card[][],
  legal: Card[],
  solver: Solver,
  ours: Team,
  out: Float64Array,
  vic: Float64Array,
  bounds: Int32Array,
): void {
  solver.load({ trump: info.trump, hands, leader: info.leader, trick: info.table, points: info.points });
  solver.classesAfter(info.seat, legal, info.points[ours], bounds);
  for (let i = 0; i < legal.length; i++) {
    out[i] = (bounds[2 * i]! + bounds[2 * i + 1]!) / 2;
    vic[i] = victoriesFor(bounds[2 * i]!);
  }
}

/** The playout policy's four players for one world (made once, reused for every card and rollout). */
function playoutPlayers(playout: PlayoutPolicy, seed: number, i: number, m: number, net?: PolicyNet): Player[] {
  return [0, 1, 2, 3].map((s) =>
    playout === 'policy'
      ? new ImitationPlayer({ seat: s as Seat, seed: 0, net: net! })
      : playout === 'expert'
        ? new ExpertPlayer({ seat: s as Seat, seed: deriveSeed(seed, i, m, s) })
        : new RulePlayer({ seat: s as Seat, seed: deriveSeed(seed, i, m, s) }),
  );
}

/**
 * Hybrid value of each legal card in one world: rollouts by the playout policy to `exactFrom`, exact
 * after (with the victories objective, the victory class after, and `vic` gets our victories).
 */
function rolloutWorld(
  game: Game,
  seat: Seat,
  legal: Card[],
  solver: Solver,
  rng: Rng,
  exactFrom: number,
  rollouts: number,
  out: Float64Array,
  objective: SearchObjective,
  playout: PlayoutPolicy,
  vic: Float64Array,
  net?: PolicyNet,
): void {
  const ours = teamOf(seat);
  const policySeed = rng.int(0x7fffffff);
  // The expert keeps no state between decisions but its tie-breaking Rng, and the imitation player none,
  // so one set serves the world.
  const shared = playout === 'expert' || playout === 'policy' ? playoutPlayers(playout, policySeed, 0, 0, net) : null;
  for (let i = 0; i < legal.length; i++) {
    let sum = 0;
    let victories = 0;
    for (let m = 0; m < rollouts; m++) {
      const g = game.clone();
      g.play(legal[i]!);
      const policy = shared ?? playoutPlayers(playout, policySeed, i, m);
      while (!g.isOver && g.trick < exactFrom) {
        const s = g.toMove;
        g.play(policy[s]!.choose(new SeatView(g, s)));
      }
      // Our final points (a finished game shares out all 120) and victories.
      let points: number;
      let won: number;
      if (g.isOver) {
        points = g.points(ours);
        won = victoriesFor(points);
      } else if (objective === 'victories') {
        solver.classOf(positionOf(g));
        const mover = teamOf(g.toMove) === ours;
        const mid = (solver.classLower + solver.classUpper) / 2;
        points = mover ? mid : 120 - mid;
        won = mover ? victoriesFor(solver.classLower) : -victoriesFor(solver.classLower);
      } else {
        const { toMove, value } = solver.solve(positionOf(g));
        points = teamOf(toMove) === ours ? value : 120 - value;
        won = victoriesFor(points);
      }
      sum += points;
      victories += won;
    }
    out[i] = sum / rollouts;
    vic[i] = victories / rollouts;
  }
}

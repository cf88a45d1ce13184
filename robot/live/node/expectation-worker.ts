// A worker thread's estimate of what the robot's team will end the game with, from the robot's
// information set: worlds drawn from what it knows (weighed by the other players' plays as the
// robot's own search weighs them, so its expectations and its play share one belief), each played
// out by the rule-based policy for every seat and solved exactly once few tricks are left. Cheap and
// biased toward rule-based play, which is all the appraisal needs to tell good news from bad between
// decisions.

import { performance } from 'node:perf_hooks';
import {
  RulePlayer,
  SearchAborted,
  SeatView,
  Solver,
  WorldBuilder,
  createDealSampler,
  createRng,
  deriveSeed,
  positionOf,
  suitOf,
  teamOf,
  weighedWorlds,
} from '../../../game/index.js';
import type { Card, InfoSet, Seat, Suit } from '../../../game/index.js';

export interface ExpectationTask {
  info: InfoSet;
  /** ms since the epoch (performance.timeOrigin + performance.now() agrees across threads). */
  deadline: number;
  maxWorlds: number;
  /** Solved exactly from this many tricks left; played out by rules before. */
  exactTricks: number;
  seed: number;
  /** Inference from the other seats' plays, 0..1 (0: worlds drawn uniformly). */
  trust: number;
  /** The play that led to this position, if it was one: each world tells whether it was its player's only legal card. */
  play?: { seat: Seat; card: Card; led: Suit | null };
}

export interface ExpectationSums {
  worlds: number;
  /** Sum over the worlds of the robot's team's final points. */
  points: number;
  /** Sum over the worlds of the squares of those points (for the estimate's standard error). */
  pointsSq: number;
  /** Worlds in which the team ends with more than 60 points. */
  wins: number;
  /** Worlds in which the task's play was its player's only legal card (it held no other card it could play). */
  forced: number;
}

const solver = new Solver({ ttBits: 18 });

export default function estimate(task: ExpectationTask): ExpectationSums {
  const clock = (): number => performance.timeOrigin + performance.now();
  const { info } = task;
  const ours = teamOf(info.seat);
  const sampler = createDealSampler(info);
  const builder = new WorldBuilder(info);
  const rng = createRng(task.seed);
  const hands: Card[][] = [[], [], [], []];
  const out: ExpectationSums = { worlds: 0, points: 0, pointsSq: 0, wins: 0, forced: 0 };
  if (sampler.count === 0) return out;
  const weighted = weighedWorlds(info, sampler, rng, { trust: task.trust }, clock, task.deadline);
  const exactFrom = 10 - task.exactTricks;
  solver.setDeadline(task.deadline, clock);
  try {
    for (let w = 0; w < task.maxWorlds && clock() < task.deadline; w++) {
      const game = builder.game(weighted ? weighted.next(rng, hands) : sampler.sample(rng, hands));
      const forced = task.play ? onlyLegal(task.play, hands[task.play.seat]!) : false;
      const policy = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: deriveSeed(task.seed, w, s) }));
      while (!game.isOver && game.trick < exactFrom) {
        const s = game.toMove;
        game.play(policy[s]!.choose(new SeatView(game, s)), s);
      }
      let points: number;
      if (game.isOver) points = game.points(ours);
      else {
        const { toMove, value } = solver.solve(positionOf(game));
        // A finished game shares out all 120 points.
        points = teamOf(toMove) === ours ? value : 120 - value;
      }
      out.worlds++;
      if (forced) out.forced++;
      out.points += points;
      out.pointsSq += points * points;
      if (points > 60) out.wins++;
    }
  } catch (e) {
    // The deadline fell inside a world: that world is dropped, never half-counted.
    if (!(e instanceof SearchAborted)) throw e;
  } finally {
    solver.clearDeadline();
  }
  return out;
}

/**
 * Was `play` its player's only legal card, given the cards the player holds after it (`rest`)? A card
 * of the suit led was forced when no other card of that suit is left; a lead or a card of another
 * suit (the player had none of the suit led) only when it was the player's last card.
 */
export function onlyLegal(play: { card: Card; led: Suit | null }, rest: readonly Card[]): boolean {
  if (play.led !== null && suitOf(play.card) === play.led) return !rest.some((c) => suitOf(c) === play.led);
  return rest.length === 0;
}

// The information-set MCTS player (kind `ismcts`): single-observer ISMCTS (Cowling, Powley and
// Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012). One tree of the seat's
// information set, whose edges are cards played by any seat; each iteration draws one world
// (determinization) consistent with what the seat knows, descends the tree along the cards legal in
// that world by UCB1 with availability counts (a child's exploration term counts the iterations in
// which it could have been chosen, not its parent's visits), adds one node, plays the game out, and
// backs the result up, each node scored for the team that played its card. A stand-in for the public
// ISMCTS programs of issue 37. The reward is the game's victory class scaled to 0..1 (or its points:
// `reward=points`); play-outs by the expert policy (or `playout=random`). It draws its worlds as the
// timed player does. Anytime: iterates until the budget is spent or `n` iterations are done, then
// plays the most visited card at the root.

import type { Card } from '../cards.js';
import type { Clock } from '../clock.js';
import type { Beliefs, Decision, MoveBelief, SearchObjective } from '../decision.js';
import { decisionOf, forcedDecision } from '../decision.js';
import { createRng, deriveSeed } from '../rng.js';
import type { Rng } from '../rng.js';
import { victoriesFor } from '../scoring.js';
import type { Seat } from '../seats.js';
import { teamOf } from '../seats.js';
import { drawWorlds } from '../search/draw.js';
import { checkTrust } from '../search/inference.js';
import { WorldBuilder } from '../search/world.js';
import type { SeatView } from '../view.js';
import { ExpertPlayer } from './expert.js';
import type { Player, PlayerOptions } from './player.js';
import { playOut, playoutPlayers } from './rollout.js';

export interface IsmctsOptions extends PlayerOptions {
  name?: string;
  /** Iterations at most (default 100,000); the budget usually stops it first. */
  iterations?: number;
  /** The UCB1 exploration constant, for rewards in 0..1 (default 0.7, as in Cowling et al.). */
  exploration?: number;
  /** Trust in the inference of the other seats' hands, 0..1 (default 0.5, as the timed player); 0: uniform worlds. */
  trust?: number;
  /** What a play-out scores: the victory class (default) or the points. */
  reward?: SearchObjective;
  /** Who plays the games out: `expert` (default) or `random`. */
  playout?: 'expert' | 'random';
}

export const ISMCTS_DEFAULTS = { iterations: 100_000, exploration: 0.7, trust: 0.5, budgetMs: 2000 } as const;

/** Time kept back from the budget for the answer (as the timed player). */
const SAFETY_MS = 15;

/** A node: the card that led to it, who played it, and the statistics for that seat's team. */
interface Node {
  card: Card;
  seat: Seat;
  visits: number;
  /** Iterations in which this node's card was legal at its parent (availability). */
  avail: number;
  /** Sum of rewards for the team of `seat`, 0..1 each. */
  reward: number;
  children: Node[];
  /** At the root's children: sums of the observer team's points and victories, and its wins. */
  points: number;
  victories: number;
  wins: number;
}

const node = (card: Card, seat: Seat): Node => ({
  card,
  seat,
  visits: 0,
  avail: 1,
  reward: 0,
  children: [],
  points: 0,
  victories: 0,
  wins: 0,
});

export class IsmctsPlayer implements Player {
  readonly kind: string;
  private readonly rng: Rng;
  private readonly fallback: ExpertPlayer;
  private readonly budgetMs: number;
  private readonly maxIterations: number;
  private readonly c: number;
  private readonly trust: number;
  private readonly reward: SearchObjective;
  private decisions = 0;
  /** Scratch: legal cards of the world at a node, and a mark per card. */
  private readonly legal = new Int8Array(10);
  private readonly isLegal = new Uint8Array(40);

  constructor(private readonly options: IsmctsOptions) {
    this.kind = options.name ?? 'ismcts';
    this.rng = createRng(options.seed, 0x15c7);
    this.fallback = new ExpertPlayer({ seat: options.seat, seed: options.seed ^ 0x3c6ef372 });
    this.budgetMs = options.budgetMs ?? ISMCTS_DEFAULTS.budgetMs;
    this.maxIterations = options.iterations ?? ISMCTS_DEFAULTS.iterations;
    this.c = options.exploration ?? ISMCTS_DEFAULTS.exploration;
    this.trust = options.trust ?? ISMCTS_DEFAULTS.trust;
    checkTrust(this.trust);
    this.reward = options.reward ?? 'victories';
  }

  choose(view: SeatView): Card {
    return this.decide(view).card;
  }

  decide(view: SeatView): Decision {
    const clock: Clock['now'] | undefined = this.options.clock;
    const t0 = clock ? clock() : 0;
    const rootLegal = view.legalCards();
    const info = view.snapshot();
    if (rootLegal.length === 1) return forcedDecision(rootLegal[0]!, info.trick);
    const deadline = clock ? t0 + this.budgetMs - SAFETY_MS : undefined;
    const worlds = drawWorlds(info, this.rng, this.trust > 0 ? { trust: this.trust } : undefined, clock, deadline);
    const builder = new WorldBuilder(info);
    const players = playoutPlayers(this.options.playout ?? 'expert', deriveSeed(this.options.seed, this.decisions++));
    const ours = teamOf(info.seat);
    const root = node(-1 as Card, info.seat);
    const hands: Card[][] = [[], [], [], []];
    const path: Node[] = [];
    const { legal, isLegal, rng, c } = this;
    let iterations = 0;
    let nodes = 1;
    while (iterations < this.maxIterations) {
      if (clock && deadline !== undefined && clock() >= deadline) break;
      const g = builder.game(worlds.next(hands));
      path.length = 0;
      let at = root;
      // Selection and expansion: along the cards legal in this world.
      while (!g.isOver) {
        const k = g.legalMoves(legal);
        for (let i = 0; i < k; i++) isLegal[legal[i]!] = 1;
        let best: Node | null = null;
        let bestScore = -Infinity;
        let untried = k;
        for (const child of at.children) {
          if (!isLegal[child.card]) continue;
          untried--;
          child.avail++;
          const score = child.reward / child.visits + c * Math.sqrt(Math.log(child.avail) / child.visits);
          if (score > bestScore) {
            bestScore = score;
            best = child;
          }
        }
        if (untried > 0) {
          // Expand one untried card, chosen at random among them.
          let pick = rng.int(untried);
          let card = -1 as Card;
          for (let i = 0; i < k; i++) {
            const cand = legal[i]! as Card;
            if (at.children.some((ch) => ch.card === cand)) continue;
            if (pick-- === 0) {
              card = cand;
              break;
            }
          }
          for (let i = 0; i < k; i++) isLegal[legal[i]!] = 0;
          const child = node(card, g.toMove);
          at.children.push(child);
          nodes++;
          g.play(card);
          path.push(child);
          break;
        }
        for (let i = 0; i < k; i++) isLegal[legal[i]!] = 0;
        g.play(best!.card);
        path.push(best!);
        at = best!;
      }
      playOut(g, players);
      const points0 = g.points(0);
      const v0 = victoriesFor(points0);
      const r0 = this.reward === 'points' ? points0 / 120 : (v0 + 4) / 8;
      for (const n of path) {
        n.visits++;
        n.reward += teamOf(n.seat) === 0 ? r0 : 1 - r0;
      }
      const first = path[0]!;
      const ourPoints = ours === 0 ? points0 : 120 - points0;
      first.points += ourPoints;
      first.victories += ours === 0 ? v0 : -v0;
      if (ourPoints > 60) first.wins++;
      iterations++;
    }
    const elapsed = clock ? clock() - t0 : 0;
    return decisionOf(this.beliefs(root, rootLegal, iterations, nodes, elapsed, info.trick, worlds.inference), () =>
      this.fallback.choose(view),
    );
  }

  /** The root's cards, most visited first (ties: the better mean reward), as beliefs. */
  private beliefs(
    root: Node,
    legal: Card[],
    iterations: number,
    nodes: number,
    timeMs: number,
    trick: number,
    inference: Beliefs['inference'],
  ): Beliefs {
    const stats = legal.map((card) => root.children.find((ch) => ch.card === card) ?? node(card, root.seat));
    stats.sort((a, b) => b.visits - a.visits || b.reward / (b.visits || 1) - a.reward / (a.visits || 1));
    const round = (x: number): number => Math.round(x * 1000) / 1000;
    const moves: MoveBelief[] = stats.map((s) => {
      const n = Math.max(1, s.visits);
      return {
        card: s.card,
        mean: round(s.points / n),
        sd: 0,
        winProbability: round(s.wins / n),
        victories: round(s.victories / n),
      };
    });
    return {
      moves,
      worlds: iterations,
      nodes,
      timeMs: Math.round(timeMs * 1000) / 1000,
      winProbability: moves[0]?.winProbability ?? 0,
      exactFromTrick: 10,
      ...(inference ? { inference } : {}),
      objective: this.reward,
      points: 'exact',
    };
  }
}

// The roll-out player (kind `rollout`): Perfect Information Monte Carlo where a world values each
// legal card by one game played out to the end by the expert policy at every seat, not by the
// solver. A stand-in for the public roll-out PIMC programs (issue 37): cheap worlds, many of them.
// It draws its worlds as the timed player does (uniformly, or weighed by the other seats' plays) and
// plays the card with the most expected victories, ties broken by expected points (or the most
// expected points: `choice=points`). Anytime: worlds are drawn until the budget is spent or `n`
// worlds are valued; every card is valued in the same worlds, so their differences are paired.

import type { Card } from '../cards.js';
import type { Clock } from '../clock.js';
import type { Decision, SearchObjective } from '../decision.js';
import { decisionOf, forcedDecision } from '../decision.js';
import type { Game } from '../game.js';
import { createRng, deriveSeed } from '../rng.js';
import type { Rng } from '../rng.js';
import { victoriesFor } from '../scoring.js';
import type { Seat } from '../seats.js';
import { teamOf } from '../seats.js';
import { drawWorlds } from '../search/draw.js';
import { checkTrust } from '../search/inference.js';
import { addWorld, beliefsOf, emptyTally } from '../search/tally.js';
import { WorldBuilder } from '../search/world.js';
import { SeatView } from '../view.js';
import { ExpertPlayer } from './expert.js';
import type { Player, PlayerOptions } from './player.js';
import { RandomPlayer } from './random.js';

export interface RolloutOptions extends PlayerOptions {
  name?: string;
  /** Worlds at most (default 2000); the budget usually stops it first. */
  worlds?: number;
  /** Trust in the inference of the other seats' hands, 0..1 (default 0.5, as the timed player); 0: uniform worlds. */
  trust?: number;
  /** What the card is chosen by: expected victories, then points (default), or expected points. */
  objective?: SearchObjective;
  /** Who plays the games out: `expert` (default) or `random`. */
  playout?: 'expert' | 'random';
}

export const ROLLOUT_DEFAULTS = { worlds: 2000, trust: 0.5, budgetMs: 2000 } as const;

/** Time kept back from the budget for the answer (as the timed player). */
const SAFETY_MS = 15;

/** Plays `game` to its end, each seat by its player. */
export function playOut(game: Game, players: readonly Player[]): void {
  while (!game.isOver) {
    const s = game.toMove;
    game.play(players[s]!.choose(new SeatView(game, s)));
  }
}

/** The four playout players of one decision. */
export function playoutPlayers(kind: 'expert' | 'random', seed: number): Player[] {
  return [0, 1, 2, 3].map((s) =>
    kind === 'random'
      ? new RandomPlayer({ seat: s as Seat, seed: deriveSeed(seed, s) })
      : new ExpertPlayer({ seat: s as Seat, seed: deriveSeed(seed, s) }),
  );
}

export class RolloutPlayer implements Player {
  readonly kind: string;
  private readonly rng: Rng;
  private readonly fallback: ExpertPlayer;
  private readonly budgetMs: number;
  private readonly maxWorlds: number;
  private readonly trust: number;
  private readonly objective: SearchObjective;
  private decisions = 0;

  constructor(private readonly options: RolloutOptions) {
    this.kind = options.name ?? 'rollout';
    this.rng = createRng(options.seed, 0x0a11007);
    this.fallback = new ExpertPlayer({ seat: options.seat, seed: options.seed ^ 0x3c6ef372 });
    this.budgetMs = options.budgetMs ?? ROLLOUT_DEFAULTS.budgetMs;
    this.maxWorlds = options.worlds ?? ROLLOUT_DEFAULTS.worlds;
    this.trust = options.trust ?? ROLLOUT_DEFAULTS.trust;
    checkTrust(this.trust);
    this.objective = options.objective ?? 'victories';
  }

  choose(view: SeatView): Card {
    return this.decide(view).card;
  }

  decide(view: SeatView): Decision {
    const clock: Clock['now'] | undefined = this.options.clock;
    const t0 = clock ? clock() : 0;
    const legal = view.legalCards();
    const info = view.snapshot();
    if (legal.length === 1) return forcedDecision(legal[0]!, info.trick);
    const deadline = clock ? t0 + this.budgetMs - SAFETY_MS : undefined;
    const worlds = drawWorlds(info, this.rng, this.trust > 0 ? { trust: this.trust } : undefined, clock, deadline);
    const builder = new WorldBuilder(info);
    const players = playoutPlayers(this.options.playout ?? 'expert', deriveSeed(this.options.seed, this.decisions++));
    const ours = teamOf(info.seat);
    const tally = emptyTally(legal, this.objective);
    const n = legal.length;
    const points = new Float64Array(n);
    const victories = new Float64Array(n);
    const hands: Card[][] = [[], [], [], []];
    const start = clock ? clock() : 0;
    for (let w = 0; w < this.maxWorlds; w++) {
      if (clock && deadline !== undefined) {
        const now = clock();
        // Start another world only if the average world fits in what is left.
        if (now >= deadline || (tally.worlds > 0 && now + (now - start) / tally.worlds > deadline)) break;
      }
      const game = builder.game(worlds.next(hands));
      for (let i = 0; i < n; i++) {
        const g = game.clone();
        g.play(legal[i]!);
        playOut(g, players);
        points[i] = g.points(ours);
        victories[i] = victoriesFor(points[i]!);
      }
      addWorld(tally, points, victories);
    }
    const elapsed = clock ? clock() - t0 : 0;
    const beliefs = beliefsOf(tally, elapsed, 10, worlds.inference);
    return decisionOf(beliefs, () => this.fallback.choose(view));
  }
}

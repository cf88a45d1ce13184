// The robot's player as the session machine sees it: asked asynchronously, so the table and the bus
// are served while it thinks. Two adapters: the search over worker threads (the live robot), and any
// synchronous game Player (rule, random: tests and quick simulations).

import type { Decision, GameEvent, Player, PlayerFactory, Recollection, Seat, SeatView } from '../../../game/index.js';
import { deriveSeed, forcedDecision } from '../../../game/index.js';
import type { PoolSearchPlayer } from '../search/pool-player.js';

export interface RobotPlayer {
  readonly kind: string;
  /** A new game starts (index from 0): players that keep per-game memory reset here. */
  newGame?(game: number): void;
  /** Every event of the game as the robot's seat sees it. */
  observe?(event: GameEvent): void;
  /** The card for the robot's seat, with beliefs when the player has them. */
  decide(view: SeatView): Promise<Decision>;
}

/** The robot on the worker-thread search (`timed`); at a level of play it is given what the robot recalls (robot/live/node/level-memory.ts). */
export function poolRobotPlayer(
  pool: PoolSearchPlayer,
): RobotPlayer & { decide(view: SeatView, recollection?: Recollection): Promise<Decision> } {
  return {
    kind: pool.kind,
    observe: (e) => pool.observe(e),
    decide: (view, recollection?: Recollection) => pool.decide(view, recollection),
  };
}

/**
 * The robot on a synchronous game Player, one per game, seeded as the local referee seeds it
 * (deriveSeed(seed, game, 1 + seat)). The choice runs on this thread: for fast players only.
 */
export function syncRobotPlayer(factory: PlayerFactory, options: { seat: Seat; seed: number }): RobotPlayer {
  let player: Player | null = null;
  const make = (game: number): Player =>
    factory({ seat: options.seat, seed: deriveSeed(options.seed, game, 1 + options.seat) });
  return {
    get kind() {
      return (player ?? make(0)).kind;
    },
    newGame(game) {
      player = make(game);
    },
    observe(e) {
      player?.observe?.(e);
    },
    decide(view) {
      const p = player ?? (player = make(0));
      const legal = view.legalCards();
      if (legal.length === 1) return Promise.resolve(forcedDecision(legal[0]!, view.trick));
      return Promise.resolve(p.decide ? p.decide(view) : { card: p.choose(view) });
    },
  };
}

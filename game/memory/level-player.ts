// The level player: the timed player searching the worlds of what it remembers (believed-worlds.ts),
// with a person's memory of the played cards (card-memory.ts) at one of the levels (levels.ts). At the
// full level it is the timed player itself, with the same seed and the same decisions.

import type { Card } from '../cards.js';
import type { Player, PlayerOptions } from '../players/player.js';
import { SearchPlayer } from '../players/search-player.js';
import { createRng } from '../rng.js';
import type { Decision } from '../decision.js';
import type { InfoSet, SeatView } from '../view.js';
import { believedWorlds } from './believed-worlds.js';
import { CardMemory } from './card-memory.js';
import type { Recollection } from './card-memory.js';
import type { LevelName, LevelTable } from './levels.js';
import { DEFAULT_LEVELS, memoryOf } from './levels.js';

interface LevelPlayerOptions extends PlayerOptions {
  level: LevelName;
  /** The levels' settings (config/levels.yaml); default: the embedded ones. */
  levels?: LevelTable;
  /** Name in statistics (default `level:name=LEVEL`). */
  name?: string;
}

/** The memory's own stream of the player's seed, apart from the search's, so `full` searches as `timed`. */
const MEMORY_STREAM = 0x3e3047;

export class LevelPlayer implements Player {
  readonly kind: string;
  readonly level: LevelName;
  /** Null at the full level: it forgets nothing. */
  readonly memory: CardMemory | null;
  private readonly search: SearchPlayer;
  /** What it recalled at its last decision with a choice (null before one, or at the full level). */
  lastRecollection: Recollection | null = null;

  constructor(options: LevelPlayerOptions) {
    const table = options.levels ?? DEFAULT_LEVELS;
    const settings = table.levels[options.level];
    if (!settings) throw new RangeError(`unknown level '${options.level}'`);
    this.level = options.level;
    this.kind = options.name ?? `level:name=${options.level}`;
    const parameters = memoryOf(table, options.level);
    const memory = (this.memory = parameters
      ? new CardMemory(parameters, createRng(options.seed, MEMORY_STREAM))
      : null);
    const { levels: _levels, level: _level, name: _name, ...player } = options;
    this.search = new SearchPlayer({
      ...player,
      kind: 'timed',
      name: this.kind,
      trust: settings.infer / 100,
      ...(settings.worlds !== undefined ? { worlds: settings.worlds } : {}),
      ...(memory
        ? {
            worldsFor: (info: InfoSet, legal: readonly Card[]) =>
              believedWorlds(info, (this.lastRecollection = memory.recall(info, legal))),
          }
        : {}),
    });
  }

  choose(view: SeatView): Card {
    return this.decide(view).card;
  }

  decide(view: SeatView): Decision {
    return this.search.decide(view);
  }
}

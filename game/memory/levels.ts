// Levels of play for people learning the game: the robot plays with a person's memory of
// the played cards, from a beginner who soon loses track to the full player, which is the timed
// player and forgets nothing. The levels differ in ACT-R's memory parameters (threshold, noise,
// decay), in when the memory is rehearsed, in how far the others' plays are read (`infer`), and in
// how many worlds a decision pictures (`worlds`: a beginner imagines two or three ways the cards may lie).
// These are the embedded defaults; config/levels.yaml holds the same values for a lab to tune
// (docs/levels.md says why each value, and what each level measures).

import type { MemoryParameters } from './card-memory.js';

export const LEVEL_NAMES = ['beginner', 'casual', 'club', 'expert', 'full'] as const;
export type LevelName = (typeof LEVEL_NAMES)[number];

export const isLevelName = (name: string): name is LevelName => (LEVEL_NAMES as readonly string[]).includes(name);

/** How a level remembers: the memory parameters but the table's time scale, which all levels share. */
type LevelMemory = Omit<MemoryParameters, 'secondsPerCard'>;

export interface LevelSettings {
  /** Its memory of the played cards; `perfect` forgets nothing (the full level, the timed player). */
  memory: LevelMemory | 'perfect';
  /** Percent trust that the other seats play like the rule-based player (the timed player's `infer`). */
  infer: number;
  /** The most worlds a decision values (the timed player's `n`); absent: the timed player's default. */
  worlds?: number;
}

export interface LevelTable {
  /** Seconds a card takes at a real table: the time scale of the memory's decay. */
  secondsPerCard: number;
  levels: Readonly<Record<LevelName, LevelSettings>>;
}

export const DEFAULT_LEVELS: LevelTable = {
  secondsPerCard: 5,
  levels: {
    beginner: {
      memory: { decay: 0.5, noise: 0.4, threshold: -1.5, salience: 0, rehearseOnLead: false, rehearseOnTurn: false },
      infer: 0,
      worlds: 3,
    },
    casual: {
      memory: { decay: 0.5, noise: 0.35, threshold: -2.0, salience: 1, rehearseOnLead: true, rehearseOnTurn: false },
      infer: 0,
      worlds: 6,
    },
    club: {
      memory: { decay: 0.5, noise: 0.3, threshold: -2.4, salience: 1, rehearseOnLead: true, rehearseOnTurn: true },
      infer: 25,
      worlds: 24,
    },
    expert: {
      memory: { decay: 0.5, noise: 0.25, threshold: -2.7, salience: 2, rehearseOnLead: true, rehearseOnTurn: true },
      infer: 50,
      worlds: 120,
    },
    full: { memory: 'perfect', infer: 50 },
  },
};

/** The memory parameters of a level of `table` (null for perfect memory). */
export function memoryOf(table: LevelTable, name: LevelName): MemoryParameters | null {
  const m = table.levels[name].memory;
  return m === 'perfect' ? null : { ...m, secondsPerCard: table.secondsPerCard };
}

// The robot at a level of play (docs/levels.md): a person's memory of the played cards
// (game/memory's CardMemory, ACT-R activation with decay, noise and a threshold), kept here on the
// node's main thread, and the search of the worlds of what it remembers on the worker pool (the
// recollection is plain data and travels with each search task, robot/live/search/worker.ts).
//
// At each of the robot's decisions with a choice the memory recalls every played card and void; what
// it recalled goes to the search and on the bus (`memory`, /parceiro/memory), where the dashboard shows
// it and the recording keeps it. The recall draws its noise from the session seed's own stream, in a
// fixed order (one recall per decision asked), so a replay, which answers the decisions from the
// recording, recalls the same cards and publishes the same messages. At the full level there is no
// memory to show: nothing is published (the node says the level in its session record and recording).

import type {
  Card,
  Decision,
  InfoSet,
  LevelName,
  LevelSettings,
  LevelTable,
  Recollection,
  SeatView,
} from '../../../game/index.js';
import { CardMemory, Game, SUITS, createRng, formatCard, memoryOf, suitOf } from '../../../game/index.js';
import type { Bus, MemoryMessage } from '../../bus/index.js';
import type { RobotPlayer } from '../session/robot-player.js';

/** The memory's own stream of the session seed (the level player's, game/memory/level-player.ts). */
const MEMORY_STREAM = 0x3e3047;

/** What the robot plays with at `level` of `table`: its search's inference (0..1) and worlds cap; null at full (today's player). */
export function levelSearch(table: LevelTable, level: LevelName): { trust: number; maxWorlds?: number } | null {
  if (level === 'full') return null;
  const s: LevelSettings = table.levels[level];
  return { trust: s.infer / 100, ...(s.worlds !== undefined ? { maxWorlds: s.worlds } : {}) };
}

/** The level's settings as the recording keeps them, so a replay recalls with exactly these (not the config of the day). */
export const levelSettingsText = (table: LevelTable, level: LevelName): string =>
  JSON.stringify({ secondsPerCard: table.secondsPerCard, ...table.levels[level] });

/** The table a recorded level's settings make (the recorded level alone, on the embedded defaults). */
export function levelTableOf(text: string, level: LevelName, base: LevelTable): LevelTable {
  const { secondsPerCard, ...settings } = JSON.parse(text) as LevelSettings & { secondsPerCard: number };
  if (typeof secondsPerCard !== 'number' || typeof settings.infer !== 'number' || settings.memory === undefined)
    throw new Error('not a level of play');
  return { secondsPerCard, levels: { ...base.levels, [level]: settings } };
}

interface RobotMemoryOptions {
  bus: Pick<Bus, 'publish'>;
  level: LevelName;
  levels: LevelTable;
  /** The session seed. */
  seed: number;
}

/** The robot's memory of the played cards at a level below full; publishes each recall. */
export class RobotMemory {
  readonly level: LevelName;
  private readonly memory: CardMemory;
  private game = 0;
  /** Recalls so far (the dashboard and the tests count them). */
  recalls = 0;

  constructor(private readonly o: RobotMemoryOptions) {
    const parameters = memoryOf(o.levels, o.level);
    if (!parameters) throw new RangeError(`level ${o.level} has a perfect memory: the robot plays as today's player`);
    this.level = o.level;
    this.memory = new CardMemory(parameters, createRng(o.seed, MEMORY_STREAM));
  }

  /** A new game (index from 0): the memory starts afresh by itself when it sees another deal. */
  newGame(game: number): void {
    this.game = game;
  }

  /** What the robot recalls now, with `legal` its cards to choose from; published on the bus. */
  recall(info: InfoSet, legal: readonly Card[]): Recollection {
    const r = this.memory.recall(info, legal);
    this.recalls++;
    this.o.bus.publish('memory', memoryMessage(this.game, this.level, this.memory, info, r));
    return r;
  }
}

/** The memory message of a recollection `r` at the decision of `info`. */
function memoryMessage(
  game: number,
  level: LevelName,
  memory: CardMemory,
  info: InfoSet,
  r: Recollection,
): MemoryMessage {
  const now = memory.steps;
  const before = info.trick * 4;
  const forgotten = new Set(r.forgotten);
  // Who played each card: the public game, replayed from the plays.
  const g = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
  const played: string[] = [];
  const seats: number[] = [];
  const recalled: boolean[] = [];
  const activations: number[] = [];
  for (let k = 0; k < before; k++) {
    const c = info.plays[k]!;
    played.push(formatCard(c));
    seats.push(g.toMove);
    recalled.push(!forgotten.has(c));
    activations.push(Math.round(memory.cardActivation(c, now) * 1000) / 1000);
    g.play(c);
  }
  const voidNames = (mask: number): string[] => {
    const out: string[] = [];
    // Its own voids are no memory: it holds its hand.
    for (let v = 0; v < 16; v++) if (mask & (1 << v) && v >> 2 !== info.seat) out.push(`${v >> 2}${SUITS[v & 3]}`);
    return out;
  };
  // The voids recalled include those shown on the table now; only the earlier tricks' are the memory's.
  let shownNow = 0;
  if (info.table.length) {
    const led = suitOf(info.table[0]!);
    for (let i = 1; i < info.table.length; i++)
      if (suitOf(info.table[i]!) !== led) shownNow |= 1 << (((info.leader + i) & 3) * 4 + led);
  }
  const p = memory.parameters;
  return {
    game,
    trick: info.trick,
    level,
    threshold: p.threshold,
    noise: p.noise,
    played,
    seats,
    recalled,
    activations,
    forgotten: r.forgotten.map(formatCard),
    voids: voidNames(r.voids & ~shownNow),
    forgotten_voids: voidNames(r.forgottenVoids),
  };
}

/** A robot player that decides with a recollection (the pool's search of the worlds it remembers). */
type RememberingPlayer = RobotPlayer & {
  decide(view: SeatView, recollection?: Recollection): Promise<Decision>;
};

/**
 * `player` at the memory's level: at each decision asked (the runtime asks only when there is a
 * choice) the memory recalls, publishes, and hands the recollection to the player (a replay's
 * recorded player ignores it: its answers are the recording's).
 */
export function withMemory(player: RememberingPlayer, memory: RobotMemory): RobotPlayer {
  const remembering: RobotPlayer = {
    get kind() {
      return player.kind;
    },
    newGame(game) {
      memory.newGame(game);
      player.newGame?.(game);
    },
    observe(event) {
      player.observe?.(event);
    },
    decide(view) {
      const legal = view.legalCards();
      if (legal.length < 2) return player.decide(view);
      return player.decide(view, memory.recall(view.snapshot(), legal));
    },
  };
  return remembering;
}

// Human-like memory for levels of play (issue 22, seed 002): ACT-R's declarative memory of the played
// cards and the voids shown, the worlds a seat that forgets believes in, and the level player.

export { baseLevel, logisticNoise, retrievalProbability } from './activation.js';
export { CardMemory } from './card-memory.js';
export type { MemoryParameters, Recollection } from './card-memory.js';
export { believedWorlds, rememberedInfo } from './believed-worlds.js';
export { DEFAULT_LEVELS, LEVEL_NAMES, isLevelName, memoryOf } from './levels.js';
export type { LevelMemory, LevelName, LevelSettings, LevelTable } from './levels.js';
export { LevelPlayer } from './level-player.js';
export type { LevelPlayerOptions } from './level-player.js';

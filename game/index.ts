// The public surface of the game engine. Pure and synchronous: no I/O, no clocks but injected ones.

export * from './cards.js';
export * from './seats.js';
export * from './rng.js';
export * from './scoring.js';
export * from './game.js';
export * from './deal.js';
export * from './view.js';
export * from './sampler.js';
export * from './events.js';
export * from './match.js';
export * from './record.js';
export * from './session.js';
export * from './stats.js';
export * from './tournament.js';
export * from './players/player.js';
export { RandomPlayer } from './players/random.js';
export { RulePlayer } from './players/rule.js';
export { BUILTIN_PLAYERS, PlayerSpecError, builtinPlayerKinds, playerFactory } from './players/registry.js';
export * from './solver/index.js';
export * from './search/tally.js';
export { searchWorlds } from './search/search.js';
export type { SearchResult, SearchSettings } from './search/search.js';
export { WorldBuilder, positionOf } from './search/world.js';
export { SEARCH_DEFAULTS, SearchPlayer } from './players/search-player.js';
export type { SearchKind, SearchPlayerOptions } from './players/search-player.js';

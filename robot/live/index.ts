// The live runtime's front door: the node (a session's parts composed; session after session on one
// node), the session machine behind the table bridge, the robot's search on worker threads, and the
// behaviours onto the bus.
export { PoolSearchPlayer } from './search/pool-player.js';
export type { PoolPlayerOptions } from './search/pool-player.js';
export { workersLoaded } from './search/workers-loaded.js';
export * from './session/index.js';
export { BusBehaviourPublisher } from './behaviour-publisher.js';
export * from './node/index.js';

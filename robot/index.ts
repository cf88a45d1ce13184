// The public surface of the robot node.

// External players: programs that play over JSON lines on stdio (external-player/PROTOCOL.md).
export type { AsyncChoice, AsyncGameHooks, AsyncPlayerLike, PlayerFault } from './play-async.js';
export { playGameAsync } from './play-async.js';
export type { AsyncTournamentOptions, AsyncTournamentRun, ExternalCommand, GameRecord } from './tournament-async.js';
export { playTournamentAsync, runTournamentAsync } from './tournament-async.js';
export type { ExternalPlayerOptions } from './external-player/external-player.js';
export { ExternalPlayer, ExternalPlayerError, killRunningPrograms } from './external-player/external-player.js';
export type { InvalidLine, PlayerMessage, RenounceMessage, RuntimeMessage } from './external-player/messages.js';
export { PROTOCOL_VERSION, RULES_SUMMARY, eventMessage, helloMessage, parsePlayerLine, turnMessage } from './external-player/messages.js';

// The robot's search off the main thread, over all cores.
export { PoolSearchPlayer } from './search/pool-player.js';
export type { PoolPlayerOptions } from './search/pool-player.js';

// The session machine behind the table bridge (issue 6, point 2).
export * from './session/index.js';

// Behaviours onto the bus.
export { BusBehaviourPublisher } from './behaviour-publisher.js';

// The node: everything above composed for one session (issue 6).
export * from './node/index.js';

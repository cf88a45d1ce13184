// The arena's front door: players that are other programs (JSON lines on stdio, PROTOCOL.md), games
// and tournaments with them, the tournament runners (worker threads, or a Redis queue over
// machines) and the records of the games played.
export type { AsyncChoice, AsyncPlayerLike, PlayerFault } from './play-async.js';
export { playGameAsync } from './play-async.js';
export type { AsyncTournamentOptions, ExternalCommand, GameRecord } from './tournament-async.js';
export { playTournamentAsync, runTournamentAsync } from './tournament-async.js';
export { ExternalPlayer, ExternalPlayerError, killRunningPrograms } from './external-player/external-player.js';
export type { RuntimeMessage } from './external-player/messages.js';
export {
  PROTOCOL_VERSION,
  eventMessage,
  helloMessage,
  parsePlayerLine,
  turnMessage,
} from './external-player/messages.js';
export { gameRecord } from './game-record.js';
export { TournamentSetupError } from './tournament/errors.js';
export { runTournament } from './tournament/run.js';
export type { ExternalProgram, TournamentRun, TournamentRunOptions } from './tournament/run.js';
export { parseRedisUrl } from './tournament/queue.js';
export { runTournamentOnQueue } from './tournament/queue-run.js';
export { serveQueue } from './tournament/queue-worker.js';

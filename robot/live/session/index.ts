// The session: an xstate machine behind the table bridge's TableHandler, publishing on the bus.
export { sessionMachine } from './session-machine.js';
export type { CurrentGame, SessionConfig, SessionContext, SessionEffect, SessionEvent } from './session-machine.js';
export { SessionRuntime } from './session-runtime.js';
export {
  CHOICE_KEYS,
  SESSION_FIELDS,
  choiceFlags,
  choiceOf,
  loadSessionSettings,
  parseChoice,
  readSessionMetadata,
  resolveChoices,
  restoredChoices,
  writeSessionMetadata,
} from './session-settings.js';
export type { ChoiceKey, SessionChoices, SessionMetadata } from './session-settings.js';
export type { SessionRuntimeOptions, SessionView } from './session-runtime.js';
export type { RobotPlayer } from './robot-player.js';
export { poolRobotPlayer, syncRobotPlayer } from './robot-player.js';
// The session's clock is the program's one Clock (game/) and systemClock (behaviours/); the old names
// stay for importers.
export type { Clock as SessionClock } from '../../../game/index.js';
export { systemClock } from '../../../behaviours/index.js';
export {
  HAND_SIZE,
  collectingRobotHand,
  dropsRobotCard,
  judgeCard,
  judgeHello,
  judgeNewGame,
  judgeRemoved,
  onSpot,
} from './judge.js';
export * from './bus-messages.js';

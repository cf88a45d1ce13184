// The session: an xstate machine behind the table bridge's TableHandler, publishing on the bus.
export { sessionMachine } from './session-machine.js';
export type {
  CurrentGame,
  Lifted,
  PhysicalProgress,
  SessionConfig,
  SessionContext,
  SessionEffect,
  SessionEvent,
  SessionInput,
} from './session-machine.js';
export { SessionRuntime, gameStateOf, statusOf } from './session-runtime.js';
export {
  CHOICE_KEYS,
  SESSION_FIELDS,
  SESSION_FILE,
  choiceFlags,
  choiceOf,
  loadSessionSettings,
  parseChoice,
  readSessionMetadata,
  resolveChoices,
  restoredChoices,
  sessionSettingsSchema,
  writeSessionMetadata,
} from './session-settings.js';
export type {
  Choice,
  ChoiceKey,
  SessionChoices,
  SessionKey,
  SessionMetadata,
  SessionSettings,
  UnreadableSetting,
} from './session-settings.js';
export type { SessionMachineSnapshot, SessionRuntimeOptions, SessionView } from './session-runtime.js';
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
export type { CardJudgement } from './judge.js';
export * from './bus-messages.js';

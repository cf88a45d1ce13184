// The robot node: a session's parts composed into a running system, and session after session on one
// node (see parceiro-node.ts, lab-day.ts).
export { NEXT_SESSION_TEXT, ParceiroNode } from './parceiro-node.js';
export type { NodeSummary, ParceiroNodeOptions, SessionOptions, TableServerOptions } from './parceiro-node.js';
export { LabDay } from './lab-day.js';
export { SessionSwitch } from './session-switch.js';
export { Epochs, ScopedBus } from './scoped-bus.js';
export { NODE_FILE, loadNodeSettings } from './node-settings.js';
export type { NodeSettings } from './node-settings.js';
export { behaviourLog, createLogger, tableLog } from './logger.js';
export type { NodeLogger } from './logger.js';
export { RobotReactions } from './reactions.js';
export { RobotView } from './robot-view.js';
export { ExpectationEstimator, estimateOf } from './expectation-estimator.js';
export type { Estimate, ExpectationSource, PlayToJudge } from './expectation-estimator.js';
export { emotionOf, emotionalStateMessage } from './emotion-message.js';
export { tappedPlayer } from './player-tap.js';
export { ownPlayCategory, withCardSaid } from './card-line.js';
export { listenForToggles, togglePatch } from './toggle-requests.js';
export { playToTheEnd } from './play-session.js';
// A session's settings as its recording keeps them: one schema, written and read back by the same code.
export { levelSearch, levelTableOf, levelSettingsText, withMemory, RobotMemory } from './level-memory.js';
export type { PredictionSettings } from './prediction.js';

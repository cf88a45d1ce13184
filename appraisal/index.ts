// The public surface of the appraisal: game events and the player's beliefs in, OCC emotions and
// mood out, with the rules and characters as data in config/appraisal/.

export { EMOTION_TYPES, INFLUENCES_MOOD, VALENCE, concernsSeat, emotionKey } from './emotions.js';
export type { ActiveEmotion, ElicitedEmotion, EmotionType, FeltEmotion, Target } from './emotions.js';
export { APPRAISAL_EVENT_TYPES, PRIOR_EXPECTATION, expectationOf } from './events.js';
export type { AppraisalEvent, AppraisalEventType, Expectation, PerceivedBeliefs, Perception } from './events.js';
export type { Character, Disposition, Goal, ModelConstants, Rule } from './character.js';
export { deriveEmotions, emptyFrame } from './derive.js';
export type { AppraisalFrame, GoalSpec } from './derive.js';
export { feel, feltAt, initialState, intensityAt, moodAt, moodStep } from './emotional-state.js';
export type { EmotionalState } from './emotional-state.js';
export type { GameContext } from './game-context.js';
export { appraise, passTime, reappraise, surpriseOf } from './appraise.js';
export type { AppraisalResult, Reappraisal } from './appraise.js';
export { emotionReport } from './report.js';
export type { EmotionReport, Toward } from './report.js';
export { Appraiser } from './appraiser.js';
export { manualClock } from './clock.js';
export { TARGET_WORDS, eventEnv, targetWords } from './event-scope.js';
export type { TargetWord } from './event-scope.js';
export { parsePreset, parseSettings } from './config-files.js';
// Mistakes in the appraisal's files are config/'s ConfigError, as for every other config file;
// AppraisalConfigError is the same class under its former name, for existing importers.
export { ConfigError, ConfigError as AppraisalConfigError } from '../config/index.js';
export { buildCharacter } from './build-character.js';
export { appraisalConfigDir, loadCharacter, loadSettings, presetNames } from './load-character.js';
export { ScenarioError, parseScenario } from './scenario.js';
export type { ScenarioStep } from './scenario.js';
export { runScenario } from './run-scenario.js';
export type { ScenarioOutcome } from './run-scenario.js';

// The public surface of behaviours: emotions and game events in, EMYS postures, gaze and speech out.
// The planner is pure; the scheduler and the speech backends are the edge that acts.

// Inputs.
export type { EmotionInput, EmotionType, EmotionalStateInput } from './emotion-input.js';
export { EMOTION_TYPES } from './emotion-input.js';
export type { BehaviourEvent, SessionEvent } from './events.js';
export { gameEndOf, momentAfter, momentOf, sessionEndOf, usefulUntil } from './moment.js';
export type { Moment } from './moment.js';

// Configuration (config/*.yaml).
// The loader is config/'s, shared with appraisal and table-bridge; re-exported for existing importers.
export {
  ConfigError,
  configPath as defaultConfigDir,
  loadYamlConfig,
  packageRoot,
  parseYamlConfig,
} from '../config/index.js';
export type { ConfigProblem } from '../config/index.js';
export { BEHAVIOUR_FILES, loadBehaviourSetup } from './setup.js';
export { SPEECH_BACKENDS, isAlwaysSpoken, loadBehaviourSettings, speakProbability } from './behaviour-settings.js';
export type { BehaviourSettings, SpeechBackendKind, SpeechBackendSettings } from './behaviour-settings.js';

// Postures.
export {
  EMYS_LIMITS,
  EXPRESSION_JOINTS,
  GAZE_JOINTS,
  JOINTS,
  clampJoint,
  jointUnit,
  rosJointName,
  toSi,
  withinLimits,
} from './joints.js';
export type { JointLimits, JointName } from './joints.js';
export { EXPRESSIONS, loadPostureLibrary, postureFileSchema } from './posture-config.js';
export type { Expression, ExpressionName, PostureLibrary } from './posture-config.js';
export { emotionPosture, expressionPosture, restPosture } from './postures.js';
export type { Posture } from './postures.js';

// Gaze.
export { loadTableGeometry, tableFileSchema } from './table-geometry.js';
export type { Place, Point, TableGeometry } from './table-geometry.js';
export { describeGazeTarget, gazeAt, gazeTargetNamed, placeOf, pointOf } from './gaze.js';
export type { Gaze, GazeTarget } from './gaze.js';

// Utterances.
export {
  CATEGORY_NAMES,
  TARGETS,
  UTTERANCE_CATEGORIES,
  UTTERANCE_EMOTIONS,
  loadUtteranceLibrary,
  normalise,
  utteranceFileSchema,
} from './utterance-config.js';
export type {
  Certainty,
  ReviewWords,
  ConditionName,
  GazeMark,
  LineConditions,
  SlotName,
  Utterance,
  UtteranceCategory,
  UtteranceEmotion,
  UtteranceLibrary,
  UtteranceTarget,
} from './utterance-config.js';
export {
  EMPTY_SPEECH_MEMORY,
  NAME_SLOTS,
  cardPhrase,
  emotionOf,
  matchingLines,
  namesNeeded,
  rankPhrase,
  rememberSaid,
  renderUtterance,
  saidRecently,
  selectUtterance,
  speechAt,
  suitPhrase,
} from './utterances.js';
export type { LineFacts, SlotValues, SpeechMemory, UtteranceRequest } from './utterances.js';

// Toggles.
export { TOGGLE_NAMES, ToggleBoard, ToggleError, togglesSchema } from './toggles.js';
export type { ToggleChange, ToggleName, Toggles } from './toggles.js';

// The planner.
export { planBehaviour } from './planner.js';
export type { BehaviourSetup, PlanInput } from './planner.js';
export { initialBehaviourState } from './state.js';
export { expressionValence, lineValence } from './line-valence.js';
export type { Valence } from './line-valence.js';
export type { BehaviourState } from './state.js';
export type { AskedCategory, Audience, BehaviourCommand, BehaviourPlan, PlannedUtterance } from './commands.js';

// The edge: time, topics, the scheduler, speech.
export { SimulatedClock, systemClock } from './clock.js';
export type { Clock, TimerId } from './clock.js';
export { TOPICS } from './topics.js';
export type {
  ExpressionMessage,
  JointTrajectoryMessage,
  Publisher,
  SayMessage,
  Topic,
  TopicMessages,
  UtteranceMessage,
} from './topics.js';
export { BehaviourScheduler } from './scheduler.js';
export { DegradingSpeech, LogSpeech, PublishSpeech } from './speech/speech-output.js';
export type { SpeechOutput, SpeechRequest } from './speech/speech-output.js';
export { FestivalSpeech, festivalText, schemeString } from './speech/festival.js';
export { EspeakSpeech } from './speech/espeak-ng.js';
export { SpeechBackendError } from './speech/process.js';
export { createSpeechOutput } from './speech/create-speech.js';
export type { BehaviourLog } from './log.js';
export { silentLog } from './log.js';
export { certaintyOf, reasonText } from './reason-text.js';
export type { MoveValue, ReasonListener } from './reason-text.js';
// The search's edge is game/'s rule (the reason a decision carries is checked by it): said from here too.
export { decidingEdge } from '../game/index.js';
export type { DecidingEdge } from '../game/index.js';
export { reviewSentences, reviewText } from './review-text.js';

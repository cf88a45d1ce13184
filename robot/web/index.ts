// The operator dashboard and the virtual table's page, served by the node.
export { DashboardServer } from './dashboard-server.js';
export type { StudyDeskHooks } from './dashboard-server.js';
export { ConnectionWatch } from './connection-watch.js';
export { explainDecision } from './explain.js';
export { resultWords, reviewWords } from './review-words.js';
export type { ReviewMomentWords, ReviewWords } from './review-words.js';
export * from './protocol.js';
export * from './state.js';
export { defaultWebRoot, staticHandler } from './static-files.js';
export {
  CATEGORY_WORDS,
  categoryWords,
  fillWizardLine,
  findLine,
  lineCategory,
  wizardLibraryOf,
} from './wizard-lines.js';
export type { SessionView, WizardLibraries, WizardLibrary } from './wizard-lines.js';
export {
  EMOTION_FACE,
  emotionValence,
  faceValence,
  feltFirst,
  panelContradicts,
  PANEL_MIN,
  panelFeeling,
  unitIntensity,
} from './feels.js';
export type { PanelEmotion, PanelFeeling } from './feels.js';

// A session-level measure of the robot's social behaviour, from recordings (parceiro report).
export { buildReport, sessionReport } from './session-report.js';
export type { Report, SessionReport } from './session-report.js';
export { sessionFacts, EVENT_KINDS, CHECK_NAMES, DEFAULT_HOLD_MS, FACES } from './session-facts.js';
export type {
  Addressee,
  CheckName,
  EventKind,
  FaceCounts,
  GameFacts,
  LibraryLines,
  LibraryLookup,
  ReportOptions,
  SessionFacts,
} from './session-facts.js';
export { figuresOf, EXAMPLES } from './figures.js';
export type { CheckFigures, Figures } from './figures.js';
export { mergeFacts } from './merge.js';
export { timelineOf } from './timeline.js';
export type { At, GameTimeline, Reaction, Timeline } from './timeline.js';
export { feltAbout, isAbout, relationOf, targetRelation, TARGET_RELATIONS } from './felt.js';
export type { Felt, SeatRelation, TargetRelation } from './felt.js';
export { forcedPlays } from './hands.js';
export {
  blameForForcedPlays,
  facesAfter,
  facesAgainstTricks,
  facesAgainstWords,
  gloatingAndPity,
  happyAfterLoss,
  lateLines,
  misaddressedLines,
  resultOf,
} from './checks.js';
export type { CheckFacts, Finding, GameResult } from './checks.js';
export { formatReport, formatSession } from './format-text.js';
export { chartHtml } from './chart.js';
export { histogram, median, quantile } from './stats.js';
export type { Bin } from './stats.js';
export { faceChangeFacts, facesAgainstCards, panelAgainstFace } from './faces.js';
export type { FaceChangeFacts } from './faces.js';
export { linesAgainstTheGame, looksAgainstLines, nudgesTooSoon, NUDGE_TOO_SOON_MS } from './line-checks.js';
export type { LineInfo, LookedAt } from './line-checks.js';

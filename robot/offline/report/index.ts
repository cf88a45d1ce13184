// A session-level measure of the robot's social behaviour, from recordings (parceiro report).
export { buildReport, sessionReport } from './session-report.js';
export type { Report, SessionReport } from './session-report.js';
export { sessionFacts, eventKind, isOwnCardLine, EVENT_KINDS, CHECK_NAMES, FACES } from './session-facts.js';
export type {
  Addressee,
  CheckName,
  EventKind,
  FaceCounts,
  GameFacts,
  LibraryLines,
  LibraryLookup,
  LibrarySummary,
  LineFact,
  SessionFacts,
  TowardFact,
} from './session-facts.js';
export { figuresOf, EXAMPLES } from './figures.js';
export type { CheckFigures, Figures, LatencyFigures } from './figures.js';
export { mergeFacts } from './merge.js';
export { timelineOf, REACTED_EVENTS } from './timeline.js';
export type { At, GameTimeline, Reaction, Timeline } from './timeline.js';
export { feltAbout, feltBetween, isAbout, relationOf, targetRelation, TARGET_RELATIONS } from './felt.js';
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
  placeOfMoment,
  resultOf,
} from './checks.js';
export type { CheckContext, CheckFacts, Finding, GameResult } from './checks.js';
export { formatOverall, formatReport, formatSession } from './format-text.js';
export { chartHtml } from './chart.js';
export { histogram, median, quantile } from './stats.js';
export type { Bin } from './stats.js';

// Replay and restart from recordings (issue 6, points 4 and 5).
export { compareRuns, INPUT_TOPICS, RunComparer } from './compare.js';
export type { Comparison, Difference, TimedMessage } from './compare.js';
export { ReplayClock, settle } from './replay-clock.js';
export { RecordedEstimator, RecordedRobotPlayer, decisionOf } from './recorded-answers.js';
export type { RecordedDecision, RecordedPlayerOptions } from './recorded-answers.js';
export { GROUPS, recordedDecisions, replayRecording } from './replay.js';
export type { GroupName, GroupResult, ReadableDifference, ReplayOptions, ReplayReport } from './replay.js';
export { replaySettings } from './replay-settings.js';
export type { ReplaySettings } from './replay-settings.js';
export { TableFeeder } from './table-feeder.js';
export { GatedBus, RestoreClock, findSessionParts, resumeSession } from './resume.js';
export type { ResumeInfo, ResumeOptions, SessionParts } from './resume.js';

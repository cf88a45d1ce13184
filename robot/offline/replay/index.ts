// Replay and restart from recordings: a session checked against what it recorded, or continued after
// a crash.
export { compareRuns, INPUT_TOPICS, RunComparer } from './compare.js';
export type { Comparison, Difference, TimedMessage } from './compare.js';
export { ReplayClock, settle } from './replay-clock.js';
export { RecordedEstimator, RecordedRobotPlayer, decisionOf } from './recorded-answers.js';
export type { RecordedDecision, RecordedPlayerOptions } from './recorded-answers.js';
export { GROUPS, replayRecording } from './replay.js';
export { TableFeeder } from './table-feeder.js';
export { recordedSettings, replaySettings } from './replay-settings.js';
export type { ReplaySettings } from './replay-settings.js';
export { GatedBus, RESTART_REASON, RestoreClock, restoreSession } from './restore.js';
export type { RestoreOptions, Restored } from './restore.js';
export type { GroupName, GroupResult, ReadableDifference, ReplayOptions, ReplayReport } from './replay.js';
export { findSessionParts, resumeSession } from './resume.js';
export type { ResumeInfo, ResumeOptions, SessionParts } from './resume.js';

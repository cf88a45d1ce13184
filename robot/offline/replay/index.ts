// Replay and restart from recordings: a session checked against what it recorded, or continued after
// a crash.
export { compareRuns, RunComparer } from './compare.js';
export type { Difference, TimedMessage } from './compare.js';
export { ReplayClock, settle } from './replay-clock.js';
export { RecordedEstimator, RecordedRobotPlayer, decisionOf } from './recorded-answers.js';
export type { RecordedDecision } from './recorded-answers.js';
export { GROUPS, replayRecording } from './replay.js';
export { TableFeeder } from './table-feeder.js';
export { replaySettings } from './replay-settings.js';
export type { ReplaySettings } from './replay-settings.js';
export { GatedBus, RESTART_REASON, RestoreClock, restoreSession } from './restore.js';
export type { GroupName, ReadableDifference, ReplayReport } from './replay.js';
export { resumeSession } from './resume.js';
export type { ResumeInfo } from './resume.js';

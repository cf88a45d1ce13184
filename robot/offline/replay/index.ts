// Replay and restart from recordings (issue 6, points 4 and 5).
export { compareRuns, INPUT_TOPICS, RunComparer } from './compare.js';
export type { Comparison, Difference, TimedMessage } from './compare.js';
export { ReplayClock, settle } from './replay-clock.js';
export { RecordedEstimator, RecordedRobotPlayer, decisionOf } from './recorded-answers.js';
export type { RecordedDecision, RecordedPlayerOptions } from './recorded-answers.js';
export { GROUPS, TableFeeder, replayRecording, replaySettings } from './replay.js';
export type { GroupName, GroupResult, ReadableDifference, ReplayOptions, ReplayReport, ReplaySettings } from './replay.js';
export { GatedBus, RestoreClock, findSessionParts, resumeSession } from './resume.js';
export type { ResumeInfo, ResumeOptions, SessionParts } from './resume.js';

// The study room's front door: a study as data (the study file), its folder on disk (participants,
// sessions, answers, notes; layout.ts), the assignment of people to conditions and seats, the status,
// a participant's deletion, and the export and report (export/, report/).
export { StudyError } from './errors.js';
export { ASSIGNMENT_SCHEMES, CONDITION_SETTINGS, loadStudy, parseStudy, studySchema } from './study-file.js';
export type { AssignmentScheme, Condition, ConditionSettings, Study } from './study-file.js';
export {
  STUDY_FILE,
  PHASES,
  answerFile,
  answersDir,
  consentFile,
  notesFile,
  participantFile,
  sessionFile,
  sessionsDir,
  studyFile,
} from './layout.js';
export type { Phase } from './layout.js';
export { createStudy, defaultStudyDir, listStudies, readStudy } from './study-dir.js';
export { CODE, checkCode, newCode } from './codes.js';
export type { RandomInt } from './codes.js';
export { addParticipant, getParticipant, listParticipants, recordConsent } from './participants.js';
export type { AddParticipantOptions, Now, Participant } from './participants.js';
export { assign, conditionOf, partnerKind, partnerSeat } from './assignment.js';
export type { Assignment, PartnerKind, SeatHolder, Seats } from './assignment.js';
export {
  SESSION_STATES,
  getSession,
  listSessions,
  markSession,
  pausedSeconds,
  planNextSession,
  saveSession,
  seatCodes,
  sessionId,
  waitingParticipants,
} from './sessions.js';
export type { MarkOptions, PlanOptions, SessionState, StudySession } from './sessions.js';
export { appendNote, listNotes } from './notes.js';
export type { Note } from './notes.js';
export { getAnswers, listAnswers } from './answers.js';
export type { AnswerSet } from './answers.js';
export { formatStatus, studyStatus } from './status.js';
export type { AnswerState, ParticipantStatus, StudyStatus } from './status.js';
export { deleteParticipant, exportFolders, formatDeletion } from './delete-participant.js';
export type { DeletionReport } from './delete-participant.js';
export { exportStudy } from './export/export.js';
export type { ExportOptions, Scorer, StudyExport } from './export/export.js';
export { toCsv } from './export/csv.js';
export { recordedSession } from './export/recorded-session.js';
export type { BehaviourEvent, RecordedGame, RecordedSession } from './export/recorded-session.js';
export { collectStudy } from './export/export.js';
export type { Row, StudyTables } from './export/export.js';
export { studyReport } from './report/study-report.js';
export type { StudyReport, StudyReportOptions } from './report/study-report.js';
export { studyFigures } from './report/study-figures.js';
export type { GroupFigure, ScaleFigures, SessionResult, StudyFigures } from './report/study-figures.js';
export { meanFigure, shareFigure, t975 } from './report/stats.js';
export type { MeanFigure, ShareFigure } from './report/stats.js';

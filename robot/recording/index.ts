// Recording sessions to MCAP and reading them back.
export { FileSink } from './file-sink.js';
export { Recorder, SESSION_METADATA, closeOpenRecordings } from './recorder.js';
export type { SessionInfo } from './recorder.js';
export { RecordingError, RecordingStream, readRecording } from './reader.js';
export type { RecordedMessage, Recording } from './reader.js';

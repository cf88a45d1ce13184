// Recording sessions to MCAP and reading them back.
export { FileSink } from './file-sink.js';
export { RECORDING_FORMATS, Recorder, SESSION_METADATA, asRecorded, closeOpenRecordings } from './recorder.js';
export type { RecordingFormat, SessionInfo } from './recorder.js';
export { CdrCodec, offeredQos, ros2Definition } from './ros2-profile.js';
export { RecordingError, RecordingStream, readRecording } from './reader.js';
export type { RecordedMessage, Recording } from './reader.js';

// The offline tools' front door: what is done with recordings after a session, replaying them
// through the live code (and restarting a crashed session from them) and reporting on whole sessions.
export * from './replay/index.js';
export * from './report/index.js';

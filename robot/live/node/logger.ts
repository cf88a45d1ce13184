// The node's one logger: pino, JSON lines by default (for files and log shippers), pretty when a
// person is watching a terminal. It goes to standard error, so a command's own output stays clean.
// Parts that log take small interfaces (TableLogger, BehaviourLog); adapters for them are here.

import { pino } from 'pino';
import type { Logger } from 'pino';
import pretty from 'pino-pretty';
import type { BehaviourLog } from '../../../behaviours/index.js';
import type { TableLogger } from '../../../table-bridge/index.js';

export type NodeLogger = Logger;

interface LoggerOptions {
  /** Default info. */
  level?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Default: when standard error is a terminal. */
  pretty?: boolean;
  /** Where JSON lines go (tests); default standard error. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): NodeLogger {
  const level = options.level ?? 'info';
  const base = { name: 'parceiro' };
  if (options.pretty ?? Boolean(process.stderr.isTTY)) {
    // Synchronous, in this thread: a log line must not be lost when the process exits right after.
    return pino(
      { level, base },
      pretty({ destination: 2, sync: true, colorize: Boolean(process.stderr.isTTY), ignore: 'pid,hostname,name' }),
    );
  }
  return pino({ level, base }, options.destination ?? pino.destination({ dest: 2, sync: true }));
}

/** The behaviours' log (plain messages) onto the node's logger. */
export const behaviourLog = (log: NodeLogger): BehaviourLog => ({
  info: (message) => log.info({ part: 'behaviours' }, message),
  warn: (message) => log.warn({ part: 'behaviours' }, message),
});

/** The table bridge's log (pino-shaped already): a child that says where lines come from. */
export const tableLog = (log: NodeLogger): TableLogger => log.child({ part: 'table' });

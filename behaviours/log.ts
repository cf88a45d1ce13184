// Where behaviours report what they could not do. A pino logger fits this shape; the default writes
// one line to standard error.

export interface BehaviourLog {
  info(message: string): void;
  warn(message: string): void;
}

export const stderrLog: BehaviourLog = {
  info: (message) => process.stderr.write(`parceiro: ${message}\n`),
  warn: (message) => process.stderr.write(`parceiro: warning: ${message}\n`),
};

export const silentLog: BehaviourLog = { info: () => {}, warn: () => {} };

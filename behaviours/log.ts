// Where behaviours report what they could not do. A pino logger fits this shape; silentLog says
// nothing (tests, and parts that report elsewhere).

export interface BehaviourLog {
  info(message: string): void;
  warn(message: string): void;
}

export const silentLog: BehaviourLog = { info: () => {}, warn: () => {} };

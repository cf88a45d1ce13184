// The bridge logs through this minimal interface; pino's logger satisfies it (robot/ passes one in).

export interface TableLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const nothing = (): void => {};
export const silentLogger: TableLogger = { info: nothing, warn: nothing, error: nothing };

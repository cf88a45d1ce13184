// SIGINT and SIGTERM at any moment of a command that records (simulate, live, play): the first asks
// the command to stop cleanly (it closes its session and recording, says so, and exits); a second one
// closes every open recording at once and exits, whatever the command was still waiting for. The
// handlers are installed when the command starts, before anything opens, and stay until the process
// ends: no moment is left in which a signal kills the process with a recording unclosed, or is
// swallowed by a handler nobody listens to any more.

import { closeOpenRecordings } from '../robot/recording/index.js';

export type StopReason = 'interrupted' | 'terminated';

/** The exit code of a process ended by a signal, as shells report it (128 + the signal's number). */
export const signalExitCode = (reason: StopReason): number => (reason === 'interrupted' ? 130 : 143);

/** A command stopped by a signal before it opened anything: nothing to close, nothing played. */
export class StoppedError extends Error {
  constructor(readonly reason: StopReason) {
    super(`${reason} before the session started: nothing was played or recorded`);
    this.name = 'StoppedError';
  }
}

/** How long a second signal waits for the recordings to close before exiting anyway (a safety net). */
const QUICK_CLOSE_MS = 10_000;

export class StopSignals {
  readonly #stopped: Promise<StopReason>;
  #resolve!: (reason: StopReason) => void;
  #reason: StopReason | null = null;
  #count = 0;
  readonly #handlers: [NodeJS.Signals, () => void][];

  constructor(
    /** Told (on standard error) what a signal does, so a person at a terminal knows it was heard. */
    private readonly tell: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {
    this.#stopped = new Promise((resolve) => (this.#resolve = resolve));
    this.#handlers = [
      ['SIGINT', () => this.#on('interrupted')],
      ['SIGTERM', () => this.#on('terminated')],
    ];
    for (const [signal, handler] of this.#handlers) process.on(signal, handler);
  }

  /** Resolves with the first signal's reason. */
  stopped(): Promise<StopReason> {
    return this.#stopped;
  }

  /** The first signal's reason, or null while none has come. */
  get reason(): StopReason | null {
    return this.#reason;
  }

  /** Stops listening (tests that use commands in-process). */
  dispose(): void {
    for (const [signal, handler] of this.#handlers) process.off(signal, handler);
  }

  #on(reason: StopReason): void {
    this.#count++;
    if (this.#count === 1) {
      this.#reason = reason;
      this.tell(
        `parceiro: ${reason}: closing the session and its recording (a second Ctrl-C closes the recording and exits at once)`,
      );
      this.#resolve(reason);
      return;
    }
    if (this.#count > 2) return;
    this.tell(`parceiro: ${reason} again: closing the recording and exiting now`);
    const code = signalExitCode(this.#reason ?? reason);
    const timer = setTimeout(() => process.exit(code), QUICK_CLOSE_MS);
    void closeOpenRecordings()
      .catch((e: unknown) =>
        this.tell(`parceiro: a recording could not be closed: ${e instanceof Error ? e.message : String(e)}`),
      )
      .finally(() => {
        clearTimeout(timer);
        process.exit(code);
      });
  }
}

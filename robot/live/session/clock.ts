// The clock the session reads and sets its timers on (the robot's minimum think time, the grace time
// of a lifted card). Injected: tests pass xstate's SimulatedClock, which has exactly this shape; the
// node passes systemClock. The machine also hands it to xstate for its delayed transitions.

export interface SessionClock {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** Real time, for the node (performance.now and the timers of Node). */
export const systemClock: SessionClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

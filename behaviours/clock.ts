// The clocks behind game/'s Clock interface: `systemClock`, the program's one real clock, and
// `SimulatedClock`, which only moves when told to (as xstate's SimulatedClock, which tests also pass,
// does). systemClock lives here, not in game/ (pure) or appraisal (time injected): behaviours is the
// lowest layer that runs timers, and robot/ and launch/, which start live sessions, import it.
//
// One time base, Date.now: recordings, message stamps and the session's timers all read this clock,
// and a recording's times are milliseconds since the epoch. Durations that must never jump with the
// wall clock (a search's think budget, rate limits) are measured apart, with performance.now.

import type { Clock, TimerId } from '../game/index.js';

export type { Clock, TimerId };

/** The machine's clock and timers: for the live robot, at the edge. */
export const systemClock: Clock = (() => {
  const handles = new Map<TimerId, ReturnType<typeof setTimeout>>();
  let nextId = 1;
  return {
    now: () => Date.now(),
    setTimeout(callback, ms) {
      const id = nextId++;
      handles.set(
        id,
        setTimeout(
          () => {
            handles.delete(id);
            callback();
          },
          Math.max(0, ms),
        ),
      );
      return id;
    },
    clearTimeout(id) {
      const h = handles.get(id);
      if (h !== undefined) clearTimeout(h);
      handles.delete(id);
    },
  };
})();

/** A clock that stands still until `advance` runs the timers that fall due, in order. */
export class SimulatedClock implements Clock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<TimerId, { at: number; seq: number; callback: () => void }>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerId {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), seq: id, callback });
    return id;
  }

  clearTimeout(id: TimerId): void {
    this.timers.delete(id);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, running each timer at its own time. Between timers it lets promises
   * settle, so work started by one timer (a speech backend resolving) is done before the next runs.
   */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      let due: [TimerId, { at: number; seq: number; callback: () => void }] | undefined;
      for (const entry of this.timers) {
        if (
          entry[1].at <= end &&
          (!due || entry[1].at < due[1].at || (entry[1].at === due[1].at && entry[1].seq < due[1].seq))
        )
          due = entry;
      }
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].callback();
    }
    this.time = end;
    await settle();
  }
}

/** Lets pending promise callbacks (and I/O callbacks already queued) run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

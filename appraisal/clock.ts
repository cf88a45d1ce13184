// A hand-set time for tests and scenario runs, where decay must come out exactly the same every time.
// The appraisal reads no clock of its own: live, the node passes its clock's `now`.

import type { Clock } from '../game/index.js';

/** A reading of the time (milliseconds) that moves only when told to. */
type ManualClock = Clock['now'] & {
  /** Moves to `ms`; time never goes back. */
  set(ms: number): void;
  advance(ms: number): void;
};

export function manualClock(start = 0): ManualClock {
  let now = start;
  const clock = (() => now) as ManualClock;
  clock.set = (ms: number) => {
    if (!(ms >= now)) throw new RangeError(`a clock cannot go back from ${now} to ${ms}`);
    now = ms;
  };
  clock.advance = (ms: number) => clock.set(now + ms);
  return clock;
}

// Clocks for the appraisal, in milliseconds: the real one for live sessions, a hand-set one for tests
// and replays, where decay must come out exactly the same every time.

import type { Clock } from '../game/index.js';

export type { Clock };

/** Monotonic real time (performance.now): for live sessions only. */
export const realClock: Clock = () => performance.now();

/** A clock that moves only when told to. */
export interface ManualClock extends Clock {
  /** Moves to `ms`; time never goes back. */
  set(ms: number): void;
  advance(ms: number): void;
}

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

// Time, injected. The one clock interface of the program: milliseconds and timers. game/ reads no
// clock of its own (it stays pure), so it holds only the interface; the live robot passes behaviours'
// systemClock, tests and replays a clock that moves only when told to. Code that only reads the time
// takes a `Clock['now']` (a search's think budget may be given performance.now, which never jumps).

export type TimerId = number;

export interface Clock {
  /** Milliseconds. systemClock's are since the epoch (Date.now), the base of stamps and recordings. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
}

// The clock of a replay or a restart: it stands still until the driver moves it, and it runs its
// timers only when told to. A replay moves it to each recorded message's time and fires the timers
// a recorded output needs at that moment (`fireNext`), so a timer that fired late in the live
// session (the event loop is never exact) fires at the same late time here, and every stamp, decay
// and delay comes out as it was recorded. A restart fires them at their own times (`advanceTo`).

import type { Clock, TimerId } from '../../../behaviours/index.js';
import { runsInFlight, runsSettled } from '../../learned/index.js';

interface Timer {
  at: number;
  callback: () => void;
}

/** Lets pending promise callbacks run (and I/O callbacks already queued). */
export const settle = async (): Promise<void> => {
  await new Promise((resolve) => setImmediate(resolve));
  // A network's answer (robot/learned/inflight.ts) comes back from another thread: waited for here, so
  // it takes effect before the clock moves or the next event is fed, as it did live.
  while (runsInFlight() > 0) {
    await runsSettled();
    await new Promise((resolve) => setImmediate(resolve));
  }
};

/** How early by the wall clock a live timer may fire (see fireNext). */
const EARLY_MS = 2;

export class ReplayClock implements Clock {
  #time: number;
  #nextId = 1;
  readonly #timers = new Map<TimerId, Timer>();

  constructor(start: number) {
    this.#time = start;
  }

  now(): number {
    return this.#time;
  }

  setTimeout(callback: () => void, ms: number): TimerId {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(id: TimerId): void {
    this.#timers.delete(id);
  }

  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time to `t` (never back) without running any timer. */
  moveTo(t: number): void {
    if (t > this.#time) this.#time = t;
  }

  /**
   * Runs the earliest timer already due, at the present time; false when none is due. "Due" allows
   * for Node firing a live timer a millisecond or so early by the wall clock (its timers count from the
   * event loop's cached time, which trails Date.now): a face planned for 10.895 s was recorded at
   * 10.894, and a replay that waited for 10.895 found nothing to fire for it.
   */
  fireNext(): boolean {
    const due = this.#earliest(this.#time + EARLY_MS);
    if (!due) return false;
    this.#timers.delete(due[0]);
    due[1].callback();
    return true;
  }

  /** Moves time to `t`, running each timer that falls due at its own time, letting promises settle between. */
  async advanceTo(t: number): Promise<void> {
    for (;;) {
      await settle();
      const due = this.#earliest(t);
      if (!due) break;
      this.#timers.delete(due[0]);
      this.moveTo(due[1].at);
      due[1].callback();
    }
    this.moveTo(t);
    await settle();
  }

  /** The timers still waiting, taken off this clock (a restart hands them to the live clock). */
  drain(): { id: TimerId; inMs: number; callback: () => void }[] {
    const out = [...this.#timers.entries()]
      .sort((a, b) => a[1].at - b[1].at)
      .map(([id, x]) => ({ id, inMs: Math.max(0, x.at - this.#time), callback: x.callback }));
    this.#timers.clear();
    return out;
  }

  #earliest(until: number): [TimerId, Timer] | undefined {
    let due: [TimerId, Timer] | undefined;
    // Map order is creation order, so ties go to the timer set first.
    for (const entry of this.#timers) if (entry[1].at <= until && (!due || entry[1].at < due[1].at)) due = entry;
    return due;
  }
}

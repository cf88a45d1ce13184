// What the trackers see now: the markers alive in each tracker's latest frame, with their last stated
// place. Frames that arrive late over UDP are dropped by their frame number, as TUIO clients do.

import type { TuioFrame, TuioMarker } from './tuio-packets.js';

/** A frame number this far below the last one means the tracker restarted, not a late packet. */
const RESTART_GAP = 100;

interface Tracker {
  fseq: number;
  markers: Map<number, TuioMarker>;
}

export class MarkerBoard {
  readonly #trackers = new Map<string, Tracker>();

  /** Applies a frame; false when it was a late one and changed nothing. */
  apply(frame: TuioFrame): boolean {
    const key = `${frame.version}:${frame.source}`;
    let t = this.#trackers.get(key);
    if (!t) this.#trackers.set(key, (t = { fseq: -Infinity, markers: new Map() }));
    const late = frame.fseq !== -1 && frame.fseq <= t.fseq && t.fseq - frame.fseq <= RESTART_GAP;
    if (late) return false;
    if (frame.fseq !== -1) t.fseq = frame.fseq;
    for (const m of frame.markers) t.markers.set(m.session, m);
    const alive = new Set(frame.alive);
    // A session alive without a stated place is some other component (a finger in TUIO 2.0): not a card.
    for (const session of t.markers.keys()) if (!alive.has(session)) t.markers.delete(session);
    return true;
  }

  /** Every marker on the table now, across trackers. */
  present(): TuioMarker[] {
    return [...this.#trackers.values()].flatMap((t) => [...t.markers.values()]);
  }
}

// From markers seen by the camera to cards placed in zones and lifted from them. A card is its fiducial
// (a deck holds each card once), not the tracker's session: a tracker that loses a marker for a few
// frames gives it a new session when it finds it again, and within `flickerMs` that is the same card
// lying in the same place. A card counts in a zone once it has stayed there `settleMs` (a card slid
// across the table is not placed on every zone it passes), and out of it likewise. Time is passed in:
// the caller's clock, so tests are exact.

import type { Seat } from '../../game/index.js';
import type { Point } from './polygons.js';
import { contains } from './polygons.js';
import type { TableGeometry } from './tuio-config.js';

/** A zone of the table: a seat's hand area or play spot, or the trump area. */
export type TableZone = { area: 'hand' | 'play'; seat: Seat } | { area: 'trump' };

export type PlacementEvent = { type: 'placed' | 'lifted'; fiducial: number; zone: TableZone; at: Point };

const sameZone = (a: TableZone | null, b: TableZone | null): boolean =>
  a === b ||
  (a !== null && b !== null && a.area === b.area && (a.area === 'trump' || a.seat === (b as { seat: Seat }).seat));

export const zoneName = (z: TableZone): string =>
  z.area === 'trump' ? 'the trump area' : `seat ${z.seat}'s ${z.area === 'play' ? 'play spot' : 'hand area'}`;

/** The zone holding a point, or null (zones do not overlap: the config checks it). */
export function zoneAt(geometry: TableGeometry, at: Point): TableZone | null {
  for (const seat of [0, 1, 2, 3] as Seat[]) {
    const s = geometry.seats[seat];
    if (contains(s.play, at)) return { area: 'play', seat };
    if (contains(s.hand, at)) return { area: 'hand', seat };
  }
  return contains(geometry.trump, at) ? { area: 'trump' } : null;
}

interface Card {
  fiducial: number;
  at: Point;
  /** The zone it was last reported in. */
  zone: TableZone | null;
  /** Where it lies now, and since when. */
  lying: TableZone | null;
  since: number;
  /** When the camera lost it, or null while seen. */
  missingSince: number | null;
}

interface PlacementOptions {
  geometry: TableGeometry;
  flickerMs: number;
  settleMs: number;
}

export class CardPlacements {
  readonly #cards = new Map<number, Card>();
  readonly #o: PlacementOptions;

  constructor(options: PlacementOptions) {
    this.#o = options;
  }

  /** The markers seen in a frame, at time `now`: what was placed and lifted. */
  observe(markers: readonly { fiducial: number; x: number; y: number }[], now: number): PlacementEvent[] {
    const seen = new Set<number>();
    for (const m of markers) {
      // Two markers with one id (a second deck) count as one card: the first in the frame.
      if (seen.has(m.fiducial)) continue;
      seen.add(m.fiducial);
      const at: Point = [m.x, m.y];
      const lying = zoneAt(this.#o.geometry, at);
      const card = this.#cards.get(m.fiducial);
      if (!card) {
        this.#cards.set(m.fiducial, { fiducial: m.fiducial, at, zone: null, lying, since: now, missingSince: null });
        continue;
      }
      card.at = at;
      card.missingSince = null;
      if (!sameZone(card.lying, lying)) {
        card.lying = lying;
        card.since = now;
      }
    }
    for (const card of this.#cards.values())
      if (!seen.has(card.fiducial) && card.missingSince === null) card.missingSince = now;
    return this.tick(now);
  }

  /** What time alone settles: cards gone longer than a flicker, cards that stayed long enough where they lie. */
  tick(now: number): PlacementEvent[] {
    const events: PlacementEvent[] = [];
    for (const card of [...this.#cards.values()]) {
      if (card.missingSince !== null) {
        if (now - card.missingSince < this.#o.flickerMs) continue;
        this.#cards.delete(card.fiducial);
        if (card.zone) events.push({ type: 'lifted', fiducial: card.fiducial, zone: card.zone, at: card.at });
        continue;
      }
      if (sameZone(card.zone, card.lying) || now - card.since < this.#o.settleMs) continue;
      if (card.zone) events.push({ type: 'lifted', fiducial: card.fiducial, zone: card.zone, at: card.at });
      card.zone = card.lying;
      if (card.lying) events.push({ type: 'placed', fiducial: card.fiducial, zone: card.lying, at: card.at });
    }
    return events;
  }

  /** The cards lying in zones now, as last reported. */
  lying(): { fiducial: number; zone: TableZone; at: Point }[] {
    return [...this.#cards.values()]
      .filter((c) => c.zone !== null)
      .map((c) => ({ fiducial: c.fiducial, zone: c.zone!, at: c.at }));
  }
}

// config/table.yaml: where the players and the play area are, seen from the robot's head.
// Frame (REP-103): x forward, y to the robot's left, z up, in metres, origin at the head's pan-tilt centre.

import { z } from 'zod';
import { loadYamlConfig } from '../config/index.js';

export interface Point {
  x: number;
  y: number;
  z: number;
}

/** A player's place relative to the robot. Which game seat sits where follows from the play direction. */
export type Place = 'right' | 'across' | 'left';

export interface TableGeometry {
  /** Seen from above. Portugal plays counter-clockwise: the next player sits on the robot's right. */
  playDirection: 'counter-clockwise' | 'clockwise';
  /** Where each player's face is. */
  places: Readonly<Record<Place, Point>>;
  /** Where the robot's own cards are shown (it looks there while thinking). */
  ownCards: Point;
  playArea: {
    center: Point;
    /** How far from the centre, toward the player, a played card lies. */
    cardOffset: number;
  };
  /** Where the head rests when gaze is off or nothing is going on. */
  rest: 'play-area' | 'across' | 'own-cards';
}

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const point = z.strictObject({ x: finite, y: finite, z: finite });

export const tableFileSchema = z.strictObject({
  playDirection: z.enum(['counter-clockwise', 'clockwise']),
  places: z.strictObject({ right: point, across: point, left: point }),
  ownCards: point,
  playArea: z.strictObject({ center: point, cardOffset: z.number().min(0).max(2) }),
  rest: z.enum(['play-area', 'across', 'own-cards']).default('play-area'),
});

/** Reads config/table.yaml (or another file of that form). Throws `ConfigError`. */
export const loadTableGeometry = (file: string): TableGeometry => loadYamlConfig(file, tableFileSchema);

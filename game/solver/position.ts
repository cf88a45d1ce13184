// A perfect-information position: what every seat holds, the trick on the table and the points won.

import type { Card, Suit } from '../cards.js';
import { CardParseError, formatCard, parseCard, parseSuit, pointsOf, suitOf } from '../cards.js';
import type { Seat } from '../seats.js';
import { isSeat } from '../seats.js';

export interface Position {
  trump: Suit;
  /** What each seat still holds. */
  hands: Card[][];
  /** The seat that led the current trick. */
  leader: Seat;
  /** Cards already played to the current trick, from the leader onward (0 to 3). */
  trick: Card[];
  /** Points already won by team A and team B. */
  points: [number, number];
}

/** A position that cannot arise in a game; `path` names the field (`hands[2][1]`, `trick`, ...). */
export class PositionError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'PositionError';
  }
}

export const toMoveOf = (p: Position): Seat => ((p.leader + p.trick.length) & 3) as Seat;

/** Checks that a position could arise in a game of Sueca; throws PositionError naming what is wrong. */
export function checkPosition(p: Position): void {
  if (p.trick.length > 3)
    throw new PositionError(
      'trick',
      `at most 3 cards can be on the table before the trick completes, got ${p.trick.length}`,
    );
  const seen = new Map<Card, string>();
  const note = (c: Card, path: string): void => {
    const first = seen.get(c);
    if (first) throw new PositionError(path, `${formatCard(c)} appears twice (also at ${first})`);
    seen.set(c, path);
  };
  p.trick.forEach((c, i) => note(c, `trick[${i}]`));
  p.hands.forEach((h, s) => h.forEach((c, i) => note(c, `hands[${s}][${i}]`)));
  // Seats that already played to this trick hold one card fewer than those still to play.
  const base = p.hands[(p.leader + p.trick.length) & 3]!.length;
  for (let i = 0; i < 4; i++) {
    const seat = (p.leader + i) & 3;
    const expected = i < p.trick.length ? base - 1 : base;
    if (p.hands[seat]!.length !== expected) {
      throw new PositionError(
        `hands[${seat}]`,
        `holds ${p.hands[seat]!.length} cards, expected ${expected} (the seat to move holds ${base}, and ${p.trick.length} card(s) are on the table)`,
      );
    }
  }
  if (base === 0) throw new PositionError('hands', 'the seat to move holds no card: the game is over');
  if (base > 10) throw new PositionError('hands', `the seat to move holds ${base} cards; a hand has at most 10`);
  let remaining = 0;
  for (const c of seen.keys()) remaining += pointsOf(c);
  const [a, b] = p.points;
  if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a + b + remaining > 120) {
    throw new PositionError('points', `[${a}, ${b}] plus the ${remaining} points still in play exceed 120`);
  }
  // Every seat that did not follow the led suit on the table must be void in it now.
  if (p.trick.length) {
    const led = suitOf(p.trick[0]!);
    for (let i = 1; i < p.trick.length; i++) {
      const seat = (p.leader + i) & 3;
      if (suitOf(p.trick[i]!) !== led && p.hands[seat]!.some((c) => suitOf(c) === led)) {
        throw new PositionError(
          `trick[${i}]`,
          `seat ${seat} did not follow the led suit although it holds one (a renounce)`,
        );
      }
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function cardsAt(value: unknown, path: string): Card[] {
  if (!Array.isArray(value)) throw new PositionError(path, 'expected an array of cards');
  return value.map((v: unknown, i: number) => {
    try {
      return parseCard(v);
    } catch (e) {
      if (e instanceof CardParseError) throw new PositionError(`${path}[${i}]`, e.message);
      throw e;
    }
  });
}

/** Reads `{"trump":"H","hands":[[...]x4],"leader":s,"trick":["AS",...],"points":[a,b]}`. */
export function parsePosition(value: unknown): Position {
  if (!isObject(value))
    throw new PositionError('position', 'expected a JSON object with trump, hands, leader, trick and points');
  let trump: Suit;
  try {
    trump = parseSuit(value.trump);
  } catch {
    throw new PositionError('trump', `expected a suit S, H, D or C, got ${JSON.stringify(value.trump)}`);
  }
  if (!Array.isArray(value.hands) || value.hands.length !== 4) throw new PositionError('hands', 'expected 4 hands');
  const hands = value.hands.map((h: unknown, s: number) => cardsAt(h, `hands[${s}]`));
  if (!isSeat(value.leader))
    throw new PositionError('leader', `expected a seat 0-3, got ${JSON.stringify(value.leader)}`);
  const trick = value.trick === undefined ? [] : cardsAt(value.trick, 'trick');
  const points = value.points === undefined ? [0, 0] : value.points;
  if (!Array.isArray(points) || points.length !== 2) throw new PositionError('points', 'expected [team A, team B]');
  const p: Position = { trump, hands, leader: value.leader, trick, points: [Number(points[0]), Number(points[1])] };
  checkPosition(p);
  return p;
}

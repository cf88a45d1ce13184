// Scripted positions in card strings, with move values worked out by hand (the line of play for each
// move is in `why`). reference.test.ts checks the reference against them, solver.test.ts the solver.
// Values are final points of the mover's team (points so far included).

import type { StrPosition } from './reference.js';

export interface ScriptedPosition {
  name: string;
  why: string;
  position: StrPosition;
  toMove: number;
  moves: Record<string, number>;
}

const split = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** hands: four space-separated strings for seats 0..3 ('' for an empty hand). */
export function pos(
  trump: string,
  leader: number,
  trick: string,
  hands: readonly [string, string, string, string],
  points: [number, number],
): StrPosition {
  return { trump, leader, trick: split(trick), hands: hands.map(split), points };
}

export const SCRIPTED: readonly ScriptedPosition[] = [
  {
    name: 'last trick: a low trump beats the led ace',
    why: 'AS(3) 2H(0) KS(1) 7D(2): the 2 of trumps wins 11+4+10 = 25 for A; 30 + 25 = 55',
    position: pos('H', 3, 'AS', ['2H', 'KS', '7D', ''], [30, 65]),
    toMove: 0,
    moves: { '2H': 55 },
  },
  {
    name: 'last trick: the highest of the led suit wins, an off-suit seven does not',
    why: 'QD(1) AD(2) 7S(3) KD(0), no trump played: AD wins 2+11+10+4 = 27 for A; B keeps 43',
    position: pos('C', 1, '', ['KD', 'QD', 'AD', '7S'], [50, 43]),
    toMove: 1,
    moves: { QD: 43 },
  },
  {
    name: 'last trick, last card: three on the table',
    why: '5C(2) 7C(3) AH(0) 2C(1), trump D: 7C wins 10+11 = 21 for B; 39 + 21 = 60',
    position: pos('D', 2, '5C 7C AH', ['', '2C', '', ''], [60, 39]),
    toMove: 1,
    moves: { '2C': 60 },
  },
  {
    name: 'trump cut',
    why:
      '2H: AS 2H 5S QS, B cuts and wins 13; then 3D 6D 2D 4D goes to A for 0: 57 + 13 = 70. ' +
      '3D: AS 3D 5S QS, A wins 13; then 4D 2H 6D 2D, B cuts for 0: 57',
    position: pos('H', 0, 'AS', ['4D', '2H 3D', '5S 6D', 'QS 2D'], [50, 57]),
    toMove: 1,
    moves: { '2H': 70, '3D': 57 },
  },
  {
    name: 'over-cut',
    why:
      'QH: 7S 3H QH KS, the queen of trumps over-cuts the 3 and wins 16 for A; then 2C JH AC 5D, B cuts for 14: 45 + 16 = 61. ' +
      '2C: 7S 3H 2C KS, B wins 14 with the 3; then 5D QH JH AC, JH over-cuts QH for 16 to B: A stays at 45',
    position: pos('H', 0, '7S 3H', ['AC', '5D', 'QH 2C', 'KS JH'], [45, 45]),
    toMove: 2,
    moves: { QH: 61, '2C': 45 },
  },
  {
    name: 'ducking beats winning the trick',
    why:
      'AS: QS 3S 4S AS, B wins 13 but must lead 2S into 7S: 7S wins 10 for A; 47 + 13 = 60. ' +
      '2S: QS 3S 4S 2S, A wins 2 and leads 7S, B discards 5D, A 6D, and AS takes 7S: 10 + 11 = 21; 47 + 21 = 68',
    position: pos('H', 0, 'QS 3S 4S', ['7S', '5D', '6D', 'AS 2S'], [50, 47]),
    toMove: 3,
    moves: { AS: 60, '2S': 68 },
  },
  {
    name: 'neighbouring ranks worth different points: give partner the 7, keep the king',
    why:
      'K and 7 are adjacent ranks (equal for winning) but worth 4 and 10. 7S: AS 3S 7S 5S wins 21 for A; then 2D 4D KS 6S, B wins 4: 40 + 21 = 61. ' +
      'KS: AS 3S KS 5S wins 15 for A; then 2D 4D 7S 6S, B wins 10: 40 + 15 = 55',
    position: pos('H', 0, 'AS 3S', ['2D', '4D', 'KS 7S', '5S 6S'], [40, 55]),
    toMove: 2,
    moves: { '7S': 61, KS: 55 },
  },
  {
    name: 'points so far need not add up to 120: values count only what was won',
    why: 'The ducking position with points 10/20: AS gives 20 + 13 = 33, 2S gives 20 + 21 = 41',
    position: pos('H', 0, 'QS 3S 4S', ['7S', '5D', '6D', 'AS 2S'], [10, 20]),
    toMove: 3,
    moves: { AS: 33, '2S': 41 },
  },
];

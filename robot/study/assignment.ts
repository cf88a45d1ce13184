// Who sits where and under which condition, session by session: pure functions of the study and the
// session's number, so a schedule can be printed in advance and a session planned again the same.
//
// draw (the paper): the session's people draw their seats at random (a generator seeded by the study's
//   seed and the session's number), so the robot's partner is whoever drew the seat opposite it.
//   Conditions come in balanced blocks: every block of C sessions (C conditions) holds each condition
//   once, in an order drawn per block.
// counterbalanced: a schedule fixed in advance. Sessions go in blocks of C x P (P people per session);
//   within a block each condition meets each participant slot as the robot's partner once (slot k is
//   the k-th person named for the session), and the conditions' order rotates as the rows of a Latin
//   square (block b starts with condition b mod C), so no condition always opens or closes a day.

import { createRng, deriveSeed, shuffleInPlace } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import type { Condition, Study } from './study-file.js';

/** A seat's occupant: the robot, a participant's code, a simulated player, or a deleted participant. */
export type SeatHolder = 'robot' | 'bot' | 'deleted' | (string & {});
export type Seats = Record<'0' | '1' | '2' | '3', SeatHolder>;

export interface Assignment {
  condition: Condition;
  seats: Seats;
  /** The session's games' seed (deals, simulated players, the robot). */
  seed: number;
}

/** The seat opposite: the partner's. */
export const partnerSeat = (robot: Seat): Seat => ((robot + 2) % 4) as Seat;
const opponentSeats = (robot: Seat): Seat[] => [((robot + 1) % 4) as Seat, ((robot + 3) % 4) as Seat];

const robotSeatOf = (c: Condition): Seat => (c.settings.robotSeat ?? 0) as Seat;

/** The condition of session `index` (from 1). */
export function conditionOf(study: Study, index: number): { condition: Condition; partnerSlot: number | null } {
  const k = index - 1;
  const C = study.conditions.length;
  if (study.assignment.scheme === 'draw') {
    const block = Math.floor(k / C);
    const order = shuffleInPlace(
      study.conditions.map((_, i) => i),
      createRng(study.assignment.seed, 1, block),
    );
    return { condition: study.conditions[order[k % C]!]!, partnerSlot: null };
  }
  const P = study.participantsPerSession;
  const block = Math.floor(k / (C * P));
  const j = k % (C * P);
  const slot = Math.floor(j / C);
  return { condition: study.conditions[((j % C) + block + slot) % C]!, partnerSlot: slot };
}

/** Session `index`'s condition, seats and seed, for `codes` (the people named for it, in slot order). */
export function assign(study: Study, index: number, codes: readonly string[]): Assignment {
  const { condition, partnerSlot } = conditionOf(study, index);
  const robot = robotSeatOf(condition);
  const seats = { '0': 'bot', '1': 'bot', '2': 'bot', '3': 'bot' } as Seats;
  seats[String(robot) as keyof Seats] = 'robot';
  const people = [partnerSeat(robot), ...opponentSeats(robot)];
  let order: Seat[];
  if (partnerSlot === null) order = shuffleInPlace(people, createRng(study.assignment.seed, 2, index));
  else {
    // Slot `partnerSlot` opposite the robot; the other slots take the opponents' seats in turn.
    const others = opponentSeats(robot);
    order = codes.map((_, i) => (i === partnerSlot ? partnerSeat(robot) : others.shift()!));
    // Fewer people than the slot: the partner's seat is a simulated player's.
    if (partnerSlot >= codes.length) order = codes.map((_, i) => opponentSeats(robot)[i] ?? partnerSeat(robot));
  }
  codes.forEach((code, i) => {
    seats[String(order[i]!) as keyof Seats] = code;
  });
  return { condition, seats, seed: deriveSeed(study.assignment.seed, 3, index) };
}

/** Who partnered a participant: the robot, another person, or a simulated player (an empty seat). */
export type PartnerKind = 'robot' | 'human' | 'bot';

/** Who sat opposite `code` in `seats`; null when the code has no seat there. */
export function partnerKind(seats: Seats, code: string): PartnerKind | null {
  const entry = Object.entries(seats).find(([, holder]) => holder === code);
  if (!entry) return null;
  const partner = seats[String(partnerSeat(Number(entry[0]) as Seat)) as keyof Seats];
  return partner === 'robot' ? 'robot' : partner === 'bot' ? 'bot' : 'human';
}

// Seats 0..3 in order of play; partners sit opposite: team A = seats 0 and 2, team B = seats 1 and 3.

export type Seat = 0 | 1 | 2 | 3;
/** Team index: 0 = A (seats 0, 2), 1 = B (seats 1, 3). */
export type Team = 0 | 1;
export type TeamName = 'A' | 'B';

export const SEATS: readonly Seat[] = [0, 1, 2, 3];
export const teamOf = (seat: Seat): Team => (seat & 1) as Team;
export const partnerOf = (seat: Seat): Seat => ((seat + 2) & 3) as Seat;
export const nextSeat = (seat: Seat, steps = 1): Seat => ((seat + steps) & 3) as Seat;
export const teamName = (team: Team): TeamName => (team === 0 ? 'A' : 'B');
export const isSeat = (n: unknown): n is Seat => n === 0 || n === 1 || n === 2 || n === 3;

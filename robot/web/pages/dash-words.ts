// The dashboard's words for the bus's names: statuses, why a line was dropped, whom a line is said
// to, the teams and seats as the robot sees them. The raw names stay in tooltips and data attributes.

import { seatWords } from './words.js';

const STATUS: Readonly<Record<string, string>> = {
  waiting: 'waiting for a new game',
  dealing: 'dealing',
  playing: 'playing',
  game_over: 'game over',
  session_over: 'session over',
  paused: 'paused',
};
/** A session status (waiting, game_over, ...) in words. */
export const statusWords = (status: string): string => STATUS[status] ?? status.replaceAll('_', ' ');

const DROPPED: Readonly<Record<string, string>> = {
  stale: 'stale: the game moved on before it could be said',
  'speech off': 'speech is switched off',
  'partner speech off': 'speech to the partner is switched off',
  'opponent speech off': 'speech to the opponents is switched off',
  paused: 'the game was paused: nobody was hesitating',
};
/** Why a line was dropped, in words. */
export const droppedWords = (reason: string): string =>
  DROPPED[reason] ?? (reason.replaceAll('_', ' ') || 'no reason given');

const TARGETS: Readonly<Record<string, string>> = {
  all: 'everyone',
  partner: 'the partner',
  opponent: 'the opponents',
};
/**
 * Whom a line is said to; `addressee` names the opponent when one is spoken to. A line to both
 * (`audience`, from the library's gaze mark) is to "the opponents", though its addressee is the one
 * it is about ("Preparem-se, que hoje não vos damos hipótese!" is not to the opponent on the left).
 */
export function targetWords(target: string, addressee: number, robotSeat: number | null, audience = ''): string {
  if (target === 'opponent' && audience === 'both') return TARGETS.opponent!;
  if (target === 'opponent' && addressee >= 0 && robotSeat !== null) return seatWords(addressee, robotSeat);
  return TARGETS[target] ?? target;
}

/** A seat as the operator reads it, from the robot's point of view: the robot, the partner, the opponent on the left... */
export function personAt(seat: number, robotSeat: number): string {
  if (seat < 0) return '-';
  return seat === robotSeat ? 'the robot' : seatWords(seat, robotSeat);
}

/** Whom an emotion is about: a seat (in words) or a team. */
export function emotionTarget(target: number, team: string, robotSeat: number | null): string {
  if (target >= 0)
    return robotSeat === null ? `seat ${target}` : target === robotSeat ? 'itself' : seatWords(target, robotSeat);
  if (team === 'team') return 'its team';
  if (team === 'opponents') return 'the opponents';
  return team.replaceAll('_', ' ');
}

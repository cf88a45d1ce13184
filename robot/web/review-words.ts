// The end-of-game review (game/explain/review.ts, published on /parceiro/review) as the operator reads
// it: what the game was worth with all cards in view against how it ended, for the robot's team; each
// moment in words ("Trick 5: the opponent on the left played the seven of spades; the king of spades
// would have kept 11 points for the opponents"), marked when it changed the result; the value along
// the game for the robot's team. The message counts team A's points: everything here is turned to the
// robot's side. Seats and cards in words (web/words.ts), never numbers or ids alone. Pure and free of
// Node APIs: the browser renders it (web/review-view.ts), the tests read it.

import type { GameReviewMessage } from '../bus/messages.js';
import { turnsTheResult, victoriesFor } from '../../game/scoring.js';
import { cardWords, seatWords } from './pages/words.js';

export interface ReviewMomentWords {
  /** The card's index among the game's plays (0..39), for the chart. */
  play: number;
  text: string;
  /** It moved the game from one result to another (victories, not only points). */
  turned: boolean;
  /** The robot's team's final points with best play before the card and after it (-1 for a renounce). */
  before: number;
  after: number;
}

export interface ReviewWords {
  /** "Game 2" (the message counts games from 0). */
  title: string;
  status: GameReviewMessage['status'];
  /** Two rows for reviewed games: with all cards in view, and as it ended; each [label, words]. */
  rows: [label: string, words: string][];
  /** One sentence: what the play did to the result, or, not reviewed, why. */
  verdict: string;
  moments: ReviewMomentWords[];
  /** Reviewed with no moment to show: why ("" otherwise). */
  noMoments: string;
  /** The robot's team's value before each card and after the last (41 values; empty unless reviewed). */
  values: number[];
  /** The robot's team's final points with all cards in view and as played (null unless reviewed). */
  dealt: number | null;
  final: number | null;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What a final score means for the robot's team: "won, 2 victories", "a draw", "lost, 1 victory to the opponents". */
export function resultWords(points: number): string {
  const v = victoriesFor(points);
  if (v === 0) return 'a draw';
  return v > 0
    ? `won, ${plural(v, 'victory', 'victories')}`
    : `lost, ${plural(-v, 'victory', 'victories')} to the opponents`;
}

/** Who played, as the dashboard names seats: the robot, the partner, the opponent on the left... */
const who = (seat: number, robotSeat: number): string =>
  robotSeat < 0 ? `seat ${seat}` : seat === robotSeat ? 'the robot' : seatWords(seat, robotSeat);

/** The review in the operator's words, from the robot's side (`robotSeat` -1: not known, team A's side). */
export function reviewWords(m: GameReviewMessage, robotSeat: number): ReviewWords {
  const robotTeam = robotSeat < 0 ? 0 : robotSeat & 1;
  const ours = (pointsA: number): number => (pointsA < 0 ? pointsA : robotTeam === 0 ? pointsA : 120 - pointsA);
  const base = {
    title: `Game ${m.game + 1}`,
    status: m.status,
    rows: [] as [string, string][],
    moments: [] as ReviewMomentWords[],
    noMoments: '',
    values: [] as number[],
    dealt: null,
    final: null,
  };
  switch (m.status) {
    case 'reviewed':
      break;
    case 'renounce': {
      const r = m.moments[0];
      const text = r
        ? `Trick ${r.trick + 1}: ${who(r.seat, robotSeat)} did not follow suit and played ${cardWords(r.card, 'en')}.`
        : 'A seat did not follow suit.';
      const gets =
        !r || robotSeat < 0
          ? 'the other team gets 4 victories'
          : (r.seat & 1) === robotTeam
            ? 'the opponents get 4 victories'
            : "the robot's team gets 4 victories";
      return {
        ...base,
        verdict: `The game ended on a renounce (${gets}): it is not looked back on card by card.`,
        moments: r ? [{ play: r.play, text, turned: true, before: -1, after: -1 }] : [],
      };
    }
    case 'incomplete':
      return {
        ...base,
        verdict:
          'Not reviewed: not every card of this game was played, so it cannot be looked back on with all cards in view.',
      };
    default:
      return { ...base, verdict: `The review could not be made${m.detail ? `: ${m.detail}` : ''}.` };
  }
  const dealt = ours(m.dealt_points);
  const final = ours(m.final_points);
  const turnedResult = victoriesFor(dealt) !== victoriesFor(final);
  const changes =
    m.changes === 0
      ? 'no play changed it'
      : `${plural(m.changes, 'play', 'plays')} worse than the player's best, in hindsight`;
  const moments = m.moments.map((x): ReviewMomentWords => {
    const before = ours(x.points_before);
    const after = ours(x.points_after);
    const mine = robotSeat >= 0 && (x.seat & 1) === robotTeam;
    const kept = Math.abs(x.points_before - x.points_after);
    const better = x.better
      ? `${cardWords(x.better, 'en')} would have kept ${plural(kept, 'point', 'points')} for ${mine ? "the robot's team" : 'the opponents'}`
      : `it cost ${plural(kept, 'point', 'points')}`;
    return {
      play: x.play,
      text: `Trick ${x.trick + 1}: ${who(x.seat, robotSeat)} played ${cardWords(x.card, 'en')}; ${better}.`,
      // As the spoken review says it: the better card, with the rest of the game as it went, would
      // have moved the result across a victory line (the search's values alone overstate it).
      turned: turnsTheResult({ seat: x.seat, before: x.points_before, after: x.points_after }, m.final_points),
      before,
      after,
    };
  });
  return {
    ...base,
    rows: [
      ['all cards in view', `${plural(dealt, 'point', 'points')}: ${resultWords(dealt)}`],
      ['as it ended', `${plural(final, 'point', 'points')}: ${resultWords(final)}`],
      ['changes', changes],
    ],
    verdict: turnedResult
      ? 'The play changed the result.'
      : m.changes === 0
        ? 'The result was in the cards from the deal: nobody played worse than their best.'
        : 'The play did not change the result: it was in the cards from the deal.',
    moments,
    noMoments: moments.length
      ? ''
      : m.changes
        ? 'No moment to show: only slips of a few points, none changing the result.'
        : 'No moment to show: every card played kept the value.',
    values: m.values.map(ours),
    dealt,
    final,
  };
}

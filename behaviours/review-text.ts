// The end-of-game review (game/explain/review.ts) in the library's words, as the robot tells it to the
// table: what the game was worth with all cards in view against how it ended, then each moment that
// changed it, from the robot's side (its own slips included), in the order they were played.

import type { GameReview, ReviewMoment, Seat } from '../game/index.js';
import { teamOf, victoriesFor } from '../game/index.js';
import type { ReviewOutcome, UtteranceLibrary } from './utterance-config.js';
import { cardPhrase, renderUtterance } from './utterance-text.js';

const OUTCOME: Readonly<Record<number, ReviewOutcome>> = {
  4: 'win4',
  2: 'win2',
  1: 'win1',
  0: 'draw',
  [-1]: 'loss1',
  [-2]: 'loss2',
  [-4]: 'loss4',
};

/** Team A's final points as the robot's team's. */
const ours = (pointsA: number, robotSeat: Seat): number => (teamOf(robotSeat) === 0 ? pointsA : 120 - pointsA);

/** How the robot names a seat: itself, its partner, the opponent on its right (who plays after it) or left. */
const relationTo = (seat: Seat, robotSeat: Seat): 'self' | 'right' | 'partner' | 'left' =>
  (['self', 'right', 'partner', 'left'] as const)[(seat - robotSeat + 4) & 3]!;

/** The review as sentences in `library`'s language (empty when the library cannot tell reviews). */
export function reviewSentences(library: UtteranceLibrary, review: GameReview, robotSeat: Seat): string[] {
  const words = library.review;
  if (!words) return [];
  const say = (text: string, slots: Record<string, string | number>): string =>
    renderUtterance(library, { text }, slots);
  if (review.status === 'renounce') {
    const m = review.moments[0]!;
    return [
      say(words.renounce, {
        who: words.who[relationTo(m.seat, robotSeat)],
        card: cardPhrase(library, m.card),
        trick: m.trick + 1,
      }),
    ];
  }
  if (review.status !== 'reviewed' || review.dealt === null || review.final === null) return [];
  const dealt = ours(review.dealt, robotSeat);
  const final = ours(review.final, robotSeat);
  const out = [
    say(words.intro, {
      dealt: words.outcome[OUTCOME[victoriesFor(dealt)]!],
      dealt_points: dealt,
      final: words.outcome[OUTCOME[victoriesFor(final)]!],
      final_points: final,
    }),
  ];
  for (const m of review.moments) out.push(momentSentence(library, m, robotSeat));
  if (!review.moments.length) out.push(review.changes ? words.small : words.none);
  return out;
}

function momentSentence(library: UtteranceLibrary, m: ReviewMoment, robotSeat: Seat): string {
  const words = library.review!;
  const relation = relationTo(m.seat, robotSeat);
  const turned = victoriesFor(m.after) !== victoriesFor(m.before);
  const slots: Record<string, string | number> = {
    trick: m.trick + 1,
    card: cardPhrase(library, m.card),
    better: m.better === null ? '' : cardPhrase(library, m.better),
    // What the better card kept for the seat's team: the value only goes down for the team that plays.
    points: Math.abs(m.before - m.after),
    turn: turned ? words.turn : '',
  };
  if (relation === 'left' || relation === 'right') slots.who = words.who[relation];
  const text =
    relation === 'self' ? words.moment.self : relation === 'partner' ? words.moment.partner : words.moment.opponent;
  return renderUtterance(library, { text }, slots);
}

/** The whole review as one text to say; null when the library cannot tell reviews. */
export function reviewText(library: UtteranceLibrary, review: GameReview, robotSeat: Seat): string | null {
  if (!library.review) return null;
  const sentences = reviewSentences(library, review, robotSeat);
  return sentences.length ? sentences.join(' ') : null;
}

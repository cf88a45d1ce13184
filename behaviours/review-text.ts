// The end-of-game review (game/explain/review.ts) in the library's words, as the robot tells it to the
// table: what the game was worth with all cards in view against how it ended, then each moment that
// changed it, in the order they were played, its own slips included. Short, a few seconds a moment, so
// a player can follow it; spoken to whoever asked: the partner as "tu" about their own cards, the
// opponents named as the listener sees them (the robot's right is its partner's left).

import type { GameReview, ReviewMoment, Seat } from '../game/index.js';
import { partnerOf, teamOf, turnsTheResult, victoriesFor } from '../game/index.js';
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

/** Where `seat` sits for someone at `from`: on their right (who plays after them), opposite, on their left. */
const sideOf = (seat: Seat, from: Seat): 'self' | 'right' | 'partner' | 'left' =>
  (['self', 'right', 'partner', 'left'] as const)[(seat - from + 4) & 3]!;

type MomentKey = keyof NonNullable<UtteranceLibrary['review']>['moment'];
type WhoKey = keyof NonNullable<UtteranceLibrary['review']>['who'];

/**
 * How a seat's moment is told to `listener` (null: no one seat in particular, told from the robot's
 * side): which sentence, and whom {who} names in it.
 */
function voiceOf(seat: Seat, robotSeat: Seat, listener: Seat | null): { moment: MomentKey; who?: WhoKey } {
  const robotSide = sideOf(seat, robotSeat);
  if (robotSide === 'self') return { moment: 'self' };
  if (listener === null || listener === robotSeat)
    return robotSide === 'partner' ? { moment: 'partner' } : { moment: 'opponent', who: robotSide };
  if (listener === partnerOf(robotSeat)) {
    if (seat === listener) return { moment: 'you' };
    return { moment: 'opponent', who: sideOf(seat, listener) === 'right' ? 'yourRight' : 'yourLeft' };
  }
  // An opponent asked: their own card, their partner's, the robot's partner's.
  if (seat === listener) return { moment: 'youOpponent' };
  if (seat === partnerOf(listener)) return { moment: 'yourPartner' };
  return { moment: 'partner' };
}

/**
 * The review as sentences in `library`'s language (empty when the library cannot tell reviews),
 * told to `listener`: the seat of the one person who asked, or null when it is not one person's.
 */
export function reviewSentences(
  library: UtteranceLibrary,
  review: GameReview,
  robotSeat: Seat,
  listener: Seat | null = null,
): string[] {
  const words = library.review;
  if (!words) return [];
  const say = (text: string, slots: Record<string, string | number>): string =>
    renderUtterance(library, { text }, slots);
  if (review.status === 'renounce') {
    const m = review.moments[0]!;
    const voice = voiceOf(m.seat, robotSeat, listener);
    const mine = voice.moment === 'you' || voice.moment === 'youOpponent';
    const who: WhoKey =
      voice.who ?? (voice.moment === 'yourPartner' ? 'yourPartner' : voice.moment === 'self' ? 'self' : 'partner');
    return [
      say(mine ? words.renounceYou : words.renounce, {
        ...(mine ? {} : { who: words.who[who] }),
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
  const tell = told(review.moments, robotSeat, final);
  for (const m of tell) out.push(momentSentence(library, m, robotSeat, final, listener));
  if (!tell.length) out.push(review.changes ? words.small : words.none);
  return out;
}

/**
 * Said aloud, a review tells two moments at most (the dashboard shows every one): those that would
 * have changed the result first, then the most points, in the order they were played; a slip of a few
 * points that changed nothing is left out. Three, with the intro, ran to 30 s of speech, longer than a
 * table listens.
 */
const TOLD = 2;
const FEW_POINTS = 5;
function told(moments: readonly ReviewMoment[], robotSeat: Seat, final: number): ReviewMoment[] {
  const weighed = moments.map((m) => ({ m, turned: turns(m, robotSeat, final), points: Math.abs(m.before - m.after) }));
  const worth = weighed.filter((w) => w.turned || w.points >= FEW_POINTS);
  const kept = new Set(
    worth
      .sort((a, b) => Number(b.turned) - Number(a.turned) || b.points - a.points)
      .slice(0, TOLD)
      .map((w) => w.m),
  );
  return moments.filter((m) => kept.has(m));
}

/** Would the better card have changed the result (game/explain's rule, in the robot's team's points)? */
function turns(m: ReviewMoment, robotSeat: Seat, final: number): boolean {
  return turnsTheResult(m, teamOf(robotSeat) === 0 ? final : 120 - final);
}

function momentSentence(
  library: UtteranceLibrary,
  m: ReviewMoment,
  robotSeat: Seat,
  final: number,
  listener: Seat | null,
): string {
  const words = library.review!;
  // What the better card kept for the seat's team: the value only goes down for the team that plays.
  const points = Math.abs(m.before - m.after);
  const turned = turns(m, robotSeat, final);
  const slots: Record<string, string | number> = {
    trick: m.trick + 1,
    card: cardPhrase(library, m.card),
    better: m.better === null ? '' : cardPhrase(library, m.better),
    points,
    turn: turned ? words.turn : '',
  };
  const voice = voiceOf(m.seat, robotSeat, listener);
  if (voice.who) slots.who = words.who[voice.who];
  return renderUtterance(library, { text: words.moment[voice.moment] }, slots);
}

/** The whole review as one text to say, told to `listener` (see reviewSentences); null when the library cannot tell reviews. */
export function reviewText(
  library: UtteranceLibrary,
  review: GameReview,
  robotSeat: Seat,
  listener: Seat | null = null,
): string | null {
  if (!library.review) return null;
  const sentences = reviewSentences(library, review, robotSeat, listener);
  return sentences.length ? sentences.join(' ') : null;
}

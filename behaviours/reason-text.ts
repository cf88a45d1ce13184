// A reason for a card (game/explain) in the library's words, in the linguistic style of Yano and
// Onisawa's poker partner: how sure the robot is in words (certainly, probably, maybe) from the share
// of worlds that bear it out.

import type { ReasonSummary } from '../game/index.js';
import type { Certainty, UtteranceLibrary } from './utterance-config.js';
import { cardPhrase, renderUtterance, suitPhrase } from './utterance-text.js';

/** Seed 001's fuzzy confidence: most worlds agree (certainly), many (probably), some (maybe). */
export const certaintyOf = (share: number): Certainty =>
  share >= 0.9 ? 'certainly' : share >= 0.6 ? 'probably' : 'maybe';

/**
 * The sentence that says why, in `library`'s language; null when the library has no reasons.
 * `discreet`: only what the others can see (during a game, outside the advice mode).
 */
export function reasonText(library: UtteranceLibrary, r: ReasonSummary, discreet = false): string | null {
  const words = library.reasons;
  if (!words) return null;
  if (discreet) {
    const slots = {
      card: cardPhrase(library, r.card),
      certainty: words.certainty[certaintyOf(r.support)],
      ...(r.suit === undefined ? {} : { suit: suitPhrase(library, r.suit) }),
    };
    return renderUtterance(library, { text: words.discreet[r.kind] }, slots);
  }
  const slots: Record<string, string | number> = {
    card: cardPhrase(library, r.card),
    other: cardPhrase(library, r.other),
    certainty: words.certainty[certaintyOf(r.support)],
  };
  if (r.points !== undefined) slots.points = r.points;
  if (r.suit !== undefined) slots.suit = suitPhrase(library, r.suit);
  if (r.kept !== undefined) slots.kept = cardPhrase(library, r.kept);
  return renderUtterance(library, { text: words.kinds[r.kind] }, slots);
}

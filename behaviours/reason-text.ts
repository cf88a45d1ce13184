// A reason for a card (game/explain) in the library's words, in the linguistic style of Yano and
// Onisawa's poker partner: how sure the robot is in words (certainly, probably, maybe) from the share
// of worlds that bear it out.

import type { Card, DecidingEdge, ReasonKind, ReasonSummary, SearchValue } from '../game/index.js';
import type { Certainty, UtteranceLibrary } from './utterance-config.js';
import { cardPhrase, renderUtterance, suitPhrase } from './utterance-text.js';

/** Seed 001's fuzzy confidence: most worlds agree (certainly), many (probably), some (maybe). */
export const certaintyOf = (share: number): Certainty =>
  share >= 0.9 ? 'certainly' : share >= 0.6 ? 'probably' : 'maybe';

/** One card's value in the robot's own search (its decision record): mean final points and chance to win. */
export interface MoveValue extends SearchValue {
  card: Card;
}

/** The reasons that only say "better" (odds, points, a hair): the search's edge says it in numbers instead. */
const VAGUE: ReadonlySet<ReasonKind> = new Set(['better-odds', 'more-points', 'close-call']);

/** Who asked: the robot's partner hears of their own cards as "you"; anyone else, of "my partner". */
export type ReasonListener = 'partner' | 'other';

/**
 * The sentence that says why, in `library`'s language; null when the library has no reasons.
 * `discreet`: only what the others can see (during a game, outside the advice mode). `edge`: what
 * decided in the robot's own search, said in numbers (the chance to win, or the points) in place of
 * a vague reason, or after a tactical one.
 */
export function reasonText(
  library: UtteranceLibrary,
  r: ReasonSummary,
  discreet = false,
  edge: DecidingEdge | null = null,
  listener: ReasonListener = 'other',
): string | null {
  const words = library.reasons;
  if (!words) return null;
  // The search saw no edge worth naming: "we win more often" would claim one; it was a close call.
  if (edge?.kind === 'even')
    return reasonText(library, VAGUE.has(r.kind) ? { ...r, kind: 'close-call' } : r, discreet, null, listener);
  if (edge) {
    const slots: Record<string, string | number> = {
      card: cardPhrase(library, r.card),
      other: cardPhrase(library, r.other),
      ...(edge.kind === 'win'
        ? { chance: `${edge.chance}%`, other_chance: `${edge.otherChance}%` }
        : { gain: edge.gain }),
    };
    if (VAGUE.has(r.kind))
      return renderUtterance(library, { text: (discreet ? words.decidedDiscreet : words.decided)[edge.kind] }, slots);
    const first = reasonText(library, r, discreet, null, listener);
    return `${first} ${renderUtterance(library, { text: words.then[edge.kind] }, slots)}`;
  }
  if (discreet) {
    const slots = {
      card: cardPhrase(library, r.card),
      certainty: words.certainty[certaintyOf(r.support)],
      ...(r.suit === undefined ? {} : { suit: suitPhrase(library, r.suit) }),
    };
    const sentence = (listener === 'partner' && words.toPartner?.discreet[r.kind]) || words.discreet[r.kind];
    return renderUtterance(library, { text: sentence }, slots);
  }
  const slots: Record<string, string | number> = {
    card: cardPhrase(library, r.card),
    other: cardPhrase(library, r.other),
    certainty: words.certainty[certaintyOf(r.support)],
  };
  if (r.points !== undefined) slots.points = r.points;
  if (r.suit !== undefined) slots.suit = suitPhrase(library, r.suit);
  if (r.kept !== undefined) slots.kept = cardPhrase(library, r.kept);
  const sentence = (listener === 'partner' && words.toPartner?.kinds[r.kind]) || words.kinds[r.kind];
  return renderUtterance(library, { text: sentence }, slots);
}

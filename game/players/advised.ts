// A person who gets advice (the training mode): plays as the rule-based player does (a casual
// player), but when the robot's advice says the choice matters, follows it with probability `follow`.
// The advice is the robot's search from this seat's cards: in the training mode the robot sees its
// partner's hand, as a coach would. `adviceFor` is the rule both this player and the live node use:
// advise only when the best card beats the person's likely card by a margin.

import type { Card } from '../cards.js';
import type { Rng } from '../rng.js';
import { createRng } from '../rng.js';
import type { Beliefs } from '../decision.js';
import type { SeatView } from '../view.js';
import type { Player, PlayerOptions } from './player.js';
import { RulePlayer } from './rule.js';
import { SearchPlayer } from './search-player.js';

/** How much better the best card must be than the person's likely card for the advice to be given. */
export interface AdviceMargin {
  /** Expected victories (when the search valued them). */
  victories: number;
  /** Expected points (otherwise, and as a tie-break). */
  points: number;
}
export const DEFAULT_ADVICE_MARGIN: Readonly<AdviceMargin> = { victories: 0.1, points: 5 };

export interface Advice {
  card: Card;
  /** What the person's likely card would give up against it. */
  gain: { victories: number; points: number; winProbability: number };
}

/**
 * The advice for a seat whose person would likely play `likely`, from the search's beliefs of that
 * seat: the best card, when it beats `likely` by the margin; null when the choice does not matter.
 */
export function adviceFor(
  beliefs: Beliefs | undefined,
  likely: Card,
  margin: AdviceMargin = DEFAULT_ADVICE_MARGIN,
): Advice | null {
  if (!beliefs || beliefs.fallback || beliefs.moves.length < 2) return null;
  const best = beliefs.moves[0]!;
  const theirs = beliefs.moves.find((m) => m.card === likely);
  if (!theirs || best.card === likely) return null;
  const gain = {
    victories: (best.victories ?? 0) - (theirs.victories ?? 0),
    points: best.mean - theirs.mean,
    winProbability: best.winProbability - theirs.winProbability,
  };
  const byVictories = best.victories !== undefined && theirs.victories !== undefined;
  const matters = byVictories
    ? gain.victories >= margin.victories || (gain.victories >= 0 && gain.points >= margin.points)
    : gain.points >= margin.points;
  return matters ? { card: best.card, gain } : null;
}

interface AdvisedPlayerOptions extends PlayerOptions {
  /** Probability of following advice that is given, 0..1. */
  follow: number;
  margin?: AdviceMargin;
}

export class AdvisedPlayer implements Player {
  readonly kind: string;
  private readonly person: RulePlayer;
  private readonly coach: SearchPlayer | null;
  private readonly rng: Rng;
  private readonly margin: AdviceMargin;
  /** Advice given, and followed. */
  readonly stats = { decisions: 0, advised: 0, followed: 0 };

  constructor(private readonly o: AdvisedPlayerOptions) {
    if (!(o.follow >= 0 && o.follow <= 1)) throw new RangeError(`follow must be 0..1, got ${o.follow}`);
    this.kind = `advised:p=${Math.round(o.follow * 100)}`;
    this.person = new RulePlayer({ seat: o.seat, seed: o.seed });
    // Nobody follows at p = 0: no advice is searched (the same play, without the cost).
    this.coach = o.follow > 0 ? new SearchPlayer({ ...o, seed: o.seed ^ 0x0ac4, kind: 'timed' }) : null;
    this.rng = createRng(o.seed, 0xad71ce);
    this.margin = o.margin ?? DEFAULT_ADVICE_MARGIN;
  }

  choose(view: SeatView): Card {
    this.stats.decisions++;
    const own = this.person.choose(view);
    if (!this.coach || view.legalCards().length < 2) return own;
    const advice = adviceFor(this.coach.decide(view).beliefs, own, this.margin);
    if (!advice) return own;
    this.stats.advised++;
    if (this.rng.next() >= this.o.follow) return own;
    this.stats.followed++;
    return advice.card;
  }
}

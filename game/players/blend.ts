// The blended player (kind `blend`, issue 37): half of the budget to the roll-out player, half to the
// timed player, and the card with the best mix of their expected victories. Each of the two values a
// card by one judge: the expert's play-outs (what happens if everyone plays on as a good heuristic
// player, who sees no hidden card) or the victory class under best play with every hand seen (which
// assumes knowledge nobody has). Judged by each other's judge, each looks worse than it is
// (test/bench/disagree.ts), so the blend plays the card that does well under both.
// `blend:w=PCT` is the timed player's weight in the value (default 50); `share=PCT` its share of the
// budget (default 50). Ties are broken by the mean of their expected points.

import type { Card } from '../cards.js';
import type { Decision, MoveBelief } from '../decision.js';
import { forcedDecision } from '../decision.js';
import type { SeatView } from '../view.js';
import type { Player, PlayerOptions } from './player.js';
import { RolloutPlayer } from './rollout.js';
import { SEARCH_DEFAULTS, SearchPlayer } from './search-player.js';

export interface BlendOptions extends PlayerOptions {
  name?: string;
  /** The timed player's weight in a card's value, 0..1 (default 0.5). */
  weight?: number;
  /** The timed player's share of the budget, 0..1 (default 0.5). */
  share?: number;
}

export class BlendPlayer implements Player {
  readonly kind: string;
  private readonly timed: SearchPlayer;
  private readonly rollout: RolloutPlayer;
  private readonly weight: number;

  constructor(options: BlendOptions) {
    this.kind = options.name ?? 'blend';
    if (!options.clock) throw new Error('the blend player needs a clock (PlayerOptions.clock)');
    const budget = options.budgetMs ?? SEARCH_DEFAULTS.timed.budgetMs;
    const share = options.share ?? 0.5;
    this.weight = options.weight ?? 0.5;
    const { name: _name, weight: _weight, share: _share, ...base } = options;
    this.rollout = new RolloutPlayer({
      ...base,
      seed: options.seed ^ 0x7f4a7c15,
      budgetMs: Math.max(1, budget * (1 - share)),
    });
    this.timed = new SearchPlayer({ ...base, kind: 'timed', budgetMs: Math.max(1, budget * share) });
  }

  choose(view: SeatView): Card {
    return this.decide(view).card;
  }

  decide(view: SeatView): Decision {
    const legal = view.legalCards();
    if (legal.length === 1) return forcedDecision(legal[0]!, view.trick);
    const r = this.rollout.decide(view);
    const t = this.timed.decide(view);
    const rb = r.beliefs;
    const tb = t.beliefs;
    // Either one may have valued no world (its fallback card): then the other decides.
    if (!tb || tb.worlds === 0 || tb.fallback) return r;
    if (!rb || rb.worlds === 0 || rb.fallback) return t;
    const w = this.weight;
    const moves: MoveBelief[] = tb.moves.map((m) => {
      const o = rb.moves.find((x) => x.card === m.card)!;
      return {
        card: m.card,
        mean: round((m.mean + o.mean) / 2),
        sd: round((m.sd + o.sd) / 2),
        winProbability: round(w * m.winProbability + (1 - w) * o.winProbability),
        victories: round(w * (m.victories ?? 0) + (1 - w) * (o.victories ?? 0)),
      };
    });
    moves.sort((a, b) => b.victories! - a.victories! || b.mean - a.mean);
    return {
      card: moves[0]!.card,
      beliefs: {
        ...tb,
        moves,
        worlds: tb.worlds + rb.worlds,
        timeMs: round(tb.timeMs + rb.timeMs),
        winProbability: moves[0]!.winProbability,
      },
    };
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

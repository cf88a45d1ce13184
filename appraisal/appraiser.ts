// The robot's appraisal as one object: it owns the emotional state, reads the injected clock, and
// hands each event to the pure `appraise`. Live sessions give it the real clock; replays and tests a
// manual one.

import type { Clock, Seat } from '../game/index.js';
import type { AppraisalResult } from './appraise.js';
import { appraise, passTime, reappraise } from './appraise.js';
import type { Character } from './character.js';
import type { EmotionalState } from './emotional-state.js';
import { initialState } from './emotional-state.js';
import type { AppraisalEvent, Expectation, PerceivedBeliefs } from './events.js';
import type { GameContext } from './game-context.js';
import type { EmotionReport } from './report.js';
import { emotionReport } from './report.js';

interface AppraiserOptions {
  /** The robot's seat until a deal says otherwise. */
  seat: Seat;
  clock: Clock['now'];
}

export class Appraiser {
  private current: EmotionalState;
  private readonly clock: Clock['now'];

  constructor(
    readonly character: Character,
    options: AppraiserOptions,
  ) {
    this.clock = options.clock;
    this.current = initialState(character, options.seat, options.clock());
  }

  get state(): EmotionalState {
    return this.current;
  }

  /**
   * Appraises an event now; `beliefs` are the player's expectations before and after it, if known;
   * `surprise` how unexpected it was (0..1, the robot's prediction of another seat's card).
   */
  perceive(
    event: AppraisalEvent,
    beliefs?: PerceivedBeliefs,
    surprise?: number,
  ): AppraisalResult & { report: EmotionReport } {
    const now = this.clock();
    const result = appraise(
      this.character,
      this.current,
      { event, ...(beliefs ? { beliefs } : {}), ...(surprise ? { surprise } : {}) },
      now,
    );
    this.current = result.state;
    return { ...result, report: emotionReport(this.character, this.current, now) };
  }

  /**
   * Appraises again, now, an event perceived before its expectation was known: `context` is the game
   * context just after it (`state.game` when it was perceived), `after` the expectation it came to;
   * `attributable: false` when the change since the expectation in force spans more than this event.
   */
  reappraise(
    event: AppraisalEvent,
    context: GameContext,
    after: Expectation,
    o: { attributable?: boolean; choice?: number; surprise?: number } = {},
  ): AppraisalResult & { report: EmotionReport } {
    const now = this.clock();
    const result = reappraise(
      this.character,
      this.current,
      {
        event,
        context,
        after,
        ...(o.attributable === false ? { attributable: false } : {}),
        ...(o.choice === undefined ? {} : { choice: o.choice }),
        ...(o.surprise ? { surprise: o.surprise } : {}),
      },
      now,
    );
    this.current = result.state;
    return { ...result, report: emotionReport(this.character, this.current, now) };
  }

  /** What the character feels now. */
  report(): EmotionReport {
    const now = this.clock();
    this.current = passTime(this.character, this.current, now);
    return emotionReport(this.character, this.current, now);
  }
}

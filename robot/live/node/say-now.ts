// A line the robot was asked for (an answer to "porquê?", the end-of-game review): said now, to
// everyone, waiting its turn however the game goes (never dropped as stale: it was asked for). Its
// category says what was asked and its `about.seat` who asked, so that a dashboard does not credit
// it to the operator (playthrough 3: the review asked at the table showed as "the operator's words").

import type {
  AskedCategory,
  BehaviourScheduler,
  BehaviourSetup,
  Clock,
  PlannedUtterance,
} from '../../../behaviours/index.js';
import type { Seat } from '../../../game/index.js';

export interface Answer {
  /** why#n, review#n: what was asked. */
  id: string;
  category: AskedCategory;
  /** The seat of the person who asked (a table of one seat); null when the table hosts several or none. */
  askedBy: Seat | null;
  text: string;
  language: string;
}

export function sayNow(scheduler: BehaviourScheduler, setup: BehaviourSetup, clock: Clock, a: Answer): void {
  const now = clock.now();
  const utterance: PlannedUtterance = {
    id: a.id,
    category: a.category,
    text: a.text,
    language: a.language,
    to: 'all',
    addressee: null,
    estimatedMs: Math.round(
      setup.settings.selection.estimate.baseMs + setup.settings.selection.estimate.msPerChar * [...a.text].length,
    ),
    until: null,
    // No game event: the reports pass it by as they do the operator's lines.
    about: { event: 'operator', seat: a.askedBy, moment: null, emotion: null },
  };
  scheduler.run({ event: 'operator', atMs: now, moment: null, commands: [{ kind: 'speech', atMs: now, utterance }] });
}

// A line the robot was asked for (an answer to "porquê?", the end-of-game review): said now, to
// everyone, waiting its turn however the game goes (never dropped as stale: it was asked for).

import type { BehaviourScheduler, BehaviourSetup, Clock, PlannedUtterance } from '../../../behaviours/index.js';

export interface Answer {
  /** why#n, review#n: what was asked. */
  id: string;
  text: string;
  language: string;
}

export function sayNow(scheduler: BehaviourScheduler, setup: BehaviourSetup, clock: Clock, a: Answer): void {
  const now = clock.now();
  const utterance: PlannedUtterance = {
    id: a.id,
    category: 'operator',
    text: a.text,
    language: a.language,
    to: 'all',
    addressee: null,
    estimatedMs: Math.round(
      setup.settings.selection.estimate.baseMs + setup.settings.selection.estimate.msPerChar * [...a.text].length,
    ),
    until: null,
    about: { event: 'operator', seat: null, moment: null, emotion: null },
  };
  scheduler.run({ event: 'operator', atMs: now, moment: null, commands: [{ kind: 'speech', atMs: now, utterance }] });
}

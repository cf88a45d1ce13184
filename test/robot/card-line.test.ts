// The line that names the robot's card: added when no planned line names it, and, like the planner's
// lines, left out when the voice is busy for longer than the selection's maxDelayMs, unless it must be
// said (the announcement after a physical deal, which tells people which card to put down).

import { describe, expect, it } from 'vitest';
import type { BehaviourPlan } from '../../behaviours/index.js';
import { initialBehaviourState } from '../../behaviours/index.js';
import { parseCard } from '../../game/index.js';
import { withCardSaid } from '../../robot/index.js';
import { shippedSetup } from '../behaviours/helpers.js';

const setup = shippedSetup('pt');
const sel = setup.settings.selection;
const empty: BehaviourPlan = { event: 'play', atMs: 0, moment: 1, commands: [] };
const card = parseCard('7S');

describe("the robot's card line", () => {
  it('names the card after the line being said', () => {
    const state = initialBehaviourState(0);
    const busy = { ...state, speech: { ...state.speech, busyUntilMs: 1000 } };
    const { plan } = withCardSaid(setup, empty, busy, {
      card,
      category: 'playing.new-trick',
      speech: true,
      nowMs: 0,
      until: 2,
      seat: 0,
      moment: 1,
    });
    expect(plan.commands).toHaveLength(1);
    const c = plan.commands[0]!;
    expect(c.kind === 'speech' && [c.atMs, c.utterance.text, c.utterance.until]).toEqual([
      1000 + sel.gapMs,
      'O sete de espadas.',
      2,
    ]);
  });

  it('is left out when it would wait longer than maxDelayMs behind other lines, unless it must be said', () => {
    const state = initialBehaviourState(0);
    const longBusy = { ...state, speech: { ...state.speech, busyUntilMs: sel.reactionMs + sel.maxDelayMs + 1000 } };
    const skipped = withCardSaid(setup, empty, longBusy, {
      card,
      category: 'playing.new-trick',
      speech: true,
      nowMs: 0,
      until: 2,
      seat: 0,
      moment: 1,
    });
    expect(skipped.plan.commands).toEqual([]);
    expect(skipped.state).toBe(longBusy);
    const announced = withCardSaid(setup, empty, longBusy, {
      card,
      category: 'playing.new-trick',
      speech: true,
      nowMs: 0,
      always: true,
      until: 3,
      seat: 0,
      moment: 1,
    });
    expect(announced.plan.commands).toHaveLength(1);
  });
});

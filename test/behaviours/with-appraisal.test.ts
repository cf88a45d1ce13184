// The appraisal's output feeds the planner as it is: an EmotionReport is the planner's emotional input.
// A real game, appraised by the default character, planned and checked for what the robot shows.

import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../game/index.js';
import { createRng } from '../../game/index.js';
import type { EmotionReport } from '../../appraisal/index.js';
import { Appraiser, loadCharacter } from '../../appraisal/index.js';
import type { BehaviourCommand, EmotionalStateInput } from '../../behaviours/index.js';
import { initialBehaviourState, planBehaviour } from '../../behaviours/index.js';
import { sessionEvents, shippedSetup } from './helpers.js';

const GAME_EVENTS = new Set(['deal', 'play', 'trick', 'end']);

describe('appraisal to behaviours', () => {
  it('an appraised game shows emotions on the face and in the lines', () => {
    const setup = shippedSetup();
    let now = 0;
    const appraiser = new Appraiser(loadCharacter(), { seat: 0, clock: () => now });
    const rng = createRng(4);
    let state = initialBehaviourState(0);
    const commands: BehaviourCommand[] = [];
    for (const seed of [1, 2, 3]) {
      for (const event of sessionEvents(seed)) {
        now += 2000;
        const report: EmotionReport = GAME_EVENTS.has(event.type)
          ? appraiser.perceive(event as GameEvent).report
          : appraiser.report();
        const emotions: EmotionalStateInput = report;
        const r = planBehaviour(setup, { event, emotions, toggles: setup.settings.toggles, state, rng, nowMs: now });
        state = r.state;
        commands.push(...r.plan.commands);
      }
    }
    const shown = commands.flatMap((c) =>
      c.kind === 'posture' && c.cause !== 'rest' && c.cause !== 'animation' ? [c.cause] : [],
    );
    expect(shown.length).toBeGreaterThan(0);
    expect(commands.some((c) => c.kind === 'speech')).toBe(true);
  });
});

// Plays a parsed scenario through a character on a manual clock: what `parceiro appraise` prints and
// what tests check. Deterministic: the same scenario and character always give the same reports.

import type { Seat } from '../game/index.js';
import type { AppraisalResult } from './appraise.js';
import { Appraiser } from './appraiser.js';
import type { Character } from './character.js';
import { manualClock } from './clock.js';
import type { EmotionReport } from './report.js';
import type { ScenarioStep } from './scenario.js';

export interface ScenarioOutcome {
  step: ScenarioStep;
  /** The appraisal of the step's event; null for a wait. */
  result: AppraisalResult | null;
  /** What the character feels after the step. */
  report: EmotionReport;
}

export function runScenario(
  character: Character,
  steps: readonly ScenarioStep[],
  options: { seat: Seat },
): ScenarioOutcome[] {
  const clock = manualClock(0);
  const appraiser = new Appraiser(character, { seat: options.seat, clock });
  return steps.map((step) => {
    clock.set(step.atMs);
    if (!step.perception) return { step, result: null, report: appraiser.report() };
    const { report, ...result } = appraiser.perceive(
      step.perception.event,
      step.perception.beliefs,
      step.perception.surprise,
    );
    return { step, result, report };
  });
}

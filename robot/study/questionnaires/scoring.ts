// Scores from answers, as each scale defines it: the mean of its items, a reverse-scored item counted
// as min + max - answer. A scale with an item not answered (or not a number of its scale) has no
// score: a mean over fewer items would not be the questionnaire's score.

import type { Questionnaire } from './definition.js';
import type { QuestionnaireLookup } from './definition.js';
import { loadQuestionnaire } from './definition.js';

/** Each scale's score of `answers` to `q`; scales missing an item are left out. */
export function scoreQuestionnaire(
  q: Questionnaire,
  answers: Readonly<Record<string, unknown>>,
): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const [scale, s] of Object.entries(q.scales)) {
    let sum = 0;
    let complete = true;
    for (const item of s.items) {
      const v = answers[item];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < s.min || v > s.max) {
        complete = false;
        break;
      }
      sum += s.reverse.includes(item) ? s.min + s.max - v : v;
    }
    if (complete) scores[scale] = sum / s.items.length;
  }
  return scores;
}

/**
 * The scores of one participant's answers to questionnaire `questionnaireId` (by scale name: trust14's
 * `trust` in percent, godspeed's five scales from 1 to 5). The definition is the study's own when
 * `lookup.studyDir` has one, else the shipped one. Throws ConfigError for a bad or missing definition.
 */
export function scoreAnswers(
  questionnaireId: string,
  answers: Readonly<Record<string, unknown>>,
  lookup: QuestionnaireLookup = {},
): Record<string, number> {
  return scoreQuestionnaire(loadQuestionnaire(questionnaireId, lookup), answers);
}

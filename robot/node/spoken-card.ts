// The robot has no arms: it shows its card on the table and, when speech is on, says it. The planner
// speaks at the robot's own plays only by chance and sometimes without naming the card ("Corto!"),
// so the node plans with a library whose lines for the robot's own plays all name the card, and marks
// those categories always spoken. The planner itself is unchanged (behaviours/ is not the robot's).

import type { BehaviourSetup } from '../../behaviours/index.js';

/** The categories of the robot's own plays (behaviours/planner.ts, topicOf). */
const OWN_PLAY = ['playing', 'play.self'] as const;

const ownPlay = (category: string): boolean => OWN_PLAY.some((k) => category === k || category.startsWith(`${k}.`));

export function withSpokenCard(setup: BehaviourSetup): BehaviourSetup {
  const lines = setup.utterances.lines.filter((l) => !ownPlay(l.category) || l.text.includes('{card}'));
  const always = [...new Set([...setup.settings.selection.always, ...OWN_PLAY])];
  return {
    ...setup,
    utterances: { ...setup.utterances, lines },
    settings: { ...setup.settings, selection: { ...setup.settings.selection, always } },
  };
}

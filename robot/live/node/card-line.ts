// The line that names the robot's card at a physical deal, when the robot asks for it to be put on
// its spot and the planner found none to say: just the card, as people at a table do ("Ás de espadas.").

import type {
  BehaviourCommand,
  BehaviourPlan,
  BehaviourSetup,
  BehaviourState,
  Moment,
  PlannedUtterance,
  UtteranceCategory,
} from '../../../behaviours/index.js';
import { cardPhrase, rememberSaid } from '../../../behaviours/index.js';
import type { Card, Seat, Suit } from '../../../game/index.js';
import { suitOf } from '../../../game/index.js';

/** The category the planner gives the robot's own play (behaviours/planner.ts, topicOf). */
export function ownPlayCategory(
  card: Card,
  trick: readonly Card[],
  trump: Suit | null,
  forced: boolean,
): UtteranceCategory {
  if (forced) return 'playing.forced';
  if (trick.length <= 1) return 'playing.new-trick';
  if (suitOf(card) === suitOf(trick[0]!)) return 'playing.following';
  return suitOf(card) === trump ? 'playing.cut' : 'playing.not-following';
}

/**
 * The plan, with a line naming `card` added when speech is on and no line of the plan names it; the
 * planner's speech memory is told, so its next line waits for this one.
 */
export function withCardSaid(
  setup: BehaviourSetup,
  plan: BehaviourPlan,
  state: BehaviourState,
  o: {
    card: Card;
    category: UtteranceCategory;
    speech: boolean;
    nowMs: number;
    /** Said however long the voice is busy (the robot's announcement after a physical deal). */
    always?: boolean;
    /** The moment the line goes stale (moment.ts): once the card after it is down. */
    until: Moment;
    /** The robot's seat, and the moment its card brought the session to (the line is about that play). */
    seat: Seat;
    moment: Moment;
  },
): { plan: BehaviourPlan; state: BehaviourState } {
  const phrase = cardPhrase(setup.utterances, o.card);
  const named = plan.commands.some(
    (c) => c.kind === 'speech' && c.utterance.text.toLowerCase().includes(phrase.toLowerCase()),
  );
  if (!o.speech || named) return { plan, state };
  const sel = setup.settings.selection;
  const text = `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
  const memory = state.speech;
  const atMs = Math.max(o.nowMs + sel.reactionMs, memory.busyUntilMs === null ? 0 : memory.busyUntilMs + sel.gapMs);
  // Like the planner's lines: one that would wait too long behind others is left out, or the robot
  // would still be naming cards long after they were played (the table shows them anyway).
  if (!o.always && atMs - (o.nowMs + sel.reactionMs) > sel.maxDelayMs) return { plan, state };
  const utterance: PlannedUtterance = {
    id: 'card#robot',
    category: o.category,
    text,
    language: setup.utterances.language,
    to: 'all',
    addressee: null,
    estimatedMs: Math.round(sel.estimate.baseMs + sel.estimate.msPerChar * [...text].length),
    until: o.until,
    about: { event: 'play', seat: o.seat, moment: o.moment, emotion: null },
  };
  const line = {
    id: utterance.id,
    category: o.category,
    text,
    to: 'all' as const,
    emotions: [],
    gaze: 'play-area' as const,
    animation: null,
  };
  const command: BehaviourCommand = { kind: 'speech', atMs, utterance };
  const commands = [...plan.commands, command].sort((a, b) => a.atMs - b.atMs);
  return {
    plan: { ...plan, commands },
    state: { ...state, speech: rememberSaid(memory, line, atMs, atMs + utterance.estimatedMs, { until: o.until }) },
  };
}

/** The plan without the lines that name `card`: it was said already, when the robot announced it. */
export function withoutCardLines(setup: BehaviourSetup, plan: BehaviourPlan, card: Card): BehaviourPlan {
  const phrase = cardPhrase(setup.utterances, card).toLowerCase();
  const commands = plan.commands.filter((c) => c.kind !== 'speech' || !c.utterance.text.toLowerCase().includes(phrase));
  return commands.length === plan.commands.length ? plan : { ...plan, commands };
}

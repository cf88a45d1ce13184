// The one list of topics: name, message type and QoS. Game state and the behaviour toggles are latched
// (a late subscriber, such as a dashboard that opens mid-game, gets the last value at once); events are
// reliable and kept in order. Names follow ROS 2 conventions, and ROS4HRI where it has one. The topics
// behaviours publish on are named in behaviours/topics.ts (behaviours may not import robot/), and
// taken from there.

import { TOPICS as BEHAVIOUR_TOPICS } from '../../behaviours/index.js';
import type { MessageOf, MessageSpec } from './spec.js';
import {
  BehaviourTogglesMsg,
  ConnectionStateMsg,
  LanguageMsg,
  SessionControlMsg,
  WizardExpressionMsg,
  GameReviewMsg,
  PredictionMsg,
  MemoryMsg,
  WizardSayMsg,
  DecisionMsg,
  ExpectationMsg,
  EmotionalStateMsg,
  ExpressionMsg,
  GameEventMsg,
  GameStateMsg,
  JointTrajectoryMsg,
  PointStampedMsg,
  SayMsg,
  TableEventMsg,
  TableOutputMsg,
  UtteranceMsg,
} from './messages.js';

export interface Qos {
  reliability: 'reliable' | 'best-effort';
  /** transient-local: the last `depth` messages are kept for late subscribers (ROS 2 "latched"). */
  durability: 'volatile' | 'transient-local';
  depth: number;
}

const LATCHED: Qos = { reliability: 'reliable', durability: 'transient-local', depth: 1 };
export const EVENTS: Qos = { reliability: 'reliable', durability: 'volatile', depth: 100 };
/** Latched, one message per part (the tables and the robot each report their own connection). */
const LATCHED_PARTS: Qos = { reliability: 'reliable', durability: 'transient-local', depth: 16 };

export interface TopicSpec<S extends MessageSpec = MessageSpec> {
  readonly name: string;
  readonly message: S;
  readonly qos: Qos;
  readonly description: string;
}

const topic = <S extends MessageSpec>(name: string, message: S, qos: Qos, description: string): TopicSpec<S> => ({
  name,
  message,
  qos,
  description,
});

export const TOPICS = {
  tableEvents: topic('/parceiro/table/events', TableEventMsg, EVENTS, 'validated events from the touch table'),
  tableOutput: topic(
    '/parceiro/table/output',
    TableOutputMsg,
    EVENTS,
    "the robot's plays, prompts and rejections for the table",
  ),
  gameState: topic('/parceiro/game/state', GameStateMsg, LATCHED, 'the session and game state'),
  gameEvents: topic('/parceiro/game/events', GameEventMsg, EVENTS, 'deals, plays, tricks, game and session ends'),
  decision: topic('/parceiro/decision', DecisionMsg, EVENTS, "the robot's decisions with their beliefs"),
  expectation: topic(
    '/parceiro/expectation',
    ExpectationMsg,
    EVENTS,
    "the quick estimates behind the appraisal between the robot's decisions (recorded, so a replay uses them)",
  ),
  emotions: topic('/parceiro/emotions', EmotionalStateMsg, LATCHED, "the robot's emotions and mood"),
  expression: topic(BEHAVIOUR_TOPICS.expression, ExpressionMsg, EVENTS, 'the facial expression (ROS4HRI)'),
  posture: topic(
    BEHAVIOUR_TOPICS.jointTrajectory,
    JointTrajectoryMsg,
    EVENTS,
    'EMYS joint targets with the time to reach them',
  ),
  lookAt: topic(BEHAVIOUR_TOPICS.lookAt, PointStampedMsg, EVENTS, 'where the robot looks, in its own frame'),
  say: topic(BEHAVIOUR_TOPICS.say, SayMsg, EVENTS, "text for the robot's own text-to-speech"),
  utterance: topic(
    BEHAVIOUR_TOPICS.utterance,
    UtteranceMsg,
    EVENTS,
    'what the robot says: start, end, or dropped with a reason',
  ),
  toggles: topic(BEHAVIOUR_TOPICS.toggles, BehaviourTogglesMsg, LATCHED, 'the behaviour toggles in force'),
  setToggles: topic('/parceiro/behaviours/set_toggles', BehaviourTogglesMsg, EVENTS, 'requests to change the toggles'),
  language: topic('/parceiro/behaviours/language', LanguageMsg, LATCHED, 'the language the robot speaks'),
  setLanguage: topic('/parceiro/behaviours/set_language', LanguageMsg, EVENTS, 'requests to change the language'),
  sessionControl: topic('/parceiro/session/control', SessionControlMsg, EVENTS, "the operator's pause and resume"),
  wizardSay: topic('/parceiro/wizard/say', WizardSayMsg, EVENTS, 'wizard of Oz: say this line now'),
  wizardExpression: topic(
    '/parceiro/wizard/expression',
    WizardExpressionMsg,
    EVENTS,
    'wizard of Oz: show this expression now',
  ),
  review: topic(
    '/parceiro/review',
    GameReviewMsg,
    EVENTS,
    'the end-of-game review, with all cards in view (recorded, so a replay tells the same one)',
  ),
  prediction: topic(
    '/parceiro/prediction',
    PredictionMsg,
    EVENTS,
    "the robot's prediction of another seat's next card, then the card and its surprise (recomputed by a replay)",
  ),
  memory: topic(
    '/parceiro/memory',
    MemoryMsg,
    LATCHED,
    'what the robot recalled of the played cards at its last decision, at a level of play below full (recorded, replayed)',
  ),
  connections: topic(
    '/parceiro/connections',
    ConnectionStateMsg,
    LATCHED_PARTS,
    'which tables and robot are connected',
  ),
} as const;

export type TopicKey = keyof typeof TOPICS;
/** The message carried by a topic, by key. */
export type TopicMessage<K extends TopicKey> = MessageOf<(typeof TOPICS)[K]['message']>;

export const ALL_TOPICS: readonly TopicSpec[] = Object.values(TOPICS);
export const topicByName = (name: string): TopicSpec | undefined => ALL_TOPICS.find((t) => t.name === name);

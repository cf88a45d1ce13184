// Every message that crosses the bus. Our own live in the ROS 2 interface package `parceiro_msgs`
// (robot/parceiro_msgs/msg/*.msg, checked against these specs by test/robot/bus.test.ts); standard
// ones (std_msgs, geometry_msgs, trajectory_msgs, ROS4HRI's hri_msgs) are described here only as far
// as we fill them in. Conventions: seats are int8 with -1 for "none", cards are strings in card
// notation ("AS", "7H") with "" for "none", enumerations are lower-case strings.

import type { MessageOf } from './spec.js';
import { defineMessage, nested } from './spec.js';

// ---- standard messages ---------------------------------------------------------------------------

const TimeMsg = defineMessage('builtin_interfaces/msg/Time', 'A point in time.', {
  sec: 'int32',
  nanosec: 'uint32',
});
const DurationMsg = defineMessage('builtin_interfaces/msg/Duration', 'A span of time.', {
  sec: 'int32',
  nanosec: 'uint32',
});
const HeaderMsg = defineMessage('std_msgs/msg/Header', 'Time stamp and coordinate frame.', {
  stamp: nested(TimeMsg),
  frame_id: 'string',
});
const PointMsg = defineMessage('geometry_msgs/msg/Point', 'A point in space (m).', {
  x: 'float64',
  y: 'float64',
  z: 'float64',
});
export const PointStampedMsg = defineMessage('geometry_msgs/msg/PointStamped', 'A point with a frame.', {
  header: nested(HeaderMsg),
  point: nested(PointMsg),
});
/** ROS4HRI (REP-155) facial expression: neutral, happy, sad, angry, surprised, scared, disgusted... */
export const ExpressionMsg = defineMessage('hri_msgs/msg/Expression', 'A facial expression (ROS4HRI).', {
  header: nested(HeaderMsg),
  expression: 'string',
  valence: 'float32',
  arousal: 'float32',
  confidence: 'float32',
});
const JointTrajectoryPointMsg = defineMessage(
  'trajectory_msgs/msg/JointTrajectoryPoint',
  'Joint targets reached at time_from_start.',
  {
    positions: 'float64[]',
    velocities: 'float64[]',
    accelerations: 'float64[]',
    effort: 'float64[]',
    time_from_start: nested(DurationMsg),
  },
);
export const JointTrajectoryMsg = defineMessage('trajectory_msgs/msg/JointTrajectory', 'Joint targets over time.', {
  header: nested(HeaderMsg),
  joint_names: 'string[]',
  points: nested(JointTrajectoryPointMsg, true),
});

// ---- parceiro_msgs -------------------------------------------------------------------------------

export const TableEventMsg = defineMessage(
  'parceiro_msgs/msg/TableEvent',
  'An event from the touch table, validated and mapped to cards by the table bridge.',
  {
    table_id: 'string',
    seq: ['uint32', "The table's own sequence number, so a resent event is not applied twice."],
    kind: [
      'string',
      'card_detected, card_removed, control, hello (a table joined: seats, table_name, table_kind) or disconnect (reason).',
    ],
    zone: ['string', 'hand or play (card events); "" otherwise.'],
    seat: 'int8',
    fiducial: ['int32', 'The fiducial id the table saw, -1 when the table named the card itself.'],
    card: 'string',
    action: ['string', 'For control events: new_game, pause, resume.'],
    dealer: 'int8',
    trump_card: 'string',
    seats: ['int8[]', 'hello: the seats the table hosts; empty otherwise.'],
    table_name: ['string', 'hello: the table\'s name and kind (touch, virtual, simulated); "" otherwise.'],
    table_kind: 'string',
    reason: ['string', 'disconnect: why the connection went away; refused_again: the refusal\'s reason; "" otherwise.'],
    event: [
      'string',
      "refused_again (kind): copies of one event, sent again and again under new seqs while nothing changed, refused like the first one by the table bridge and recorded as one message: the event's name (card:detected, card:removed, game:control; its fields as a card or control event would have them, `seq` the last copy's), the refusal's code, how many copies and the first one's seq.",
    ],
    code: 'string',
    repeats: 'uint32',
    first_seq: 'uint32',
  },
);

export const TableOutputMsg = defineMessage(
  'parceiro_msgs/msg/TableOutput',
  "What the runtime tells the table: the robot's play, prompts and rejections.",
  {
    kind: ['string', 'robot_play, prompt or rejected.'],
    seat: 'int8',
    card: 'string',
    code: ['string', 'A machine-readable reason (rejected), e.g. out_of_turn.'],
    text: ['string', 'A human-readable text: the prompt or the reason.'],
  },
);

export const GameStateMsg = defineMessage(
  'parceiro_msgs/msg/GameState',
  'The whole state of the session and game (latched).',
  {
    session_id: 'string',
    game: ['uint32', 'Games played so far in the session, the current one included.'],
    games: 'uint32',
    status: ['string', 'waiting, dealing, playing, game_over, session_over, paused.'],
    robot_seat: 'int8',
    dealer: 'int8',
    trump_card: 'string',
    trick: 'int8',
    leader: 'int8',
    to_move: 'int8',
    table: ['string[]', 'The cards of the current trick, from the leader on.'],
    points: 'int32[2]',
    victories: 'int32[2]',
    robot_hand: 'string[]',
  },
);

export const GameEventMsg = defineMessage(
  'parceiro_msgs/msg/GameEvent',
  'A game event: deal, play, trick, end, renounce, session end.',
  {
    type: ['string', 'deal, play, trick, end, renounce, session_end.'],
    game: 'uint32',
    seat: 'int8',
    card: 'string',
    trick: 'int8',
    leader: 'int8',
    cards: 'string[]',
    winner: 'int8',
    points: 'int32',
    final_points: 'int32[2]',
    winner_team: ['string', 'a, b, draw or "" while playing.'],
    victories: 'int32[2]',
  },
);

const MoveBeliefMsg = defineMessage(
  'parceiro_msgs/msg/MoveBelief',
  "One legal card's value over the worlds searched.",
  {
    card: 'string',
    mean: 'float32',
    sd: 'float32',
    win_probability: 'float32',
  },
);

export const DecisionMsg = defineMessage(
  'parceiro_msgs/msg/Decision',
  "The robot's decision and the beliefs behind it.",
  {
    seat: 'int8',
    card: 'string',
    moves: nested(MoveBeliefMsg, true),
    worlds: 'uint32',
    nodes: 'float64',
    time_ms: 'float32',
    win_probability: 'float32',
    exact_from_trick: 'int8',
    fallback: ['string', '"", rule or forced.'],
    explanation: 'string',
    inference_trust: [
      'float32',
      'How far the other seats were believed to play like the rule-based player (0..1); -1: worlds drawn uniformly.',
    ],
    inference_candidates: [
      'uint32',
      "Candidate worlds drawn and weighed by the other seats' plays; 0 without inference.",
    ],
    inference_effective: [
      'float32',
      'How many equally weighted worlds the weights amount to (few: the plays point at few deals); -1 without inference.',
    ],
    objective: [
      'string',
      'What the cards were ranked by: victories (expected victories, then points) or points; "" as points (recorded before).',
    ],
    points_from: [
      'string',
      "How each world's points were found: exact (the solver's value) or bounds (the middle of a victory-class proof's bounds); \"\" as exact.",
    ],
    move_victories: [
      'float32[]',
      "Each card's expected victories of the robot's team, in the order of moves (signed: 1, 2 or 4 a game); empty when not valued.",
    ],
    reason_kind: [
      'string',
      'Why the card rather than the next best (game/explain): partner-ruffs, keeps-master-trump, draws-trumps, points-to-partner, takes-trick, saves-points, better-odds, more-points or close-call; "" when none was found.',
    ],
    reason_other: ['string', 'The next best card the reason compares with; "" with no reason.'],
    reason_support: ['float32', 'Share of the worlds that bear the reason out (0..1); -1 with no reason.'],
    reason_points: ['int32', 'The points the reason is about (given to the partner, taken, saved); -1 when none.'],
    reason_suit: ['string', 'The suit it is about (S, H, D, C: the partner\'s void, trumps); "" when none.'],
    reason_kept: ['string', 'The trump kept for later (keeps-master-trump); "" otherwise.'],
  },
);

export const ExpectationMsg = defineMessage(
  'parceiro_msgs/msg/Expectation',
  "A quick estimate of the robot team's final points, feeding the appraisal between the robot's decisions.",
  {
    status: ['string', 'ok, none (not one world fitted the budget) or failed.'],
    expected_points: ['float64', "The robot team's expected final points; -1 unless ok."],
    win_probability: ['float64', "Probability that the robot's team wins the game; -1 unless ok."],
    detail: ['string', 'Why it failed; "" otherwise.'],
    event_index: [
      'int32',
      'The event whose position was estimated: its index among the game events the robot reacted to this session, from 0.',
    ],
    at_event: [
      'int32',
      'The last event reacted to when the estimate came back: where it took effect in the event order (a replay checks it).',
    ],
    applied: [
      'bool',
      'Whether the appraisal took it: not when it failed or found no world, nor when a newer expectation had overtaken it.',
    ],
    choice: [
      'float32',
      'After a play: the share of the worlds in which its player had another card it could play (praise and blame need a choice); -1 otherwise.',
    ],
    points_se: [
      'float64',
      'The standard errors of expected_points and win_probability as estimates from sampled worlds (the appraisal takes smaller changes as noise); -1 unless ok.',
    ],
    win_se: 'float64',
  },
);

export const PredictionMsg = defineMessage(
  'parceiro_msgs/msg/Prediction',
  "The robot's prediction of another seat's next card from what the robot's seat can see (game/predict), and once the card is down how surprising it was.",
  {
    game: ['uint32', 'The game of the session (1-based) and the trick (0-based).'],
    trick: 'int8',
    seat: ['int8', 'The seat to play.'],
    model: ['string', 'The model of the seat: uniform, legal, rule, expert or tom1.'],
    phase: [
      'string',
      'predicted: before the card; played: the card is down (played, probability, rank and surprise set).',
    ],
    cards: ['string[]', 'The most likely cards, most likely first, and their probabilities.'],
    probabilities: 'float64[]',
    possible: ['uint8', 'How many cards the seat might play, as far as the robot knows.'],
    played: ['string', 'The card played; "" before.'],
    probability: ['float64', 'The probability the prediction gave it; -1 before.'],
    rank: ['int8', 'Its place among the cards by probability (1: the most likely); -1 before.'],
    surprise: [
      'float64',
      "1 - probability / the most likely card's probability: 0 expected .. 1 not at all; -1 before.",
    ],
  },
);

const ReviewMomentMsg = defineMessage(
  'parceiro_msgs/msg/ReviewMoment',
  'One play that changed a game with all cards in view.',
  {
    play: ['uint8', "Index of the card among the game's plays, from 0."],
    trick: ['int8', 'The trick, from 0.'],
    seat: 'int8',
    card: 'string',
    better: ['string', 'A card the seat held that kept the value for its team; "" for a renounce.'],
    points_before: [
      'int32',
      "Team A's final points with best play by everyone, before the card (what `better` keeps) and after it; -1 for a renounce.",
    ],
    points_after: 'int32',
  },
);

export const GameReviewMsg = defineMessage(
  'parceiro_msgs/msg/GameReview',
  'The end-of-game review: the game looked back on with all cards in view (game/explain/review.ts).',
  {
    game: 'uint32',
    status: ['string', 'reviewed, renounce, incomplete, or failed.'],
    dealt_points: ['int32', "Team A's final points with best play from the deal; -1 unless reviewed."],
    final_points: ['int32', "Team A's final points as played; -1 unless reviewed."],
    changes: ['uint32', "Plays that changed the value (each worse than its player's best, in hindsight)."],
    values: [
      'int32[]',
      "Team A's final points with best play before each card, and as played after the last (41 values; empty unless reviewed).",
    ],
    moments: [
      nested(ReviewMomentMsg, true),
      'The moments that changed the outcome most (up to three), in the order they were played.',
    ],
    nodes: ['float64', 'Solver nodes the review took.'],
    detail: ['string', 'Why it failed; "" otherwise.'],
  },
);

export const MemoryMsg = defineMessage(
  'parceiro_msgs/msg/Memory',
  'What the robot recalled of the played cards at one of its decisions, at a level of play below full (game/memory).',
  {
    game: ['uint32', 'The game (0-based) and the trick of the decision (0-based).'],
    trick: 'int8',
    level: [
      'string',
      'The level of play: beginner, casual, club or expert (full forgets nothing and publishes nothing).',
    ],
    threshold: [
      'float32',
      "The memory's retrieval threshold and activation noise: a card is recalled when its activation plus the noise is above the threshold.",
    ],
    noise: 'float32',
    played: ['string[]', 'The cards played in the earlier tricks, in the order played, and who played each.'],
    seats: 'int8[]',
    recalled: [
      'bool[]',
      'For each played card: recalled at this decision (the turned-up trump card always is: everyone watched it).',
    ],
    activations: ['float32[]', 'For each played card: its base-level activation now, without the noise.'],
    forgotten: ['string[]', 'The played cards it did not recall: it may believe any of them is still in a hand.'],
    voids: [
      'string[]',
      'Voids shown in the earlier tricks (seat and suit, e.g. "1H": seat 1 has no hearts) it recalls, and those it does not.',
    ],
    forgotten_voids: 'string[]',
  },
);

const EmotionMsg = defineMessage('parceiro_msgs/msg/Emotion', 'One active emotion.', {
  type: ['string', 'An OCC emotion type: joy, distress, happy-for, gloating...'],
  intensity: 'float32',
  target: ['int8', 'The seat the emotion is about, -1 for none or for a team.'],
  target_team: [
    'string',
    'team (the robot and its partner) or opponents when the emotion is about a team; "" otherwise.',
  ],
});

export const EmotionalStateMsg = defineMessage(
  'parceiro_msgs/msg/EmotionalState',
  "The robot's active emotions and mood (latched).",
  {
    emotions: nested(EmotionMsg, true),
    mood: 'float32',
    strongest: 'string',
    at_ms: [
      'float64',
      "When the appraisal ran (ms on the node's clock): decay depends on it, so a replay runs it at this time.",
    ],
  },
);

export const UtteranceMsg = defineMessage(
  'parceiro_msgs/msg/Utterance',
  'A line the robot says: when it is queued, starts and ends, or why it was dropped.',
  {
    phase: ['string', 'queued (planned: it waits for its time or its turn), start, end or dropped.'],
    id: 'string',
    category: 'string',
    text: 'string',
    language: 'string',
    target: ['string', 'partner, opponent or all.'],
    addressee: 'int8',
    backend: ['string', 'The speech backend that spoke it (after any fallback to the log).'],
    reason: ['string', 'Why a dropped line was dropped; "" otherwise.'],
    event: ['string', "The event the line reacts to (play, trick, end, deal, ...; operator for the operator's lines)."],
    about_seat: [
      'int8',
      'The seat that event is about (who played, took the trick, renounced); -1 for the whole table.',
    ],
    moment: [
      'int32',
      "Where the session was at that event (game x 64 + cards played; 41 the game's end); -1 for none.",
    ],
    emotion: [
      'string',
      'The emotional subcategory the line was chosen for (happy, happy-for, gloating, ...); "" for a plain line.',
    ],
    due_in_ms: [
      'int32',
      'queued: in how long the line is planned to start (ms; 0: now, or as soon as the voice is free); -1 otherwise.',
    ],
    audience: [
      'string',
      'A line to the opponents: one (to the addressee) or both (the addressee is the one it is about); "" otherwise.',
    ],
  },
);

export const SayMsg = defineMessage('parceiro_msgs/msg/Say', "Text for the robot's own text-to-speech.", {
  text: 'string',
  language: ['string', 'BCP 47 language tag, e.g. pt.'],
  id: 'string',
});

export const BehaviourTogglesMsg = defineMessage(
  'parceiro_msgs/msg/BehaviourToggles',
  'Which behaviours are on, and how expressive the robot is.',
  {
    speech: 'bool',
    postures: 'bool',
    gaze: 'bool',
    partner_speech: 'bool',
    opponent_speech: 'bool',
    expressiveness: 'float32',
    changed: ['string[]', 'The toggles this message changed (snake_case names); empty for a plain snapshot.'],
    by: ['string', 'Who changed them: operator, config, ...'],
  },
);

export const SessionControlMsg = defineMessage(
  'parceiro_msgs/msg/SessionControl',
  'An operator request to pause or resume the session.',
  {
    action: [
      'string',
      'pause or resume; next_session: start the next session of a node serving one after another (parceiro live), once this one is over.',
    ],
    by: ['string', 'Who asked: operator, ...'],
  },
);

export const LanguageMsg = defineMessage(
  'parceiro_msgs/msg/Language',
  'The language the robot speaks: a request (set_language) or the one in force (language, latched).',
  {
    language: ['string', 'BCP 47 language tag: pt or en.'],
    by: 'string',
  },
);

export const WizardSayMsg = defineMessage(
  'parceiro_msgs/msg/WizardSay',
  'Wizard of Oz: the operator asks the robot to say a line now.',
  {
    text: 'string',
    language: ['string', 'BCP 47 language tag; "" for the language in force.'],
    utterance_id: ['string', 'The utterance library id when the line was chosen from it; "" for free text.'],
    target: ['string', 'partner, opponent or all.'],
    by: 'string',
  },
);

export const WizardExpressionMsg = defineMessage(
  'parceiro_msgs/msg/WizardExpression',
  'Wizard of Oz: the operator asks the robot to show an expression now.',
  {
    expression: ['string', 'neutral, happy, sad, angry, surprised, scared or disgusted (ROS4HRI names).'],
    intensity: ['float32', '0..1.'],
    by: 'string',
  },
);

export const ConnectionStateMsg = defineMessage(
  'parceiro_msgs/msg/ConnectionState',
  'Whether a part of the setup is connected: a table, the robot (latched, one per part).',
  {
    component: ['string', 'table or robot.'],
    id: 'string',
    name: 'string',
    kind: ['string', 'touch, virtual, simulated (tables); in-process, ros2 (robot).'],
    connected: 'bool',
    detail: ['string', 'Why it went away, or what it hosts.'],
  },
);

/**
 * Fields added to a message after recordings were made with it, with the value an older recording
 * is read with (robot/recording/reader.ts), so that old recordings still read and replay.
 */
export const FIELDS_ADDED_LATER: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  // Before the reactions applied estimates as they came back (they awaited each one): where each
  // took effect was not recorded, and every one was taken.
  // Before the estimates said how noisy they were.
  [ExpectationMsg.type]: { event_index: -1, at_event: -1, applied: true, choice: -1, points_se: -1, win_se: -1 },
  // Before the robot weighed its worlds by the other seats' plays, it drew them uniformly; before it
  // played for victories, it ranked cards by exact expected points.
  [DecisionMsg.type]: {
    inference_trust: -1,
    inference_candidates: 0,
    inference_effective: -1,
    objective: '',
    points_from: '',
    move_victories: [],
    reason_kind: '',
    reason_other: '',
    reason_support: -1,
    reason_points: -1,
    reason_suit: '',
    reason_kept: '',
  },
  // Before lines said what they react to; before a line was announced when queued (due_in_ms); before
  // a line to the opponents said whether it spoke to one or both (audience: unknown).
  [UtteranceMsg.type]: { event: '', about_seat: -1, moment: -1, emotion: '', due_in_ms: -1, audience: '' },
  // Before refused copies of an event were recorded in batches (each was a table event of its own).
  [TableEventMsg.type]: { event: '', code: '', repeats: 0, first_seq: 0 },
};

/** Our own messages: the interface package holds exactly these. */
export const PARCEIRO_MESSAGES = [
  TableEventMsg,
  TableOutputMsg,
  GameStateMsg,
  GameEventMsg,
  MoveBeliefMsg,
  DecisionMsg,
  ExpectationMsg,
  EmotionMsg,
  EmotionalStateMsg,
  UtteranceMsg,
  SayMsg,
  BehaviourTogglesMsg,
  SessionControlMsg,
  LanguageMsg,
  WizardSayMsg,
  WizardExpressionMsg,
  ConnectionStateMsg,
  ReviewMomentMsg,
  GameReviewMsg,
  PredictionMsg,
  MemoryMsg,
] as const;

export type TableEvent = MessageOf<typeof TableEventMsg>;
export type TableOutput = MessageOf<typeof TableOutputMsg>;
export type GameStateMessage = MessageOf<typeof GameStateMsg>;
export type GameEventMessage = MessageOf<typeof GameEventMsg>;
export type DecisionMessage = MessageOf<typeof DecisionMsg>;
export type ExpectationMessage = MessageOf<typeof ExpectationMsg>;
export type EmotionalStateMessage = MessageOf<typeof EmotionalStateMsg>;
export type UtteranceMessage = MessageOf<typeof UtteranceMsg>;
export type SayMessage = MessageOf<typeof SayMsg>;
export type BehaviourTogglesMessage = MessageOf<typeof BehaviourTogglesMsg>;
export type SessionControlMessage = MessageOf<typeof SessionControlMsg>;
export type LanguageMessage = MessageOf<typeof LanguageMsg>;
export type WizardSayMessage = MessageOf<typeof WizardSayMsg>;
export type GameReviewMessage = MessageOf<typeof GameReviewMsg>;
export type PredictionMessage = MessageOf<typeof PredictionMsg>;
export type MemoryMessage = MessageOf<typeof MemoryMsg>;
export type WizardExpressionMessage = MessageOf<typeof WizardExpressionMsg>;
export type ConnectionStateMessage = MessageOf<typeof ConnectionStateMsg>;
export type ExpressionMessage = MessageOf<typeof ExpressionMsg>;
export type PointStampedMessage = MessageOf<typeof PointStampedMsg>;
export type JointTrajectoryMessage = MessageOf<typeof JointTrajectoryMsg>;
export type HeaderMessage = MessageOf<typeof HeaderMsg>;

/** A header stamped at `ms` (milliseconds since the epoch, from the injected clock). */
export const headerAt = (ms: number, frameId = ''): HeaderMessage => ({
  stamp: { sec: Math.floor(ms / 1000), nanosec: Math.round((ms % 1000) * 1e6) },
  frame_id: frameId,
});

// The behaviour planner: one event, the emotions it raised, the player's beliefs, the toggles and the
// planner's state in; a timed list of posture, gaze and speech commands and the next state out.
// Pure apart from drawing from the rng it is given, so the same inputs and seed give the same plan.

import type { Beliefs, Card, Rng, Seat } from '../game/index.js';
import { RANKS, nextSeat, partnerOf, pointsOf, rankOf, suitOf, teamName, teamOf } from '../game/index.js';
import type { BehaviourSettings } from './behaviour-settings.js';
import { isAlwaysSpoken, speakProbability } from './behaviour-settings.js';
import type { BehaviourCommand, BehaviourPlan, PlannedUtterance } from './commands.js';
import type { EmotionInput, EmotionalStateInput } from './emotion-input.js';
import type { BehaviourEvent } from './events.js';
import type { Moment } from './moment.js';
import { momentAfter, usefulUntil } from './moment.js';
import { describeGazeTarget, gazeAt } from './gaze.js';
import type { GazeTarget } from './gaze.js';
import type { PostureLibrary } from './posture-config.js';
import { emotionPosture, expressionPosture, restPosture } from './postures.js';
import type { BehaviourState } from './state.js';
import type { TableGeometry } from './table-geometry.js';
import type { Toggles } from './toggles.js';
import type { SlotValues } from './utterances.js';
import { cardPhrase, matchingLines, rankPhrase, rememberSaid, renderUtterance, selectUtterance, suitPhrase } from './utterances.js';
import type { GazeMark, Utterance, UtteranceCategory, UtteranceEmotion, UtteranceLibrary, UtteranceTarget } from './utterance-config.js';

/** Everything loaded from config/ that the planner reads. */
export interface BehaviourSetup {
  settings: BehaviourSettings;
  postures: PostureLibrary;
  table: TableGeometry;
  utterances: UtteranceLibrary;
}

export interface PlanInput {
  event: BehaviourEvent;
  emotions: EmotionalStateInput;
  /**
   * The robot's beliefs about its own decision, when the event is its play. Today they only tell a
   * forced card (a single legal one, `playing.forced`); hope and fear come from the appraisal.
   */
  beliefs?: Beliefs | null;
  toggles: Toggles;
  state: BehaviourState;
  rng: Rng;
  /** The time of the event on the scheduler's clock. */
  nowMs: number;
}

export interface PlanResult {
  plan: BehaviourPlan;
  state: BehaviourState;
}

type Relation = 'self' | 'partner' | 'opponent';

/** What an event gives the robot to talk about. */
interface Topic {
  event: BehaviourEvent['type'];
  category: UtteranceCategory;
  /** The seat the event is about (who played, who must shuffle); null for the whole table. */
  actor: Seat | null;
  slots: SlotValues;
  /** Lines may only address the actor (you shuffle, your turn). */
  addressActor: boolean;
  /** The robot's own play: its emotional lines (play.self) stand in for the plain ones when they fit. */
  selfPlay?: boolean;
}

export function planBehaviour(setup: BehaviourSetup, input: PlanInput): PlanResult {
  const { event, toggles, rng, nowMs } = input;
  const { settings, postures } = setup;
  const prev = input.state;
  const state = { ...advance(prev, event), moment: momentAfter(prev.moment, prev.game, event) };
  const robot = state.robotSeat;
  const commands: BehaviourCommand[] = [];
  const expressiveness = clamp01(toggles.expressiveness);
  const dominant = strongest(input.emotions.emotions, expressiveness);

  const look = (atMs: number, target: GazeTarget): void => {
    if (!toggles.gaze) return;
    commands.push({ kind: 'gaze', atMs, gaze: gazeAt(setup.table, postures.limits, robot, target), durationMs: settings.gaze.moveMs });
  };

  // Gaze follows the game (looks during a line are decided below, and take precedence).
  let gameLooks = gazeFor(state, event).map(([delay, target]) => [nowMs + (delay === 'dwell' ? settings.gaze.dwellMs : 0), target] as const);

  // The face shows the strongest emotion, if it is strong enough.
  let faceUntil: number | null = null;
  if (toggles.postures && dominant && dominant.scaled >= settings.postures.threshold) {
    const atMs = nowMs + settings.postures.reactionMs;
    const posture = emotionPosture(postures, dominant.emotion.type, dominant.emotion.intensity, expressiveness);
    commands.push({ kind: 'posture', atMs, posture, cause: dominant.emotion.type });
    faceUntil = atMs + posture.durationMs;
  }

  // Speech, if the event gives something to say and the moment allows it.
  let speech = state.speech;
  const topic = toggles.speech ? topicOf(setup.utterances, state, event, input.beliefs ?? null) : null;
  if (topic) {
    const label = dominant && dominant.scaled >= settings.selection.emotionThreshold ? (settings.selection.emotions[dominant.emotion.type] ?? null) : null;
    const spoken = speak(setup, state, topic, label, toggles, rng, nowMs, usefulUntil(event, state.moment, state.game));
    if (spoken) {
      const { utterance, line, addressee } = spoken;
      commands.push({ kind: 'speech', atMs: spoken.atMs, utterance });
      speech = rememberSaid(speech, line, spoken.atMs, spoken.atMs + utterance.estimatedMs);
      const looks = speechGaze(state, line.gaze, addressee, utterance.estimatedMs);
      if (looks.length > 0) {
        const end = spoken.atMs + utterance.estimatedMs;
        const during = gameLooks.filter(([at]) => at >= spoken.atMs && at < end);
        gameLooks = gameLooks.filter(([at]) => at < spoken.atMs || at >= end);
        for (const [offset, target] of looks) look(spoken.atMs + offset, target);
        // Back to the game when the line ends, where the game's look had meanwhile moved.
        const last = during[during.length - 1] ?? gameLooks.filter(([at]) => at < spoken.atMs).pop();
        const final = looks[looks.length - 1]![1];
        if (last && describeGazeTarget(last[1]) !== describeGazeTarget(final)) look(end, last[1]);
      }
      if (line.animation && toggles.postures) {
        const posture = expressionPosture(postures, line.animation.expression, line.animation.amount * expressiveness);
        commands.push({ kind: 'posture', atMs: spoken.atMs, posture, cause: 'animation' });
        faceUntil = Math.max(faceUntil ?? 0, spoken.atMs + Math.max(posture.durationMs, utterance.estimatedMs));
      }
    }
  }

  for (const [atMs, target] of gameLooks) look(atMs, target);

  // After an expression the head goes back to rest after a short random wait (the original: 0-6 s).
  if (faceUntil !== null) {
    const [lo, hi] = postures.timing.neutralDelayMs;
    const wait = lo + rng.int(hi - lo + 1);
    commands.push({ kind: 'posture', atMs: faceUntil + wait, posture: restPosture(postures, input.emotions.mood, expressiveness), cause: 'rest' });
  }

  commands.sort((a, b) => a.atMs - b.atMs);
  return { plan: { event: event.type, atMs: nowMs, moment: state.moment, commands }, state: { ...state, speech } };
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** The strongest emotion after expressiveness; ties keep the first. */
function strongest(emotions: readonly EmotionInput[], expressiveness: number): { emotion: EmotionInput; scaled: number } | null {
  let best: { emotion: EmotionInput; scaled: number } | null = null;
  for (const emotion of emotions) {
    const scaled = Math.min(10, Math.max(0, Number.isFinite(emotion.intensity) ? emotion.intensity : 0)) * expressiveness;
    if (scaled > 0 && (!best || scaled > best.scaled)) best = { emotion, scaled };
  }
  return best;
}

const relationOf = (robot: Seat, seat: Seat): Relation => (seat === robot ? 'self' : seat === partnerOf(robot) ? 'partner' : 'opponent');
const opponentsOf = (robot: Seat): [Seat, Seat] => [nextSeat(robot, 1), nextSeat(robot, 3)];

/** The game as far as behaviours need it, after the event. */
function advance(state: BehaviourState, event: BehaviourEvent): BehaviourState {
  switch (event.type) {
    case 'session-start': {
      const names = [0, 1, 2, 3].map((s) => event.names?.[s] ?? null);
      return { ...state, robotSeat: event.robotSeat, names, games: event.games, game: 0, dealer: null, trump: null, trick: null, points: [0, 0] };
    }
    case 'game-start':
      return { ...state, game: event.game, dealer: event.dealer, trump: null, trick: null, points: [0, 0] };
    case 'deal':
      return { ...state, dealer: event.dealer, trump: suitOf(event.trumpCard) };
    case 'play': {
      const fresh = !state.trick || state.trick.cards.length >= 4;
      return { ...state, trick: fresh ? { leader: event.seat, cards: [event.card] } : { leader: state.trick!.leader, cards: [...state.trick!.cards, event.card] } };
    }
    case 'trick': {
      const ours = teamOf(event.winner) === teamOf(state.robotSeat);
      const [us, them] = state.points;
      return { ...state, trick: null, points: ours ? [us + event.points, them] : [us, them + event.points] };
    }
    case 'end':
      return { ...state, trick: null };
    default:
      return state;
  }
}

const RANK_WORD: Partial<Record<string, 'ace' | 'seven' | 'two'>> = { A: 'ace', '7': 'seven', '2': 'two' };

function topicOf(library: UtteranceLibrary, state: BehaviourState, event: BehaviourEvent, beliefs: Beliefs | null): Topic | null {
  const robot = state.robotSeat;
  const ourTeam = teamOf(robot);
  const name = (seat: Seat): string => nameOf(library, state, seat);
  const cardSlots = (card: Card, actor: Seat): SlotValues => ({
    card: cardPhrase(library, card),
    rank: rankPhrase(library, card),
    suit: suitPhrase(library, suitOf(card)),
    player: name(actor),
    trump: state.trump === null ? '' : suitPhrase(library, state.trump),
    points: pointsOf(card),
  });
  const topic = (category: UtteranceCategory, actor: Seat | null, slots: SlotValues, addressActor = false): Topic => ({ event: event.type, category, actor, slots, addressActor });

  switch (event.type) {
    case 'session-start':
      return topic('session.start', null, { games: event.games });
    case 'session-end': {
      const ours = event.victories[ourTeam];
      const theirs = event.victories[ourTeam === 0 ? 1 : 0];
      const category = ours > theirs ? 'session.end.win' : ours < theirs ? 'session.end.loss' : 'session.end.draw';
      return topic(category, null, { victories: ours, their_victories: theirs });
    }
    case 'game-start':
      return topic('game.start', event.dealer, { game: event.game, games: state.games });
    case 'shuffling':
    case 'cutting':
    case 'dealing': {
      if (event.seat === robot) return null;
      const category = event.type === 'shuffling' ? 'shuffle' : event.type === 'cutting' ? 'cut' : 'deal';
      return topic(category, event.seat, { player: name(event.seat) }, true);
    }
    case 'reappraisal':
      return null;
    case 'turn': {
      const relation = relationOf(robot, event.seat);
      if (relation === 'self') return null;
      return topic(relation === 'partner' ? 'next-player.partner' : 'next-player.opponent', event.seat, { player: name(event.seat) }, true);
    }
    case 'deal': {
      const word = RANK_WORD[RANKS[rankOf(event.trumpCard)]!];
      if (word) return topic(`trump.${word}.${relationOf(robot, event.dealer)}`, event.dealer, cardSlots(event.trumpCard, event.dealer));
      return topic('cards.received', event.dealer, { trump: suitPhrase(library, suitOf(event.trumpCard)) });
    }
    case 'play': {
      const relation = relationOf(robot, event.seat);
      const slots = cardSlots(event.card, event.seat);
      if (relation !== 'self') return topic(relation === 'partner' ? 'play.partner' : 'play.opponent', event.seat, slots);
      const cards = state.trick!.cards;
      const led = suitOf(cards[0]!);
      // The robot's lines speak of the suit led ("No spades... I'll throw the jack of hearts"), which
      // is its card's suit only when it leads or follows.
      slots.suit = suitPhrase(library, led);
      const category: UtteranceCategory =
        beliefs?.fallback === 'forced'
          ? 'playing.forced'
          : cards.length === 1
            ? 'playing.new-trick'
            : suitOf(event.card) === led
              ? 'playing.following'
              : suitOf(event.card) === state.trump
                ? 'playing.cut'
                : 'playing.not-following';
      // play.self is the emotional variant; the planner prefers it when the emotion has lines there.
      return { ...topic(category, event.seat, slots), selfPlay: true };
    }
    case 'trick': {
      const category = event.points === 0 ? 'trick.end.zero' : teamOf(event.winner) === ourTeam ? 'trick.end.ours' : 'trick.end.theirs';
      return topic(category, event.winner, { points: event.points, player: name(event.winner) });
    }
    case 'end': {
      const [a, b] = event.points;
      const slots: SlotValues = { points: ourTeam === 0 ? a : b, their_points: ourTeam === 0 ? b : a, victories: event.outcome.victories };
      if (event.renounce) {
        const ours = teamOf(event.renounce.seat) === ourTeam;
        return topic(ours ? 'game.end.renounce.ours' : 'game.end.renounce.theirs', event.renounce.seat, { ...slots, player: name(event.renounce.seat) });
      }
      if (event.outcome.winner === 'draw') return topic('game.end.draw', null, slots);
      const won = event.outcome.winner === teamName(ourTeam);
      const size = event.outcome.victories >= 4 ? 'quadruple' : event.outcome.victories >= 2 ? 'double' : 'single';
      return topic(`game.end.${won ? 'win' : 'loss'}.${size}`, null, slots);
    }
  }
}

function nameOf(library: UtteranceLibrary, state: BehaviourState, seat: Seat): string {
  const given = state.names[seat];
  if (given) return given;
  const relation = relationOf(state.robotSeat, seat);
  return relation === 'partner' ? library.names.partner : relation === 'opponent' ? library.names.opponent : '';
}

interface Spoken {
  atMs: number;
  utterance: PlannedUtterance;
  line: Utterance;
  addressee: Seat | null;
}

function speak(setup: BehaviourSetup, state: BehaviourState, topic: Topic, label: UtteranceEmotion | null, toggles: Toggles, rng: Rng, nowMs: number, until: Moment | null): Spoken | null {
  const { settings, utterances: library } = setup;
  const sel = settings.selection;
  const robot = state.robotSeat;
  const memory = state.speech;

  const actorRelation = topic.actor === null ? null : relationOf(robot, topic.actor);
  // Lines of a category said to the actor ("your turn") are directed at them whatever their target,
  // so the actor's toggle governs all of them.
  if (topic.addressActor && ((actorRelation === 'partner' && !toggles.partnerSpeech) || (actorRelation === 'opponent' && !toggles.opponentSpeech))) return null;
  const allowed: UtteranceTarget[] = ['all'];
  const mayAddress = (t: 'partner' | 'opponent'): boolean => !topic.addressActor || actorRelation === t;
  if (toggles.partnerSpeech && mayAddress('partner')) allowed.push('partner');
  if (toggles.opponentSpeech && mayAddress('opponent')) allowed.push('opponent');

  // A play of the robot's own speaks from play.self when its emotion has lines there it may say.
  let category = topic.category;
  if (topic.selfPlay && label !== null) {
    const emotional = matchingLines(library, { category: 'play.self', emotion: label, targets: allowed });
    if (emotional.some((l) => l.emotions.includes(label))) category = 'play.self';
  }

  const always = isAlwaysSpoken(settings, category);
  const roll = rng.next();
  if (!always && roll >= speakProbability(settings, category)) return null;
  if (!always && memory.lastStartMs !== null && nowMs - memory.lastStartMs < sel.cooldownMs) return null;
  const earliest = nowMs + sel.reactionMs;
  const atMs = memory.busyUntilMs === null ? earliest : Math.max(earliest, memory.busyUntilMs + sel.gapMs);
  if (!always && atMs - earliest > sel.maxDelayMs) return null;

  const line = selectUtterance(library, { category, emotion: label, targets: allowed }, memory, sel.repeatWindow, rng);
  if (!line) return null;

  // The opponent spoken to or about: the one the event is about, else either.
  const opponents = opponentsOf(robot);
  const focus: Seat = topic.actor !== null && actorRelation === 'opponent' ? topic.actor : opponents[rng.int(2)]!;
  const addressee = topic.addressActor ? topic.actor : line.to === 'partner' ? partnerOf(robot) : line.to === 'opponent' ? focus : null;
  const slots: SlotValues = { partner: nameOf(library, state, partnerOf(robot)), opponent: nameOf(library, state, focus), ...topic.slots };
  const text = renderUtterance(library, line, slots);
  const estimatedMs = Math.round(sel.estimate.baseMs + sel.estimate.msPerChar * [...text].length);
  return {
    atMs,
    line,
    addressee,
    utterance: {
      id: line.id,
      category,
      text,
      language: library.language,
      to: line.to,
      addressee,
      estimatedMs,
      until,
      about: { event: topic.event, seat: topic.actor, moment: state.moment, emotion: line.emotions.length > 0 ? label : null },
    },
  };
}

type GazeStep = readonly [0 | 'dwell', GazeTarget];

/** Where to look when the event happens: the player to move, the card played, the winner... */
function gazeFor(state: BehaviourState, event: BehaviourEvent): GazeStep[] {
  const robot = state.robotSeat;
  const seat = (s: Seat): GazeTarget => (s === robot ? { kind: 'own-cards' } : { kind: 'seat', seat: s });
  switch (event.type) {
    case 'session-start':
    case 'session-end':
    case 'end':
      return [[0, seat(partnerOf(robot))]];
    case 'game-start':
      return [[0, seat(event.dealer)]];
    case 'shuffling':
    case 'cutting':
    case 'dealing':
    case 'turn':
      return [[0, seat(event.seat)]];
    case 'deal':
      return [
        [0, { kind: 'card', seat: event.dealer }],
        ['dwell', { kind: 'own-cards' }],
      ];
    case 'play': {
      const complete = (state.trick?.cards.length ?? 0) >= 4;
      return [
        [0, { kind: 'card', seat: event.seat }],
        ['dwell', complete ? { kind: 'play-area' } : seat(nextSeat(event.seat))],
      ];
    }
    case 'trick':
      return [[0, event.winner === robot ? { kind: 'play-area' } : seat(event.winner)]];
    case 'reappraisal':
      return [];
  }
}

/** Where to look while speaking, from the line's gaze mark; a sweep spreads over the line. */
function speechGaze(state: BehaviourState, mark: GazeMark, addressee: Seat | null, durationMs: number): (readonly [number, GazeTarget])[] {
  const robot = state.robotSeat;
  const sweep = (seats: Seat[]): (readonly [number, GazeTarget])[] =>
    seats.map((s, i) => [Math.round((durationMs * i) / seats.length), { kind: 'seat', seat: s }] as const);
  const everyone = [nextSeat(robot, 1), nextSeat(robot, 2), nextSeat(robot, 3)];
  switch (mark) {
    case 'none':
      return [];
    case 'addressee':
      return addressee === null ? sweep(everyone) : [[0, { kind: 'seat', seat: addressee }]];
    case 'partner':
      return [[0, { kind: 'seat', seat: partnerOf(robot) }]];
    case 'opponents':
      return sweep(opponentsOf(robot));
    case 'everyone':
      return sweep(everyone);
    case 'play-area':
      return [[0, { kind: 'play-area' }]];
    case 'own-cards':
      return [[0, { kind: 'own-cards' }]];
  }
}

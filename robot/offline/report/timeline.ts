// A recording laid out as a session report reads it: the games with their events, each game event
// the robot reacted to paired with the emotions it published in reaction, and the faces, lines and
// language changes in recording order. Pure: a `Recording` in, plain data out.
//
// Pairing. The node reacts to the game's deal, play, trick and end events one at a time, in order,
// and publishes one `emotions` message per reaction; it publishes another after an `expectation`
// message it applied (a reappraisal of the event that `event_index` names), one before the first
// deal and one at the session's end. Events are often published before the reactions to the ones
// before them (a trick's last card, the trick and the game's end come together), so "the emotions
// after the event, before the next one" would miss most reactions: the k-th reaction message
// belongs to the k-th reacted event.

import type { Seat } from '../../../game/index.js';
import { isSeat } from '../../../game/index.js';
import type {
  EmotionalStateMessage,
  ExpectationMessage,
  ExpressionMessage,
  GameEventMessage,
  GameStateMessage,
  LanguageMessage,
  PointStampedMessage,
  UtteranceMessage,
} from '../../bus/index.js';
import { TOPICS } from '../../bus/index.js';
import type { Recording } from '../../recording/index.js';

/** A message with its place in the recording (index among all messages) and its time (ms). */
export interface At<M> {
  index: number;
  time: number;
  message: M;
}

/** The game events the robot reacts to, each with one emotions message. */
const REACTED_EVENTS: ReadonlySet<string> = new Set(['deal', 'play', 'trick', 'end']);

export interface GameTimeline {
  /** From 1 (the events' `game` field counts from 0). */
  game: number;
  deal: At<GameEventMessage> | null;
  plays: At<GameEventMessage>[];
  tricks: At<GameEventMessage>[];
  renounce: At<GameEventMessage> | null;
  end: At<GameEventMessage> | null;
}

export interface Reaction {
  event: At<GameEventMessage>;
  /** The emotions the robot published in reaction; null when the recording ends before it. */
  emotions: At<EmotionalStateMessage> | null;
  /** Its reappraisals of the event, once the event's quick estimate came back. */
  reappraisals: At<EmotionalStateMessage>[];
}

export interface Timeline {
  robotSeat: Seat;
  /** The session's language when it started (session metadata, else the first language message). */
  language: string;
  games: GameTimeline[];
  /** Every game event, in order. */
  events: At<GameEventMessage>[];
  sessionEnd: At<GameEventMessage> | null;
  emotions: At<EmotionalStateMessage>[];
  /** One per reacted event, in event order. */
  reactions: Reaction[];
  faces: At<ExpressionMessage>[];
  lines: At<UtteranceMessage>[];
  /** Where the head looked (the points on /look_at, in the robot's frame). */
  looks: At<{ x: number; y: number; z: number }>[];
  languages: At<LanguageMessage>[];
  /** The first and last message's times (ms); 0 for an empty recording. */
  start: number;
  end: number;
}

export function timelineOf(recording: Recording): Timeline {
  const session = recording.session ?? {};
  const metaSeat = Number(session.robotSeat);
  let robotSeat: Seat | null = isSeat(metaSeat) ? metaSeat : null;
  const t: Timeline = {
    robotSeat: 0,
    language: session.language ?? '',
    games: [],
    events: [],
    sessionEnd: null,
    emotions: [],
    reactions: [],
    faces: [],
    lines: [],
    looks: [],
    languages: [],
    start: recording.messages[0]?.time ?? 0,
    end: recording.messages.at(-1)?.time ?? 0,
  };
  const byGame = new Map<number, GameTimeline>();
  const gameOf = (n: number): GameTimeline => {
    let g = byGame.get(n);
    if (!g) {
      g = { game: n + 1, deal: null, plays: [], tricks: [], renounce: null, end: null };
      byGame.set(n, g);
      t.games.push(g);
    }
    return g;
  };
  const waiting: Reaction[] = [];
  recording.messages.forEach((m, index) => {
    const at = <M>(): At<M> => ({ index, time: m.time, message: m.message as M });
    switch (m.topic.name) {
      case TOPICS.gameState.name: {
        const s = m.message as GameStateMessage;
        if (robotSeat === null && isSeat(s.robot_seat)) robotSeat = s.robot_seat;
        break;
      }
      case TOPICS.gameEvents.name: {
        const e = at<GameEventMessage>();
        t.events.push(e);
        const type = e.message.type;
        if (type === 'session_end') t.sessionEnd = e;
        else {
          const g = gameOf(e.message.game);
          if (type === 'deal') g.deal = e;
          else if (type === 'play') g.plays.push(e);
          else if (type === 'trick') g.tricks.push(e);
          else if (type === 'renounce') g.renounce = e;
          else if (type === 'end') g.end = e;
        }
        if (REACTED_EVENTS.has(type)) {
          const r: Reaction = { event: e, emotions: null, reappraisals: [] };
          t.reactions.push(r);
          waiting.push(r);
        }
        break;
      }
      case TOPICS.emotions.name: {
        const e = at<EmotionalStateMessage>();
        t.emotions.push(e);
        const before = recording.messages[index - 1];
        if (before?.topic.name === TOPICS.expectation.name && (before.message as ExpectationMessage).applied) {
          // A reappraisal: of the event its estimate was for, else (older recordings) of the latest reaction.
          const of = t.reactions[(before.message as ExpectationMessage).event_index];
          const latest = t.reactions.findLast((r) => r.emotions !== null);
          const target =
            of && of.emotions !== null && (of.event.message.type === 'deal' || of.event.message.type === 'play')
              ? of
              : latest;
          target?.reappraisals.push(e);
        } else {
          // The next reaction; none waiting: the calm state before the first deal, or the session's end.
          const r = waiting.shift();
          if (r) r.emotions = e;
        }
        break;
      }
      case TOPICS.expression.name:
        t.faces.push(at<ExpressionMessage>());
        break;
      case TOPICS.utterance.name:
        t.lines.push(at<UtteranceMessage>());
        break;
      case TOPICS.lookAt.name:
        t.looks.push({ index, time: m.time, message: (m.message as PointStampedMessage).point });
        break;
      case TOPICS.language.name:
        t.languages.push(at<LanguageMessage>());
        break;
      default:
        break;
    }
  });
  t.robotSeat = robotSeat ?? 0;
  if (!t.language) t.language = t.languages[0]?.message.language ?? '';
  t.games.sort((a, b) => a.game - b.game);
  return t;
}

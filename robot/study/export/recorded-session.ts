// What the export reads of a session's recording(s): each game's result, points, victories and
// duration, and the robot's behaviour event by event (its decisions, the emotions of its reactions,
// its faces and its lines), each placed in its game and trick. Pure: recordings in, plain data out.

import type { Seat } from '../../../game/index.js';
import type { DecisionMessage, GameStateMessage } from '../../bus/index.js';
import { TOPICS } from '../../bus/index.js';
import { timelineOf } from '../../offline/index.js';
import type { GameTimeline, Timeline } from '../../offline/index.js';
import type { Recording } from '../../recording/index.js';

export type GameResult = 'won' | 'lost' | 'drawn' | 'unfinished';

export interface RecordedGame {
  /** From 1. */
  game: number;
  result: GameResult;
  /** Card points of the game, the robot's team first; null for a game that did not end. */
  points: [number, number] | null;
  /** Victories won in this game, the robot's team first. */
  victories: [number, number] | null;
  /** Victories after the game (the session's running total), the robot's team first. */
  total: [number, number] | null;
  renounce: boolean;
  /**
   * From the deal to the game's end, seconds; null for a game that did not end. A game cut by a
   * crash and finished after the restart counts its time in each part (not the gap between them).
   */
  durationS: number | null;
  /** Of durationS, the seconds the game was paused (the operator's pauses); null when durationS is. */
  pausedS: number | null;
}

export type BehaviourKind = 'decision' | 'emotion' | 'face' | 'line';

export interface BehaviourEvent {
  kind: BehaviourKind;
  /** Seconds from the session's first recorded message. */
  timeS: number;
  /** From 1; null before the first deal. */
  game: number | null;
  /** The trick in play, from 1; null outside a game. */
  trick: number | null;
  /** The seat the event is about (who played, took the trick, is spoken of); null for none. */
  aboutSeat: Seat | null;
  card?: string;
  winProbability?: number;
  thinkMs?: number;
  fallback?: string;
  reason?: string;
  /** emotion: the reaction's strongest emotion, its intensity and the mood; the event reacted to. */
  emotion?: string;
  intensity?: number;
  mood?: number;
  event?: string;
  face?: string;
  lineCategory?: string;
  lineId?: string;
  lineText?: string;
  /** spoken or dropped (with the reason after a colon). */
  lineOutcome?: string;
  addresseeSeat?: Seat | null;
}

export interface RecordedSession {
  robotSeat: Seat;
  /** The participants' codes by seat as the recording names them (--participants), or null. */
  codes: Record<string, string> | null;
  games: RecordedGame[];
  events: BehaviourEvent[];
  /**
   * The games' time, seconds: from the first deal to the session's end (or the last message); a
   * session recorded in parts (a crash, then a restart) sums each part's time from its first game
   * event to its end, not the gap between the parts. Null when no game was dealt.
   */
  durationS: number | null;
  /** Of durationS, the seconds the games were paused (the operator's pauses, the study's holds). */
  pausedS: number | null;
  /** The recording's parts that hold game time (1 for a session recorded whole). */
  parts: number;
  complete: boolean;
  problems: string[];
}

const seatOrNull = (n: number): Seat | null => (n >= 0 && n <= 3 ? (n as Seat) : null);
const ourFirst = (robot: Seat, [a, b]: readonly number[]): [number, number] => (robot % 2 === 0 ? [a!, b!] : [b!, a!]);
const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

function gameOf(t: Timeline, g: GameTimeline, before: [number, number]): RecordedGame {
  const end = g.end?.message;
  const total = end ? ourFirst(t.robotSeat, end.victories) : null;
  return {
    game: g.game,
    result: !end
      ? 'unfinished'
      : end.winner_team === 'draw'
        ? 'drawn'
        : end.winner_team === (t.robotSeat % 2 === 0 ? 'a' : 'b')
          ? 'won'
          : 'lost',
    points: end ? ourFirst(t.robotSeat, end.final_points) : null,
    victories: total ? [total[0] - before[0], total[1] - before[1]] : null,
    total,
    renounce: g.renounce !== null,
    durationS: null,
    pausedS: null,
  };
}

/** A span of time (ms) in one part of the recording. */
interface Span {
  from: number;
  to: number;
}

/** The spans (ms) when the recorded game state said paused; one still open runs to the part's end. */
function pausedSpans(recording: Recording, end: number): Span[] {
  const out: Span[] = [];
  let since: number | null = null;
  for (const m of recording.messages) {
    if (m.topic.name !== TOPICS.gameState.name) continue;
    const paused = (m.message as GameStateMessage).status === 'paused';
    if (paused && since === null) since = m.time;
    else if (!paused && since !== null) {
      out.push({ from: since, to: m.time });
      since = null;
    }
  }
  if (since !== null) out.push({ from: since, to: end });
  return out;
}

/** The ms of `spans` inside `within`. */
const overlap = (spans: readonly Span[], within: Span): number =>
  spans.reduce((sum, s) => sum + Math.max(0, Math.min(s.to, within.to) - Math.max(s.from, within.from)), 0);

/** Where in the session each message falls: its game (from 1) and trick in play (from 1). */
function positions(t: Timeline): (index: number) => { game: number | null; trick: number | null } {
  const marks = t.events.map((e) => ({ index: e.index, type: e.message.type, game: e.message.game }));
  return (index) => {
    let game: number | null = null;
    let tricks = 0;
    let over = true;
    for (const m of marks) {
      if (m.index > index) break;
      if (m.type === 'deal') {
        game = m.game + 1;
        tricks = 0;
        over = false;
      } else if (m.type === 'trick') tricks++;
      else if (m.type === 'end' || m.type === 'session_end') over = true;
    }
    return { game, trick: game === null || over ? null : Math.min(tricks + 1, 10) };
  };
}

function eventsOf(recording: Recording, t: Timeline): BehaviourEvent[] {
  const at = positions(t);
  const time = (ms: number): number => round((ms - t.start) / 1000);
  const out: BehaviourEvent[] = [];
  recording.messages.forEach((m, index) => {
    if (m.topic.name !== TOPICS.decision.name) return;
    const d = m.message as DecisionMessage;
    out.push({
      kind: 'decision',
      timeS: time(m.time),
      ...at(index),
      aboutSeat: seatOrNull(d.seat),
      card: d.card,
      winProbability: round(d.win_probability, 4),
      thinkMs: round(d.time_ms, 1),
      fallback: d.fallback,
      reason: d.reason_kind,
      _index: index,
    } as BehaviourEvent & { _index: number });
  });
  for (const r of t.reactions) {
    if (!r.emotions) continue;
    const e = r.event.message;
    const m = r.emotions.message;
    const strongest = m.emotions.find((x) => x.type === m.strongest);
    out.push({
      kind: 'emotion',
      timeS: time(r.emotions.time),
      ...at(r.event.index),
      aboutSeat: e.type === 'play' ? seatOrNull(e.seat) : e.type === 'trick' ? seatOrNull(e.winner) : null,
      event: e.type,
      emotion: m.strongest,
      intensity: strongest ? round(strongest.intensity, 4) : undefined,
      mood: round(m.mood, 4),
      _index: r.emotions.index,
    } as BehaviourEvent & { _index: number });
  }
  for (const f of t.faces)
    out.push({
      kind: 'face',
      timeS: time(f.time),
      ...at(f.index),
      aboutSeat: null,
      face: f.message.expression,
      _index: f.index,
    } as BehaviourEvent & { _index: number });
  for (const l of t.lines) {
    const m = l.message;
    if (m.phase !== 'start' && m.phase !== 'dropped') continue;
    out.push({
      kind: 'line',
      timeS: time(l.time),
      ...at(l.index),
      aboutSeat: seatOrNull(m.about_seat),
      event: m.event,
      lineCategory: m.category,
      lineId: m.id,
      lineText: m.text,
      lineOutcome: m.phase === 'start' ? 'spoken' : `dropped: ${m.reason}`,
      addresseeSeat: seatOrNull(m.addressee),
      _index: l.index,
    } as BehaviourEvent & { _index: number });
  }
  // In recording order.
  return (out as (BehaviourEvent & { _index: number })[])
    .sort((a, b) => a._index - b._index)
    .map(({ _index, ...e }) => e);
}

/**
 * A session from its recording and the parts written after restarts, in order: a game recorded in a
 * later part replaces the same game of an earlier one (a game cut by a crash is played again).
 */
export function recordedSession(parts: readonly Recording[]): RecordedSession {
  const timelines = parts.map((r) => timelineOf(r));
  const t0 = timelines[0];
  const robotSeat = t0?.robotSeat ?? 0;
  const games = new Map<number, RecordedGame>();
  /** Each game's time (ms) and paused time, summed over the parts it was played in. */
  const gameTime = new Map<number, { ms: number; pausedMs: number }>();
  const events: BehaviourEvent[] = [];
  let playedMs = 0;
  let pausedMs = 0;
  let played = 0;
  parts.forEach((r, i) => {
    const t = timelines[i]!;
    // The part's game time: from its first game event (the first deal; after a restart, the game
    // taken up again) to the session's end, or the last message of a part cut short.
    const first = t.events.find((e) => e.message.type !== 'session_end')?.time;
    const end = t.sessionEnd?.time ?? t.end;
    const paused = pausedSpans(r, end);
    if (first !== undefined && end >= first) {
      playedMs += end - first;
      pausedMs += overlap(paused, { from: first, to: end });
      played++;
    }
    let before: [number, number] = [0, 0];
    for (const g of t.games) {
      const prior = games.get(g.game - 1)?.total;
      if (prior) before = prior;
      const game = gameOf(t, g, before);
      if (game.result !== 'unfinished' || !games.has(g.game)) games.set(g.game, game);
      if (game.total) before = game.total;
      // This part's share of the game: from its deal (or the part's first game event) to its end
      // (or the part's end, for a game the crash cut).
      const from = g.deal?.time ?? first;
      const to = g.end?.time ?? end;
      if (from !== undefined && to >= from) {
        const sofar = gameTime.get(g.game) ?? { ms: 0, pausedMs: 0 };
        gameTime.set(g.game, {
          ms: sofar.ms + to - from,
          pausedMs: sofar.pausedMs + overlap(paused, { from, to }),
        });
      }
    }
    events.push(...eventsOf(r, t));
  });
  for (const g of games.values()) {
    const time = gameTime.get(g.game);
    if (g.result === 'unfinished' || !time) continue;
    g.durationS = round(time.ms / 1000);
    g.pausedS = round(time.pausedMs / 1000);
  }
  const participants = parts[0]?.session?.participants;
  return {
    robotSeat,
    codes: participants
      ? Object.fromEntries(
          participants
            .split(',')
            .map((p) => p.split('='))
            .filter((p): p is [string, string] => p.length === 2),
        )
      : null,
    games: [...games.values()].sort((a, b) => a.game - b.game),
    events,
    durationS: played > 0 ? round(playedMs / 1000) : null,
    pausedS: played > 0 ? round(pausedMs / 1000) : null,
    parts: played,
    complete: parts.every((r) => r.complete && r.problems.length === 0),
    problems: parts.flatMap((r) => r.problems.map((p) => `${r.path}: ${p}`)),
  };
}

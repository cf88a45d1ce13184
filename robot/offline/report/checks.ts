// The report's checks: what people at the table should never meet. Each examines what it can judge,
// counts what it could not (older recordings, hands the recording does not give back), and lists each
// finding with where it happened and what the robot said, felt or showed.

import type { Seat } from '../../../game/index.js';
import { parseCard, partnerOf, pointsOf } from '../../../game/index.js';
import type { GameEventMessage, UtteranceMessage } from '../../bus/index.js';
import type { Felt } from './felt.js';
import { isAbout, relationOf } from './felt.js';
import { forcedPlays } from './hands.js';
import { round } from './stats.js';
import type { At, GameTimeline, Reaction, Timeline } from './timeline.js';

export interface Finding {
  /** The session's id. */
  session: string;
  /** From 1; null when not within a game. */
  game: number | null;
  /** From 1; null when not within a trick. */
  trick: number | null;
  /** What the robot said, or what it felt or showed. */
  text: string;
  /** Why it is a finding. */
  why: string;
}

export interface CheckFacts {
  /** What the check looked at (lines, plays, tricks' emotions, games). */
  examined: number;
  /** Of those, the ones its rule is about (lines about another seat's card, forced plays...). */
  applicable: number;
  /** What it could not judge. */
  unknown: number;
  findings: Finding[];
}

interface CheckContext {
  t: Timeline;
  session: string;
  /** What the robot felt about an event (felt.ts). */
  felt: (r: Reaction) => Felt[];
  /** Whether a line sounds glad (1) or sorry (-1) or neither (0); null when its library does not say. */
  lineValence?: (language: string, id: string) => number | null;
}

const empty = (): CheckFacts => ({ examined: 0, applicable: 0, unknown: 0, findings: [] });
const PER_GAME = 64;
const SEAT_WORD: Record<string, string> = { self: 'the robot', partner: 'the partner', opponent: 'an opponent' };
const who = (robot: Seat, seat: number): string => `${SEAT_WORD[relationOf(robot, seat)]} (seat ${seat})`;
const feltText = (robot: Seat, f: Felt): string =>
  `${f.type} ${round(f.intensity)} toward ${f.target >= 0 ? who(robot, f.target) : f.team === 'team' ? "the robot's team" : 'the opponents'}`;
const points = (card: string): number => {
  try {
    return pointsOf(parseCard(card));
  } catch {
    return 0;
  }
};

/** Where a line was, from its moment (game x 64 + cards played): game and trick from 1. */
function placeOfMoment(moment: number): { game: number | null; trick: number | null } {
  if (moment < 0) return { game: null, trick: null };
  const plays = moment % PER_GAME;
  const game = Math.floor(moment / PER_GAME);
  return { game: game > 0 ? game : null, trick: plays >= 1 && plays <= 40 ? Math.floor((plays - 1) / 4) + 1 : null };
}

const spoken = (t: Timeline) => t.lines.filter((l) => l.message.phase === 'start');

/**
 * Lines about another seat's card or trick said to the wrong person: about the partner, to an
 * opponent; about an opponent, to the partner or the other opponent. Lines about the robot's own
 * card and lines to everyone are fine.
 */
export function misaddressedLines({ t, session }: CheckContext): CheckFacts {
  const out = empty();
  for (const l of spoken(t)) {
    const m = l.message;
    if (m.event === '') {
      out.unknown++;
      continue;
    }
    out.examined++;
    if (
      (m.event !== 'play' && m.event !== 'trick') ||
      m.about_seat < 0 ||
      m.about_seat === t.robotSeat ||
      m.addressee < 0
    )
      continue;
    out.applicable++;
    const about = relationOf(t.robotSeat, m.about_seat);
    const wrong =
      about === 'partner' ? relationOf(t.robotSeat, m.addressee) === 'opponent' : m.addressee !== m.about_seat;
    if (wrong) {
      const what = m.event === 'play' ? 'card' : 'trick';
      out.findings.push({
        session,
        ...placeOfMoment(m.moment),
        text: m.text,
        why: `about ${who(t.robotSeat, m.about_seat)}'s ${what}, said to ${who(t.robotSeat, m.addressee)}`,
      });
    }
  }
  return out;
}

/**
 * Lines started after what they speak of was over: a card's line after the next card was down; any
 * line about a game's cards, tricks or deal after that game ended or the session did; a game's result
 * after the next game's first card.
 */
export function lateLines({ t, session }: CheckContext): CheckFacts {
  const out = empty();
  for (const l of spoken(t)) {
    const m = l.message;
    if (m.event === '') {
      out.unknown++;
      continue;
    }
    out.examined++;
    if (m.moment < 0 || m.event === 'session-start' || m.event === 'session-end' || m.event === 'operator') continue;
    out.applicable++;
    const n = Math.floor(m.moment / PER_GAME);
    const plays = m.moment % PER_GAME;
    const game = t.games.find((g) => g.game === n);
    const after = (e: At<unknown> | null | undefined): boolean => e !== null && e !== undefined && e.index < l.index;
    let why: string | null = null;
    if (m.event === 'end') {
      const next = t.games.find((g) => g.game === n + 1)?.plays[0];
      if (after(next)) why = `the result of game ${n}, started after game ${n + 1}'s first card`;
    } else {
      const next = m.event === 'play' ? game?.plays[plays] : undefined;
      if (after(next))
        why = `started after the next card (${next!.message.card} by ${who(t.robotSeat, next!.message.seat)}) was down`;
      else if (after(game?.end)) why = `started after game ${n} ended`;
      else if (after(t.sessionEnd)) why = 'started after the session ended';
    }
    if (why) out.findings.push({ session, ...placeOfMoment(m.moment), text: m.text, why });
  }
  return out;
}

/** The reaction to each game event, by the event's place in the recording. */
const reactionsByEvent = (t: Timeline): Map<number, Reaction> => new Map(t.reactions.map((r) => [r.event.index, r]));

/** Reproach or anger toward a seat whose card was its only legal one. */
export function blameForForcedPlays(c: CheckContext): CheckFacts {
  const { t, session } = c;
  const out = empty();
  const reactions = reactionsByEvent(t);
  for (const game of t.games) {
    const forced = forcedPlays(game);
    game.plays.forEach((p, k) => {
      if (forced[k] === null) {
        out.unknown++;
        return;
      }
      out.examined++;
      if (!forced[k]) return;
      out.applicable++;
      const r = reactions.get(p.index);
      if (!r) return;
      for (const f of c.felt(r)) {
        if ((f.type === 'reproach' || f.type === 'anger') && isAbout(t.robotSeat, f, p.message.seat)) {
          out.findings.push({
            session,
            game: game.game,
            trick: p.message.trick + 1,
            text: feltText(t.robotSeat, f),
            why: `${who(t.robotSeat, p.message.seat)} played ${p.message.card}, its only legal card`,
          });
        }
      }
    });
  }
  return out;
}

/**
 * Gloating toward an opponent who lost nothing in a trick (played no card worth points and did not
 * win it), and pity toward the partner who lost nothing (our team took the trick, or the partner's
 * card was worth no points). Pity toward an opponent is fine. The opponents as a team lost nothing
 * when neither did.
 */
export function gloatingAndPity(c: CheckContext): CheckFacts {
  const { t, session } = c;
  const out = empty();
  const robot = t.robotSeat;
  const partner = partnerOf(robot);
  const opponents = [1, 3].map((k) => (robot + k) % 4);
  for (const r of t.reactions) {
    const e = r.event.message;
    if (e.type !== 'trick') continue;
    out.examined++;
    const cardOf = (seat: number): string => e.cards[(seat - e.leader + 4) % 4] ?? '';
    const ours = (e.winner & 1) === (robot & 1);
    const lostNothing = (seat: number): boolean => points(cardOf(seat)) === 0 && e.winner !== seat;
    const where = { session, game: e.game + 1, trick: e.trick + 1 };
    const cards = `${e.cards.join(' ')}: ${e.points} points to ${who(robot, e.winner)}`;
    for (const f of c.felt(r)) {
      if (f.type === 'gloating') {
        const at =
          f.target >= 0
            ? relationOf(robot, f.target) === 'opponent'
              ? [f.target]
              : []
            : f.team === 'opponents'
              ? opponents
              : [];
        if (at.length === 0) continue;
        out.applicable++;
        if (at.every(lostNothing)) {
          const whom =
            at.length === 1
              ? `${who(robot, at[0]!)} played no card worth points and did not take the trick`
              : 'neither opponent played a card worth points or took the trick';
          out.findings.push({ ...where, text: feltText(robot, f), why: `${whom} (${cards})` });
        }
      } else if (f.type === 'pity' && (f.target >= 0 ? f.target === partner : false)) {
        out.applicable++;
        if (ours || points(cardOf(partner)) === 0)
          out.findings.push({
            ...where,
            text: feltText(robot, f),
            why: `the partner lost nothing: ${ours ? 'our team took the trick' : 'its card was worth no points'} (${cards})`,
          });
      } else if (f.type === 'pity' && f.target >= 0 && relationOf(robot, f.target) === 'opponent') out.applicable++;
    }
  }
  return out;
}

export type GameResult = 'won' | 'lost' | 'drawn' | 'unfinished';

/** The game's result for the robot's team. */
export function resultOf(robot: Seat, end: GameEventMessage | undefined | null): GameResult {
  if (!end) return 'unfinished';
  if (end.winner_team === 'draw') return 'drawn';
  return end.winner_team === (robot % 2 === 0 ? 'a' : 'b') ? 'won' : 'lost';
}

/**
 * The faces shown from a game's end until the next game is dealt (or the recording's end): what the
 * robot shows about the result. Once the next hand is dealt, its face is about that hand.
 */
export function facesAfter(t: Timeline, game: GameTimeline) {
  if (!game.end) return [];
  const next = t.games.find((g) => g.game === game.game + 1);
  const until = next ? ((next.deal ?? next.plays[0] ?? next.end)?.index ?? Infinity) : Infinity;
  return t.faces.filter((f) => f.index > game.end!.index && f.index < until);
}

/** The session's result for the robot's team, from the session's end (null before it). */
function sessionResult(t: Timeline): 'won' | 'lost' | 'drawn' | null {
  const v = t.sessionEnd?.message.victories;
  if (!v) return null;
  const [ours, theirs] = t.robotSeat % 2 === 0 ? [v[0]!, v[1]!] : [v[1]!, v[0]!];
  return ours > theirs ? 'won' : ours < theirs ? 'lost' : 'drawn';
}

/**
 * A happy face after a lost game, before the next game is dealt. After the session's last game the
 * robot also reacts to the session's result: a happy face there is no finding when its team won the
 * session.
 */
export function happyAfterLoss({ t, session }: CheckContext): CheckFacts {
  const out = empty();
  const last = t.games.at(-1);
  for (const g of t.games) {
    const result = resultOf(t.robotSeat, g.end?.message);
    if (result === 'unfinished') continue;
    out.examined++;
    if (result !== 'lost') continue;
    out.applicable++;
    const [a, b] = g.end!.message.final_points;
    const score = t.robotSeat % 2 === 0 ? `${a}-${b}` : `${b}-${a}`;
    if (g === last && sessionResult(t) === 'won') continue;
    for (const f of facesAfter(t, g)) {
      if (f.message.expression !== 'happy') continue;
      const s = ((f.time - g.end!.time) / 1000).toFixed(1);
      out.findings.push({
        session,
        game: g.game,
        trick: null,
        text: `happy face (valence ${round(f.message.valence)}), ${s} s after the game's end`,
        why: `game ${g.game} was lost ${score}${g.renounce ? ' (a renounce)' : ''}`,
      });
    }
  }
  return out;
}

/** Glad (happy) or sorry (sad, angry, scared, disgusted) a face is; surprise and neutral are neither. */
const faceValence = (expression: string): number =>
  expression === 'happy' ? 1 : ['sad', 'angry', 'scared', 'disgusted'].includes(expression) ? -1 : 0;
/** A face that lands this close to a line's end is taken as after it: the planner knows a line's length only as an estimate. */
const LINE_END_SLACK_MS = 300;
/** A face that gives way this soon after a line begins was taken down for it (timers run late under load). */
const LINE_START_SLACK_MS = 300;

/**
 * A face that says the opposite of the line being said (behaviours/line-valence.ts): a smile under
 * "Essa doeu...", a sad face under "Boa! Mais 13 pontos". Lines are one at a time, each from its
 * start to its end.
 */
export function facesAgainstWords({ t, session, lineValence }: CheckContext): CheckFacts {
  const out = empty();
  const said: { line: At<UtteranceMessage>; endTime: number }[] = [];
  let current: At<UtteranceMessage> | null = null;
  for (const l of t.lines) {
    if (l.message.phase === 'start') current = l;
    else if (l.message.phase === 'end' && current) {
      said.push({ line: current, endTime: l.time });
      current = null;
    }
  }
  if (current) said.push({ line: current, endTime: Infinity });
  // The face on show as a line begins counts too (a taunt said under the fright the deal raised),
  // unless it gives way as the line starts.
  let shown = -1;
  for (const s of said) {
    while (shown + 1 < t.faces.length && t.faces[shown + 1]!.time < s.line.time) shown++;
    const f = shown >= 0 ? t.faces[shown]! : null;
    const v = f ? faceValence(f.message.expression) : 0;
    if (!f || v === 0) continue;
    const next = t.faces[shown + 1];
    if (next && next.time - s.line.time <= LINE_START_SLACK_MS) continue;
    const m = s.line.message;
    const lv = lineValence?.(m.language || t.language, m.id) ?? null;
    out.examined++;
    if (lv === null) {
      out.unknown++;
      continue;
    }
    if (lv === 0) continue;
    out.applicable++;
    if (lv === -v)
      out.findings.push({
        session,
        ...placeOfMoment(m.moment),
        text: m.text,
        why: `a ${f.message.expression} face on show as it began: the line sounds ${lv > 0 ? 'glad' : 'sorry'}, the face ${v > 0 ? 'glad' : 'sorry'}`,
      });
  }
  for (const f of t.faces) {
    const v = faceValence(f.message.expression);
    if (v === 0) continue;
    out.examined++;
    const under = said.find((s) => s.line.time <= f.time && f.time < s.endTime - LINE_END_SLACK_MS);
    if (!under) continue;
    const m = under.line.message;
    const lv = lineValence?.(m.language || t.language, m.id) ?? null;
    if (lv === null) {
      out.unknown++;
      continue;
    }
    if (lv === 0) continue;
    out.applicable++;
    if (lv === -v) {
      const s = ((f.time - under.line.time) / 1000).toFixed(1);
      out.findings.push({
        session,
        ...placeOfMoment(m.moment),
        text: m.text,
        why: `a ${f.message.expression} face ${s} s into it: the line sounds ${lv > 0 ? 'glad' : 'sorry'}, the face ${v > 0 ? 'glad' : 'sorry'}`,
      });
    }
  }
  // In the order of the session, as the other checks list theirs.
  const order = (f: Finding): number => (f.game ?? 0) * 100 + (f.trick ?? 0);
  out.findings.sort((a, b) => order(a) - order(b));
  return out;
}

/**
 * A face that contradicts a trick with points, from the trick until the next card is down: a glad
 * face as the opponents take it, a sorry one as the robot's team does (behaviours' planner: no face
 * contradicts a trick as it is taken or reappraised).
 */
export function facesAgainstTricks({ t, session }: CheckContext): CheckFacts {
  const out = empty();
  for (const g of t.games) {
    for (const trick of g.tricks) {
      const e = trick.message;
      if (e.points <= 0) continue;
      out.examined++;
      const next = g.plays.find((p) => p.index > trick.index);
      const until = next?.index ?? g.end?.index ?? Infinity;
      const ours = (e.winner & 1) === (t.robotSeat & 1);
      const faces = t.faces.filter(
        (f) => f.index > trick.index && f.index < until && faceValence(f.message.expression) !== 0,
      );
      if (faces.length === 0) continue;
      out.applicable++;
      const against = faces.find((f) => faceValence(f.message.expression) === (ours ? -1 : 1));
      if (against) {
        const s = ((against.time - trick.time) / 1000).toFixed(1);
        out.findings.push({
          session,
          game: g.game,
          trick: e.trick + 1,
          text: `${against.message.expression} face (valence ${round(against.message.valence)}), ${s} s after the trick`,
          why: `${who(t.robotSeat, e.winner)} took ${e.points} points for ${ours ? "the robot's team" : 'the opponents'}`,
        });
      }
    }
  }
  return out;
}

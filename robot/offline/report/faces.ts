// The face as people meet it: how often it changes in a trick, how many faces were replaced before
// they could be seen (within the hold time), glad or sorry faces against the card just played, and
// the "feels" panel against the face. Pure: a timeline in, facts out.

import type { Card } from '../../../game/index.js';
import { parseCard, pointsOf, suitOf, winningIndex } from '../../../game/index.js';
import type { ExpressionMessage } from '../../bus/index.js';
import { emotionValence, faceValence, panelContradicts, panelFeeling } from '../../web/index.js';
import type { CheckFacts } from './checks.js';
import { round } from './stats.js';
import type { At, Timeline } from './timeline.js';

export interface FaceChangeFacts {
  /** The hold time the early replacements were judged against (ms). */
  holdMs: number;
  /** Face changes (the expression shown becomes another) in each trick: its first card to the next trick's, or the game's end. */
  perTrick: number[];
  /** Face changes in the whole session. */
  changes: number;
  /** Changes that replaced a face other than neutral shown for less than `holdMs`. */
  early: number;
  /** Panel states (after each face or emotions message within a game) where the strongest feeling is the face's opposite. */
  strongestAgainst: number;
  panelStates: number;
}

/** An emotion the panels count as felt: 2 of 10, the planner's threshold for emotional words. */
export const PANEL_MIN = 2;

/**
 * Timers fire a few tens of ms late on a loaded machine, and a face planned right at the end of the
 * hold of one published late lands just inside it: a replacement counts as early only by more than this.
 */
const TIMER_SLACK_MS = 100;

/** A glad or sorry face this soon after a card, before the next is down, is a reaction to it (ms). */
const CARD_WINDOW_MS = 3000;
/** A trick this rich is worth a face about who takes its lead. */
const RICH = 10;

const cardOf = (s: string): Card | null => {
  try {
    return parseCard(s);
  } catch {
    return null;
  }
};

/** The faces that changed what is shown (the first shown counts when it is not neutral). */
function changesOf(
  faces: readonly At<ExpressionMessage>[],
): { at: At<ExpressionMessage>; since: number; was: string }[] {
  const out: { at: At<ExpressionMessage>; since: number; was: string }[] = [];
  let shown = 'neutral';
  let since = -Infinity;
  for (const f of faces) {
    if (f.message.expression === shown) continue;
    out.push({ at: f, since, was: shown });
    shown = f.message.expression;
    since = f.time;
  }
  return out;
}

export function faceChangeFacts(t: Timeline, holdMs: number): FaceChangeFacts {
  const changes = changesOf(t.faces);
  const early = changes.filter((c) => c.was !== 'neutral' && c.at.time - c.since < holdMs - TIMER_SLACK_MS).length;
  const perTrick: number[] = [];
  for (const g of t.games) {
    const firsts = g.plays.filter((p, i, all) => i === 0 || all[i - 1]!.message.trick !== p.message.trick);
    firsts.forEach((p, i) => {
      const until = firsts[i + 1]?.index ?? g.end?.index ?? Infinity;
      perTrick.push(changes.filter((c) => c.at.index >= p.index && c.at.index < until).length);
    });
  }
  // The panel as the old pages had it (the strongest feeling, whatever the face) against the face.
  let strongestAgainst = 0;
  let panelStates = 0;
  for (const s of panelStatesOf(t)) {
    panelStates++;
    const top = s.emotions.reduce<{ type: string; intensity: number } | null>(
      (a, b) => (b.intensity >= PANEL_MIN && (!a || b.intensity > a.intensity) ? b : a),
      null,
    );
    const v = faceValence(s.face);
    if (top && v !== 0 && emotionValence(top.type) === -v) strongestAgainst++;
  }
  return { holdMs, perTrick, changes: changes.length, early, strongestAgainst, panelStates };
}

interface PanelState {
  index: number;
  time: number;
  face: string | null;
  emotions: { type: string; intensity: number; seat: number }[];
}

/** What the panels had to show after each face or emotions message from the first deal on. */
function panelStatesOf(t: Timeline): PanelState[] {
  const from = t.games[0]?.deal?.index ?? t.games[0]?.plays[0]?.index ?? Infinity;
  const out: PanelState[] = [];
  let face: string | null = null;
  let emotions: PanelState['emotions'] = [];
  const merged = [
    ...t.faces.map((f) => ({ index: f.index, time: f.time, face: f.message.expression, emotions: null })),
    ...t.emotions.map((e) => ({
      index: e.index,
      time: e.time,
      face: null,
      emotions: e.message.emotions.map((x) => ({ type: x.type, intensity: x.intensity, seat: x.target })),
    })),
  ].sort((a, b) => a.index - b.index);
  for (const m of merged) {
    if (m.emotions) emotions = m.emotions;
    else face = m.face;
    if (m.index >= from) out.push({ index: m.index, time: m.time, face, emotions });
  }
  return out;
}

/**
 * A "feels" panel (robot/web/feels.ts, as the table and the dashboard show it) that names a feeling
 * the face on show contradicts.
 */
export function panelAgainstFace(t: Timeline, session: string): CheckFacts {
  const out: CheckFacts = { examined: 0, applicable: 0, unknown: 0, findings: [] };
  for (const s of panelStatesOf(t)) {
    out.examined++;
    const p = panelFeeling(s.emotions, s.face, PANEL_MIN);
    if (p.kind !== 'feels') continue;
    out.applicable++;
    if (panelContradicts(p))
      out.findings.push({
        session,
        ...placeOf(t, s.index),
        text: `panel "feels ${p.emotion.type} ${round(p.emotion.intensity)}" beside a ${p.face} face`,
        why: 'the panel names a feeling the face contradicts',
      });
  }
  return out;
}

function placeOf(t: Timeline, index: number): { game: number | null; trick: number | null } {
  const g = t.games.findLast((x) => (x.deal?.index ?? x.plays[0]?.index ?? Infinity) <= index);
  const p = g?.plays.findLast((x) => x.index <= index);
  return { game: g?.game ?? null, trick: p ? p.message.trick + 1 : null };
}

/**
 * A glad face at an opponent's card that takes the lead of a trick holding 10 points or more, or a
 * sorry one at the partner's: started after the card, within 3 s and before the next card.
 */
export function facesAgainstCards(t: Timeline, session: string): CheckFacts {
  const out: CheckFacts = { examined: 0, applicable: 0, unknown: 0, findings: [] };
  const robot = t.robotSeat;
  for (const g of t.games) {
    const trumpCard = g.deal ? cardOf(g.deal.message.card) : null;
    const trump = trumpCard === null ? null : suitOf(trumpCard);
    g.plays.forEach((p, i) => {
      const e = p.message;
      if (e.seat === robot || e.seat < 0) return;
      out.examined++;
      const table = g.plays
        .slice(0, i + 1)
        .filter((x) => x.message.trick === e.trick)
        .map((x) => cardOf(x.message.card));
      if (trump === null || table.some((c) => c === null)) {
        out.unknown++;
        return;
      }
      const cards = table as Card[];
      const points = cards.reduce((a, c) => a + pointsOf(c), 0);
      if (points < RICH || winningIndex(cards, trump) !== cards.length - 1) return;
      out.applicable++;
      const partner = (e.seat & 1) === (robot & 1);
      const against = partner ? -1 : 1;
      const next = g.plays[i + 1]?.index ?? g.end?.index ?? Infinity;
      const face = t.faces.find(
        (f) =>
          f.index > p.index &&
          f.index < next &&
          f.time - p.time <= CARD_WINDOW_MS &&
          faceValence(f.message.expression) === against,
      );
      if (face)
        out.findings.push({
          session,
          game: g.game,
          trick: e.trick + 1,
          text: `${face.message.expression} face ${((face.time - p.time) / 1000).toFixed(1)} s after ${e.card}`,
          why: `${partner ? 'the partner' : 'an opponent'} (seat ${e.seat}) took the lead of a trick holding ${points} points`,
        });
    });
  }
  return out;
}

// Lines that did not fit the game as it stood, as a person at the table would notice them (what the
// virtual-table sessions of issue 34 met): a line whose conditions the game contradicts ("Preparem-se
// para perder mais um!" after a lost game, "Tenho de assistir." of a card that wins), a glad or sorry
// line about another seat's card against who holds the trick, a nudge soon after the turn began or
// to whoever just took the trick, and the head looking elsewhere than the line speaks to. Pure: a
// timeline in, findings out; the library and the table's geometry come from the caller.

import type { Card, Suit } from '../../../game/index.js';
import { parseCard, pointsOf, suitOf, winningIndex } from '../../../game/index.js';
import type { UtteranceMessage } from '../../bus/index.js';
import type { CheckFacts, Finding } from './checks.js';
import { resultOf } from './checks.js';
import type { At, GameTimeline, Timeline } from './timeline.js';

/** What the report knows of a line from its library. */
export interface LineInfo {
  /** Glad (1), sorry (-1) or neither (0). */
  valence?: number;
  /** The conditions it was written for (config/utterances: `when`). */
  when?: { previous?: string; trick?: string; taken?: string; card?: string };
}

/** Where a look went, as the table's geometry tells: at the partner, an opponent, or neither. */
export type LookedAt = (point: { x: number; y: number; z: number }) => 'partner' | 'opponent' | null;

export interface LineCheckContext {
  t: Timeline;
  session: string;
  lineInfo?: (language: string, id: string) => LineInfo | null;
  lookedAt?: LookedAt;
}

const PER_GAME = 64;
/** A nudge this soon after the turn began hurries someone still thinking (the planner waits 25 s). */
export const NUDGE_TOO_SOON_MS = 10_000;
/** The head's move to the addressee as the line starts belongs to the line (behaviours/gaze.ts). */
const LOOK_LEAD_MS = 400;
/**
 * The look back to the game in a line's last 300 ms is its end's: the planner knows a line's length
 * only as an estimate (as faces against the words judges a face there).
 */
const LINE_END_SLACK_MS = 300;

const empty = (): CheckFacts => ({ examined: 0, applicable: 0, unknown: 0, findings: [] });
const spoken = (t: Timeline): At<UtteranceMessage>[] => t.lines.filter((l) => l.message.phase === 'start');

function placeOf(moment: number): { game: number | null; trick: number | null } {
  if (moment < 0) return { game: null, trick: null };
  const plays = moment % PER_GAME;
  const game = Math.floor(moment / PER_GAME);
  return { game: game > 0 ? game : null, trick: plays >= 1 && plays <= 40 ? Math.floor((plays - 1) / 4) + 1 : null };
}

const cardOf = (s: string): Card | null => {
  try {
    return parseCard(s);
  } catch {
    return null;
  }
};

/** The trick a play belongs to, up to that card, and whether that card holds it; null when unknown. */
function trickAt(g: GameTimeline, plays: number): { cards: Card[]; seats: number[]; trump: Suit } | null {
  const trumpCard = g.deal ? cardOf(g.deal.message.card) : null;
  if (trumpCard === null || plays < 1 || plays > g.plays.length) return null;
  const first = Math.floor((plays - 1) / 4) * 4;
  const upto = g.plays.slice(first, plays);
  const cards = upto.map((p) => cardOf(p.message.card));
  if (cards.some((c) => c === null)) return null;
  return { cards: cards as Card[], seats: upto.map((p) => p.message.seat), trump: suitOf(trumpCard) };
}

/**
 * Lines the game as it stood contradicts: a line's own conditions (`previous`, `trick`, `taken`,
 * `card`) against the recorded game, and a glad or sorry line about another seat's card against who
 * holds the trick after it.
 */
export function linesAgainstTheGame({ t, session, lineInfo }: LineCheckContext): CheckFacts {
  const out = empty();
  for (const l of spoken(t)) {
    const m = l.message;
    if (m.event === '' || m.category === '') {
      out.unknown++;
      continue;
    }
    out.examined++;
    const info = lineInfo?.(m.language || t.language, m.id) ?? null;
    if (!info) {
      out.unknown++;
      continue;
    }
    const { game, trick } = placeOf(m.moment);
    const g = game === null ? undefined : t.games.find((x) => x.game === game);
    const wrong: string[] = [];
    let judged = false;
    // The game before: a taunt after a lost one.
    const previous = info.when?.previous;
    if (previous && game !== null) {
      // The game before the one the line is in, at its start as at its end ("Mais um jogo para nós").
      const before = game - 1;
      const r = resultOf(t.robotSeat, t.games.find((x) => x.game === before)?.end?.message);
      judged = true;
      if (r !== previous) wrong.push(`it presumes game ${before} ${previous}, and it was ${r}`);
    }
    // A card: does it hold the trick, whose team holds it, is it rich.
    if (m.event === 'play' && g && m.moment % PER_GAME >= 1 && m.moment % PER_GAME <= 40) {
      const at = trickAt(g, m.moment % PER_GAME);
      if (at) {
        const w = winningIndex(at.cards, at.trump);
        const holder = ((at.seats[w]! & 1) === (t.robotSeat & 1) ? 'ours' : 'theirs') as 'ours' | 'theirs';
        const last = at.cards[at.cards.length - 1]!;
        const holds = w === at.cards.length - 1;
        const c = info.when ?? {};
        if (c.trick) {
          judged = true;
          if ((c.trick === 'winning') !== holds)
            wrong.push(`it is said of a card that ${holds ? 'wins' : 'is beaten'}`);
        }
        if (c.taken) {
          judged = true;
          if (c.taken !== holder)
            wrong.push(`it presumes ${c.taken === 'ours' ? 'the robot' : 'the opponents'} hold the trick`);
        }
        if (c.card) {
          judged = true;
          const rich = pointsOf(last) >= 10;
          if ((c.card === 'rich') !== rich) wrong.push(`it presumes a ${c.card} card`);
        }
        const other = m.about_seat >= 0 && m.about_seat !== t.robotSeat;
        if (other && (info.valence === 1 || info.valence === -1)) {
          judged = true;
          if (info.valence === 1 && holder === 'theirs')
            wrong.push("a glad line about another seat's card while the opponents hold the trick");
          if (info.valence === -1 && holder === 'ours')
            wrong.push("a sorry line about another seat's card while the robot's team holds the trick");
        }
      }
    }
    if (!judged) continue;
    out.applicable++;
    if (wrong.length) out.findings.push({ session, game, trick, text: m.text, why: wrong.join('; ') });
  }
  return out;
}

/** Nudges ("Então? Estás a pensar muito...") said too soon after the turn began, or to whoever just took the trick. */
export function nudgesTooSoon({ t, session }: LineCheckContext): CheckFacts {
  const out = empty();
  for (const l of spoken(t)) {
    const m = l.message;
    out.examined++;
    if (!m.category.startsWith('next-player')) continue;
    out.applicable++;
    // The turn began with the last card, trick or deal before the line.
    const last = t.events.findLast(
      (e) =>
        e.index < l.index && (e.message.type === 'deal' || e.message.type === 'play' || e.message.type === 'trick'),
    );
    if (!last) continue;
    const { game, trick } = placeOf(m.moment);
    const after = l.time - last.time;
    if (after < NUDGE_TOO_SOON_MS)
      out.findings.push({ session, game, trick, text: m.text, why: `${(after / 1000).toFixed(1)} s into the turn` });
    else if (last.message.type === 'trick' && last.message.winner === m.addressee)
      out.findings.push({ session, game, trick, text: m.text, why: 'to the player who had just taken the trick' });
  }
  return out;
}

/**
 * The head while a line is said (the look it starts with, then every look until its last 300 ms)
 * against whom it speaks to: a line to the partner looking at an opponent, to an opponent looking at
 * the partner, or to everyone about an opponent's card looking at the partner.
 */
export function looksAgainstLines({ t, session, lookedAt }: LineCheckContext): CheckFacts {
  const out = empty();
  const looks = t.looks.map((l) => ({ time: l.time, at: lookedAt ? lookedAt(l.message) : null }));
  const ends = new Map<string, number>();
  for (const l of t.lines) if (l.message.phase === 'end') ends.set(`${l.message.id}@${l.message.moment}`, l.time);
  for (const l of spoken(t)) {
    const m = l.message;
    out.examined++;
    if (!lookedAt) {
      out.unknown++;
      continue;
    }
    const toPartner = m.addressee >= 0 && m.addressee !== t.robotSeat && (m.addressee & 1) === (t.robotSeat & 1);
    const toOpponent = m.addressee >= 0 && (m.addressee & 1) !== (t.robotSeat & 1);
    const aboutOpponentsCard =
      m.target === 'all' && m.event === 'play' && m.about_seat >= 0 && (m.about_seat & 1) !== (t.robotSeat & 1);
    if (!toPartner && !toOpponent && !aboutOpponentsCard) continue;
    out.applicable++;
    const end = ends.get(`${m.id}@${m.moment}`) ?? l.time + 2000;
    const lead = looks.filter((x) => x.time >= l.time && x.time < l.time + LOOK_LEAD_MS);
    const from = lead[0]?.time ?? l.time;
    const first = lead[0] ?? looks.filter((x) => x.time < l.time).pop();
    const during = [first, ...looks.filter((x) => x.time > from && x.time < end - LINE_END_SLACK_MS)].flatMap((x) =>
      x?.at ? [x.at] : [],
    );
    const wrong = toPartner ? 'opponent' : 'partner';
    if (during.includes(wrong)) {
      const { game, trick } = placeOf(m.moment);
      const finding: Finding = {
        session,
        game,
        trick,
        text: m.text,
        why: toPartner
          ? 'said to the partner, looking at an opponent'
          : toOpponent
            ? 'said to an opponent, looking at the partner'
            : "said to everyone about an opponent's card, looking at the partner",
      };
      out.findings.push(finding);
    }
  }
  return out;
}

// The session's bus messages, built from domain values. Pure: the machine's actions publish what these
// return. Conventions of robot/bus/messages.ts: seat -1 for none, card "" for none, lower-case enums.

import type {
  Card,
  Decision,
  Game,
  GameEvent,
  GameReview,
  ReasonSummary,
  Seat,
  SessionScore,
  Suit,
  SuitLetter,
} from '../../../game/index.js';
import { SUITS, formatCard, isReasonKind, parseCard } from '../../../game/index.js';
import type { MoveValue } from '../../../behaviours/index.js';
import type {
  DecisionMessage,
  GameEventMessage,
  GameReviewMessage,
  GameStateMessage,
  TableEvent,
  TableOutput,
} from '../../bus/index.js';
import type {
  CardEvent,
  ControlEvent,
  Prompt,
  RefusedAgain,
  Rejection,
  TableInfo,
} from '../../../table-bridge/index.js';

export type SessionStatus = 'waiting' | 'dealing' | 'playing' | 'game_over' | 'session_over' | 'paused';

const card = (c: Card | -1 | null | undefined): string =>
  c === null || c === undefined || c === -1 ? '' : formatCard(c);
const finite = (x: number, none = -1): number => (Number.isFinite(x) ? x : none);

interface StateParts {
  sessionId: string;
  games: number;
  score: SessionScore;
  status: SessionStatus;
  robotSeat: Seat;
  index: number | null;
  game: Game | null;
  /** The robot's hand when the game does not hold it yet (a physical deal being read); default the game's. */
  robotHand?: readonly Card[];
}

export function gameStateMessage(p: StateParts): GameStateMessage {
  const g = p.game;
  const table: string[] = [];
  if (g) for (let i = 0; i < g.cardsInTrick; i++) table.push(formatCard(g.trickCard(i)));
  return {
    session_id: p.sessionId,
    game: p.index === null ? 0 : p.index + 1,
    games: p.games,
    status: p.status,
    robot_seat: p.robotSeat,
    dealer: g ? g.dealer : -1,
    trump_card: g ? formatCard(g.trumpCard) : '',
    trick: g ? g.trick : -1,
    leader: g ? g.leader : -1,
    to_move: g && !g.isOver && !p.robotHand ? g.toMove : -1,
    table,
    points: g ? [g.points(0), g.points(1)] : [0, 0],
    victories: [p.score.victories[0], p.score.victories[1]],
    robot_hand: p.robotHand
      ? [...p.robotHand].sort((a, b) => a - b).map(formatCard)
      : g && g.knowsHand(p.robotSeat)
        ? g.hand(p.robotSeat).map(formatCard)
        : [],
  };
}

const blankEvent = (type: string, game: number, score: SessionScore): GameEventMessage => ({
  type,
  game,
  seat: -1,
  card: '',
  trick: -1,
  leader: -1,
  cards: [],
  winner: -1,
  points: 0,
  final_points: [0, 0],
  winner_team: '',
  victories: [score.victories[0], score.victories[1]],
});

/** A game event as published (the deal as the robot's seat sees it: its hand is not put on the bus). */
export function gameEventMessage(e: GameEvent, game: number, score: SessionScore): GameEventMessage[] {
  const m = blankEvent(e.type, game, score);
  switch (e.type) {
    case 'deal':
      return [{ ...m, seat: e.dealer, card: formatCard(e.trumpCard), leader: ((e.dealer + 1) & 3) as Seat }];
    case 'play':
      return [{ ...m, seat: e.seat, card: formatCard(e.card), trick: e.trick }];
    case 'trick':
      return [
        { ...m, trick: e.trick, leader: e.leader, cards: e.cards.map(formatCard), winner: e.winner, points: e.points },
      ];
    case 'end': {
      const end: GameEventMessage = {
        ...m,
        final_points: [e.points[0], e.points[1]],
        winner_team: e.outcome.winner.toLowerCase(),
      };
      if (!e.renounce) return [end];
      const r = e.renounce;
      const renounce: GameEventMessage = {
        ...m,
        type: 'renounce',
        seat: r.seat,
        card: formatCard(r.card),
        trick: r.trick,
        winner_team: e.outcome.winner.toLowerCase(),
      };
      return [renounce, end];
    }
  }
}

export function sessionEndMessage(game: number, score: SessionScore): GameEventMessage {
  const [a, b] = score.victories;
  return { ...blankEvent('session_end', game, score), winner_team: a === b ? 'draw' : a > b ? 'a' : 'b' };
}

export function decisionMessage(seat: Seat, d: Decision): DecisionMessage {
  const b = d.beliefs;
  return {
    seat,
    card: formatCard(d.card),
    moves: (b?.moves ?? []).map((m) => ({
      card: formatCard(m.card),
      mean: finite(m.mean, 0),
      sd: finite(m.sd, 0),
      win_probability: finite(m.winProbability),
    })),
    worlds: b?.worlds ?? 0,
    nodes: b?.nodes ?? 0,
    time_ms: finite(b?.timeMs ?? 0, 0),
    // -1: not known (a forced card, or a player without beliefs).
    win_probability: finite(b?.winProbability ?? NaN),
    exact_from_trick: b?.exactFromTrick ?? -1,
    fallback: b?.fallback ?? '',
    explanation: b ? '' : 'the player reports no beliefs',
    inference_trust: b?.inference?.trust ?? -1,
    inference_candidates: b?.inference?.candidates ?? 0,
    inference_effective: b?.inference?.effective ?? -1,
    objective: b?.objective ?? '',
    points_from: b?.points ?? '',
    move_victories:
      b && b.moves.length && b.moves.every((m) => m.victories !== undefined)
        ? b.moves.map((m) => finite(m.victories!, 0))
        : [],
    ...reasonFields(b?.reason),
  };
}

/**
 * The values the robot's own search gave the card it played and the card its reason compares with
 * (the next best), as `decidingEdge` reads them; null when the message carries no such pair.
 */
export function movePairOfMessage(m: DecisionMessage): { chosen: MoveValue; other: MoveValue } | null {
  const value = (card: string): MoveValue | null => {
    const move = m.moves.find((x) => x.card === card);
    return move && move.win_probability >= 0
      ? { card: parseCard(card), points: move.mean, win: move.win_probability }
      : null;
  };
  const chosen = m.card ? value(m.card) : null;
  const otherCard = m.reason_other || m.moves.find((x) => x.card !== m.card)?.card;
  const other = otherCard ? value(otherCard) : null;
  return chosen && other ? { chosen, other } : null;
}

/** The reason a decision message carries (the inverse of reasonFields), or null: none found, or an older recording. */
export function reasonOfMessage(m: DecisionMessage): ReasonSummary | null {
  if (!isReasonKind(m.reason_kind) || !m.card || !m.reason_other) return null;
  const suit = SUITS.indexOf(m.reason_suit as SuitLetter);
  return {
    kind: m.reason_kind,
    card: parseCard(m.card),
    other: parseCard(m.reason_other),
    support: m.reason_support,
    ...(m.reason_points >= 0 ? { points: m.reason_points } : {}),
    ...(suit >= 0 ? { suit: suit as Suit } : {}),
    ...(m.reason_kept ? { kept: parseCard(m.reason_kept) } : {}),
  };
}

/** A decision's reason as the message's fields (empty and -1 without one). */
function reasonFields(
  r: ReasonSummary | undefined,
): Pick<
  DecisionMessage,
  'reason_kind' | 'reason_other' | 'reason_support' | 'reason_points' | 'reason_suit' | 'reason_kept'
> {
  return {
    reason_kind: r?.kind ?? '',
    reason_other: r ? formatCard(r.other) : '',
    reason_support: r ? finite(r.support, 0) : -1,
    reason_points: r?.points ?? -1,
    reason_suit: r?.suit === undefined ? '' : SUITS[r.suit],
    reason_kept: r?.kept === undefined ? '' : formatCard(r.kept),
  };
}

export const robotPlayOutput = (seat: Seat, c: Card): TableOutput => ({
  kind: 'robot_play',
  seat,
  card: formatCard(c),
  code: '',
  text: `the robot plays ${formatCard(c)}`,
});
export const promptOutput = (p: Prompt): TableOutput => ({
  kind: 'prompt',
  seat: p.seat ?? -1,
  card: card(p.card),
  code: p.kind.replaceAll('-', '_'),
  text: p.text,
});
export const rejectedOutput = (r: Rejection, seat: Seat | -1 = -1, c: Card | null = null): TableOutput => ({
  kind: 'rejected',
  seat,
  card: card(c),
  code: r.code.replaceAll('-', '_'),
  text: r.reason,
});

/** The fields a kind of table event does not use. */
const noTable = (): Pick<
  TableEvent,
  'seats' | 'table_name' | 'table_kind' | 'reason' | 'event' | 'code' | 'repeats' | 'first_seq'
> => ({
  seats: [],
  table_name: '',
  table_kind: '',
  reason: '',
  event: '',
  code: '',
  repeats: 0,
  first_seq: 0,
});

export function cardTableEvent(kind: 'card_detected' | 'card_removed', e: CardEvent): TableEvent {
  return {
    table_id: e.table.id,
    seq: e.seq,
    kind,
    zone: e.zone.area,
    seat: e.zone.seat,
    fiducial: e.fiducial ?? -1,
    card: formatCard(e.card),
    action: '',
    dealer: -1,
    trump_card: '',
    ...noTable(),
  };
}

/** A table said hello (with a good token and version): which seats it hosts, so a replay knows too. */
export function helloTableEvent(t: TableInfo): TableEvent {
  return {
    table_id: t.id,
    seq: 0,
    kind: 'hello',
    zone: '',
    seat: -1,
    fiducial: -1,
    card: '',
    action: '',
    dealer: -1,
    trump_card: '',
    ...noTable(),
    seats: [...t.seats],
    table_name: t.name,
    table_kind: t.kind,
  };
}

export function disconnectTableEvent(t: TableInfo, reason: string): TableEvent {
  return {
    table_id: t.id,
    seq: 0,
    kind: 'disconnect',
    zone: '',
    seat: -1,
    fiducial: -1,
    card: '',
    action: '',
    dealer: -1,
    trump_card: '',
    ...noTable(),
    reason,
  };
}

export function controlTableEvent(e: ControlEvent): TableEvent {
  const deal = e.action === 'new-game' ? e.deal : null;
  return {
    table_id: e.table.id,
    seq: e.seq,
    kind: 'control',
    zone: '',
    seat: -1,
    fiducial: -1,
    card: '',
    action: e.action.replaceAll('-', '_'),
    dealer: deal ? deal.dealer : -1,
    trump_card: deal ? formatCard(deal.trumpCard) : '',
    ...noTable(),
  };
}

/** Copies of a refused event, answered by the table bridge, as one message (see TableEventMsg). */
export function refusedAgainTableEvent(a: RefusedAgain): TableEvent {
  const base =
    'zone' in a.event
      ? cardTableEvent(a.name === 'card:removed' ? 'card_removed' : 'card_detected', a.event)
      : controlTableEvent(a.event);
  return {
    ...base,
    kind: 'refused_again',
    event: a.name,
    code: a.verdict.code,
    reason: a.verdict.reason,
    repeats: a.count,
    first_seq: a.firstSeq,
  };
}

/** The end-of-game review of game `game` (0-based) as its bus message. */
export function reviewMessage(game: number, r: GameReview): GameReviewMessage {
  return {
    game,
    status: r.status,
    dealt_points: r.dealt ?? -1,
    final_points: r.final ?? -1,
    changes: r.changes,
    values: r.values,
    moments: r.moments.map((m) => ({
      play: m.play,
      trick: m.trick,
      seat: m.seat,
      card: formatCard(m.card),
      better: m.better === null ? '' : formatCard(m.better),
      points_before: m.before,
      points_after: m.after,
    })),
    nodes: r.nodes,
    detail: '',
  };
}

/** The review a message carries (the inverse of reviewMessage), or null when it failed. */
export function reviewOfMessage(m: GameReviewMessage): GameReview | null {
  if (m.status !== 'reviewed' && m.status !== 'renounce' && m.status !== 'incomplete') return null;
  return {
    status: m.status,
    dealt: m.dealt_points < 0 ? null : m.dealt_points,
    final: m.final_points < 0 ? null : m.final_points,
    changes: m.changes,
    values: [...m.values],
    moments: m.moments.map((x) => ({
      play: x.play,
      trick: x.trick,
      seat: x.seat as Seat,
      card: parseCard(x.card),
      better: x.better ? parseCard(x.better) : null,
      before: x.points_before,
      after: x.points_after,
    })),
    nodes: m.nodes,
  };
}

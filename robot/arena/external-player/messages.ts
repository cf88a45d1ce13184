// The external-player protocol's messages (see PROTOCOL.md): what the runtime writes to a player's stdin,
// what a player may write to its stdout, and a validating parser for the latter. Cards travel as strings
// in card notation ("AS", "7H"); everything else is plain JSON numbers and strings.

import type { Card, GameEvent, Renounce, Seat, SeatView } from '../../../game/index.js';
import { RANKS, SUITS, formatCard, formatCards, parseCard } from '../../../game/index.js';

export const PROTOCOL_VERSION = 1;

/** The rules summary sent with `hello`: enough for a bot to check it speaks the same game. */
const RULES_SUMMARY = {
  game: 'sueca',
  ranks: RANKS.join(' '),
  suits: SUITS.join(' '),
  points: { A: 11, '7': 10, K: 4, J: 3, Q: 2 },
  teams: { A: [0, 2], B: [1, 3] },
  handSize: 10,
  followSuit: true,
  renounce: 'a renounce loses the game: the opponents get 4 victories',
} as const;

type RenounceMessage = { seat: Seat; trick: number; card: string; discovered?: { trick: number; card: string } };

/** Runtime -> player, one JSON object per line. */
export type RuntimeMessage =
  | { type: 'hello'; protocol: typeof PROTOCOL_VERSION; name: string; rules: typeof RULES_SUMMARY }
  | { type: 'deal'; game: number; seat: Seat; dealer: Seat; trump: string; hand: string[] }
  | { type: 'play'; seat: Seat; card: string; trick: number }
  | { type: 'trick'; trick: number; leader: Seat; cards: string[]; winner: Seat; points: number }
  | { type: 'turn'; id: number; seat: Seat; trick: number; legal: string[]; table: string[]; deadlineMs: number }
  | { type: 'timeout'; id: number; card: string; deadlineMs: number }
  | {
      type: 'end';
      points: [number, number];
      outcome: { winner: 'A' | 'B' | 'draw'; victories: number };
      renounce: RenounceMessage | null;
    }
  | { type: 'bye' };

/** Player -> runtime, after validation. */
type PlayerMessage = { type: 'ready'; name: string | null } | { type: 'move'; id: number; card: Card };

/** A line that is not a valid player message; `id` is the turn id when one could still be read. */
interface InvalidLine {
  type: 'invalid';
  reason: string;
  id: number | null;
}

export const helloMessage = (name: string): RuntimeMessage => ({
  type: 'hello',
  protocol: PROTOCOL_VERSION,
  name,
  rules: RULES_SUMMARY,
});

const renounceMessage = (r: Renounce): RenounceMessage => {
  const m: RenounceMessage = { seat: r.seat, trick: r.trick, card: formatCard(r.card) };
  if (r.discovered) m.discovered = { trick: r.discovered.trick, card: formatCard(r.discovered.card) };
  return m;
};

/** A game event as the protocol message a player receives; `game` numbers the deals this player was dealt. */
export function eventMessage(event: GameEvent, game: number): RuntimeMessage {
  switch (event.type) {
    case 'deal':
      return {
        type: 'deal',
        game,
        seat: event.seat,
        dealer: event.dealer,
        trump: formatCard(event.trumpCard),
        hand: formatCards(event.hand),
      };
    case 'play':
      return { type: 'play', seat: event.seat, card: formatCard(event.card), trick: event.trick };
    case 'trick':
      return {
        type: 'trick',
        trick: event.trick,
        leader: event.leader,
        cards: formatCards(event.cards),
        winner: event.winner,
        points: event.points,
      };
    case 'end':
      return {
        type: 'end',
        points: [event.points[0], event.points[1]],
        outcome: { winner: event.outcome.winner, victories: event.outcome.victories },
        renounce: event.renounce ? renounceMessage(event.renounce) : null,
      };
  }
}

/** The request for a move: the legal cards and the cards on the table, from the leader on. */
export function turnMessage(id: number, view: SeatView, deadlineMs: number): RuntimeMessage {
  const table: string[] = [];
  for (let i = 0; i < view.cardsInTrick; i++) table.push(formatCard(view.trickCard(i)));
  return {
    type: 'turn',
    id,
    seat: view.seat,
    trick: view.trick,
    legal: formatCards(view.legalCards()),
    table,
    deadlineMs,
  };
}

/** Shortens a line for error messages and logs. */
export function quoteLine(line: string, max = 120): string {
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}...` : line);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses one line of a player's stdout. Never throws: anything unexpected is an InvalidLine with a reason. */
export function parsePlayerLine(line: string): PlayerMessage | InvalidLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { type: 'invalid', reason: 'not JSON', id: null };
  }
  if (!isObject(value)) return { type: 'invalid', reason: 'not a JSON object', id: null };
  const id = Number.isSafeInteger(value.id) ? (value.id as number) : null;
  switch (value.type) {
    case 'ready':
      if (value.name !== undefined && typeof value.name !== 'string')
        return { type: 'invalid', reason: 'ready: name is not a string', id: null };
      return { type: 'ready', name: typeof value.name === 'string' ? value.name : null };
    case 'move': {
      if (id === null)
        return { type: 'invalid', reason: `move: id ${JSON.stringify(value.id)} is not an integer`, id: null };
      if (typeof value.card !== 'string')
        return { type: 'invalid', reason: `move: card ${JSON.stringify(value.card)} is not a string`, id };
      try {
        return { type: 'move', id, card: parseCard(value.card) };
      } catch {
        return { type: 'invalid', reason: `move: unknown card ${JSON.stringify(value.card)}`, id };
      }
    }
    default:
      return { type: 'invalid', reason: `unknown message type ${JSON.stringify(value.type)}`, id };
  }
}

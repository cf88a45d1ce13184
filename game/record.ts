// Game records: the deal and the cards in order of play. The seat of each play follows from the rules.
//   {"dealer": 0-3, "trump": "7H", "hands": [[10 cards] x 4], "plays": ["AS", ...]}
// `hands` are the hands at the deal (the trump card inside hands[dealer]).

import type { Card } from './cards.js';
import { CardParseError, formatCard, parseCard, pointsOf } from './cards.js';
import type { DealSpec } from './game.js';
import { Game, PlayError } from './game.js';
import { leaderOf } from './events.js';
import type { GameOutcome } from './scoring.js';
import type { Seat } from './seats.js';
import { isSeat } from './seats.js';

export interface GameRecord {
  dealer: Seat;
  trump: string;
  hands: string[][];
  plays: string[];
}

/** A record that cannot be read: `path` names the field or play (`hands[2][3]`, `plays[13]`). */
export class RecordError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'RecordError';
  }
}

export interface ParsedRecord {
  deal: DealSpec & { hands: Card[][] };
  plays: Card[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function card(value: unknown, path: string): Card {
  try {
    return parseCard(value);
  } catch (e) {
    if (e instanceof CardParseError) throw new RecordError(path, e.message);
    throw e;
  }
}

/** Validates a record's deal and card strings (not yet the order of play). */
export function parseRecord(value: unknown): ParsedRecord {
  if (!isObject(value)) throw new RecordError('record', 'expected a JSON object with dealer, trump, hands and plays');
  for (const key of ['dealer', 'trump', 'hands', 'plays']) {
    if (!(key in value)) throw new RecordError(key, 'missing');
  }
  const dealer = value.dealer;
  if (!isSeat(dealer)) throw new RecordError('dealer', `expected a seat 0-3, got ${JSON.stringify(dealer)}`);
  const trumpCard = card(value.trump, 'trump');
  if (!Array.isArray(value.hands) || value.hands.length !== 4) {
    throw new RecordError(
      'hands',
      `expected 4 hands, got ${Array.isArray(value.hands) ? value.hands.length : JSON.stringify(value.hands)}`,
    );
  }
  const where = new Map<Card, string>();
  const hands: Card[][] = value.hands.map((hand: unknown, s: number) => {
    if (!Array.isArray(hand)) throw new RecordError(`hands[${s}]`, 'expected an array of 10 cards');
    if (hand.length !== 10) throw new RecordError(`hands[${s}]`, `expected 10 cards, got ${hand.length}`);
    return hand.map((v: unknown, i: number) => {
      const path = `hands[${s}][${i}]`;
      const c = card(v, path);
      const first = where.get(c);
      if (first) throw new RecordError(path, `${formatCard(c)} was dealt twice (also at ${first})`);
      where.set(c, path);
      return c;
    });
  });
  if (!hands[dealer]!.includes(trumpCard)) {
    throw new RecordError('trump', `${formatCard(trumpCard)} is not in the dealer's hand (hands[${dealer}])`);
  }
  if (!Array.isArray(value.plays)) throw new RecordError('plays', 'expected an array of cards');
  const plays = value.plays.map((v: unknown, i: number) => card(v, `plays[${i}]`));
  return { deal: { dealer, trumpCard, hands }, plays };
}

interface ScoredTrick {
  leader: Seat;
  cards: string[];
  /** null for a trick still being played when the record ends. */
  winner: Seat | null;
  points: number | null;
}

export interface ScoreReport {
  tricks: ScoredTrick[];
  points: [number, number];
  complete: boolean;
  result: GameOutcome | null;
  /** `trick` indexes `tricks`. */
  renounce: null | { seat: Seat; trick: number; card: string };
  /** Plays in the record after a renounce ended the game; they are not scored. */
  unscoredPlays: number;
}

/** Replays a record through the rules. Throws RecordError naming the play that cannot happen. */
function replayRecord(parsed: ParsedRecord): { game: Game; unscoredPlays: number } {
  const game = new Game(parsed.deal);
  for (let i = 0; i < parsed.plays.length; i++) {
    if (game.status === 'renounce') return { game, unscoredPlays: parsed.plays.length - i };
    if (game.isOver)
      throw new RecordError(
        `plays[${i}]`,
        `the game is over after 40 cards; ${parsed.plays.length - i} more play(s) in the record`,
      );
    const c = parsed.plays[i]!;
    try {
      game.play(c);
    } catch (e) {
      if (!(e instanceof PlayError)) throw e;
      const seat = game.toMove;
      const detail =
        e.code === 'already-played'
          ? `${formatCard(c)} was already played (at plays[${parsed.plays.indexOf(c)}])`
          : `${formatCard(c)} is not in the hand of seat ${seat}, whose turn it is`;
      throw new RecordError(`plays[${i}]`, detail);
    }
  }
  return { game, unscoredPlays: 0 };
}

export function scoreGame(game: Game, unscoredPlays = 0): ScoreReport {
  const tricks: ScoredTrick[] = [];
  const full = Math.floor(game.plays / 4);
  for (let k = 0; k * 4 < game.plays; k++) {
    const cards: string[] = [];
    for (let i = k * 4; i < Math.min(game.plays, k * 4 + 4); i++) cards.push(formatCard(game.playAt(i)));
    const done = k < full && k < game.trick;
    let points: number | null = null;
    if (done) {
      points = 0;
      for (let i = k * 4; i < k * 4 + 4; i++) points += pointsOf(game.playAt(i));
    }
    tricks.push({ leader: leaderOf(game, k), cards, winner: done ? game.trickWinner(k) : null, points });
  }
  const r = game.renounce;
  return {
    tricks,
    points: [game.points(0), game.points(1)],
    complete: game.isOver,
    result: game.outcome,
    renounce: r ? { seat: r.seat, trick: r.trick, card: formatCard(r.card) } : null,
    unscoredPlays,
  };
}

export function scoreRecord(value: unknown): ScoreReport {
  const { game, unscoredPlays } = replayRecord(parseRecord(value));
  return scoreGame(game, unscoredPlays);
}

/** The record of a game played from `deal` (hands at the deal, plays so far). */
export function recordOf(
  deal: Omit<DealSpec, 'hands'> & { hands: readonly (readonly Card[])[] },
  game: Game,
): GameRecord {
  const plays: string[] = [];
  for (let i = 0; i < game.plays; i++) plays.push(formatCard(game.playAt(i)));
  return {
    dealer: deal.dealer,
    trump: formatCard(deal.trumpCard),
    hands: deal.hands.map((h) => h.map(formatCard)),
    plays,
  };
}

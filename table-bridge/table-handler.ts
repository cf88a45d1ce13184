// The seam between the table bridge and whatever runs the session: the bridge validates and maps
// inbound events and hands them to a TableHandler (the session machine in robot/, or the local
// referee), and the handler talks back to the tables through a TableOutbox. Events arrive here already
// checked and in domain types (Card, Seat); the handler decides only what the game makes of them.

import type { Card, Game, Seat } from '../game/index.js';
import { formatCard } from '../game/index.js';
import type { PROMPT_KINDS, RejectCode, TableKind } from './messages.js';

/** A table that said hello: its stable id, and the seats whose players sit at it. */
export interface TableInfo {
  readonly id: string;
  readonly name: string;
  readonly kind: TableKind;
  readonly seats: readonly Seat[];
}

interface CardZone {
  area: 'hand' | 'play';
  seat: Seat;
}

/** A card detected in, or removed from, a zone. */
export interface CardEvent {
  table: TableInfo;
  seq: number;
  zone: CardZone;
  card: Card;
  /** The fiducial it was read by; null when the table named the card in notation. */
  fiducial: number | null;
}

/** The dealer and the turned-up card of a deal made by people at the table. */
interface PhysicalDeal {
  dealer: Seat;
  trumpCard: Card;
}

export type ControlEvent =
  /** `deal` null: the runtime deals (virtual, simulated tables); otherwise the cards were dealt by hand. */
  | { table: TableInfo; seq: number; action: 'new-game'; deal: PhysicalDeal | null }
  | { table: TableInfo; seq: number; action: 'pause' | 'resume' | TableQuestion };

/** Questions for the robot, not the session: accepted at once, answered aloud by the node, nothing in the game changes. */
type TableQuestion = 'why' | 'review';
export const isTableQuestion = (action: string): action is TableQuestion => action === 'why' || action === 'review';

export type TableEventName = 'card:detected' | 'card:removed' | 'game:control';

/**
 * What an event says, in words (the seq aside): the ledger tells an event sent again from a seq
 * used again for another event by it, and a restart rebuilds it from the recorded events.
 */
export function eventFingerprint(name: TableEventName, e: CardEvent | ControlEvent): string {
  if ('zone' in e)
    return `${name} ${formatCard(e.card)} on seat ${e.zone.seat}'s ${e.zone.area === 'play' ? 'spot' : 'hand area'}`;
  if (e.action === 'new-game')
    return e.deal
      ? `new-game dealt by seat ${e.deal.dealer} with ${formatCard(e.deal.trumpCard)} turned up`
      : 'new-game';
  return e.action;
}

/** The handler's answer to one event; a refusal is sent back in the event's ack and must change nothing. */
export type Verdict = { ok: true; note?: string } | { ok: false; code: RejectCode; reason: string };

export const accept = (note?: string): Verdict => (note === undefined ? { ok: true } : { ok: true, note });
export const refuse = (code: RejectCode, reason: string): Verdict => ({ ok: false, code, reason });

/** What the handler shows of its session; the bridge projects it per table (see table-state.ts). */
export interface SessionSnapshot {
  /** Grows with every change a table may see; a restarted runtime rebuilds it from its recording, so it never goes back. */
  version: number;
  session: {
    id: string;
    games: number | null;
    played: number;
    victories: [number, number];
    draws: number;
    complete: boolean;
  };
  robotSeat: Seat;
  paused: boolean;
  game: {
    index: number;
    deal: 'runtime' | 'physical';
    /** Read only by the projection; never sent as such. */
    game: Game;
    /** The robot's announced card, waiting to be placed (physical deals). */
    awaiting: { seat: Seat; card: Card } | null;
    /** Physical deals: how many of the robot's ten cards were read from its hand area (play starts at ten). */
    robotCards?: number;
    /** Physical deals: the cards lying on the play spots (the trick they were played in). */
    spots?: readonly { seat: Seat; card: Card; trick: number }[];
  } | null;
}

export interface TableHandler {
  /** A table said hello with a good token and version: may it join (e.g. are its seats free)? */
  onHello(table: TableInfo): Verdict;
  onCardDetected(event: CardEvent): Verdict | Promise<Verdict>;
  onCardRemoved(event: CardEvent): Verdict | Promise<Verdict>;
  onControl(event: ControlEvent): Verdict | Promise<Verdict>;
  /** The table's connection is gone (it may come back with the same id). */
  onDisconnect?(table: TableInfo, reason: string): void;
  /**
   * The same event was sent again and again under new seqs while nothing changed, and was refused as
   * its first copy was: the bridge answered the copies itself and reports them here, in one record per
   * batch instead of one per copy (the recording keeps them; `event` carries the last copy's seq).
   */
  onRefusedAgain?(again: RefusedAgain): void;
  /** The session as it is now; sent, projected, on hello and on every pushState. */
  snapshot(): SessionSnapshot;
}

/** Copies of a refused event, answered by the bridge without the handler (see onRefusedAgain). */
export interface RefusedAgain {
  name: TableEventName;
  /** The last copy (its seq is the batch's last). */
  event: CardEvent | ControlEvent;
  firstSeq: number;
  /** How many copies the batch holds. */
  count: number;
  verdict: Extract<Verdict, { ok: false }>;
}

type PromptKind = (typeof PROMPT_KINDS)[number];
export interface Prompt {
  kind: PromptKind;
  seat?: Seat;
  card?: Card;
  /** put-back: the grace time (ms). */
  withinMs?: number;
  text: string;
}

export interface Rejection {
  code: RejectCode;
  reason: string;
  event?: string;
  seq?: number;
}

/** One table's answer to a message that asks for one: it replied ok, replied not ok, or did not reply in time. */
export interface Delivery {
  table: string;
  result: 'ok' | 'refused' | 'timeout';
}

/** What a handler may send to the tables. The TableServer implements it. */
export interface TableOutbox {
  /** Sends every connected table the current state, each its own projection. */
  pushState(): void;
  /** The robot's card, to every table; resolves when each has answered or timed out. */
  announceRobotPlay(play: { game: number; trick: number; seat: Seat; card: Card }): Promise<Delivery[]>;
  /** A seat's private hand, to the tables hosting that seat only. */
  sendHand(game: number, seat: Seat, cards: readonly Card[]): Promise<Delivery[]>;
  /** To one table by id, or to all. */
  prompt(prompt: Prompt, to?: string): void;
  /** A refusal that is not the answer to an event in flight (e.g. a card not put back in time). */
  reject(rejection: Rejection, to?: string): void;
}

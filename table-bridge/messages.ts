// The table protocol's messages (see PROTOCOL.md), as zod schemas; every TypeScript type of the wire is
// derived from them, so the validator and the types cannot drift apart. Cards travel as strings in card
// notation ("AS", "7H") or as fiducial ids; seats are 0..3. Objects ignore unknown fields (new fields
// may appear within a protocol version).

import * as z from 'zod';
import type { YamlConfigOptions } from '../config/index.js';
import type { Seat } from '../game/index.js';
import { parseCard } from '../game/index.js';
import { PROTOCOL_VERSION } from './table-client.js';

// Defined with the clients' core, which the browser's virtual table imports without this file.
export { PROTOCOL_VERSION, TABLE_NAMESPACE } from './table-client.js';

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s =
      typeof v === 'string'
        ? JSON.stringify(v)
        : Array.isArray(v)
          ? `an array of ${v.length}`
          : typeof v === 'object' && v !== null
            ? 'an object'
            : String(v);
  } catch {
    s = typeof v;
  }
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

const isCardName = (v: string): boolean => {
  try {
    parseCard(v);
    return true;
  } catch {
    return false;
  }
};

// ---- building blocks -----------------------------------------------------------------------------

export const seatSchema = z
  .int({ error: (iss) => `expected a seat 0..3, got ${show(iss.input)}` })
  .min(0)
  .max(3)
  // Checked above; typed as the engine's Seat from here on.
  .transform((n) => n as Seat);

export const cardNameSchema = z
  .string({ error: (iss) => `expected a card such as "AS" or "7H", got ${show(iss.input)}` })
  .max(8, { error: (iss) => `unknown card ${show(iss.input)}` })
  .refine(isCardName, { error: (iss) => `unknown card ${show(iss.input)}` });

const fiducialIdSchema = z
  .int({ error: (iss) => `expected a fiducial id (a whole number 0 or more), got ${show(iss.input)}` })
  .min(0, { error: (iss) => `expected a fiducial id (a whole number 0 or more), got ${show(iss.input)}` });

const seqSchema = z
  .int({ error: (iss) => `expected a sequence number (a whole number 1 or more), got ${show(iss.input)}` })
  .min(1, { error: (iss) => `expected a sequence number (a whole number 1 or more), got ${show(iss.input)}` });

const TABLE_KINDS = ['touch', 'virtual', 'simulated'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

const ZONE_AREAS = ['hand', 'play'] as const;
/** Where a card lies: a seat's hand area, or that seat's spot in the play area. */
const zoneSchema = z.object({ area: z.enum(ZONE_AREAS), seat: seatSchema });
export type Zone = z.infer<typeof zoneSchema>;

/** A card named by its fiducial id or in notation: exactly one of the two. */
const cardRefShape = { fiducial: fiducialIdSchema.optional(), card: cardNameSchema.optional() };
const exactlyOneRef = (
  v: { fiducial?: number | undefined; card?: string | undefined },
  ctx: z.core.$RefinementCtx,
): void => {
  if ((v.fiducial === undefined) === (v.card === undefined)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected exactly one of fiducial or card, got ${v.card === undefined ? 'neither' : 'both'}`,
      input: v,
    });
  }
};
const cardRefSchema = z.object(cardRefShape).superRefine(exactlyOneRef);
export type CardRef = z.infer<typeof cardRefSchema>;

// ---- table -> runtime ------------------------------------------------------------------------------

const helloSchema = z.object({
  protocol: z.int(),
  token: z.string().min(1).max(512),
  table: z.object({
    /** Stable across reconnections: the runtime resyncs a returning table by this id. */
    id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, {
      error: (iss) => `expected 1-64 letters, digits, '.', '_' or '-', got ${show(iss.input)}`,
    }),
    name: z.string().min(1).max(100),
    kind: z.enum(TABLE_KINDS),
  }),
  /** The seats whose players sit at this table: it reports their cards and may see their hands. */
  seats: z
    .array(seatSchema)
    .max(4)
    .refine((s) => new Set(s).size === s.length, { error: 'a seat is listed twice' }),
  /**
   * true: the table also gets `robot:behaviour` messages (the robot's face, gaze, speech and feeling,
   * for a table that shows the robot). Added within version 1; absent or false: none.
   */
  behaviour: z.boolean().optional(),
});
export type Hello = z.infer<typeof helloSchema>;

const cardDetectedSchema = z.object({ seq: seqSchema, zone: zoneSchema, ...cardRefShape }).superRefine(exactlyOneRef);
export type CardDetectedMessage = z.infer<typeof cardDetectedSchema>;

const cardRemovedSchema = cardDetectedSchema;
export type CardRemovedMessage = z.infer<typeof cardRemovedSchema>;

const gameControlSchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      seq: seqSchema,
      action: z.literal('new-game'),
      /** A physical deal: the dealer and the card they turned up. Absent: the runtime deals. */
      deal: z.object({ dealer: seatSchema, trump: cardRefSchema }).optional(),
    }),
    z.object({ seq: seqSchema, action: z.literal('pause') }),
    z.object({ seq: seqSchema, action: z.literal('resume') }),
    /** A person asks why the robot played its last card: it answers aloud (and on the tables that show its behaviour). */
    z.object({ seq: seqSchema, action: z.literal('why') }),
    /** A person asks how the last game went: the robot tells its end-of-game review aloud. */
    z.object({ seq: seqSchema, action: z.literal('review') }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `expected "new-game", "pause", "resume", "why" or "review", got ${show((iss.input as { action?: unknown } | undefined)?.action)}`
        : undefined,
  },
);
export type GameControlMessage = z.infer<typeof gameControlSchema>;

// ---- acknowledgements ----------------------------------------------------------------------------

export const REJECT_CODES = [
  'invalid', // the message does not match its schema
  'unknown-fiducial', // a fiducial id that is not in the mapping
  'no-hello', // an event before a hello was accepted on this connection
  'bad-token',
  'wrong-version',
  'seat-taken', // hello: a seat is the robot's or hosted by another table
  'not-your-seat', // a card reported for a seat this table does not host
  'no-game', // no game is being played
  'game-over',
  'game-in-progress', // new-game while a game is being played
  'session-over',
  'out-of-turn',
  'not-in-hand',
  'already-played',
  'trump-card-in-dealer-hand',
  'robot-card-mismatch', // the card placed for the robot is not the one it announced
  'paused',
  'stale-seq', // a sequence number below the last one seen, whose answer is forgotten
  'seq-reused', // a sequence number already answered for a different event
  'unknown-event', // an event name this protocol does not have
  'too-large', // a message over the protocol's 64 KiB
  'replaced', // (rejected only) the same table id said hello on another connection: this one is closed
  'rate-limited', // more events than a table may send: nothing applied; send again after retryAfterMs
  'too-many-attempts', // hello: too many refused tokens from this address; wait retryAfterMs
  'display-only', // a table hosting no seat shows the game and cannot change it
  'unsupported', // understood, but this runtime does not do it
  'internal', // the runtime failed; the event changed nothing
] as const;
export type RejectCode = (typeof REJECT_CODES)[number];

const refusalSchema = z.object({
  ok: z.literal(false),
  code: z.enum(REJECT_CODES),
  reason: z.string(),
  /** rate-limited, too-many-attempts: the wait before sending again (ms). */
  retryAfterMs: z.int().optional(),
});

export const eventAckSchema = z.union([
  z.object({
    ok: z.literal(true),
    seq: z.int(),
    /** The event was seen before (same seq): this is its original answer, nothing was applied again. */
    duplicate: z.literal(true).optional(),
    /** Accepted without a change (e.g. the card is already there), in words. */
    note: z.string().optional(),
  }),
  refusalSchema.extend({ seq: z.int().nullable() }),
]);
export type EventAck = z.infer<typeof eventAckSchema>;

// ---- runtime -> table ----------------------------------------------------------------------------

const playSchema = z.object({ seat: seatSchema, card: cardNameSchema });
const outcomeSchema = z.object({ winner: z.enum(['A', 'B', 'draw']), victories: z.int() });
const renounceSchema = z.object({
  seat: seatSchema,
  trick: z.int(),
  card: cardNameSchema,
  discovered: z.object({ trick: z.int(), card: cardNameSchema }).optional(),
});

export const GAME_STATUSES = ['playing', 'complete', 'renounce'] as const;

/** A physical card lying on a seat's play spot, and the trick it was played in. */
const lyingSchema = z.object({ seat: seatSchema, card: cardNameSchema, trick: z.int() });

const gameStateSchema = z.object({
  /** 0-based index of the game in the session. */
  index: z.int(),
  /** Who dealt the cards: the runtime (virtual, simulated tables) or people at the table. */
  deal: z.enum(['runtime', 'physical']),
  dealer: seatSchema,
  trumpCard: cardNameSchema,
  trumpCardPlayed: z.boolean(),
  /** `playing` (also while a physical deal's robot hand is read: then `toMove` is null), `complete` (ten tricks), `renounce` (ended by a renounce). */
  status: z.enum(GAME_STATUSES),
  /** 0..9, 10 when the game is complete. */
  trick: z.int(),
  leader: seatSchema,
  toMove: seatSchema.nullable(),
  /** The current trick, from its leader on. */
  table: z.array(playSchema),
  /** Every card of the game in order of play (public: everyone saw them). */
  plays: z.array(playSchema),
  lastTrick: z
    .object({ leader: seatSchema, cards: z.array(cardNameSchema), winner: seatSchema, points: z.int() })
    .nullable(),
  points: z.tuple([z.int(), z.int()]),
  handSizes: z.tuple([z.int(), z.int(), z.int(), z.int()]),
  /** The current hands of the seats this table hosts, when the runtime knows them; never another seat's. */
  hands: z.array(z.object({ seat: seatSchema, cards: z.array(cardNameSchema) })),
  outcome: outcomeSchema.nullable(),
  renounce: renounceSchema.nullable(),
  /** The robot's announced card, waiting to be placed on its spot (physical deals). */
  awaiting: playSchema.nullable(),
  /**
   * Physical deals only: how many of the robot's ten cards the runtime has read from its hand area
   * (never which). Below ten nobody may play and `toMove` is null. Added within version 1.
   */
  robotCards: z.int().min(0).max(10).optional(),
  /**
   * Physical deals only: the cards lying on the play spots, as the runtime knows them from the
   * table's reports: the current trick's and those of finished tricks not yet gathered. Added within
   * version 1.
   */
  spots: z.array(lyingSchema).optional(),
});
export type GameState = z.infer<typeof gameStateSchema>;

/** Who holds each seat now: the robot, a connected table (by its name and kind), or nobody yet. */
const seatingSchema = z.array(
  z.object({
    seat: seatSchema,
    holder: z.enum(['robot', 'table', 'free']),
    /** The table's name when a table holds the seat; "" otherwise. */
    name: z.string(),
    kind: z.enum(TABLE_KINDS).nullable(),
  }),
);
export type Seating = z.infer<typeof seatingSchema>;

export const tableStateSchema = z.object({
  protocol: z.literal(PROTOCOL_VERSION),
  /**
   * Grows with every change of the session (never goes back, across a restart too): keep the state
   * with the highest version (on equal versions, the later one). Added within version 1.
   */
  version: z.int().min(0).optional(),
  session: z.object({
    id: z.string(),
    /** Games planned; null when open-ended. */
    games: z.int().nullable(),
    /** Games finished so far. */
    played: z.int(),
    victories: z.tuple([z.int(), z.int()]),
    draws: z.int(),
    complete: z.boolean(),
  }),
  robotSeat: seatSchema,
  paused: z.boolean(),
  game: gameStateSchema.nullable(),
  /** Seats 0..3 in order (added within version 1: absent from older runtimes). */
  seats: seatingSchema.optional(),
  /**
   * The session's language (BCP 47: pt or en), the robot's and the one prompts are written in; it
   * follows the operator's switch. Added within version 1: absent when the runtime does not say.
   */
  language: z.string().max(35).optional(),
});
export type TableState = z.infer<typeof tableStateSchema>;

export const helloAckSchema = z.union([
  z.object({
    ok: z.literal(true),
    protocol: z.literal(PROTOCOL_VERSION),
    session: z.string(),
    table: z.string(),
    /** The highest sequence number the runtime has from this table id: continue above it. */
    lastSeq: z.int(),
    state: tableStateSchema,
  }),
  refusalSchema,
]);
export type HelloAck = z.infer<typeof helloAckSchema>;

export const robotPlaySchema = z.object({
  game: z.int(),
  trick: z.int(),
  seat: seatSchema,
  card: cardNameSchema,
  /** The fiducial of the card, for a table that highlights or asks for the physical card. */
  fiducial: z.int().nullable(),
});
export type RobotPlayMessage = z.infer<typeof robotPlaySchema>;

export const handSchema = z.object({ game: z.int(), seat: seatSchema, cards: z.array(cardNameSchema) });
export type HandMessage = z.infer<typeof handSchema>;

export const PROMPT_KINDS = [
  'turn',
  'place-robot-card',
  'put-back',
  'gather',
  'new-game',
  'game-over',
  'session-over',
  'info',
] as const;
export const promptSchema = z.object({
  kind: z.enum(PROMPT_KINDS),
  seat: seatSchema.optional(),
  card: cardNameSchema.optional(),
  /** put-back: the card must be back on its spot within this many ms, or the table gets a `rejected`. */
  withinMs: z.int().optional(),
  /** For people, in the session's language. */
  text: z.string(),
});
export type PromptMessage = z.infer<typeof promptSchema>;

export const rejectedSchema = z.object({
  code: z.enum(REJECT_CODES),
  reason: z.string(),
  /** The inbound event this refers to, when there is one. */
  event: z.string().optional(),
  seq: z.int().optional(),
  /** rate-limited: the wait before sending again (ms). */
  retryAfterMs: z.int().optional(),
});
export type RejectedMessage = z.infer<typeof rejectedSchema>;

/**
 * What the robot shows, as it shows it (tables that asked in their hello): public by nature, since the
 * people at a real table see and hear it too. Never its hand, decisions or beliefs. `atMs`: when the
 * runtime made it (ms since the epoch, the runtime's clock).
 */
const behaviourBase = { atMs: z.number() };
const GAZE_TARGETS = ['seat', 'card', 'play-area', 'own-cards'] as const;
export const robotBehaviourSchema = z.discriminatedUnion('kind', [
  z.object({
    ...behaviourBase,
    kind: z.literal('posture'),
    /** EMYS joint targets by ROS joint name: degrees, millimetres for the eyes' protrusion (config/postures.yaml). */
    joints: z.record(z.string().max(64), z.number()),
    /** Time to reach them (ms). */
    durationMs: z.number().min(0),
  }),
  z.object({
    ...behaviourBase,
    kind: z.literal('expression'),
    /** ROS4HRI names: neutral, happy, sad, angry, surprised, scared, disgusted... */
    expression: z.string().max(64),
    valence: z.number(),
    arousal: z.number(),
  }),
  z.object({
    ...behaviourBase,
    kind: z.literal('gaze'),
    /** A seat's player (`seat`), the card a seat just played (`card`), the middle of the table, or the robot's own cards. */
    target: z.enum(GAZE_TARGETS),
    /** The seat of `seat` and `card` targets; null otherwise. */
    seat: seatSchema.nullable(),
  }),
  z.object({
    ...behaviourBase,
    kind: z.literal('utterance'),
    /** start: it begins to say `text`; end: it has said it. */
    phase: z.enum(['start', 'end']),
    /** The same for a line's start and end. */
    id: z.string().max(200),
    text: z.string().max(2000),
    /** BCP 47: pt or en. */
    language: z.string().max(35),
    /** Whom it speaks to: its partner, an opponent, or everyone. */
    to: z.enum(['partner', 'opponent', 'all']),
    /** The seat it addresses, when one; null otherwise. */
    addressee: seatSchema.nullable(),
    /**
     * A line to the opponents: to one (the addressee) or to both (the addressee is the one it is
     * about). Absent: not known (an older node), or not a line to the opponents.
     */
    audience: z.enum(['one', 'both']).optional(),
  }),
  z.object({
    ...behaviourBase,
    kind: z.literal('feeling'),
    /** Its strongest emotion now (an OCC type: joy, distress, pity, ...); "" when it feels nothing much. */
    strongest: z.string().max(64),
    /** Its mood, -1 (low) .. 1 (high). */
    mood: z.number(),
    /** Its strongest emotions, strongest first (at most 5), each with the seat it is about (null: none, or a team). */
    emotions: z
      .array(z.object({ type: z.string().max(64), intensity: z.number(), seat: seatSchema.nullable() }))
      .max(5),
  }),
]);
export type RobotBehaviourMessage = z.infer<typeof robotBehaviourSchema>;

/** The table's answer to a message that asks for one (`robot:play`, `hand`). */
export const tableReplySchema = z.object({ ok: z.boolean() });
export type TableReply = z.infer<typeof tableReplySchema>;

// ---- validation ----------------------------------------------------------------------------------

export const INBOUND_SCHEMAS = {
  hello: helloSchema,
  'card:detected': cardDetectedSchema,
  'card:removed': cardRemovedSchema,
  'game:control': gameControlSchema,
} as const;
export type InboundEvent = keyof typeof INBOUND_SCHEMAS;

export type Validated<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Generic wording for issues whose schema has no message of its own: what was expected, what came. */
export const wording = (iss: z.core.$ZodRawIssue): string | undefined => {
  switch (iss.code) {
    case 'invalid_type':
      return `expected ${iss.expected}, got ${show(iss.input)}`;
    case 'invalid_value':
      return `expected ${iss.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${show(iss.input)}`;
    case 'too_big':
      return `expected at most ${String(iss.maximum)}${iss.origin === 'string' ? ' characters' : iss.origin === 'array' ? ' items' : ''}, got ${iss.origin === 'number' || iss.origin === 'int' ? show(iss.input) : 'more'}`;
    case 'too_small':
      return `expected at least ${String(iss.minimum)}${iss.origin === 'string' ? ' characters' : iss.origin === 'array' ? ' items' : ''}, got ${iss.origin === 'number' || iss.origin === 'int' ? show(iss.input) : 'fewer'}`;
    default:
      return undefined;
  }
};

/**
 * How the table's files (config/table/) are read: in the wording of the protocol's messages, and, as
 * their users have always been told, the first mistake only, by its line.
 */
export const TABLE_CONFIG_OPTIONS: YamlConfigOptions = { error: wording, firstOnly: true, columns: false };

/** `event.a.b[2]`: where in a message (or file) an issue is. */
const formatPath = (event: string, path: readonly PropertyKey[]): string =>
  path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : `${acc}.${String(k)}`), event);

/** Formats zod issues as `event.path: reason; ...`, the first few only. */
export function describeIssues(event: string, issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 3).map((i) => `${formatPath(event, i.path)}: ${i.message}`);
  if (issues.length > 3) parts.push(`and ${issues.length - 3} more`);
  return parts.join('; ');
}

/**
 * Validates one inbound payload against its event's schema. Never throws: anything that does not fit
 * comes back with a reason that names the field and what was wrong, e.g.
 * `card:detected.zone.seat: expected a seat 0..3, got 7`.
 */
export function validateInbound<E extends InboundEvent>(
  event: E,
  payload: unknown,
): Validated<z.infer<(typeof INBOUND_SCHEMAS)[E]>> {
  try {
    const r = INBOUND_SCHEMAS[event].safeParse(payload, { error: wording });
    if (r.success) return { ok: true, value: r.data as z.infer<(typeof INBOUND_SCHEMAS)[E]> };
    return { ok: false, reason: describeIssues(event, r.error.issues) };
  } catch (err) {
    // A payload zod cannot even walk (a getter that throws, a revoked proxy): still a reason, not a crash.
    return { ok: false, reason: `${event}: unreadable payload (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** Validates a runtime -> table message (tables use it; tests use it to keep the server honest). */
export function validateOutbound<T>(schema: z.ZodType<T>, name: string, payload: unknown): Validated<T> {
  const r = schema.safeParse(payload, { error: wording });
  return r.success ? { ok: true, value: r.data } : { ok: false, reason: describeIssues(name, r.error.issues) };
}

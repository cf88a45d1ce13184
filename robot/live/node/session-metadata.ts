// A session's settings as its recording keeps them: the MCAP metadata `parceiro.session`, a map of
// strings. One schema, a codec per key, so the node writes them and a replay or a restart reads them
// back through the same code. Adding a session setting to recordings is one line of SESSION_FIELDS,
// plus the value the node writes (parceiro-node.ts) and, where a replay or restart must run with it,
// where replay-settings.ts hands it on (see `advice`). A recording is data: each value is checked on
// the way in, and one that does not fit is reported by key, never followed or trusted.

import { z } from 'zod';
import { PREDICTOR_KINDS } from '../../../game/index.js';
import type { Seat } from '../../../game/index.js';
import type { SessionInfo } from '../../recording/index.js';

const count = (min: number, max: number) =>
  z.codec(
    z.string().regex(/^\d+$/, `a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}`),
    z.number().int().min(min).max(max),
    {
      decode: (s) => Number(s),
      encode: (n) => String(n),
    },
  );

/** A seat, 0 to 3. */
const seat = z.codec(
  z.string().regex(/^[0-3]$/, 'a seat, 0 to 3'),
  z.custom<Seat>((v) => v === 0 || v === 1 || v === 2 || v === 3),
  {
    decode: (s) => Number(s) as Seat,
    encode: (n) => String(n),
  },
);

/** Yes or no. */
const bool = z.codec(z.enum(['true', 'false']), z.boolean(), {
  decode: (s) => s === 'true',
  encode: (b) => (b ? 'true' : 'false'),
});

/** A short word or name (a session id, a character's name, a language). */
const word = z.string().min(1).max(200);

/**
 * A JSON object, or a word that says there is none (`off`, `rule`): decoded to the object or null.
 * The object's keys are written in the order of its shape, as the node always wrote them.
 */
const jsonOr = <S extends z.ZodType<object>>(none: string, shape: S) =>
  z.codec(z.string().max(100_000), z.union([z.null(), shape]), {
    decode: (s, ctx): z.input<z.ZodUnion<[z.ZodNull, S]>> => {
      if (s === none) return null;
      try {
        return JSON.parse(s) as z.input<z.ZodUnion<[z.ZodNull, S]>>;
      } catch {
        ctx.issues.push({ code: 'custom', message: `JSON or "${none}"`, input: s });
        return z.NEVER;
      }
    },
    encode: (v) => (v === null ? none : JSON.stringify(v)),
  });

/** Any JSON value (the table server's ledger), kept as it was written. */
const json = z.codec(z.string().max(10_000_000), z.unknown(), {
  decode: (s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.issues.push({ code: 'custom', message: 'JSON', input: s });
      return z.NEVER;
    }
  },
  encode: (v) => JSON.stringify(v),
});

const handModel = z.looseObject({ searchWeight: z.number().min(0).max(1), fittedOn: z.unknown() });
const modelIdentity = { modelFile: z.string(), featuresVersion: z.unknown(), sha256: z.unknown() };
const inferenceModel = z.looseObject(modelIdentity);
const prediction = z
  .looseObject({
    model: z.enum(PREDICTOR_KINDS),
    top: z.number().min(1),
    modelFile: z.string().optional(),
    featuresVersion: z.unknown().optional(),
    sha256: z.unknown().optional(),
  })
  .refine((p) => p.model !== 'learned' || p.modelFile !== undefined, 'a learned model names its file');

/** Every key a session's recording may hold, with its codec. Recordings made before a key existed lack it. */
export const SESSION_FIELDS = {
  id: word,
  seed: count(0, Number.MAX_SAFE_INTEGER),
  games: count(1, 100_000),
  robotSeat: seat,
  firstDealer: seat,
  /** The robot's player: `timed` (the node's search) or a built-in player's name. */
  player: word,
  budgetMs: count(0, Number.MAX_SAFE_INTEGER),
  /** How far (percent) the robot's beliefs weigh worlds by the others' plays. */
  inference: count(0, 100),
  character: word,
  /** The level of play, and below full its settings, which a replay recalls with (level-memory.ts). */
  level: word,
  levelSettings: z.string().max(100_000),
  language: word,
  speech: word,
  expectationBudgetMs: count(0, Number.MAX_SAFE_INTEGER),
  /** The hand model at the deals and what it was fitted on; null: off. */
  handModel: jsonOr('off', handModel),
  /** The people's model the robot's worlds were weighed by; null: the rule-based odds. */
  inferenceModel: jsonOr('rule', inferenceModel),
  /** The model that predicted the other seats' cards; null: off. */
  prediction: jsonOr('off', prediction),
  minThinkMs: count(0, Number.MAX_SAFE_INTEGER),
  liftGraceMs: count(0, Number.MAX_SAFE_INTEGER),
  /** The training mode: the robot suggests cards to its partner. */
  advice: bool,
  /** Where the tables' state versions start. */
  versionBase: count(0, Number.MAX_SAFE_INTEGER),
  /** The tables' seqs and answers as the session began. */
  tableSeqs: json,
  /** A part written after a restart: its number, the part it continues, when, and the damage accepted. */
  part: count(2, 100_000),
  previous: z.string().regex(/^[\w.-]+\.mcap$/, 'a recording file name in the same folder'),
  resumed: word,
  damaged: z.string().max(10_000),
} as const;

export type SessionKey = keyof typeof SESSION_FIELDS;

/** A session's settings as recorded, decoded; any key may be absent (an older recording, or not applicable). */
export type SessionMetadata = { -readonly [K in SessionKey]?: z.output<(typeof SESSION_FIELDS)[K]> };

/** A recorded value that does not fit its key. */
export interface UnreadableSetting {
  key: SessionKey;
  /** The value as recorded, cut to 80 characters. */
  value: string;
  /** What the key takes. */
  expected: string;
}

/** The metadata map the node writes into its recording: each setting given, encoded by its codec. */
export function writeSessionMetadata(m: SessionMetadata): SessionInfo {
  const info: SessionInfo = {};
  for (const key of Object.keys(m) as SessionKey[]) {
    const value = m[key];
    if (value === undefined) continue;
    info[key] = z.encode(SESSION_FIELDS[key] as z.ZodType<unknown, string>, value) as string;
  }
  return info;
}

/**
 * A recording's metadata, decoded key by key: the settings that fit, and each one that does not (a
 * reader decides what to do without it: a default and a note, or a refusal). Keys this build does not
 * know are left out.
 */
export function readSessionMetadata(info: SessionInfo): { settings: SessionMetadata; unreadable: UnreadableSetting[] } {
  const settings: Record<string, unknown> = {};
  const unreadable: UnreadableSetting[] = [];
  for (const key of Object.keys(SESSION_FIELDS) as SessionKey[]) {
    const raw = info[key];
    if (raw === undefined) continue;
    const r = z.safeDecode(SESSION_FIELDS[key] as z.ZodType<unknown, string>, raw);
    if (r.success) settings[key] = r.data;
    else
      unreadable.push({
        key,
        value: raw.length > 80 ? `${raw.slice(0, 77)}...` : raw,
        expected: r.error.issues[0]?.message ?? 'another value',
      });
  }
  return { settings: settings as SessionMetadata, unreadable };
}

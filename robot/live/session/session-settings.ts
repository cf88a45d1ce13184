// A session's settings, described once. Each key of SESSION_FIELDS is a setting with its codec: the
// string the recording's MCAP metadata (`parceiro.session`) keeps and the value it decodes to, checked
// on the way in (a recording is data: a value that does not fit is reported by key, never followed).
// A setting a person chooses carries a `choice`: then the same line makes it a node option (and a lab
// day's session option), gives its default from config/ (config/session.yaml's key of the same name, or
// a key of config/node.yaml), a command-line flag whose parser is the codec, and, when `restored`, the
// recorded value that a replay and a restart run with. Adding a session setting is one line here; the
// code that uses it reads it from the node's resolved settings (docs/architecture.md, "The seam").
import { join } from 'node:path';
import { z } from 'zod';
import { defaultConfigDir, loadYamlConfig } from '../../../behaviours/index.js';
import { PREDICTOR_KINDS } from '../../../game/index.js';
import type { Seat } from '../../../game/index.js';
import { RECORDING_FORMATS } from '../../recording/index.js';
import type { SessionInfo } from '../../recording/index.js';

const count = (min: number, max: number) => {
  const expected = `a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}`;
  return z.codec(z.string().regex(/^\d+$/, expected), z.number().int(expected).min(min, expected).max(max, expected), {
    decode: (s) => Number(s),
    encode: (n) => String(n),
  });
};

/** A seat, 0 to 3. */
const seat = z.codec(
  z.string().regex(/^[0-3]$/, 'a seat, 0 to 3'),
  z.custom<Seat>((v) => v === 0 || v === 1 || v === 2 || v === 3),
  {
    decode: (s) => Number(s) as Seat,
    encode: (n) => String(n),
  },
);

/**
 * A study's participants by seat, as codes (`1=P-7KQ3,2=P-M2XD`): pseudonymous codes only, upper-case
 * letters, digits and dashes, so a name cannot slip into a recording (robot/study/).
 */
const seatCodes = z.codec(
  z
    .string()
    .max(200)
    .regex(
      /^[0-3]=[A-Z0-9][A-Z0-9-]{0,31}(,[0-3]=[A-Z0-9][A-Z0-9-]{0,31}){0,3}$/,
      'seats and participant codes, e.g. 1=P-7KQ3,2=P-M2XD (codes: capitals, digits, dashes)',
    ),
  z.record(z.string(), z.string()),
  {
    decode: (s) => Object.fromEntries(s.split(',').map((p) => [p.slice(0, 1), p.slice(2)])),
    encode: (m) =>
      Object.entries(m)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([seat, code]) => `${seat}=${code}`)
        .join(','),
  },
);

/** Yes or no. */
const bool = z.codec(z.enum(['true', 'false']), z.boolean(), {
  decode: (s) => s === 'true',
  encode: (b) => (b ? 'true' : 'false'),
});

/** One of a few words. */
const oneOf = <T extends string>(values: readonly [T, ...T[]]) => z.enum(values, { error: values.join(' or ') });

/** When the session's greeting is said (SESSION_FIELDS.greet). */
export const GREETINGS = ['start', 'people'] as const;

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

/** Where a chosen setting's default is kept: config/session.yaml (its own key), or a key path of config/node.yaml. */
type ChoiceDefault<T> = { session: T } | { node: string };

/** What makes a setting one a person chooses (a node option; see the file's head). */
interface Choice<T> {
  /** Its command-line flag, as commander spells it: `--min-think <ms>`, or `--advice` for a yes. */
  flag?: string;
  /** The flag's help, without the default (the command adds where it comes from). */
  help?: string;
  /** Its default; without one the node decides (e.g. the language: config/behaviours.yaml's). */
  config?: ChoiceDefault<T>;
  /** A replay and a restart run with the recorded value. */
  restored?: true;
}

type Codec = z.ZodType<unknown, string>;
interface Field<C extends Codec> {
  codec: C;
}
interface ChoiceField<C extends Codec, X extends Choice<z.output<C>> = Choice<z.output<C>>> extends Field<C> {
  choice: X;
}
function field<C extends Codec>(codec: C): Field<C>;
function field<C extends Codec, X extends Choice<z.output<C>>>(codec: C, choice: X): ChoiceField<C, X>;
function field<C extends Codec>(codec: C, choice?: Choice<z.output<C>>): Field<C> | ChoiceField<C> {
  return choice ? { codec, choice } : { codec };
}

/** Every key a session's recording may hold, with its codec; a chosen one with its choice. Recordings made before a key existed lack it. */
export const SESSION_FIELDS = {
  id: field(word),
  seed: field(count(0, Number.MAX_SAFE_INTEGER)),
  games: field(count(1, 1000), {
    flag: '--games <n>',
    help: 'games in the session',
    config: { node: 'games' },
    restored: true,
  }),
  robotSeat: field(seat, { restored: true }),
  firstDealer: field(seat, { restored: true }),
  /** The robot's player: `timed` (the node's search) or a built-in player's name. */
  player: field(word),
  budgetMs: field(count(1, 600_000), {
    flag: '--budget <ms>',
    help: "the robot's time per decision",
    config: { node: 'player.budgetMs' },
  }),
  inference: field(count(0, 100), {
    flag: '--inference <percent>',
    help: 'how far the robot weighs its guessed deals by the plays seen (0: not at all)',
    config: { node: 'player.inference' },
  }),
  character: field(word, {
    flag: '--character <name|file>',
    help: 'a character preset (warm, competitive, neutral) or file (default: config/appraisal/appraisal.yaml)',
    restored: true,
  }),
  /** The level of play, and below full its settings, which a replay recalls with (level-memory.ts). */
  level: field(word),
  levelSettings: field(z.string().max(100_000)),
  language: field(word, {
    flag: '--language <tag>',
    help: 'pt or en (default: config/behaviours.yaml)',
    restored: true,
  }),
  speech: field(word),
  expectationBudgetMs: field(count(0, 10_000), { config: { node: 'expectation.budgetMs' } }),
  /** The hand model at the deals and what it was fitted on; null: off. */
  handModel: field(jsonOr('off', handModel)),
  /** The people's model the robot's worlds were weighed by; null: the rule-based odds. */
  inferenceModel: field(jsonOr('rule', inferenceModel)),
  /** The model that predicted the other seats' cards; null: off. */
  prediction: field(jsonOr('off', prediction)),
  minThinkMs: field(count(0, 60_000), {
    flag: '--min-think <ms>',
    help: "the robot's minimum time for an unforced play",
    config: { session: 1500 },
    restored: true,
  }),
  liftGraceMs: field(count(0, 600_000), {
    flag: '--lift-grace <ms>',
    help: 'how long a played card may be lifted from its spot before it is told to stay played',
    config: { session: 3000 },
    restored: true,
  }),
  /**
   * When the robot greets: `start` as the session opens (recordings made before this key greeted so),
   * or `people` once the first table of people (touch or virtual) joins, so that someone hears it.
   */
  greet: field(oneOf(GREETINGS), { restored: true }),
  /** The training mode: the robot suggests cards to its partner. */
  advice: field(bool, {
    flag: '--advice',
    help: 'training mode: the robot suggests cards to its partner when the choice matters',
    config: { node: 'advice.enabled' },
  }),
  /** How the recording keeps its messages: JSON, or the rosbag2 MCAP profile (CDR) that ROS 2 tools read. */
  recordingFormat: field(oneOf(RECORDING_FORMATS), {
    flag: '--recording-format <format>',
    help: 'json or ros2, the rosbag2 MCAP profile that ros2 bag reads',
    config: { node: 'recordings.format' },
  }),
  /** A study's participants by seat (codes only), kept in the recording so that its data joins their answers. */
  participants: field(seatCodes, {
    flag: '--participants <seat=code,...>',
    help: "a study's participant codes by seat, kept in the recording (codes only, never names; parceiro study)",
    restored: true,
  }),
  /** Where the tables' state versions start. */
  versionBase: field(count(0, Number.MAX_SAFE_INTEGER)),
  /** The tables' seqs and answers as the session began. */
  tableSeqs: field(json),
  /** A part written after a restart: its number, the part it continues, when, and the damage accepted. */
  part: field(count(2, 100_000)),
  previous: field(z.string().regex(/^[\w.-]+\.mcap$/, 'a recording file name in the same folder')),
  resumed: field(word),
  damaged: field(z.string().max(10_000)),
} as const;

type SessionKey = keyof typeof SESSION_FIELDS;

/** A session's settings as recorded, decoded; any key may be absent (an older recording, or not applicable). */
export type SessionMetadata = { -readonly [K in SessionKey]?: z.output<(typeof SESSION_FIELDS)[K]['codec']> };

/** The settings a person chooses (those with a `choice`). */
export type ChoiceKey = {
  [K in SessionKey]: (typeof SESSION_FIELDS)[K] extends { choice: object } ? K : never;
}[SessionKey];

/** The chosen settings as options: each may be left to its default. */
export type SessionChoices = { [K in ChoiceKey]?: z.output<(typeof SESSION_FIELDS)[K]['codec']> };

export const CHOICE_KEYS = (Object.keys(SESSION_FIELDS) as SessionKey[]).filter(
  (k) => 'choice' in SESSION_FIELDS[k],
) as ChoiceKey[];

/** A chosen setting's choice. */
export function choiceOf(key: ChoiceKey): Choice<unknown> {
  return (SESSION_FIELDS[key] as ChoiceField<Codec>).choice;
}

/**
 * A chosen setting's value from its text (a flag's argument): the value, or what it expects (the
 * codec's words, e.g. "a whole number from 0 to 60000").
 */
export function parseChoice(key: ChoiceKey, text: string): { value: unknown } | { expected: string } {
  const r = z.safeDecode(SESSION_FIELDS[key].codec as Codec, text);
  return r.success ? { value: r.data } : { expected: r.error.issues[0]?.message ?? 'another value' };
}

/** The chosen settings as flags and their arguments (what a later command needs to choose them again). */
export function choiceFlags(choices: SessionChoices): string[] {
  const out: string[] = [];
  for (const key of CHOICE_KEYS) {
    const value = choices[key];
    const flag = choiceOf(key).flag;
    if (value === undefined || !flag) continue;
    const name = flag.split(' ')[0]!;
    if (typeof value === 'boolean') {
      if (value) out.push(name);
    } else out.push(name, z.encode(SESSION_FIELDS[key].codec as Codec, value) as string);
  }
  return out;
}

// ---- config/session.yaml ----------------------------------------------------------------------

const SESSION_FILE = 'session.yaml';

/** config/session.yaml: one optional key for each chosen setting kept there, checked by its codec's value side. */
const sessionSettingsSchema = z.strictObject(
  Object.fromEntries(
    CHOICE_KEYS.filter((k) => choiceOf(k).config && 'session' in choiceOf(k).config!).map((k) => [
      k,
      (SESSION_FIELDS[k].codec as unknown as z.ZodPipe<z.ZodType, z.ZodType>).out.optional(),
    ]),
  ),
);

/** The chosen settings kept in config/session.yaml, their defaults filled in. */
type SessionSettings = {
  [
    K in ChoiceKey as (typeof SESSION_FIELDS)[K]['choice'] extends { config: { session: unknown } } ? K : never
  ]-?: z.output<(typeof SESSION_FIELDS)[K]['codec']>;
};

const cache = new Map<string, SessionSettings>();

/** config/session.yaml (or `file`), read once; a mistake throws the ConfigError naming file, line and key. */
export function loadSessionSettings(file = join(defaultConfigDir(), SESSION_FILE)): SessionSettings {
  let settings = cache.get(file);
  if (!settings) {
    const given = loadYamlConfig(file, sessionSettingsSchema) as Record<string, unknown>;
    const filled: Record<string, unknown> = {};
    for (const k of CHOICE_KEYS) {
      const c = choiceOf(k).config;
      if (c && 'session' in c) filled[k] = given[k] ?? c.session;
    }
    cache.set(file, (settings = filled as SessionSettings));
  }
  return settings;
}

/**
 * The chosen settings a session runs with: each one given, else its config default (config/session.yaml,
 * or the key path of `node`, config/node.yaml's settings as loaded); one with neither is left out (the
 * node decides it).
 */
export function resolveChoices(given: SessionChoices, node: object, session = loadSessionSettings()): SessionChoices {
  const out: Record<string, unknown> = {};
  for (const k of CHOICE_KEYS) {
    const c = choiceOf(k).config;
    const value =
      given[k] !== undefined
        ? given[k]
        : c === undefined
          ? undefined
          : 'session' in c
            ? (session as Record<string, unknown>)[k]
            : c.node.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown> | undefined)?.[part], node);
    if (value !== undefined) out[k] = value;
  }
  return out as SessionChoices;
}

/** The recorded settings a replay and a restart run with (the chosen ones marked `restored`). */
export function restoredChoices(recorded: SessionMetadata): SessionChoices {
  const out: Record<string, unknown> = {};
  for (const k of CHOICE_KEYS) if (choiceOf(k).restored && recorded[k] !== undefined) out[k] = recorded[k];
  return out as SessionChoices;
}

/** A recorded value that does not fit its key. */
interface UnreadableSetting {
  key: SessionKey;
  /** The value as recorded, cut to 80 characters. */
  value: string;
  /** What the key takes. */
  expected: string;
}

/** The metadata map the node writes into its recording: each setting given, encoded by its codec. */
export function writeSessionMetadata(m: SessionMetadata): SessionInfo {
  const info: SessionInfo = {};
  // In the schema's order, whatever the order given: the same settings make the same metadata.
  for (const key of Object.keys(SESSION_FIELDS) as SessionKey[]) {
    const value = m[key];
    if (value === undefined) continue;
    info[key] = z.encode(SESSION_FIELDS[key].codec as Codec, value) as string;
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
    const r = z.safeDecode(SESSION_FIELDS[key].codec as Codec, raw);
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

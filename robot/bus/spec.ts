// A message type as data: its ROS 2 name and its fields with their ROS field types. The TypeScript type
// of a message is derived from this spec (MessageOf), the `.msg` files of the interface package are
// generated from it (`npm run gen:msgs`), and the JSON schemas that recordings carry are generated
// from it. One description, three uses, so the node's types, the wire and the recordings cannot drift
// apart.

/** ROS 2 primitive field types we use. */
export type RosPrimitive = 'bool' | 'int8' | 'uint8' | 'int32' | 'uint32' | 'int64' | 'float32' | 'float64' | 'string';

const NUMERIC = new Set<RosPrimitive>(['int8', 'uint8', 'int32', 'uint32', 'int64', 'float32', 'float64']);

/** A field type: a primitive, a primitive array (`T[]`, `T[N]`) or another message (`pkg/Name`, `pkg/Name[]`). */
export type FieldType = RosPrimitive | `${RosPrimitive}[]` | `${RosPrimitive}[${number}]` | MessageRef;

// `MessageSpec<any>`: the spec of any message, whatever its fields. FieldValue below tells nested fields
// by `extends MessageRef`; a narrower default could quietly make some of them numbers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
interface MessageRef<S extends MessageSpec = MessageSpec<any>, A extends boolean = boolean> {
  readonly ref: S;
  readonly array: A;
}

export interface MessageSpec<F extends Record<string, FieldType> = Record<string, FieldType>> {
  /** The ROS 2 type name, `pkg/msg/Name`. */
  readonly type: string;
  readonly fields: F;
  /** One line on what the message is for (becomes the `.msg` file's first comment and the schema's description). */
  readonly description: string;
  /** What some fields hold, by field name: the `.msg` file's comment above each (not in the schema). */
  readonly notes?: Readonly<Record<string, string>>;
}

/** A field written with its note: the type, then what the field holds. */
type NotedField = readonly [FieldType, string];
type TypeOfField<T> = T extends readonly [infer U extends FieldType, string] ? U : T;

/** A message's spec; a field given as `[type, note]` keeps its note beside it in the source. */
export const defineMessage = <F extends Record<string, FieldType | NotedField>>(
  type: string,
  description: string,
  fields: F,
): MessageSpec<{ [K in keyof F]: TypeOfField<F[K]> }> => {
  const types: Record<string, FieldType> = {};
  const notes: Record<string, string> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (Array.isArray(f)) {
      const [t, note] = f as NotedField;
      types[name] = t;
      notes[name] = note;
    } else types[name] = f as FieldType;
  }
  const spec = { type, description, fields: types as { [K in keyof F]: TypeOfField<F[K]> } };
  return Object.keys(notes).length > 0 ? { ...spec, notes } : spec;
};

/* eslint-disable @typescript-eslint/no-explicit-any -- any message's spec, as in MessageRef */
/** A field holding another message (or an array of them). */
export function nested<S extends MessageSpec<any>>(ref: S): MessageRef<S, false>;
export function nested<S extends MessageSpec<any>>(ref: S, array: true): MessageRef<S, true>;
export function nested(ref: MessageSpec<any>, array = false): MessageRef {
  return { ref, array };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

type PrimitiveValue<P> = P extends 'bool' ? boolean : P extends 'string' ? string : number;

type FieldValue<T> = T extends MessageRef
  ? T['array'] extends true
    ? MessageOf<T['ref']>[]
    : MessageOf<T['ref']>
  : T extends `${infer P}[${string}]`
    ? PrimitiveValue<P>[]
    : PrimitiveValue<T>;

/** The TypeScript shape of a message: ROS field names, JSON-friendly values. */
export type MessageOf<S> = S extends MessageSpec<infer F> ? { [K in keyof F]: FieldValue<F[K]> } : never;

/** Parses a field type written as in a `.msg` file. */
export function describeField(t: FieldType): { base: string; array: 'none' | 'unbounded' | number } {
  if (typeof t !== 'string') return { base: t.ref.type.replace('/msg/', '/'), array: t.array ? 'unbounded' : 'none' };
  const m = /^([a-z0-9]+)(?:\[(\d*)\])?$/.exec(t);
  if (!m) throw new Error(`bad field type ${t}`);
  return { base: m[1]!, array: m[2] === undefined ? 'none' : m[2] === '' ? 'unbounded' : Number(m[2]) };
}

/** The `.msg` text of a spec (what the interface package holds), each field's note as a comment above it. */
export function toMsgFile(spec: MessageSpec): string {
  const lines = [`# ${spec.description}`];
  for (const [name, t] of Object.entries(spec.fields)) {
    const note = spec.notes?.[name];
    if (note !== undefined) lines.push(`# ${note}`);
    const f = describeField(t);
    const pkg = spec.type.split('/')[0]!;
    // Messages of our own package are written by bare name, as rosidl expects.
    const base = typeof t !== 'string' && f.base.startsWith(`${pkg}/`) ? f.base.slice(pkg.length + 1) : f.base;
    const suffix = f.array === 'none' ? '' : f.array === 'unbounded' ? '[]' : `[${f.array}]`;
    lines.push(`${base}${suffix} ${name}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A JSON schema (draft 2020-12) of a message, for MCAP channels (Foxglove reads these). */
export function jsonSchemaOf(spec: MessageSpec): Record<string, unknown> {
  const fieldSchema = (t: FieldType): Record<string, unknown> => {
    if (typeof t !== 'string') {
      const inner = objectSchema(t.ref);
      return t.array ? { type: 'array', items: inner } : inner;
    }
    const f = describeField(t);
    const base = f.base as RosPrimitive;
    const item =
      base === 'bool'
        ? { type: 'boolean' }
        : base === 'string'
          ? { type: 'string' }
          : NUMERIC.has(base)
            ? { type: base.startsWith('float') ? 'number' : 'integer' }
            : {};
    if (f.array === 'none') return item;
    return typeof f.array === 'number'
      ? { type: 'array', items: item, minItems: f.array, maxItems: f.array }
      : { type: 'array', items: item };
  };
  const objectSchema = (s: MessageSpec): Record<string, unknown> => ({
    type: 'object',
    title: s.type,
    description: s.description,
    properties: Object.fromEntries(Object.entries(s.fields).map(([k, t]) => [k, fieldSchema(t)])),
    required: Object.keys(s.fields),
    additionalProperties: false,
  });
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...objectSchema(spec) };
}

/**
 * Checks a value against a spec: every field present with the right kind, nothing extra. Returns the
 * first problem as `path: what was expected`, or null. Used on everything read back from a recording.
 */
export function checkMessage(spec: MessageSpec, value: unknown, path = spec.type): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${path}: expected an object`;
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!(key in spec.fields)) return `${path}.${key}: not a field of ${spec.type}`;
  for (const [name, t] of Object.entries(spec.fields)) {
    const p = `${path}.${name}`;
    const x = v[name];
    if (typeof t !== 'string') {
      if (!t.array) {
        const e = checkMessage(t.ref, x, p);
        if (e) return e;
        continue;
      }
      if (!Array.isArray(x)) return `${p}: expected an array of ${t.ref.type}`;
      for (let i = 0; i < x.length; i++) {
        const e = checkMessage(t.ref, x[i], `${p}[${i}]`);
        if (e) return e;
      }
      continue;
    }
    const f = describeField(t);
    const one = (y: unknown, q: string): string | null => {
      if (f.base === 'bool') return typeof y === 'boolean' ? null : `${q}: expected true or false`;
      if (f.base === 'string') return typeof y === 'string' ? null : `${q}: expected a string`;
      if (typeof y !== 'number' || !Number.isFinite(y)) return `${q}: expected a number`;
      if (!f.base.startsWith('float') && !Number.isInteger(y)) return `${q}: expected an integer`;
      return null;
    };
    if (f.array === 'none') {
      const e = one(x, p);
      if (e) return e;
      continue;
    }
    if (!Array.isArray(x)) return `${p}: expected an array`;
    if (typeof f.array === 'number' && x.length !== f.array) return `${p}: expected ${f.array} items, got ${x.length}`;
    for (let i = 0; i < x.length; i++) {
      const e = one(x[i], `${p}[${i}]`);
      if (e) return e;
    }
  }
  return null;
}

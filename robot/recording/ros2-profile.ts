// Recordings in the rosbag2 MCAP profile, as `ros2 bag` (rosbag2_storage_mcap) writes them: each
// channel's schema is the message's complete `.msg` definition with its dependencies (encoding
// `ros2msg`), its messages are CDR (`cdr`), and its metadata holds the QoS the topic is offered with.
// The definitions are generated from the specs (robot/bus/spec.ts), so a recording made where no ROS 2
// is installed still carries them; for the standard messages they hold the fields the node fills in,
// which are all of the wire's fields (a test checks them against a real ROS 2's definitions).
//
// CDR is read with @foxglove/rosmsg2-serialization. It is written here, walking the same parsed
// definition with @foxglove/cdr's writer, because the released writers (@foxglove/cdr 3.5.0,
// @foxglove/rosmsg2-serialization 3.1.0) size a string by its UTF-16 length, not its UTF-8 bytes: a
// Portuguese line ("Olá") would be cut short. Fixed upstream after those releases; once a fixed
// release is on our registry, MessageWriter can take this writer's place (the test compares the two).

import { CdrWriter } from '@foxglove/cdr';
import { parse } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import type { MessageSpec, Qos } from '../bus/index.js';
import { describeField, toMsgFile } from '../bus/index.js';

/** The MCAP header's profile of a rosbag2 recording. */
export const ROS2_PROFILE = 'ros2';

type Definitions = ReturnType<typeof parse>;
type Field = Definitions[number]['definitions'][number];

/** The package-qualified name a `.msg` file gives a field's type (`pkg/Name`), as rosbag2 lists dependencies. */
function dependencies(spec: MessageSpec): Map<string, MessageSpec> {
  const deps = new Map<string, MessageSpec>();
  for (const t of Object.values(spec.fields)) {
    if (typeof t === 'string') continue;
    deps.set(describeField(t).base, t.ref);
  }
  return deps;
}

/**
 * The complete definition of a message as rosbag2 writes it into a schema: its own `.msg` text, then
 * each dependency (in the order of their names, depth first, each once) after a line of 80 `=` and
 * `MSG: pkg/Name`.
 */
export function ros2Definition(spec: MessageSpec): string {
  const seen = new Set<string>();
  const text = (s: MessageSpec): string => {
    let out = toMsgFile(s);
    for (const [name, dep] of [...dependencies(s)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (seen.has(name)) continue;
      seen.add(name);
      out += `\n${'='.repeat(80)}\nMSG: ${name}\n${text(dep)}`;
    }
    return out;
  };
  return text(spec);
}

/**
 * A topic's offered QoS as rosbag2 keeps it in a channel's `offered_qos_profiles`: a YAML list of one
 * profile, the policies as numbers (rosbag2's metadata version 8, which is what it assumes of a file
 * without its own `rosbag2` metadata record). Durations 0: unspecified, the default.
 */
export function offeredQos(qos: Qos): string {
  const zero = ['    sec: 0', '    nsec: 0'];
  return [
    '- history: 1',
    `  depth: ${qos.depth}`,
    `  reliability: ${qos.reliability === 'reliable' ? 1 : 2}`,
    `  durability: ${qos.durability === 'transient-local' ? 1 : 2}`,
    '  deadline:',
    ...zero,
    '  lifespan:',
    ...zero,
    '  liveliness: 1',
    '  liveliness_lease_duration:',
    ...zero,
    '  avoid_ros_namespace_conventions: false',
    '',
  ].join('\n');
}

const utf8 = new TextEncoder();

/** A message's values as plain data: typed arrays as arrays, 64-bit integers as numbers. */
export function plainMessage(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number | bigint>, plainMessage);
  if (Array.isArray(value)) return value.map(plainMessage);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainMessage(v)]));
  return value;
}

/** Reads and writes one message type in CDR, from its complete `ros2msg` definition. */
export class CdrCodec {
  readonly #root: Field[];
  readonly #types: Map<string, Field[]>;
  readonly #reader: MessageReader;

  /** Throws when the definition cannot be parsed. */
  constructor(readonly definition: string) {
    const defs = parse(definition, { ros2: true });
    this.#root = defs[0]!.definitions;
    this.#types = new Map(defs.map((d) => [d.name ?? '', d.definitions]));
    this.#reader = new MessageReader(defs);
  }

  /** The message as plain data (arrays, numbers), as the node publishes it. Throws on bytes that do not fit. */
  decode(data: Uint8Array): unknown {
    return plainMessage(this.#reader.readMessage(data));
  }

  /** The message in CDR (little-endian, with its 4-byte encapsulation header), as a ROS 2 publisher sends it. */
  encode(message: unknown): Uint8Array {
    const w = new CdrWriter();
    this.#write(w, this.#root, message as Record<string, unknown>);
    return w.data;
  }

  #write(w: CdrWriter, fields: readonly Field[], m: Record<string, unknown>): void {
    const data = fields.filter((f) => f.isConstant !== true);
    // An empty message is one uint8 on the wire (rosidl adds it: IDL has no empty structures).
    if (data.length === 0) w.uint8(0);
    for (const f of data) {
      const v = m?.[f.name];
      if (f.isArray !== true) {
        this.#one(w, f, v);
        continue;
      }
      const items = (ArrayBuffer.isView(v) || Array.isArray(v) ? v : []) as ArrayLike<unknown>;
      const n = f.arrayLength ?? items.length;
      if (f.arrayLength === undefined) w.sequenceLength(n);
      for (let i = 0; i < n; i++) this.#one(w, f, items[i]);
    }
  }

  #one(w: CdrWriter, f: Field, v: unknown): void {
    if (f.isComplex === true) {
      const inner = this.#types.get(f.type);
      if (!inner) throw new Error(`no definition of ${f.type}`);
      this.#write(w, inner, (v ?? {}) as Record<string, unknown>);
      return;
    }
    const num = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : 0;
    switch (f.type) {
      case 'string': {
        const bytes = utf8.encode(typeof v === 'string' ? v : '');
        w.uint32(bytes.length + 1);
        w.uint8Array(bytes, false);
        w.uint8(0);
        return;
      }
      case 'bool':
        w.uint8(v === true ? 1 : 0);
        return;
      case 'int8':
        w.int8(num);
        return;
      case 'uint8':
      case 'byte':
      case 'char':
        w.uint8(num);
        return;
      case 'int16':
        w.int16(num);
        return;
      case 'uint16':
        w.uint16(num);
        return;
      case 'int32':
        w.int32(num);
        return;
      case 'uint32':
        w.uint32(num);
        return;
      case 'int64':
        w.int64(BigInt(Math.trunc(num)));
        return;
      case 'uint64':
        w.uint64(BigInt(Math.trunc(num)));
        return;
      case 'float32':
        w.float32(num);
        return;
      case 'float64':
        w.float64(num);
        return;
      case 'time':
      case 'duration': {
        const t = (v ?? {}) as { sec?: number; nanosec?: number };
        w.int32(t.sec ?? 0);
        w.uint32(t.nanosec ?? 0);
        return;
      }
      default:
        throw new Error(`cannot write a ${f.type} in CDR`);
    }
  }
}

const codecs = new Map<string, CdrCodec>();

/** The codec of one of our message types (its definition generated from the spec), made once. */
export function codecOf(spec: MessageSpec): CdrCodec {
  let c = codecs.get(spec.type);
  if (!c) codecs.set(spec.type, (c = new CdrCodec(ros2Definition(spec))));
  return c;
}

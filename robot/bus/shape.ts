// One message shape on every bus: plain objects, arrays as plain arrays, numbers as numbers. rclnodejs
// hands number arrays over as typed arrays (Int8Array, Float64Array...) and 64-bit integers as
// bigint; a producer may also build an array as a typed one. A typed array is not an array to
// `Array.isArray`, and `JSON.stringify` writes it as an object ({"0":1,"1":2}), so a subscriber, a
// recording or the dashboard would see another message than on the in-process bus.
//
// And one way to tell two messages apart that does not depend on which bus carried them: object
// identity does not survive a trip through ROS 2, and a float32 field comes back rounded to 32 bits.

import type { FieldType, MessageSpec } from './spec.js';
import { describeField } from './spec.js';

const isTyped = (v: unknown): v is ArrayLike<number | bigint> => ArrayBuffer.isView(v) && !(v instanceof DataView);

/**
 * `message` with typed arrays as plain arrays and bigints as numbers; the very same object when it
 * has none (the common case on the in-process bus costs a walk, not a copy).
 */
export function plainMessage<T>(message: T): T {
  return (needsPlain(message) ? toPlain(message) : message) as T;
}

function needsPlain(v: unknown): boolean {
  if (typeof v === 'bigint' || isTyped(v)) return true;
  if (Array.isArray(v)) return v.some(needsPlain);
  if (typeof v === 'object' && v !== null) return Object.values(v).some(needsPlain);
  return false;
}

function toPlain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (isTyped(v)) return Array.from(v as ArrayLike<number | bigint>, (x) => (typeof x === 'bigint' ? Number(x) : x));
  if (Array.isArray(v)) return v.map(toPlain);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlain(x)]));
  return v;
}

/**
 * A text that is the same for a message and its copy after a trip through ROS 2: the fields in the
 * spec's order, arrays plain, float32 fields rounded as ROS 2 rounds them.
 */
export function messageKey(spec: MessageSpec, message: unknown): string {
  return JSON.stringify(canonical(spec, message));
}

function canonical(spec: MessageSpec, message: unknown): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const m = message as Record<string, unknown>;
  return Object.keys(spec.fields).map((name) => field(spec.fields[name]!, m[name]));
}

function field(t: FieldType, v: unknown): unknown {
  if (typeof t !== 'string') return t.array ? toArray(v).map((x) => canonical(t.ref, x)) : canonical(t.ref, v);
  const f = describeField(t);
  const one = (x: unknown): unknown =>
    typeof x === 'bigint' ? Number(x) : f.base === 'float32' && typeof x === 'number' ? Math.fround(x) : x;
  return f.array === 'none' ? one(v) : toArray(v).map(one);
}

const toArray = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : isTyped(v) ? Array.from(v as ArrayLike<unknown>) : v === undefined ? [] : [v];

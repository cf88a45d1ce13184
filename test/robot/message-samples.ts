// A message of any spec with every field filled in, for the tests of the recording formats (here and
// on the real ROS 2 graph, test/ros2/): deterministic, in range for each field's type.

import type { FieldType, MessageSpec } from '../../robot/bus/index.js';
import { describeField } from '../../robot/bus/index.js';

/** A message of `spec` with every field filled in from `n` (strings in `text`), arrays of 0 to 3 items. */
export function sampleOf(spec: MessageSpec, n: number, text: (i: number) => string): Record<string, unknown> {
  let k = n;
  const one = (t: FieldType): unknown => {
    k++;
    if (typeof t !== 'string') {
      if (!t.array) return sampleOf(t.ref, k, text);
      return Array.from({ length: k % 4 }, (_, i) => sampleOf(t.ref, k + i, text));
    }
    const f = describeField(t);
    const value = (i: number): unknown => {
      const x = k + i;
      switch (f.base) {
        case 'bool':
          return x % 2 === 0;
        case 'string':
          return text(x);
        case 'int8':
          return (x % 200) - 100;
        case 'uint8':
          return x % 250;
        case 'int32':
          return -x * 1009;
        case 'uint32':
        case 'int64':
          return x * 7919;
        case 'float32':
          return Math.fround(x / 7);
        default:
          return x / 7 + 1e-12;
      }
    };
    if (f.array === 'none') return value(0);
    return Array.from({ length: f.array === 'unbounded' ? k % 4 : f.array }, (_, i) => value(i));
  };
  return Object.fromEntries(Object.entries(spec.fields).map(([name, t]) => [name, one(t)]));
}

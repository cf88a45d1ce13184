// A stand-in for rclnodejs that routes each publisher to the subscriptions of its topic, as ROS 2
// does within one node, and hands each message's MessageInfo (its publisher's id) to a callback that
// takes two arguments, as rclnodejs does. `outside` publishes as another node would (`ros2 topic pub`).
// For what the real graph cannot be made to do in a test: see test/ros2/ for the real one.

import type { RclnodejsLike } from '../../robot/bus/index.js';

export function ros2StandIn(): {
  rcl: RclnodejsLike;
  outside: (topic: string, message: unknown) => void;
} {
  const subs = new Map<string, ((m: unknown, info?: { publisherGid: Uint8Array }) => void)[]>();
  let writers = 0;
  const gid = (n: number): Uint8Array => Uint8Array.from({ length: 16 }, (_, i) => (i === 0 ? n : 0));
  const deliver = (topic: string, m: unknown, publisherGid: Uint8Array): void => {
    for (const cb of subs.get(topic) ?? []) {
      // As on the wire: a copy, with its MessageInfo when the callback asks for it.
      if (cb.length >= 2) cb(structuredClone(m), { publisherGid });
      else cb(structuredClone(m));
    }
  };
  class QoS {
    static HistoryPolicy = { RMW_QOS_POLICY_HISTORY_KEEP_LAST: 1 };
    static ReliabilityPolicy = { RMW_QOS_POLICY_RELIABILITY_RELIABLE: 1, RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: 2 };
    static DurabilityPolicy = { RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: 1, RMW_QOS_POLICY_DURABILITY_VOLATILE: 2 };
  }
  class Parameter {
    constructor(
      readonly name: string,
      readonly type: number,
      readonly value: unknown,
    ) {}
  }
  const params = new Map<string, unknown>();
  class Node {
    createPublisher(_type: string, topic: string) {
      const id = gid(++writers);
      return { publish: (m: unknown) => deliver(topic, m, id) };
    }
    createSubscription(
      _type: string,
      topic: string,
      _options: unknown,
      cb: (m: unknown, info?: { publisherGid: Uint8Array }) => void,
    ) {
      subs.set(topic, [...(subs.get(topic) ?? []), cb]);
      return {};
    }
    declareParameter(p: Parameter) {
      params.set(p.name, p.value);
      return p;
    }
    getParameter(name: string) {
      return params.has(name) ? { value: params.get(name) } : undefined;
    }
    spin() {}
    destroy() {}
  }
  const rcl = {
    init: async () => {},
    Node,
    QoS,
    shutdown: () => {},
    Parameter,
    ParameterType: { PARAMETER_BOOL: 1, PARAMETER_INTEGER: 2, PARAMETER_DOUBLE: 3, PARAMETER_STRING: 4 },
  } as unknown as RclnodejsLike;
  const other = gid(200);
  return { rcl, outside: (topic, message) => deliver(topic, message, other) };
}

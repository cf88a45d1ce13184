// The bus over ROS 2, through rclnodejs. rclnodejs is an optionalDependency: it only installs where
// ROS 2 is sourced, so it is loaded here, on demand, and its absence is one clear message. Every topic
// of TOPICS gets a publisher with its QoS; subscriptions are made when first asked for. A message this
// node publishes reaches its own subscribers through ROS, as any other node's would, so the in-process
// and ROS 2 buses deliver the same messages, in the same shape (plain arrays, numbers: shape.ts).
//
// One ROS subscription serves every handler of a topic in this process. ROS hands a latched topic's
// last messages to a new subscription only, so for a handler that joins later the bus keeps the last
// `depth` messages the subscription received and hands them over itself: the in-process bus's rule.
//
// The tap sees this node's messages as it publishes them (`out`), and another node's as a subscription
// hears them (`in`; own-echoes.ts tells them apart).

import type { Bus, BusEntry, BusErrorHandler, NodeParameter, ParameterValues, Unsubscribe } from './bus.js';
import type { Qos, TopicKey, TopicMessage, TopicSpec } from './topics.js';
import { ALL_TOPICS, TOPICS } from './topics.js';
import type { MessageInfoLike } from './own-echoes.js';
import { OwnEchoes } from './own-echoes.js';
import { plainMessage } from './shape.js';

/** The part of rclnodejs we use (its public API: init, Node, QoS, shutdown). */
export interface RclnodejsLike {
  init(): Promise<void>;
  Node: new (name: string, namespace?: string) => RclNodeLike;
  QoS: {
    new (history?: number, depth?: number, reliability?: number, durability?: number): unknown;
    HistoryPolicy: { RMW_QOS_POLICY_HISTORY_KEEP_LAST: number };
    ReliabilityPolicy: { RMW_QOS_POLICY_RELIABILITY_RELIABLE: number; RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: number };
    DurabilityPolicy: { RMW_QOS_POLICY_DURABILITY_VOLATILE: number; RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: number };
  };
  shutdown(): void;
  Parameter: new (name: string, type: number, value: NodeParameter) => unknown;
  ParameterType: {
    PARAMETER_BOOL: number;
    PARAMETER_INTEGER: number;
    PARAMETER_DOUBLE: number;
    PARAMETER_STRING: number;
  };
}

export interface RclNodeLike {
  /** Declares a parameter; a value given on the command line (`--ros-args -p name:=value`) or in a parameters file overrides the default. */
  declareParameter(parameter: unknown, descriptor?: unknown, ignoreOverride?: boolean): unknown;
  getParameter(name: string): { value: unknown } | undefined;
  createPublisher(type: string, topic: string, options?: { qos?: unknown }): { publish(message: unknown): void };
  createSubscription(
    type: string,
    topic: string,
    options: { qos?: unknown; serializationMode?: 'default' | 'plain' | 'json' },
    /** rclnodejs passes the MessageInfo to a callback that takes two arguments. */
    callback: (message: unknown, info?: MessageInfoLike) => void,
  ): unknown;
  /** Called before parameters are set (at run time: `ros2 param set`); a result not successful refuses them. */
  addOnSetParametersCallback?(
    callback: (parameters: RclParameterLike[]) => { successful: boolean; reason: string },
  ): void;
  /** Called once parameters have been set. */
  addPostSetParametersCallback?(callback: (parameters: RclParameterLike[]) => void): void;
  destroySubscription?(subscription: unknown): void;
  spin(): void;
  destroy(): void;
}

/** A parameter as rclnodejs hands it to the callbacks above (integers as bigint). */
export interface RclParameterLike {
  name: string;
  type: number;
  value: unknown;
}

export const SOURCE_ROS_HINT =
  'source ROS 2 and the interface package first: `source launch/ros2/env.sh` in this repository (it sources ' +
  '/opt/ros/$ROS_DISTRO/setup.bash and builds robot/parceiro_msgs with colcon into .ros2/; see "Running on the robot" in the README)';

/** The ROS 2 bus was chosen where it cannot run. */
export class Ros2UnavailableError extends Error {
  constructor(reason: string) {
    super(`the ROS 2 bus is not available: ${reason}; ${SOURCE_ROS_HINT}`);
    this.name = 'Ros2UnavailableError';
  }
}

export interface Ros2BusOptions {
  nodeName?: string;
  namespace?: string;
  onError?: BusErrorHandler;
  /** How rclnodejs is loaded; tests pass a module of the same shape. */
  load?: () => Promise<RclnodejsLike>;
  /** The environment to check for a sourced ROS 2 (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

async function loadRclnodejs(): Promise<RclnodejsLike> {
  // A variable module name keeps TypeScript from requiring rclnodejs's types where it is not installed.
  const name = 'rclnodejs';
  const mod = (await import(name)) as { default?: RclnodejsLike } & RclnodejsLike;
  return mod.default ?? mod;
}

/** Parameters set at run time, by name, as plain values (integers as numbers). */
export type ParameterChange = Record<string, NodeParameter>;

/** The ROS 2 bus: a Bus, and the node's parameters as they change at run time. */
export interface Ros2NodeBus extends Bus {
  readonly kind: 'ros2';
  /**
   * Follows `ros2 param set` (and any other parameter client): `check` sees the change first and may
   * refuse it with a reason, which the client prints; `apply` gets it once it is set.
   */
  onParameters(check: (change: ParameterChange) => string | null, apply: (change: ParameterChange) => void): void;
}

export async function createRos2Bus(options: Ros2BusOptions = {}): Promise<Ros2NodeBus> {
  const env = options.env ?? process.env;
  if (!options.load && !env.ROS_DISTRO && !env.AMENT_PREFIX_PATH)
    throw new Ros2UnavailableError('no ROS 2 environment is sourced (ROS_DISTRO is not set)');
  let rcl: RclnodejsLike;
  try {
    rcl = await (options.load ?? loadRclnodejs)();
  } catch (e) {
    throw new Ros2UnavailableError(
      `rclnodejs could not be loaded (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
    );
  }
  try {
    await rcl.init();
  } catch (e) {
    throw new Ros2UnavailableError(
      `rclnodejs could not start (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
    );
  }
  const node = new rcl.Node(options.nodeName ?? 'parceiro', options.namespace ?? '');
  const bus = new Ros2Bus(rcl, node, options.onError ?? (() => {}));
  node.spin();
  return bus;
}

class Ros2Bus implements Ros2NodeBus {
  readonly kind = 'ros2' as const;
  private readonly publishers = new Map<string, { publish(message: unknown): void }>();
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();
  private readonly subscriptions = new Map<string, unknown>();
  /** The last `depth` messages received on each latched topic, for a handler that joins later. */
  private readonly latched = new Map<string, unknown[]>();
  private readonly taps = new Set<(entry: BusEntry) => void>();
  private readonly echoes = new OwnEchoes();
  private closed = false;

  constructor(
    private readonly rcl: RclnodejsLike,
    private readonly node: RclNodeLike,
    private readonly onError: BusErrorHandler,
  ) {
    for (const t of ALL_TOPICS) {
      try {
        this.publishers.set(t.name, node.createPublisher(t.message.type, t.name, { qos: this.qos(t.qos) }));
      } catch (e) {
        throw new Ros2UnavailableError(
          `cannot publish ${t.message.type} on ${t.name} (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); is its package built and sourced?`,
        );
      }
    }
  }

  publish<K extends TopicKey>(key: K, message: TopicMessage<K>): void {
    if (this.closed) return;
    const topic = TOPICS[key] as TopicSpec;
    // What is recorded is what ROS carries: plain arrays, even when a producer gave typed ones.
    const plain = plainMessage(message);
    for (const t of this.taps) this.safely(() => t({ topic, message: plain, direction: 'out' }), topic);
    this.echoes.published(topic, plain, this.handlers.has(topic.name));
    try {
      this.publishers.get(topic.name)!.publish(plain);
    } catch (e) {
      this.onError(e, topic);
    }
  }

  subscribe<K extends TopicKey>(key: K, handler: (message: TopicMessage<K>) => void): Unsubscribe {
    const topic = TOPICS[key] as TopicSpec;
    const h = handler as (message: unknown) => void;
    let set = this.handlers.get(topic.name);
    if (!set) {
      const handlers = new Set<(message: unknown) => void>();
      this.handlers.set(topic.name, (set = handlers));
      const latched = topic.qos.durability === 'transient-local';
      this.echoes.subscribed(topic);
      const sub = this.node.createSubscription(
        topic.message.type,
        topic.name,
        // 'plain': number arrays as arrays, not typed arrays; plainMessage then makes bigints numbers.
        { qos: this.qos(topic.qos), serializationMode: 'plain' },
        (received, info) => {
          if (this.closed) return;
          const message = plainMessage(received);
          // Another node's message is tapped as it arrives, before anything it causes.
          if (!this.echoes.isOwn(topic, message, info))
            for (const t of this.taps) this.safely(() => t({ topic, message, direction: 'in' }), topic);
          if (latched) {
            const kept = this.latched.get(topic.name) ?? [];
            kept.push(message);
            if (kept.length > topic.qos.depth) kept.shift();
            this.latched.set(topic.name, kept);
          }
          for (const h of [...handlers]) this.safely(() => h(message), topic);
        },
      );
      this.subscriptions.set(topic.name, sub);
    } else {
      // ROS gives the latched messages to the subscription, which has had them: hand them over here.
      for (const message of this.latched.get(topic.name) ?? []) this.safely(() => h(message), topic);
    }
    set.add(h);
    return () => {
      set.delete(h);
    };
  }

  tap(handler: (entry: BusEntry) => void): Unsubscribe {
    this.taps.add(handler);
    return () => {
      this.taps.delete(handler);
    };
  }

  parameters<P extends Record<string, NodeParameter>>(
    defaults: P,
    integers: readonly (keyof P)[] = [],
  ): ParameterValues<P> {
    const T = this.rcl.ParameterType;
    const out: Record<string, NodeParameter> = {};
    for (const [name, value] of Object.entries(defaults)) {
      // The kind is declared, not guessed from the default: expressiveness 1 must still take 0.5.
      const type =
        typeof value === 'boolean'
          ? T.PARAMETER_BOOL
          : typeof value === 'string'
            ? T.PARAMETER_STRING
            : integers.includes(name)
              ? T.PARAMETER_INTEGER
              : T.PARAMETER_DOUBLE;
      this.node.declareParameter(new this.rcl.Parameter(name, type, value));
      const got = this.node.getParameter(name)?.value;
      // rclnodejs gives integers as bigint.
      out[name] =
        typeof got === 'bigint'
          ? Number(got)
          : typeof got === typeof value || (typeof got === 'number' && typeof value === 'number')
            ? (got as NodeParameter)
            : value;
    }
    return out as ParameterValues<P>;
  }

  onParameters(check: (change: ParameterChange) => string | null, apply: (change: ParameterChange) => void): void {
    const changeOf = (parameters: RclParameterLike[]): ParameterChange =>
      Object.fromEntries(
        parameters.map((p) => [p.name, typeof p.value === 'bigint' ? Number(p.value) : (p.value as NodeParameter)]),
      );
    this.node.addOnSetParametersCallback?.((parameters) => {
      const reason = check(changeOf(parameters));
      return reason === null ? { successful: true, reason: '' } : { successful: false, reason };
    });
    this.node.addPostSetParametersCallback?.((parameters) => {
      if (!this.closed) apply(changeOf(parameters));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.taps.clear();
    this.handlers.clear();
    try {
      this.node.destroy();
    } finally {
      this.rcl.shutdown();
    }
  }

  private qos(q: Qos): unknown {
    const Q = this.rcl.QoS;
    return new Q(
      Q.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
      q.depth,
      q.reliability === 'reliable'
        ? Q.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE
        : Q.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT,
      q.durability === 'transient-local'
        ? Q.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL
        : Q.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
    );
  }

  private safely(f: () => void, topic: TopicSpec): void {
    try {
      f();
    } catch (e) {
      this.onError(e, topic);
    }
  }
}

// What the tests on a real ROS 2 graph share. They drive the node from outside, as a lab's program
// would: lab_node.py (rclpy), `ros2` commands, the built `parceiro`. Each test file takes its own
// ROS_DOMAIN_ID, so files running side by side cannot hear each other, and discovery stays on this
// machine (ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST).
//
// Like the tests that need chromium (system-programs.ts): without a sourced ROS 2 they are skipped
// (the run ends with one line saying how to enable them); under CI (CI=true) the file fails instead.

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach } from 'vitest';
import { ROS2_ENABLE, ROS2_REASON, findOnPath, isCI } from '../system-programs-check.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAB_NODE = join(ROOT, 'test/ros2/lab_node.py');

/** Why the tests cannot run on ROS 2 here, or null. */
export function ros2Missing(env: NodeJS.ProcessEnv = process.env): string | null {
  if (!env.ROS_DISTRO) return `${ROS2_REASON}is not sourced (ROS_DISTRO is not set)`;
  if (!findOnPath('ros2', env)) return `${ROS2_REASON}is sourced but its ros2 command is not on PATH`;
  const prefixes = (env.AMENT_PREFIX_PATH ?? '').split(':').filter(Boolean);
  if (!prefixes.some((p) => existsSync(join(p, 'share/parceiro_msgs/package.xml'))))
    return `${ROS2_REASON}is sourced without parceiro_msgs (not built and sourced)`;
  if (!existsSync(join(ROOT, 'node_modules/rclnodejs/generated/parceiro_msgs')))
    return `${ROS2_REASON}is sourced but rclnodejs is missing or has no parceiro_msgs`;
  return null;
}

/**
 * The tests of this file need ROS 2 on `domain`: skipped when it is not sourced, failing under CI.
 * Returns the environment for the processes they start, and sets it for this process (rclnodejs
 * reads it when it starts).
 */
export function requireRos2(domain: number): { env: NodeJS.ProcessEnv; ready: boolean } {
  const reason = ros2Missing();
  if (reason && isCI())
    throw new Error(`${reason}: under CI (CI=true) the tests on ROS 2 must run, not skip; ${ROS2_ENABLE}`);
  if (reason) {
    beforeEach((ctx) => ctx.skip(reason));
    return { env: process.env, ready: false };
  }
  process.env.ROS_DOMAIN_ID = String(domain);
  process.env.ROS_AUTOMATIC_DISCOVERY_RANGE = 'LOCALHOST';
  return { env: { ...process.env }, ready: true };
}

/** Waits until `test()` holds, polling; fails after `ms` (generous: the machine may be loaded) naming `what`. */
export async function until(test: () => boolean, what: string, ms = 60_000, detail?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}${detail ? `\n${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A program's output and exit. */
export interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs a command (e.g. `ros2 node list`) to its end. */
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The ROS 2 nodes on the graph, asked without the ros2 daemon (which would keep running, and answer from its cache). */
export async function nodeList(env: NodeJS.ProcessEnv): Promise<string[]> {
  const r = await run('ros2', ['node', 'list', '--no-daemon', '--spin-time', '2'], env);
  return r.out.split('\n').filter(Boolean);
}

/** A program started and left running, with what it printed so far. */
export class Started {
  readonly child: ChildProcessWithoutNullStreams;
  out = '';
  err = '';
  readonly done: Promise<number | null>;

  constructor(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT) {
    this.child = spawn(cmd, args, { env, cwd, detached: true });
    this.child.stdout.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (this.err += d.toString()));
    this.done = new Promise((resolve) => this.child.on('close', (c) => resolve(c)));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until its output matches `re` (and it is still running). */
  async printed(re: RegExp, what: string, ms = 90_000): Promise<RegExpExecArray> {
    await until(
      () => re.test(this.out) || !this.running,
      what,
      ms,
      () => `${this.out}\n${this.err}`,
    );
    const m = re.exec(this.out);
    if (!m) throw new Error(`ended before ${what}:\n${this.out}\n${this.err}`);
    return m;
  }

  /** Ends it and every process it started (its process group). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.running && this.child.pid) {
      try {
        process.kill(-this.child.pid, signal);
      } catch {
        // already gone
      }
    }
  }
}

/** A message lab_node.py received: the tag of its subscription, the topic, the message as a dict. */
export interface Received {
  tag: string;
  topic: string;
  msg: Record<string, unknown>;
}

/** A topic as lab_node.py is told it: name, ROS 2 type and QoS. */
export interface TopicRef {
  name: string;
  message: { type: string };
  qos: { reliability: string; durability: string; depth: number };
}

/** lab_node.py running: a lab's rclpy program, subscribing and publishing as the test tells it. */
export class LabNode {
  readonly #p: Started;
  readonly received: Received[] = [];
  readonly answers: Record<string, unknown>[] = [];
  #buf = '';

  constructor(env: NodeJS.ProcessEnv) {
    this.#p = new Started('python3', ['-u', LAB_NODE], env);
    this.#p.child.stdout.on('data', (d: Buffer) => {
      this.#buf += d.toString();
      let i: number;
      while ((i = this.#buf.indexOf('\n')) >= 0) {
        const line = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 1);
        if (!line.trim()) continue;
        const o = JSON.parse(line) as Record<string, unknown>;
        if ('msg' in o) this.received.push(o as unknown as Received);
        else this.answers.push(o);
      }
    });
  }

  async ready(): Promise<void> {
    await until(() => this.answers.some((a) => a.ready === true) || !this.#p.running, 'lab_node.py started', 60_000);
    if (!this.#p.running) throw new Error(`lab_node.py ended:\n${this.#p.err}`);
  }

  #send(cmd: Record<string, unknown>): void {
    this.#p.child.stdin.write(`${JSON.stringify(cmd)}\n`);
  }

  async subscribe(t: TopicRef, tag = ''): Promise<void> {
    const n = this.answers.length;
    this.#send({ op: 'subscribe', topic: t.name, type: t.message.type, qos: t.qos, tag });
    await until(() => this.answers.slice(n).some((a) => a.subscribed === t.name || a.error), `subscribed ${t.name}`);
    this.#errors();
  }

  async publish(t: TopicRef, msg: Record<string, unknown>): Promise<void> {
    const n = this.answers.length;
    this.#send({ op: 'publish', topic: t.name, type: t.message.type, qos: t.qos, msg });
    await until(() => this.answers.slice(n).some((a) => a.published === t.name || a.error), `published ${t.name}`);
    this.#errors();
  }

  /** The publishers of a topic as the graph shows them: node, type, QoS. */
  async info(name: string): Promise<{ node: string; type: string; qos: TopicRef['qos'] }[]> {
    const n = this.answers.length;
    this.#send({ op: 'info', topic: name });
    await until(() => this.answers.slice(n).some((a) => a.info === name || a.error), `info on ${name}`);
    this.#errors();
    return this.answers.slice(n).find((a) => a.info === name)!.publishers as never;
  }

  /** Messages received on `topic` (by subscriptions tagged `tag`). */
  on(topic: string, tag = ''): Record<string, unknown>[] {
    return this.received.filter((r) => r.topic === topic && r.tag === tag).map((r) => r.msg);
  }

  #errors(): void {
    const e = this.answers.find((a) => a.error);
    if (e) throw new Error(`lab_node.py: ${String(e.error)}`);
  }

  async close(): Promise<void> {
    this.#p.child.stdin.end();
    const t = setTimeout(() => this.#p.kill(), 10_000);
    await this.#p.done;
    clearTimeout(t);
  }
}

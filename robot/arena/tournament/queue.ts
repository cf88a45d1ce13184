// What the tournament coordinator (`parceiro tournament --queue URL`, queue-run.ts) and the workers
// (`parceiro worker URL`, queue-worker.ts) agree on: the BullMQ queue on Redis, what a job carries and
// returns, and the settings that recover the boards of a worker that dies (docs/tournaments.md).
//
// Every tournament on a Redis shares one queue; its jobs' ids start with the run's id, and a key that
// the coordinator keeps alive says the run still wants its boards. A job carries the tournament spec
// and a range of board numbers, never code: a worker plays them with its own built-in players.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions } from 'bullmq';
import { packageRoot } from '../../../config/index.js';
import type { TournamentSpec } from '../../../game/index.js';
import { TournamentSetupError } from './errors.js';

/**
 * BullMQ (with ioredis, luxon and msgpackr, 1.5 MB of code) loaded when a queue is used: every other
 * command (simulate, live, replay...) starts without it, about a fifth faster.
 */
export const loadBullmq = (): Promise<typeof import('bullmq')> => import('bullmq');

/** The queue every tournament on a Redis shares, under its own key prefix. */
export const QUEUE_NAME = 'boards';
export const QUEUE_PREFIX = 'parceiro';

/** Bumped when a job's data or result changes shape: a worker refuses a job of another protocol. */
export const QUEUE_PROTOCOL = 1;

/**
 * A worker's hold on a job lasts LOCK_DURATION_MS and is renewed every half of it by the worker's main
 * thread (the boards are played on worker threads, so the renewal is never held up by a long board).
 * A worker that dies stops renewing; within STALLED_INTERVAL_MS after its lock expires another worker's
 * check finds the job stalled and puts it back in the queue: a dead worker's boards are played again
 * within about LOCK_DURATION_MS + STALLED_INTERVAL_MS (20 s). A job stalled more than MAX_STALLED_COUNT
 * times (a board that kills every worker that plays it) fails the tournament instead of looping.
 */
export const LOCK_DURATION_MS = 15_000;
export const STALLED_INTERVAL_MS = 5_000;
export const MAX_STALLED_COUNT = 3;
/** Attempts of a job whose playing threw (a worker thread that crashed); mistakes fail at once. */
export const JOB_ATTEMPTS = 3;
/** Jobs whose coordinator is gone are dropped from Redis after this long (seconds). */
export const ORPHAN_AGE_S = 3600;

/** The key the coordinator keeps alive while its run wants boards; a worker skips the jobs of a run without it. */
export const runKey = (runId: string): string => `${QUEUE_PREFIX}:runs:${runId}`;
export const RUN_KEY_TTL_S = 60;
export const RUN_KEY_REFRESH_MS = 15_000;

/** A job id: the run's id and the first board (BullMQ ids may not contain ':'). */
export const jobId = (runId: string, from: number): string => `${runId}-b${from}`;

/** How long start-up waits for Redis to answer before saying it is unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface BoardsJob {
  protocol: number;
  /** The coordinator's parceiro version, for messages. */
  version: string;
  runId: string;
  spec: TournamentSpec;
  from: number;
  to: number;
  /** Return a record of each game. */
  records: boolean;
}

/** This program's version (the package root's package.json), or 'unknown'. */
export function parceiroVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return pkg.name === 'parceiro' && pkg.version ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A Redis URL as given, checked: `redis://HOST[:PORT][/DB]` (or rediss:// for TLS, user and password allowed). */
export interface RedisTarget {
  url: string;
  /** The URL without its password, for messages. */
  shown: string;
}

export function parseRedisUrl(option: string, value: string): RedisTarget {
  const bad = (why: string): never => {
    throw new TournamentSetupError(
      `${option} expects a Redis URL such as redis://127.0.0.1:6379, got "${value}" (${why})`,
    );
  };
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return bad('not a URL');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    bad(`the scheme must be redis:// or rediss://, not ${u.protocol}//`);
  if (!u.hostname) bad('no host');
  if (u.pathname !== '' && u.pathname !== '/' && !/^\/\d+$/.test(u.pathname))
    bad('the path may only be a database number, e.g. /0');
  if (u.search || u.hash) bad('no query or fragment');
  const shown = `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  return { url: value, shown };
}

/** The connection options of the queue's long-lived clients: they reconnect after a drop, with backoff. */
export const connectionOptions = (target: RedisTarget): ConnectionOptions =>
  ({ url: target.url, connectTimeout: CONNECT_TIMEOUT_MS }) as ConnectionOptions;

const reasonOf = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException & { errors?: unknown[] };
  if (err?.code === 'ECONNREFUSED') return 'connection refused: is redis-server running there?';
  if (err?.code === 'ENOTFOUND' || err?.code === 'EAI_AGAIN') return 'no such host';
  if (err?.code === 'ETIMEDOUT') return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
  if (err?.code) return err.code;
  if (e instanceof Error && /^Protocol error/.test(e.message)) return 'what answers there does not speak Redis';
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0] || 'unknown error';
};

/**
 * Connects once, without retrying, within CONNECT_TIMEOUT_MS: an unreachable Redis, a wrong password or
 * a Redis too old for BullMQ is one clear line (a TournamentSetupError) before anything is queued.
 */
export async function probeRedis(option: string, target: RedisTarget): Promise<void> {
  const { RedisConnection } = await loadBullmq();
  const conn = new RedisConnection(
    { url: target.url, connectTimeout: CONNECT_TIMEOUT_MS, retryStrategy: () => null } as ConnectionOptions,
    {
      blocking: false,
      shared: false,
    },
  );
  let lastError: unknown = null;
  conn.on('error', (e: unknown) => (lastError ??= e));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      CONNECT_TIMEOUT_MS + 2_000,
    );
  });
  try {
    const client = await Promise.race([conn.client, timeout]);
    // A plain command answered: connected, with the right password, to a Redis BullMQ can use.
    await Promise.race([client.get(runKey('probe')), timeout]);
  } catch (e) {
    throw new TournamentSetupError(
      `${option} ${target.shown}: cannot reach Redis (${reasonOf(lastError && (e as Error)?.message === 'Connection is closed.' ? lastError : e)})`,
    );
  } finally {
    clearTimeout(timer);
    await conn.disconnect().catch(() => {});
  }
}

/** Logs each distinct error message of a long-lived client once (Redis down: ioredis retries on its own). */
export function errorLogger(what: string, log: (line: string) => void): (e: unknown) => void {
  let last = '';
  return (e) => {
    const line = `parceiro: ${what}: ${reasonOf(e)}`;
    if (line !== last) log(line);
    last = line;
  };
}

// The coordinator of a tournament on a BullMQ queue (`parceiro tournament --queue URL`): puts one job
// per range of boards on the queue (the spec and the board numbers), waits for the workers'
// results (`parceiro worker URL`, queue-worker.ts) and merges them as the local pool does, range by
// range: the same statistics, the same records in board order. A range is counted once, whichever
// worker played it and however many times (a dead worker's range is played again). At the end, or on a
// stop, it removes its jobs from the queue. See queue.ts for what both sides share.

import { randomBytes } from 'node:crypto';
import { boardCount, emptyStats, mergeStats } from '../../../game/index.js';
import type { TournamentSpec } from '../../../game/index.js';
import type { GameRecord } from '../game-record.js';
import { TournamentSetupError } from './errors.js';
import type { BoardsJob, RedisTarget } from './queue.js';
import {
  JOB_ATTEMPTS,
  ORPHAN_AGE_S,
  QUEUE_NAME,
  QUEUE_PREFIX,
  QUEUE_PROTOCOL,
  RUN_KEY_REFRESH_MS,
  RUN_KEY_TTL_S,
  connectionOptions,
  errorLogger,
  jobId,
  loadBullmq,
  parceiroVersion,
  probeRedis,
  runKey,
} from './queue.js';
import type { TournamentRun } from './run.js';
import type { BoardRangeResult } from './worker.js';

interface QueueRunOptions {
  /** The option that named the Redis, for messages. */
  option?: string;
  signal?: AbortSignal;
  onProgress?: (boardsDone: number, boardsTotal: number) => void;
  /** Each finished game, in schedule order; without it the workers send no records. */
  onGame?: (record: GameRecord) => void;
  log?: (line: string) => void;
  /** Boards per job (default: about 400 jobs in all, at least one board each). */
  boardsPerJob?: number;
}

/** How long without any news the coordinator waits before it asks Redis about each job it still waits for. */
const SWEEP_MS = 5_000;

export async function runTournamentOnQueue(
  spec: TournamentSpec,
  target: RedisTarget,
  options: QueueRunOptions = {},
): Promise<TournamentRun> {
  const option = options.option ?? '--queue';
  const log = options.log ?? (() => {});
  await probeRedis(option, target);
  const { Job, Queue, QueueEvents } = await loadBullmq();

  const total = boardCount(spec);
  const perJob = Math.max(1, options.boardsPerJob ?? Math.ceil(total / 400));
  const runId = randomBytes(6).toString('hex');
  const version = parceiroVersion();
  const records = options.onGame !== undefined;
  const jobs: BoardsJob[] = [];
  for (let from = 0; from < total; from += perJob) {
    jobs.push({ protocol: QUEUE_PROTOCOL, version, runId, spec, from, to: Math.min(total, from + perJob), records });
  }
  const indexOf = new Map(jobs.map((j, i) => [jobId(runId, j.from), i]));

  const connection = connectionOptions(target);
  const queue = new Queue<BoardsJob, BoardRangeResult>(QUEUE_NAME, { connection, prefix: QUEUE_PREFIX });
  const events = new QueueEvents(QUEUE_NAME, { connection, prefix: QUEUE_PREFIX });
  const onError = errorLogger(`Redis at ${target.shown}`, log);
  queue.on('error', onError);
  events.on('error', onError);

  const parts: (BoardRangeResult | undefined)[] = new Array(jobs.length);
  let done = 0;
  let emitted = 0;
  let lastNews = Date.now();
  let failure: Error | null = null;
  let wake: () => void = () => {};

  const accept = (id: string, result: BoardRangeResult | null | undefined): void => {
    const i = indexOf.get(id);
    // Another run's job, or a range already counted (a stalled job played twice): nothing to add.
    if (i === undefined || parts[i] || !result) return;
    parts[i] = result;
    lastNews = Date.now();
    const j = jobs[i]!;
    done += j.to - j.from;
    options.onProgress?.(done, total);
    while (emitted < parts.length && parts[emitted]) for (const g of parts[emitted++]!.records) options.onGame?.(g);
    void queue.remove(id).catch(() => {});
    wake();
  };
  const fail = (id: string, reason: string): void => {
    const j = jobs[indexOf.get(id)!]!;
    const boards = j.to - j.from > 1 ? `boards ${j.from}-${j.to - 1}` : `board ${j.from}`;
    failure ??= new TournamentSetupError(`a worker could not play ${boards} of this tournament: ${reason}`);
    wake();
  };
  /** A job that failed for good (a failure with attempts left goes back to the queue). */
  const checkFailed = async (id: string): Promise<void> => {
    const job = await Job.fromId<BoardsJob, BoardRangeResult>(queue, id);
    if (job && (await job.isFailed())) fail(id, job.failedReason || 'no reason given');
  };

  events.on('completed', ({ jobId: id, returnvalue }) => accept(id, returnvalue as unknown as BoardRangeResult));
  events.on('failed', ({ jobId: id }) => {
    if (indexOf.has(id)) void checkFailed(id).catch(onError);
  });

  /** Asks Redis about each job still waited for: news the events did not bring (or a job that vanished). */
  const sweep = async (): Promise<void> => {
    lastNews = Date.now();
    for (const [id, i] of indexOf) {
      if (parts[i] || failure) continue;
      const job = await Job.fromId<BoardsJob, BoardRangeResult>(queue, id);
      if (!job) await queue.add('boards', jobs[i]!, jobOptions(id));
      else if (await job.isCompleted()) accept(id, job.returnvalue);
      else if (await job.isFailed()) fail(id, job.failedReason || 'no reason given');
    }
  };

  const client = await queue.client;
  const refreshRunKey = (): Promise<unknown> => client.set(runKey(runId), '1', { EX: RUN_KEY_TTL_S });
  let heartbeat: NodeJS.Timeout | undefined;
  const signal = options.signal;
  const onAbort = (): void => wake();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await events.waitUntilReady();
    await refreshRunKey();
    heartbeat = setInterval(() => void refreshRunKey().catch(onError), RUN_KEY_REFRESH_MS);
    await queue.addBulk(jobs.map((j) => ({ name: 'boards', data: j, opts: jobOptions(jobId(runId, j.from)) })));
    if ((await queue.getWorkersCount().catch(() => 1)) === 0) {
      log(
        `parceiro: no worker serves ${target.shown} yet: start \`parceiro worker ${target.shown}\` on each machine that should play`,
      );
    }
    while (done < total && !failure && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, SWEEP_MS).unref();
      });
      if (done < total && !failure && !signal?.aborted && Date.now() - lastNews >= SWEEP_MS) await sweep();
    }
    if (failure) throw failure;
    const stopped = signal?.aborted === true && done < total;
    if (stopped)
      for (let i = emitted; i < parts.length; i++) for (const g of parts[i]?.records ?? []) options.onGame?.(g);
    const stats = emptyStats();
    for (const p of parts) if (p) mergeStats(stats, p.stats);
    return { stats, stopped, boardsTotal: total, gamesFinished: stats.games };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    clearInterval(heartbeat);
    // The run is over: workers skip what is left of it, and its jobs leave the queue (a job a worker
    // holds cannot be removed: it ends as an orphan that Redis drops after ORPHAN_AGE_S).
    await client.del(runKey(runId)).catch(() => {});
    await Promise.all([...indexOf.keys()].map((id) => queue.remove(id).catch(() => 0)));
    await events.close().catch(() => {});
    await queue.close().catch(() => {});
  }
}

const jobOptions = (id: string) => ({
  jobId: id,
  attempts: JOB_ATTEMPTS,
  removeOnComplete: { age: ORPHAN_AGE_S },
  removeOnFail: { age: ORPHAN_AGE_S },
});

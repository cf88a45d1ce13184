// A tournament worker on a BullMQ queue (`parceiro worker URL`): takes ranges of boards from the queue
// that `parceiro tournament --queue URL` fills (queue-run.ts), and plays each with the same function
// and thread file as the local pool (worker.ts, on a piscina pool of `concurrency` threads), so the
// main thread is always free to renew the jobs' locks (queue.ts). It serves every tournament on that
// Redis until stopped: a first stop finishes the boards in hand and takes no more; a second gives them
// back to the queue at once (another worker plays them).

import { builtModule } from '../../../config/index.js';
import { hostname } from 'node:os';
import { Piscina } from 'piscina';
import type { Job, Worker } from 'bullmq';
import { BUILTIN_PLAYERS, PlayerSpecError, playerFactory } from '../../../game/index.js';
import { workersLoaded } from '../../live/search/workers-loaded.js';
import type { BoardsJob, RedisTarget } from './queue.js';
import {
  LOCK_DURATION_MS,
  MAX_STALLED_COUNT,
  QUEUE_NAME,
  QUEUE_PREFIX,
  QUEUE_PROTOCOL,
  STALLED_INTERVAL_MS,
  connectionOptions,
  errorLogger,
  loadBullmq,
  parceiroVersion,
  probeRedis,
  runKey,
} from './queue.js';
import type { BoardRange, BoardRangeResult } from './worker.js';

interface QueueWorkerOptions {
  /** Ranges of boards played at once (threads). */
  concurrency: number;
  log: (line: string) => void;
}

/** Why this worker cannot play a job (a mistake no retry fixes), or null. */
function cannotPlay(data: BoardsJob, version = parceiroVersion()): string | null {
  if (data.protocol !== QUEUE_PROTOCOL) {
    return `this worker (parceiro ${version}, queue protocol ${QUEUE_PROTOCOL}) cannot read a job of parceiro ${data.version} (protocol ${data.protocol}): run the same version of parceiro on every machine`;
  }
  for (const name of [...data.spec.teamA, ...data.spec.teamB]) {
    if (Object.hasOwn(BUILTIN_PLAYERS, name)) continue;
    try {
      playerFactory(name);
    } catch (e) {
      if (e instanceof PlayerSpecError)
        return `the worker on ${hostname()} (parceiro ${version}) does not know the player '${name}': ${e.message}`;
      throw e;
    }
  }
  return null;
}

const boardsOf = (d: BoardsJob): string => (d.to - d.from > 1 ? `boards ${d.from}-${d.to - 1}` : `board ${d.from}`);

interface RunningWorker {
  /** First call: finish the boards in hand, take no more. Later calls: give them back now. Resolves once closed. */
  stop(): Promise<void>;
  /** Resolves once the worker has closed (after stop()). */
  closed: Promise<void>;
}

/** Connects (one line and exit 2 when Redis cannot be reached), then serves the queue until stopped. */
export async function serveQueue(target: RedisTarget, options: QueueWorkerOptions): Promise<RunningWorker> {
  const { concurrency, log } = options;
  await probeRedis('worker', target);
  const { UnrecoverableError, WaitingError, Worker } = await loadBullmq();
  const version = parceiroVersion();
  const pool = new Piscina<BoardRange, BoardRangeResult>({
    filename: builtModule('robot', 'arena', 'tournament', 'worker.js').href,
    minThreads: concurrency,
    maxThreads: concurrency,
  });
  const loaded = workersLoaded(pool);
  const giveBack = new AbortController();
  const onError = errorLogger(`Redis at ${target.shown}`, log);

  const processor = async (
    job: Job<BoardsJob, BoardRangeResult | null>,
    token?: string,
  ): Promise<BoardRangeResult | null> => {
    const d = job.data;
    const why = cannotPlay(d, version);
    if (why) {
      log(`parceiro worker: refused ${boardsOf(d)} of run ${d.runId}: ${why}`);
      throw new UnrecoverableError(why);
    }
    const client = await worker.client;
    if ((await client.get(runKey(d.runId))) === null) {
      log(`parceiro worker: skipped ${boardsOf(d)} of run ${d.runId}: that tournament is no longer running`);
      return null;
    }
    log(`parceiro worker: playing ${boardsOf(d)} of run ${d.runId}`);
    try {
      const result = await pool.run(
        { spec: d.spec, from: d.from, to: d.to, records: d.records },
        { signal: giveBack.signal },
      );
      log(`parceiro worker: played ${boardsOf(d)} of run ${d.runId}`);
      return result;
    } catch (e) {
      if (!giveBack.signal.aborted) throw e;
      // Stopped at once: the job goes back to the queue for another worker.
      await job.moveToWait(token);
      log(`parceiro worker: gave back ${boardsOf(d)} of run ${d.runId}`);
      throw new WaitingError();
    }
  };

  const worker: Worker<BoardsJob, BoardRangeResult | null> = new Worker(QUEUE_NAME, processor, {
    connection: connectionOptions(target),
    prefix: QUEUE_PREFIX,
    concurrency,
    lockDuration: LOCK_DURATION_MS,
    stalledInterval: STALLED_INTERVAL_MS,
    maxStalledCount: MAX_STALLED_COUNT,
    name: `${hostname()}:${process.pid}`,
    autorun: false,
  });
  worker.on('error', onError);
  void worker.run().catch(onError);
  await worker.waitUntilReady();
  log(
    `parceiro worker: serving the tournaments on ${target.shown}, ${concurrency} ${concurrency === 1 ? 'range of boards' : 'ranges of boards at once'} (parceiro ${version}); Ctrl-C stops`,
  );

  let closing: Promise<void> | null = null;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const stop = (): Promise<void> => {
    if (closing) {
      giveBack.abort();
      return closing;
    }
    closing = (async () => {
      try {
        await worker.close();
      } finally {
        await loaded;
        await pool.destroy();
        resolveClosed();
      }
    })();
    return closing;
  };
  return { stop, closed };
}

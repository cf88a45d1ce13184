// parceiro worker URL: plays the boards of the tournaments queued on that Redis (`parceiro tournament
// --queue URL`), on any number of machines, until SIGINT or SIGTERM: the first finishes the boards in
// hand and takes no more, a second gives them back to the queue at once. See docs/tournaments.md.

import { parseRedisUrl } from '../../robot/arena/index.js';
import { serveQueue } from '../../robot/arena/index.js';

interface WorkerCliOptions {
  concurrency: number;
}

export async function workerCommand(url: string, o: WorkerCliOptions, log: (line: string) => void): Promise<void> {
  const target = parseRedisUrl('worker', url);
  // Signals heard from the start: one that comes while connecting stops as soon as the worker runs.
  let signals = 0;
  let running: Awaited<ReturnType<typeof serveQueue>> | null = null;
  const onSignal = (name: NodeJS.Signals): void => {
    signals++;
    if (signals === 1)
      log(
        `parceiro worker: ${name}: finishing the boards in hand, taking no more (again to give them back to the queue now)`,
      );
    else if (signals === 2) log(`parceiro worker: ${name} again: giving the boards in hand back to the queue`);
    void running?.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    running = await serveQueue(target, { concurrency: o.concurrency, log });
    for (let i = 0; i < signals; i++) void running.stop();
    await running.closed;
    log('parceiro worker: stopped');
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// When a piscina pool's workers have loaded their module. A worker terminated while Node 20 is still
// loading its ES module (piscina loads it with require()) aborts the whole process ("FATAL ERROR:
// v8::Module::IsGraphAsync ... must be used on an instantiated module"), so a pool is destroyed only
// after each of its workers has said it is ready, or has gone. Seen as a SIGABRT of `parceiro play`
// or `live` stopped with Ctrl-C within a second of starting, on a loaded machine.

import type { Worker } from 'node:worker_threads';

/** piscina's worker posts this, once its module is loaded (piscina/dist/common.js, READY). */
const READY = '_WORKER_READY';

/** Call right after creating the pool (its workers exist then, and have not answered yet). */
export function workersLoaded(pool: { readonly threads: Worker[] }): Promise<void> {
  return Promise.all(
    pool.threads.map(
      (worker) =>
        new Promise<void>((resolve) => {
          const done = (): void => {
            worker.off('message', onMessage);
            worker.off('exit', done);
            worker.off('error', done);
            resolve();
          };
          const onMessage = (message: unknown): void => {
            if (typeof message === 'object' && message !== null && READY in message) done();
          };
          worker.on('message', onMessage);
          worker.once('exit', done);
          worker.once('error', done);
        }),
    ),
  ).then(() => undefined);
}

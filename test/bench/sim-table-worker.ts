// A simulated table on a worker thread of its own, so that what it keeps (its bots, the prompts and
// results it was shown) is not counted in the node's heap by the memory bench (node.ts).

import { parentPort, workerData } from 'node:worker_threads';
import { SimulatedTable } from '../../table-bridge/index.js';

const { url, token, seed } = workerData as { url: string; token: string; seed: number };
const table = new SimulatedTable({ url, token, seed });
await table.start();
await table.finished();
table.close();
parentPort!.postMessage('finished');

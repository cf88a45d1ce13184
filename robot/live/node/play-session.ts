// A session played to its end by a table the caller made (the simulated table of `simulate`, the bench
// and the tests): connect, wait for the last game and for the robot's last lines, then disconnect.

import type { SimulatedTable } from '../../../table-bridge/index.js';
import type { ParceiroNode } from './parceiro-node.js';

export async function playToTheEnd(node: ParceiroNode, table: SimulatedTable): Promise<void> {
  try {
    await table.start();
    // A simulated table that fails (a refused card, a bad message) ends the wait with its reason.
    await Promise.race([node.finished(), table.finished()]);
    await node.finished();
    await node.quiet();
  } finally {
    table.close();
  }
}

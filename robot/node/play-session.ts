// A session played to its end by a table the caller made (the simulated table of `simulate`, the bench
// and the tests): connect, wait for the last game and for the robot's last lines, then disconnect.

import type { SimulatedTable } from '../../table-bridge/index.js';
import type { ParceiroNode } from './parceiro-node.js';

export async function playToTheEnd(node: ParceiroNode, table: SimulatedTable): Promise<void> {
  try {
    await table.start();
    await node.finished();
    await node.quiet();
  } finally {
    table.close();
  }
}

// `parceiro live --tuio`: the TUIO adapter in the live node's process, joined to the node's own table
// server with its token as the touch table of every seat but the robot's.

import type { ParceiroNode } from '../../robot/index.js';
import type { TuioSettings } from '../../table-bridge/tuio/index.js';
import { TuioTable } from '../../table-bridge/tuio/index.js';
import type { NodeLogger } from '../../robot/index.js';
import { UsageError } from '../errors.js';

interface LiveTuioOptions {
  /** `--tuio` alone (true): the settings' port; `--tuio PORT`: that port. */
  tuio: true | number;
  /** Read from config/table/tuio.yaml or --tuio-config before the node started. */
  settings: TuioSettings;
}

export async function startLiveTuio(
  o: LiveTuioOptions,
  node: ParceiroNode,
  token: string,
  logger: NodeLogger,
  write: (line: string) => void,
): Promise<TuioTable> {
  const { settings } = o;
  const table = new TuioTable({
    url: node.url,
    token,
    settings,
    ...(o.tuio === true ? {} : { port: o.tuio }),
    robotSeat: node.runtime.snapshot().robotSeat,
    logger: logger.child({ part: 'tuio' }),
    notify: (line) => write(`table: ${line}`),
  });
  let started: Awaited<ReturnType<TuioTable['start']>>;
  try {
    started = await table.start();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code)
      throw new UsageError(
        `--tuio: cannot listen for TUIO on ${settings.host}:${o.tuio === true ? settings.port : o.tuio} (${code})`,
      );
    throw e;
  }
  write(
    `Listening for TUIO (reacTIVision) on ${started.host}:${started.port}; zones from ${settings.file}. A card in the trump area starts a game dealt by people.`,
  );
  return table;
}

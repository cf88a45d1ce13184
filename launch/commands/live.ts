// parceiro live: starts the robot node and waits for a touch table. Prints where the table should
// connect and the token it must present; ends when the session is over or on Ctrl-C (the recording
// is closed either way).

import { randomBytes } from 'node:crypto';
import type { Seat } from '../../game/index.js';
import type { BusChoice } from '../../robot/index.js';
import { Ros2UnavailableError } from '../../robot/bus/index.js';
import { ParceiroNode, createLogger } from '../../robot/index.js';
import { TABLE_NAMESPACE } from '../../table-bridge/index.js';
import { UsageError } from '../errors.js';
import { speechKind } from './simulate.js';

export interface LiveOptions {
  port?: number;
  host?: string;
  token?: string;
  bus: string;
  seat: number;
  language?: string;
  character?: string;
  budget?: number;
  games?: number;
  seed?: number;
  speech?: string;
  record: boolean;
  recordings?: string;
}

export async function liveCommand(o: LiveOptions, write: (line: string) => void): Promise<void> {
  if (o.bus !== 'in-process' && o.bus !== 'ros2') throw new UsageError(`--bus expects in-process or ros2, got "${o.bus}"`);
  const token = o.token ?? randomBytes(12).toString('hex');
  const logger = createLogger();
  let node: ParceiroNode;
  try {
    node = await ParceiroNode.start({
      seed: o.seed ?? (Date.now() & 0x7fffffff),
      token,
      bus: o.bus as BusChoice,
      robotSeat: o.seat as Seat,
      ...(o.host === undefined ? {} : { host: o.host }),
      ...(o.port === undefined ? {} : { port: o.port }),
      ...(o.language === undefined ? {} : { language: o.language }),
      ...(o.character === undefined ? {} : { character: o.character }),
      ...(o.budget === undefined ? {} : { budgetMs: o.budget }),
      ...(o.games === undefined ? {} : { games: o.games }),
      ...(o.speech === undefined ? {} : { speech: speechKind(o.speech) }),
      ...(o.record ? (o.recordings === undefined ? {} : { recordingsDir: o.recordings }) : { recordingsDir: null }),
      logger,
    });
  } catch (e) {
    if (e instanceof Ros2UnavailableError) throw new UsageError(e.message);
    throw e;
  }
  write(`Parceiro is waiting for a table at ${node.url} (socket.io namespace ${TABLE_NAMESPACE}).`);
  write(`Token: ${token}`);
  write(node.recording ? `Recording to ${node.recording}` : 'Not recording.');
  const stop = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('interrupted'));
    process.once('SIGTERM', () => resolve('terminated'));
  });
  const why = await Promise.race([node.finished().then(() => 'the session is over'), stop]);
  if (why === 'the session is over') await node.quiet();
  const summary = await node.close();
  write(`Stopped (${why}): victories A ${summary.score.victories[0]} - B ${summary.score.victories[1]}${summary.recording ? `; recording ${summary.recording}` : ''}.`);
}

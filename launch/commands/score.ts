// parceiro score FILE|-: replays a game record through the rules and prints the score as JSON.

import { RecordError, scoreRecord } from '../../game/index.js';
import type { ScoreReport } from '../../game/index.js';
import { UsageError } from '../errors.js';
import { parseJson, readInput } from '../io.js';

export function scoreCommand(file: string): ScoreReport {
  const source = file === '-' ? 'standard input' : file;
  const value = parseJson(readInput(file), source);
  try {
    return scoreRecord(value);
  } catch (e) {
    if (e instanceof RecordError) throw new UsageError(`${source}: ${e.message}`);
    throw e;
  }
}

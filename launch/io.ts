// Reading input files for the commands: a path or "-" for standard input.

import type { ReadBound } from '../config/index.js';
import { BoundedReadError, readBounded, readBoundedLines } from '../config/index.js';
import type { ParsedRecord } from '../game/index.js';
import { RecordError, parseRecord } from '../game/index.js';
import { UsageError } from './errors.js';

/** What a command reads whole: a game record or a position is a few kB. */
export const JSON_INPUT: ReadBound = { maxBytes: 1 << 20, what: 'one JSON document' };

/** A file named on the command line, or standard input for "-", as the person named it. */
const shown = (file: string): string => (file === '-' ? 'standard input' : file);

/**
 * A file (or "-" for standard input) read whole, at most `bound.maxBytes`: more (/dev/zero, a wrong
 * file) ends the command in one line naming the bound, exit 2.
 */
export function readInput(file: string, bound: ReadBound = JSON_INPUT): string {
  try {
    return readBounded(file === '-' ? 0 : file, bound).toString('utf8');
  } catch (e) {
    if (e instanceof BoundedReadError) throw new UsageError(`${shown(file)}: ${e.reason}`);
    throw e;
  }
}

/** JSON.parse with the place of a syntax error as line:column. */
export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const pos = /position (\d+)/.exec(message);
    let where = '';
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split('\n').length;
      const column = before.length - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${column}`;
    }
    throw new UsageError(`${source}: not valid JSON${where} (${message.replace(/^JSON\.parse: /, '')})`);
  }
}

/** A game record on one line is a few kB; a tournament's file of them may be of any length. */
const RECORD_LINE: ReadBound = { maxBytes: 1 << 20, what: 'one line of a game record' };

/**
 * The lines of a file (or "-" for standard input) read as they come, in the memory of one line: a
 * line longer than `bound.maxBytes` ends the command in one line, exit 2.
 */
export function* inputLines(file: string, bound: ReadBound): Generator<string, void, undefined> {
  try {
    yield* readBoundedLines(file === '-' ? 0 : file, bound);
  } catch (e) {
    if (e instanceof BoundedReadError) throw new UsageError(`${shown(file)}: ${e.reason}`);
    throw e;
  }
}

/**
 * Game records, one JSON object a line (a tournament's summary line skipped), each with the seats'
 * names its record gives, else `who` for all four. A line that is not a record ends the command with
 * the file and the line.
 */
export function* readRecordLines(
  file: string,
  who: string,
): Generator<{ record: ParsedRecord; who: [string, string, string, string] }> {
  let i = -1;
  for (const line of inputLines(file, RECORD_LINE)) {
    i++;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new UsageError(`${file}: line ${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    const v = value as Record<string, unknown>;
    if (v && v.type === 'summary') continue;
    let record: ParsedRecord;
    try {
      record = parseRecord(value);
    } catch (e) {
      if (e instanceof RecordError) throw new UsageError(`${file}: line ${i + 1}: ${e.message}`);
      throw e;
    }
    const seats =
      Array.isArray(v.seats) && v.seats.length === 4 && v.seats.every((s) => typeof s === 'string')
        ? (v.seats as [string, string, string, string])
        : null;
    yield { record, who: seats ?? [who, who, who, who] };
  }
}

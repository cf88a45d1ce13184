// Reading input files for the commands: a path or "-" for standard input.

import { readFileSync } from 'node:fs';
import type { ParsedRecord } from '../game/index.js';
import { RecordError, parseRecord } from '../game/index.js';
import { UsageError } from './errors.js';

export function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw new UsageError(`${file === '-' ? 'standard input' : file}: ${why}`);
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

/**
 * Game records, one JSON object a line (a tournament's summary line skipped), each with the seats'
 * names its record gives, else `who` for all four. A line that is not a record ends the command with
 * the file and the line.
 */
export function* readRecordLines(
  file: string,
  who: string,
): Generator<{ record: ParsedRecord; who: [string, string, string, string] }> {
  for (const [i, line] of readInput(file).split('\n').entries()) {
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

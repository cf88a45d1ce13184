// Reading input files for the commands: a path or "-" for standard input.

import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';

export function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
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

// The study's JSON files: read with a check, written whole (a temporary file renamed over the old one,
// so a crash never leaves half a file).

import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { shownPath } from '../../config/index.js';
import { StudyError } from './errors.js';

export function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}

/** A JSON file checked by `schema`; a file that is not what it should be is a StudyError naming it. */
export function readJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new StudyError(`${shownPath(file)}: cannot read it as JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const r = schema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new StudyError(`${shownPath(file)}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  return r.data;
}

/** The names of a folder's files that end in `suffix`, sorted; none when the folder is missing. */
export function filesIn(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(suffix) && !f.endsWith('.tmp'))
    .sort();
}

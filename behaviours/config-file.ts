// YAML configuration read through a zod schema. Every problem names the file, the line and column,
// the key, and what was expected, so whoever edits a file by hand can fix it without reading code.
// Written to be shared: nothing here knows about behaviours.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, isMap, isNode, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { z } from 'zod';

export interface ConfigProblem {
  /** The file as shown to people: relative to the package root when inside it. */
  file: string;
  /** 1-based; 0 when the problem is the file itself (missing, unreadable). */
  line: number;
  column: number;
  /** The key path, e.g. `expressions.happy.joints.leftEyelid` or `lines[12].text`; empty for the whole file. */
  key: string;
  reason: string;
}

/** A configuration file that cannot be used. `problems` lists all of them, in file order. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ConfigError';
  }
}

export const formatProblem = (p: ConfigProblem): string =>
  `${p.file}${p.line ? `:${p.line}:${p.column}` : ''}: ${p.key ? `${p.key}: ` : ''}${p.reason}`;

/** The package root (the folder with package.json and config/), from the sources or from dist/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'config'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package root (package.json and config/) above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The default configuration folder, found from this file so that any working directory will do. */
export const defaultConfigDir = (): string => join(packageRoot(), 'config');

const shownPath = (file: string): string => {
  const abs = resolve(file);
  try {
    const rel = relative(packageRoot(), abs);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
  } catch {
    return abs;
  }
};

const keyOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');

/** Reads and validates a YAML file. Throws `ConfigError` naming every problem. */
export function loadYamlConfig<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : `cannot read: ${(e as Error).message}`;
    throw new ConfigError([{ file: shownPath(file), line: 0, column: 0, key: '', reason }]);
  }
  return parseYamlConfig(text, file, schema);
}

/** Validates YAML text; `file` is only used in messages. */
export function parseYamlConfig<S extends z.ZodType>(text: string, file: string, schema: S): z.output<S> {
  const shown = shownPath(file);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax) {
    // Later syntax errors are mostly echoes of the first.
    const pos = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigError([{ file: shown, line: pos.line, column: pos.col, key: '', reason: `not valid YAML: ${firstLine(syntax.message)}` }]);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // yaml refuses to expand aliases past the count (a ReferenceError): the file is still named.
    if (!(e instanceof ReferenceError)) throw e;
    throw new ConfigError([{ file: shown, line: 0, column: 0, key: '', reason: `not valid YAML: an alias expands to too many values (a YAML alias bomb?); write the values out` }]);
  }
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => problemOf(issue, doc, lineCounter, shown));
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  throw new ConfigError(problems);
}

const firstLine = (s: string): string => s.split('\n')[0]!.trim();

function problemOf(issue: z.core.$ZodIssue, doc: Document, lines: LineCounter, file: string): ConfigProblem {
  let path: PropertyKey[] = [...issue.path];
  // An unknown key is reported on its parent; point at the key itself.
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) path = [...path, issue.keys[0]!];
  const { node, depth } = nearestNode(doc, path);
  const found = depth === path.length;
  // Point at the key (`leftEyelid:`) rather than its value; for a missing key, at its parent's key.
  const offset = keyOffset(doc, path.slice(0, depth)) ?? node?.range?.[0];
  const pos = offset === undefined ? { line: 1, col: 1 } : lines.linePos(offset);
  const reason = reasonOf(issue, found ? valueAt(doc, path) : undefined, found);
  return { file, line: pos.line, column: pos.col, key: keyOf(path), reason };
}

/** The node at `path`, or the deepest existing ancestor (for a missing key: where it should go). */
function nearestNode(doc: Document, path: readonly PropertyKey[]): { node: { range?: [number, number, number] | null } | undefined; depth: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node)) return { node, depth: n };
  }
  return { node: undefined, depth: 0 };
}

/** The offset of the key of a mapping entry, so `key:` rather than its value is pointed at. */
function keyOffset(doc: Document, path: readonly PropertyKey[]): number | undefined {
  if (path.length === 0 || typeof path[path.length - 1] === 'number') return undefined;
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1) as unknown[], true);
  if (!isMap(parent)) return undefined;
  for (const item of parent.items as unknown[]) {
    const key = (item as { key?: unknown }).key;
    if (isNode(key) && 'value' in key && String((key as { value: unknown }).value) === String(path[path.length - 1])) return key.range?.[0];
  }
  return undefined;
}

const valueAt = (doc: Document, path: readonly PropertyKey[]): unknown => {
  const v = path.length === 0 ? doc.toJS() : doc.getIn(path as unknown[]);
  return isNode(v) ? (v as { toJSON(): unknown }).toJSON() : v;
};

const shown = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function reasonOf(issue: z.core.$ZodIssue, value: unknown, found: boolean): string {
  const got = found ? `, got ${shown(value)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (!found) return `missing (expected ${issue.expected})`;
      return `expected ${issue.expected}${got}`;
    case 'invalid_union':
      // Schemas give their unions a message saying what is accepted.
      return found ? `${issue.message}${got}` : `missing (${issue.message})`;
    case 'unrecognized_keys':
      return `unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_format':
      return `${issue.message}${got}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${shown(value)}`;
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const limit = String(big ? issue.maximum : issue.minimum);
      const bound = big ? (issue.inclusive ? 'at most' : 'less than') : issue.inclusive ? 'at least' : 'more than';
      if (issue.origin === 'number' || issue.origin === 'int') return `expected a number ${bound} ${limit}${got}`;
      if (issue.origin === 'array') return `expected ${bound} ${limit} item(s)`;
      if (issue.origin === 'string') return `expected ${bound} ${limit} character(s)`;
      return issue.message;
    }
    default:
      return issue.message;
  }
}

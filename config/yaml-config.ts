// YAML configuration read through a zod schema. Every problem names the file, the line (and column),
// the key and what was expected, so whoever edits a file by hand can fix it without reading code.
// Knows no file of its own: each reader brings its schema.

import { LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { Document } from 'yaml';
import type { z } from 'zod';
import { shownPath } from './package-root.js';
import type { ReadBound } from './read-file.js';
import { BoundedReadError, readBounded } from './read-file.js';

/** The largest config file read: the biggest shipped one is 30 kB. */
const CONFIG_BOUND: ReadBound = { maxBytes: 4 << 20, what: 'a configuration file' };

export interface ConfigProblem {
  /** The file as shown to people (see shownPath). */
  file: string;
  /** 1-based; null when the problem is the file as a whole (unreadable, empty). */
  line: number | null;
  /** 1-based; absent when only the line is told. */
  column?: number;
  /** The key path, e.g. `expressions.happy.joints.leftEyelid` or `lines[12].text`; empty for the whole file. */
  key: string;
  reason: string;
}

/** `file:line:column: key: reason`, leaving out what is not known. */
const formatProblem = (p: ConfigProblem): string =>
  `${p.file}${p.line === null ? '' : `:${p.line}${p.column === undefined ? '' : `:${p.column}`}`}: ${p.key ? `${p.key}: ` : ''}${p.reason}`;

/** A configuration file that cannot be used. `problems` lists them in file order, one per line of the message. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: ConfigProblem | readonly ConfigProblem[]) {
    const list = Array.isArray(problems) ? (problems as readonly ConfigProblem[]) : [problems as ConfigProblem];
    super(list.map(formatProblem).join('\n'));
    this.name = 'ConfigError';
    this.problems = list;
  }

  // The first problem's parts, for callers that report one.
  get file(): string {
    return this.problems[0]?.file ?? '';
  }
  get line(): number | null {
    return this.problems[0]?.line ?? null;
  }
  get key(): string {
    return this.problems[0]?.key ?? '';
  }
  get reason(): string {
    return this.problems[0]?.reason ?? '';
  }
}

type KeyPath = readonly PropertyKey[];

/** `rules[2].appraise.desirability` */
const formatKey = (path: KeyPath): string =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');

export interface YamlConfigOptions {
  /**
   * Wording for the issues whose schema gives no message of its own (a zod error map). Default: what
   * was expected and what the file has, or that the key is missing.
   */
  error?: z.core.$ZodErrorMap;
  /** Tell only the first problem the schema finds; default every one, in file order. */
  firstOnly?: boolean;
  /** Give the column after the line; default true. */
  columns?: boolean;
}

/** A checked file, with the means to point at any of its keys (for checks the schema cannot make). */
export interface ConfigFile<T> {
  value: T;
  /** The file as shown in messages. */
  file: string;
  /** The line (1-based) of the key at `path`, or of its nearest enclosing one that exists. */
  lineOf(path: KeyPath): number;
  /** A problem at `path`. */
  problem(path: KeyPath, reason: string): ConfigProblem;
  /** A ConfigError of one problem at `path`. */
  error(path: KeyPath, reason: string): ConfigError;
}

/** Reads a YAML file; throws ConfigError when it cannot be read. */
export function readConfigText(file: string): string {
  try {
    return readBounded(file, CONFIG_BOUND).toString('utf8');
  } catch (e) {
    const b = e instanceof BoundedReadError ? e : new BoundedReadError(String(e));
    throw new ConfigError({
      file: shownPath(file),
      line: null,
      key: '',
      reason:
        b.code === undefined && b.reason.startsWith('more than')
          ? b.reason
          : `cannot read the file (${b.code ?? b.reason})`,
    });
  }
}

/** Reads and validates a YAML file. Throws ConfigError. */
export const loadYamlConfig = <S extends z.ZodType>(
  file: string,
  schema: S,
  options: YamlConfigOptions = {},
): z.output<S> => loadConfigFile(file, schema, options).value;

/** Validates YAML text; `file` names it in messages. Throws ConfigError. */
export const parseYamlConfig = <S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  options: YamlConfigOptions = {},
): z.output<S> => parseConfigFile(text, file, schema, options).value;

/** loadYamlConfig, keeping the means to point at the file's keys. */
const loadConfigFile = <S extends z.ZodType>(
  file: string,
  schema: S,
  options: YamlConfigOptions = {},
): ConfigFile<z.output<S>> => parseConfigFile(readConfigText(file), file, schema, options);

/** parseYamlConfig, keeping the means to point at the file's keys. */
export function parseConfigFile<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  options: YamlConfigOptions = {},
): ConfigFile<z.output<S>> {
  const shown = shownPath(file);
  const columns = options.columns ?? true;
  const whole = (reason: string): ConfigError => new ConfigError({ file: shown, line: null, key: '', reason });
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined): { line: number; column?: number } => {
    const pos = offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
    return columns ? { line: pos.line, column: pos.col } : { line: pos.line };
  };
  const syntax = doc.errors[0];
  if (syntax) {
    // Later syntax errors are mostly echoes of the first.
    throw new ConfigError({
      file: shown,
      ...at(syntax.pos[0]),
      key: '',
      reason: `not valid YAML: ${firstLine(syntax.message)}`,
    });
  }
  // A key "__proto__" would be dropped when the file becomes an object (it names the prototype), so a
  // mistake there would pass in silence: refused, like any key the schema does not know.
  let proto: number | undefined | null = null;
  visit(doc, {
    Pair: (_, pair) => {
      if (isScalar(pair.key) && String(pair.key.value) === '__proto__') {
        proto = pair.key.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (proto !== null)
    throw new ConfigError({
      file: shown,
      ...at(proto),
      key: '__proto__',
      reason: 'not a key this file can have ("__proto__" cannot be a key of a configuration file)',
    });
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // yaml refuses to expand aliases past the count (a ReferenceError): the file is still named.
    if (!(e instanceof ReferenceError)) throw e;
    throw whole('not valid YAML: an alias expands to too many values (a YAML alias bomb?); write the values out');
  }
  // An empty file (or one of comments only) is a mistake, never "all defaults".
  if (data === null || data === undefined) throw whole('the file is empty');
  const problem = (path: KeyPath, reason: string): ConfigProblem => ({
    file: shown,
    ...at(offsetOf(doc, path)),
    key: formatKey(path),
    reason,
  });
  const located = (value: z.output<S>): ConfigFile<z.output<S>> => ({
    value,
    file: shown,
    lineOf: (path) => at(offsetOf(doc, path)).line,
    problem,
    error: (path, reason) => new ConfigError(problem(path, reason)),
  });
  const result = schema.safeParse(data, { error: options.error ?? expectedWording });
  if (result.success) return located(result.data);
  // The first issue in the schema's order is the most specific (a bad entry before its map's own checks).
  const issues = options.firstOnly ? result.error.issues.slice(0, 1) : result.error.issues;
  const problems = issues.map((issue) => {
    let path: PropertyKey[] = [...issue.path];
    // An unknown key is reported on its parent; point at the key itself.
    if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) path = [...path, issue.keys[0]!];
    return problem(path, reasonOf(issue, doc, path));
  });
  // Stable: issues on one line keep the schema's order.
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  throw new ConfigError(problems);
}

const firstLine = (s: string): string => s.split('\n')[0]!.trim();

/**
 * The node at `path`: map keys compared as text (a YAML key `12:` is the number 12, its schema's
 * path says "12"), list items by index. Undefined when there is none.
 */
function nodeAt(doc: Document, path: KeyPath): unknown {
  let node: unknown = doc.contents;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      node = node.items[seg];
    } else return undefined;
  }
  return node;
}

/** The node at `path`, or the deepest existing ancestor (for a missing key: where it should go). */
function nearestNode(
  doc: Document,
  path: KeyPath,
): { node: { range?: [number, number, number] | null } | undefined; depth: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(doc, path.slice(0, n));
    if (isNode(node)) return { node, depth: n };
  }
  return { node: undefined, depth: 0 };
}

/** Where to point for `path`: the key (`leftEyelid:`) rather than its value; for a missing key, its parent's key. */
function offsetOf(doc: Document, path: KeyPath): number | undefined {
  const { node, depth } = nearestNode(doc, path);
  return keyOffset(doc, path.slice(0, depth)) ?? node?.range?.[0];
}

/** The offset of the key of a mapping entry. */
function keyOffset(doc: Document, path: KeyPath): number | undefined {
  if (path.length === 0 || typeof path[path.length - 1] === 'number') return undefined;
  const parent = nodeAt(doc, path.slice(0, -1));
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path[path.length - 1]));
  return isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
}

const shown = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/**
 * The default wording, for issues whose schema has no message of its own: what was expected, and
 * what the file has or that the key is missing. Other issues keep zod's wording.
 */
const expectedWording = (iss: z.core.$ZodRawIssue): string | undefined => {
  const got = iss.input === undefined ? '' : `, got ${shown(iss.input)}`;
  switch (iss.code) {
    case 'invalid_type':
      return iss.input === undefined ? `missing (expected ${iss.expected})` : `expected ${iss.expected}${got}`;
    case 'unrecognized_keys':
      return `unknown key ${iss.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_value':
      return `expected one of ${iss.values.map((v) => JSON.stringify(v)).join(', ')}${iss.input === undefined ? ', got nothing' : got}`;
    case 'too_big':
    case 'too_small': {
      const big = iss.code === 'too_big';
      const limit = String(big ? iss.maximum : iss.minimum);
      const bound = big ? (iss.inclusive ? 'at most' : 'less than') : iss.inclusive ? 'at least' : 'more than';
      if (iss.origin === 'number' || iss.origin === 'int') return `expected a number ${bound} ${limit}${got}`;
      if (iss.origin === 'array') return `expected ${bound} ${limit} item(s)`;
      if (iss.origin === 'string') return `expected ${bound} ${limit} character(s)`;
      return undefined;
    }
    default:
      return undefined;
  }
};

/** The issue's message; a union's or a format's (which say what is accepted) with what the file has. */
function reasonOf(issue: z.core.$ZodIssue, doc: Document, path: KeyPath): string {
  if (issue.code !== 'invalid_union' && issue.code !== 'invalid_format') return issue.message;
  const found = nearestNode(doc, path).depth === path.length;
  if (!found) return issue.code === 'invalid_union' ? `missing (${issue.message})` : issue.message;
  const v = nodeAt(doc, path);
  return `${issue.message}, got ${shown(isNode(v) ? v.toJSON() : v)}`;
}

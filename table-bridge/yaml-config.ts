// Reads a YAML config file and validates it with a zod schema. Every error names the file, the line
// and what is wrong, because the people who edit these files are not the people who wrote the code.

import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';
import type * as z from 'zod';
import { formatPath, wording } from './messages.js';

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    /** 1-based; null when the file could not be read at all. */
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line === null ? '' : `:${line}`}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/** The node a zod issue path points at, or the deepest one that exists (a missing key: its map). */
function nodeAt(doc: Document, path: readonly PropertyKey[]): Node | null {
  let node: unknown = doc.contents;
  for (const [i, seg] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      // A whole map or list is named at its key's line, where a reader looks for it.
      const last = i === path.length - 1;
      node = pair.value && !(last && (isMap(pair.value) || isSeq(pair.value))) ? pair.value : pair.key;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      node = node.items[seg];
    } else break;
  }
  return (node as Node | null) ?? null;
}

/** Parses YAML text (named `file` in errors) and validates it; throws ConfigError. */
export function parseYamlConfig<T>(file: string, text: string, schema: z.ZodType<T>): T {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  const syntax = doc.errors[0];
  if (syntax) throw new ConfigError(file, syntax.linePos?.[0].line ?? null, syntax.message.split('\n')[0]!);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // yaml refuses to expand aliases past the count (a ReferenceError): the file is still named.
    if (!(e instanceof ReferenceError)) throw e;
    throw new ConfigError(file, null, 'an alias expands to too many values (a YAML alias bomb?); write the values out');
  }
  const result = schema.safeParse(data, { error: wording });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const node = nodeAt(doc, issue.path);
  const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
  const where = issue.path.length ? `${formatPath('', issue.path).replace(/^\./, '')}: ` : '';
  throw new ConfigError(file, line, `${where}${issue.message}`);
}

/** Reads and validates a YAML config file; throws ConfigError. */
export function loadYamlConfig<T>(file: string, schema: z.ZodType<T>): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, null, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseYamlConfig(file, text, schema);
}

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DECK, formatCard, parseCard } from '../../game/index.js';
import type * as Bridge from '../../table-bridge/index.js';
import {
  ConfigError,
  DEFAULT_FIDUCIALS_FILE,
  defaultFiducials,
  loadFiducials,
  packageRoot,
  parseFiducials,
} from '../../table-bridge/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SHIPPED = readFileSync(DEFAULT_FIDUCIALS_FILE(), 'utf8');

/** The error parseFiducials throws for `text`. */
const errorOf = (text: string, file = 'fiducials.yaml'): ConfigError => {
  try {
    parseFiducials(file, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('the fiducial mapping', () => {
  it('ships a default of 40 cards, each once, equal to defaultFiducials()', () => {
    const map = loadFiducials();
    expect(map.entries()).toEqual(defaultFiducials().entries());
    expect(new Set(map.entries().map(([, c]) => c)).size).toBe(40);
    for (const c of DECK) expect(map.cardOf(map.idOf(c))).toBe(c);
    expect(map.cardOf(913)).toBeUndefined();
    expect(formatCard(map.cardOf(9)!)).toBe('AS');
  });

  it('is found from the package root, in the sources and in the build', async () => {
    expect(DEFAULT_FIDUCIALS_FILE()).toBe(join(packageRoot(), 'config', 'table', 'fiducials.yaml'));
    const built = (await import(new URL('../../dist/table-bridge/index.js', import.meta.url).href)) as typeof Bridge;
    expect(built.packageRoot()).toBe(packageRoot());
    expect(built.loadFiducials().entries()).toEqual(loadFiducials().entries());
  });

  it('accepts other ids, not contiguous', () => {
    const text = `fiducials:\n${DECK.map((c) => `  ${1000 + c * 3}: ${formatCard(c)}`).join('\n')}\n`;
    const map = parseFiducials('custom.yaml', text);
    expect(map.cardOf(1000 + 3 * 39)).toBe(parseCard('AC'));
  });

  it('names the file, the line and the reason of an unknown card', () => {
    const text = SHIPPED.replace('  12: 4H', '  12: 1H');
    const err = errorOf(text);
    expect(err.file).toBe('fiducials.yaml');
    expect(err.line).toBe(lineOf(text, '12: 1H'));
    expect(err.key).toBe('fiducials.12');
    expect(err.reason).toBe('unknown card "1H"');
    expect(err.message).toBe(`fiducials.yaml:${err.line}: fiducials.12: unknown card "1H"`);
  });

  it('names a card mapped twice at its second mapping', () => {
    const text = SHIPPED.replace('  30: 2C', '  30: AS');
    const err = errorOf(text);
    expect(err.line).toBe(lineOf(text, '30: AS'));
    expect(err.key).toBe('fiducials.30');
    expect(err.reason).toBe('card AS is mapped twice (also by fiducial 9)');
  });

  it('names missing cards at the mapping', () => {
    const text = SHIPPED.replace('  39: AC\n', '');
    const err = errorOf(text);
    expect(err.line).toBe(lineOf(text, 'fiducials:'));
    expect(err.key).toBe('fiducials');
    expect(err.reason).toBe('expected all 40 cards, missing AC');
  });

  it('refuses an id that is not a whole number', () => {
    const text = SHIPPED.replace('  7: KS', '  seven: KS');
    const err = errorOf(text);
    expect(err.line).toBe(lineOf(text, 'seven: KS'));
    expect(err.reason).toContain('fiducial id "seven" is not a whole number');
  });

  it('reports YAML syntax errors, duplicate ids and a wrong shape with their lines', () => {
    const dup = SHIPPED.replace('  8: 7S', '  7: 7S');
    expect(errorOf(dup).line).toBe(lineOf(dup, '  7: 7S'));
    expect(errorOf(dup).reason).toMatch(/unique/i);
    const broken = SHIPPED.replace('  20: 2D', '  20: [2D');
    expect(errorOf(broken).line).not.toBeNull();
    expect(errorOf('cards:\n  - AS\n').message).toBe('fiducials.yaml:1: fiducials: expected record, got nothing');
    expect(errorOf('fiducials:\n  0: 2S\n  1: 7\n').message).toContain(
      'fiducials.1: expected a card such as "AS" or "7H", got 7',
    );
    expect(errorOf('fiducials:\n  0: 2S\n  1: 7\n').line).toBe(3);
  });

  it('reports an unreadable file without a line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fid-'));
    dirs.push(dir);
    const missing = join(dir, 'nope.yaml');
    expect(() => loadFiducials(missing)).toThrow(`${missing}: cannot read the file (ENOENT)`);
    const file = join(dir, 'f.yaml');
    writeFileSync(file, SHIPPED.replace('  3: 5S', '  3: 5X'));
    expect(() => loadFiducials(file)).toThrow(`${file}:${lineOf(SHIPPED, '  3: 5S')}: fiducials.3: unknown card "5X"`);
  });
});

// Reading the appraisal's files: config/appraisal/ inside the package, found from this module's own
// location (so the CLI works from any directory, from the sources or from dist/), or any preset file
// an author names. The only module of appraisal/ that touches the file system.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCharacter } from './build-character.js';
import type { Character } from './character.js';
import type { Located, PresetFile, SettingsFile } from './config-files.js';
import { AppraisalConfigError, parsePreset, parseSettings } from './config-files.js';

export const SETTINGS_FILE = 'appraisal.yaml';

let packageConfigDir: string | undefined;

/** config/appraisal/ of the package: the first folder up from here with package.json and config/appraisal. */
export function appraisalConfigDir(): string {
  if (packageConfigDir) return packageConfigDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'config', 'appraisal');
    if (existsSync(join(dir, 'package.json')) && existsSync(join(candidate, SETTINGS_FILE))) return (packageConfigDir = candidate);
    const up = dirname(dir);
    if (up === dir) throw new Error(`config/appraisal/${SETTINGS_FILE} not found above ${fileURLToPath(import.meta.url)}: the package is incomplete`);
    dir = up;
  }
}

/** A path as people read it: relative to the working directory when inside it. */
function shown(path: string): string {
  const r = relative(process.cwd(), path);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : path;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new AppraisalConfigError(shown(path), null, '', code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (e as Error).message);
  }
}

export interface LoadOptions {
  /** Where the settings and the named presets are (default: the package's config/appraisal/). */
  configDir?: string;
}

export function loadSettings(options: LoadOptions = {}): Located<SettingsFile> {
  const path = join(options.configDir ?? appraisalConfigDir(), SETTINGS_FILE);
  return parseSettings(read(path), shown(path));
}

/** The presets in the config folder, by name. */
export function presetNames(options: LoadOptions = {}): string[] {
  const dir = options.configDir ?? appraisalConfigDir();
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== SETTINGS_FILE)
    .map((f) => f.replace(/\.ya?ml$/, ''))
    .sort();
}

const isFileName = (s: string): boolean => /\.ya?ml$/i.test(s) || s.includes('/') || s.includes('\\');

/**
 * Loads a character: a preset name from the config folder, a path to a preset file, or (by
 * default) the character appraisal.yaml names. Includes are read relative to the including file,
 * else from the config folder. Any mistake is an AppraisalConfigError naming file and line.
 */
export function loadCharacter(nameOrFile?: string, options: LoadOptions = {}): Character {
  const dir = options.configDir ?? appraisalConfigDir();
  const settings = loadSettings({ configDir: dir });
  const wanted = nameOrFile ?? settings.value.character;
  let path: string;
  if (isFileName(wanted)) {
    path = resolve(wanted);
  } else {
    path = join(dir, `${wanted}.yaml`);
    if (!existsSync(path)) {
      const names = presetNames({ configDir: dir });
      const err = `unknown character "${wanted}" (presets: ${names.join(', ')}; or give a .yaml file)`;
      if (nameOrFile === undefined) throw settings.error(['character'], err);
      throw new AppraisalConfigError(shown(dir), null, '', err);
    }
  }

  const files: Located<PresetFile>[] = [];
  const loaded = new Set<string>();
  const visit = (file: string, chain: readonly string[]): void => {
    if (loaded.has(file)) return;
    const preset = parsePreset(read(file), shown(file));
    (preset.value.include ?? []).forEach((inc, i) => {
      const local = resolve(dirname(file), inc);
      const target = existsSync(local) ? local : join(dir, inc);
      if (!existsSync(target)) throw preset.error(['include', i], `no such file "${inc}" beside this file or in ${shown(dir)}`);
      if (chain.includes(target) || target === file) throw preset.error(['include', i], `"${inc}" includes this file again (a cycle)`);
      visit(target, [...chain, file]);
    });
    loaded.add(file);
    files.push(preset);
  };
  visit(path, []);
  // A character appraises through its rules: one without any (in its file or its includes) would feel nothing.
  const top = files.at(-1)!;
  if (!files.some((f) => (f.value.rules ?? []).length > 0)) throw top.error([], `a character needs appraisal rules: this file${files.length > 1 ? ' and its includes have' : ' has'} none`);
  return buildCharacter(isFileName(wanted) ? shown(path) : wanted, settings, files);
}

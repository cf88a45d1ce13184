// Reading the appraisal's files: config/appraisal/ inside the package, found from this module's own
// location (so the CLI works from any directory, from the sources or from dist/), or any preset file
// an author names. The only module of appraisal/ that touches the file system.

import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, configPath, readConfigText, shownPath } from '../config/index.js';
import { buildCharacter } from './build-character.js';
import type { Character } from './character.js';
import type { Located, PresetFile, SettingsFile } from './config-files.js';
import { parsePreset, parseSettings } from './config-files.js';

const SETTINGS_FILE = 'appraisal.yaml';

/** config/appraisal/ of the package (found from the code, so any working directory will do). */
export const appraisalConfigDir = (): string => configPath('appraisal');

interface LoadOptions {
  /** Where the settings and the named presets are (default: the package's config/appraisal/). */
  configDir?: string;
}

export function loadSettings(options: LoadOptions = {}): Located<SettingsFile> {
  const path = join(options.configDir ?? appraisalConfigDir(), SETTINGS_FILE);
  return parseSettings(readConfigText(path), path);
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
 * else from the config folder. Any mistake is a ConfigError naming file and line.
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
      throw new ConfigError({ file: shownPath(dir), line: null, key: '', reason: err });
    }
  }

  const files: Located<PresetFile>[] = [];
  const loaded = new Set<string>();
  const visit = (file: string, chain: readonly string[]): void => {
    if (loaded.has(file)) return;
    const preset = parsePreset(readConfigText(file), file);
    (preset.value.include ?? []).forEach((inc, i) => {
      const local = resolve(dirname(file), inc);
      const target = existsSync(local) ? local : join(dir, inc);
      if (!existsSync(target))
        throw preset.error(['include', i], `no such file "${inc}" beside this file or in ${shownPath(dir)}`);
      if (chain.includes(target) || target === file)
        throw preset.error(['include', i], `"${inc}" includes this file again (a cycle)`);
      visit(target, [...chain, file]);
    });
    loaded.add(file);
    files.push(preset);
  };
  visit(path, []);
  // A character appraises through its rules: one without any (in its file or its includes) would feel nothing.
  const top = files.at(-1)!;
  if (!files.some((f) => (f.value.rules ?? []).length > 0))
    throw top.error(
      [],
      `a character needs appraisal rules: this file${files.length > 1 ? ' and its includes have' : ' has'} none`,
    );
  return buildCharacter(isFileName(wanted) ? shownPath(path) : wanted, settings, files);
}

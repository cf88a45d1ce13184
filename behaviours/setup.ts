// Loads everything behaviours read from config/: settings, postures, table geometry and the utterance
// library of the chosen language. Problems in several files are reported together.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBehaviourSettings } from './behaviour-settings.js';
import type { BehaviourSettings } from './behaviour-settings.js';
import { ConfigError, configPath, shownPath } from '../config/index.js';
import type { ConfigProblem } from '../config/index.js';
import type { BehaviourSetup } from './planner.js';
import { loadPostureLibrary } from './posture-config.js';
import type { PostureLibrary } from './posture-config.js';
import { loadTableGeometry } from './table-geometry.js';
import type { TableGeometry } from './table-geometry.js';
import { loadUtteranceLibrary } from './utterance-config.js';
import type { UtteranceLibrary } from './utterance-config.js';

export const BEHAVIOUR_FILES = {
  settings: 'behaviours.yaml',
  postures: 'postures.yaml',
  table: 'table-geometry.yaml',
  utterances: (language: string): string => join('utterances', `${language}.yaml`),
} as const;

interface SetupOptions {
  /** Default: the package's config/ folder, wherever the program is run from. */
  configDir?: string;
  /** Overrides the language of config/behaviours.yaml (pt, en). */
  language?: string;
}

export function loadBehaviourSetup(options: SetupOptions = {}): BehaviourSetup {
  const dir = options.configDir ?? configPath();
  const problems: ConfigProblem[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems.push(...e.problems);
      return undefined;
    }
  };
  const settings = attempt<BehaviourSettings>(() => loadBehaviourSettings(join(dir, BEHAVIOUR_FILES.settings)));
  const postures = attempt<PostureLibrary>(() => loadPostureLibrary(join(dir, BEHAVIOUR_FILES.postures)));
  const table = attempt<TableGeometry>(() => loadTableGeometry(join(dir, BEHAVIOUR_FILES.table)));
  const language = options.language ?? settings?.language;
  let utterances: UtteranceLibrary | undefined;
  if (language !== undefined) {
    // The language names a file: keep it a plain tag so it cannot reach outside config/utterances/.
    if (!/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(language)) {
      problems.push({
        file: 'language',
        line: null,
        key: '',
        reason: `expected a language tag such as pt or en, got ${JSON.stringify(language)}`,
      });
    } else {
      const file = join(dir, BEHAVIOUR_FILES.utterances(language));
      if (options.language !== undefined && !existsSync(file)) {
        // A language asked for (--language) that has no library: say which there are.
        const there = readdirSync(join(dir, 'utterances'))
          .filter((f) => f.endsWith('.yaml'))
          .map((f) => f.slice(0, -5))
          .sort();
        problems.push({
          file: `language ${JSON.stringify(language)}`,
          line: null,
          key: '',
          reason: `no utterances in that language (there are: ${there.join(', ')})`,
        });
      } else utterances = attempt(() => loadUtteranceLibrary(file));
      if (utterances && utterances.language !== language) {
        problems.push({
          file: shownPath(file),
          line: 1,
          column: 1,
          key: 'language',
          reason: `says ${utterances.language}, but this is the file for ${language}`,
        });
      }
    }
  }
  if (problems.length > 0 || !settings || !postures || !table || !utterances) throw new ConfigError(problems);
  return { settings, postures, table, utterances };
}

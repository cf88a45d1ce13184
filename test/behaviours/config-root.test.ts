// Config files are found from the package root, whether the code runs from the sources or from the
// build (dist/), and whatever the working directory: the built program is run from a temporary folder.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultConfigDir, packageRoot } from '../../behaviours/index.js';
import { tempDir } from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('finding config/', () => {
  it('from the sources', () => {
    expect(join(packageRoot(), '/')).toBe(root);
    expect(defaultConfigDir()).toBe(join(root, 'config'));
  });

  it('from the build, run from another directory', () => {
    const built = join(root, 'dist/behaviours/index.js');
    expect(existsSync(built), 'dist/behaviours/index.js is missing: `npm test` builds it (npm run build)').toBe(true);
    const script = `import(${JSON.stringify(built)}).then((b) => {
      const s = b.loadBehaviourSetup();
      const en = b.loadBehaviourSetup({ language: 'en' });
      console.log(JSON.stringify({ dir: b.defaultConfigDir(), pt: s.utterances.lines.length, en: en.utterances.lines.length, language: s.settings.language }));
    });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: tempDir('parceiro-cwd-'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { dir: string; pt: number; en: number; language: string };
    expect(out.dir).toBe(join(root, 'config'));
    expect(out.language).toBe('pt');
    expect(out.pt).toBeGreaterThanOrEqual(150);
    expect(out.en).toBeGreaterThanOrEqual(150);
  });
});

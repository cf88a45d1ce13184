// The import rules of .dependency-cruiser.cjs (docs/development.md, "Lint and import rules") on a
// small tree of the same folders: quiet on imports that keep the rules, and each rule fires on one
// that breaks it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import type { ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const CONFIG = join(import.meta.dirname, '../../.dependency-cruiser.cjs');
const FOLDERS = ['game', 'appraisal', 'behaviours', 'table-bridge', 'robot', 'launch', 'test'];

/** A tree that keeps every rule: front doors, the layering, one type-only cycle, a listed exception. */
const CLEAN: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
  }),
  'game/index.ts': "export * from './cards.js';\n",
  'game/cards.ts': "export const SUITS = ['S', 'H', 'D', 'C'];\n",
  'appraisal/index.ts':
    "import { SUITS } from '../game/index.js';\nexport { judge } from './judge.js';\nexport const suits = SUITS.length;\n",
  // A cycle closed by a type-only import is erased at run time: allowed.
  'appraisal/judge.ts':
    "import type { Machine } from './machine.js';\nexport const judge = (m: Machine): number => m.n;\n",
  'appraisal/machine.ts':
    "import { judge } from './judge.js';\nexport interface Machine { n: number }\nexport const run = (): number => judge({ n: 1 });\n",
  'robot/live/index.ts': "export { log } from './node/logger.js';\n",
  'robot/live/node/logger.ts':
    "import { suits } from '../../../appraisal/index.js';\nexport const log = (): number => suits;\n",
  'robot/learned/index.ts': "export { install } from './load.js';\n",
  'robot/learned/load.ts': 'export const install = (): void => undefined;\n',
  // A listed exception (a worker thread that loads little).
  'robot/arena/tournament/worker.ts': "import { install } from '../../learned/load.js';\ninstall();\n",
  'launch/cli.ts': "import { log } from '../robot/live/index.js';\nlog();\n",
  // Tests may import anything, deep.
  'test/logger.test.ts': "import { log } from '../robot/live/node/logger.js';\nimport '../launch/cli.js';\nlog();\n",
};

/** One import that breaks each rule, with the rule it breaks. */
const BROKEN: { rule: string; from: string; to: string; files: Record<string, string> }[] = [
  {
    rule: 'layering-game',
    from: 'game/rng.ts',
    to: 'appraisal/index.ts',
    files: { 'game/rng.ts': "import '../appraisal/index.js';\n" },
  },
  {
    rule: 'layering-robot',
    from: 'robot/bus/bus.ts',
    to: 'launch/cli.ts',
    files: { 'robot/bus/bus.ts': "import '../../launch/cli.js';\n" },
  },
  {
    rule: 'front-door-robot-live',
    from: 'launch/io.ts',
    to: 'robot/live/node/logger.ts',
    files: { 'launch/io.ts': "import { log } from '../robot/live/node/logger.js';\nlog();\n" },
  },
  {
    rule: 'front-door-robot-learned',
    from: 'robot/arena/run.ts',
    to: 'robot/learned/load.ts',
    files: { 'robot/arena/run.ts': "import { install } from '../learned/load.js';\ninstall();\n" },
  },
  {
    rule: 'no-runtime-cycle',
    from: 'appraisal/judge.ts',
    to: 'appraisal/machine.ts',
    files: {
      'appraisal/judge.ts':
        "import { run } from './machine.js';\nexport const judge = (m: { n: number }): number => m.n + run.length;\n",
    },
  },
  {
    rule: 'not-to-unresolvable',
    from: 'behaviours/index.ts',
    to: './gone.js',
    files: { 'behaviours/index.ts': "import './gone.js';\n" },
  },
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The rule violations in a tree of `files`, as `rule: from -> to`. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'parceiro-house-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig(join(dir, 'tsconfig.json'));
  const start = FOLDERS.filter((f) => Object.keys(files).some((p) => p.startsWith(`${f}/`)));
  const { output } = await cruise(start, { ...options, baseDir: dir }, {}, { tsConfig });
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe('the import rules', () => {
  it('find nothing in a tree that keeps them', async () => {
    expect(await violations(CLEAN)).toEqual([]);
  });

  it.each(BROKEN)('$rule fires on $from -> $to', async ({ rule, from, to, files }) => {
    const found = await violations({ ...CLEAN, ...files });
    expect(found, found.join('\n')).toContain(`${rule}: ${from} -> ${to}`);
    expect(
      found.every((v) => v.startsWith(`${rule}: `)),
      found.join('\n'),
    ).toBe(true);
  });
});

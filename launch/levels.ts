// config/levels.yaml: the levels of play's memory parameters (game/memory/levels.ts holds the same
// values embedded). Validated like every config file: a problem names the file, the line, the key and
// what was expected.

import { join } from 'node:path';
import { z } from 'zod';
import { defaultConfigDir, loadYamlConfig, parseYamlConfig } from '../behaviours/index.js';
import { LEVEL_NAMES, isLevelName } from '../game/index.js';
import { UsageError } from './errors.js';
import type { LevelName, LevelSettings, LevelTable } from '../game/index.js';

const LEVELS_FILE = 'levels.yaml';

const memorySchema = z.strictObject({
  decay: z.number().min(0.05).max(2),
  noise: z.number().min(0).max(5),
  threshold: z.number().min(-20).max(5),
  salience: z.number().int().min(0).max(4),
  rehearse: z.array(z.enum(['lead', 'turn'])),
});

const levelSchema = z.strictObject({
  memory: z.union([z.literal('perfect'), memorySchema], {
    message: "expected 'perfect' or a mapping of decay, noise, threshold, salience and rehearse",
  }),
  infer: z.number().int().min(0).max(100),
  worlds: z.number().int().min(1).max(100_000).optional(),
});

const levelsSchema = z.strictObject({
  secondsPerCard: z.number().min(0.1).max(120),
  levels: z.strictObject(
    Object.fromEntries(LEVEL_NAMES.map((l) => [l, levelSchema])) as Record<LevelName, typeof levelSchema>,
  ),
});

type LevelsFile = z.output<typeof levelsSchema>;

const toTable = (file: LevelsFile): LevelTable => ({
  secondsPerCard: file.secondsPerCard,
  levels: Object.fromEntries(
    LEVEL_NAMES.map((name) => {
      const { memory, infer, worlds } = file.levels[name];
      const settings: LevelSettings = {
        memory:
          memory === 'perfect'
            ? 'perfect'
            : {
                decay: memory.decay,
                noise: memory.noise,
                threshold: memory.threshold,
                salience: memory.salience,
                rehearseOnLead: memory.rehearse.includes('lead'),
                rehearseOnTurn: memory.rehearse.includes('turn'),
              },
        infer,
        ...(worlds !== undefined ? { worlds } : {}),
      };
      return [name, settings];
    }),
  ) as Record<LevelName, LevelSettings>,
});

/** The levels of `file` (default config/levels.yaml); throws ConfigError naming every problem. */
export function loadLevels(file = join(defaultConfigDir(), LEVELS_FILE)): LevelTable {
  return toTable(loadYamlConfig(file, levelsSchema));
}

/** The levels of YAML text (`file` names it in messages). */
export function parseLevels(text: string, file: string): LevelTable {
  return toTable(parseYamlConfig(text, file, levelsSchema));
}

/** `--level NAME`: one of the levels, or a one-line mistake naming the flag and the levels (exit code 2). */
export function levelOption(value: string): LevelName {
  if (!isLevelName(value)) throw new UsageError(`--level expects one of ${LEVEL_NAMES.join(', ')}, got "${value}"`);
  return value;
}

/**
 * The robot node's level of play: `--level`, else config/node.yaml's `player.level`, else full (today's
 * player); below full with the levels' settings (config/levels.yaml), read here so a mistake in it
 * stops the command before anything opens.
 */
export function robotLevel(
  flag: LevelName | undefined,
  configured: LevelName | undefined,
): { level: LevelName; levels?: LevelTable } {
  const level = flag ?? configured ?? 'full';
  return level === 'full' ? { level } : { level, levels: loadLevels() };
}

// The node's own settings (config/node.yaml): the player's budget, the appraisal's estimates, the
// recordings folder, the table address. Validated with file and line, like every config file.

import { join } from 'node:path';
import { z } from 'zod';
import { defaultConfigDir, loadYamlConfig } from '../../../behaviours/index.js';
import { LEVEL_NAMES, PREDICTOR_KINDS } from '../../../game/index.js';
import { RECORDING_FORMATS } from '../../recording/index.js';

export const NODE_FILE = 'node.yaml';

const nodeSettingsSchema = z.strictObject({
  player: z.strictObject({
    budgetMs: z.number().int().min(1).max(600_000),
    inference: z.number().int().min(0).max(100),
    /**
     * A policy network of how the people at this lab play (`parceiro train` on its recordings,
     * docs/learned-models.md): the worlds are weighed by it instead of the rule-based odds. Relative to
     * the project root or absolute, with its sidecar; read and checked when the node starts.
     */
    inferenceModelFile: z.string().min(1).optional(),
    /** The level of play (config/levels.yaml, docs/levels.md); absent or full: today's player, which forgets nothing. */
    level: z.enum(LEVEL_NAMES).optional(),
  }),
  expectation: z.strictObject({
    budgetMs: z.number().int().min(0).max(10_000),
    maxWorlds: z.number().int().min(1).max(100_000),
    exactTricks: z.number().int().min(0).max(10),
    /** The hand model at the deal (game/assessment); absent: off. */
    handModel: z.strictObject({ searchWeight: z.number().min(0).max(1) }).optional(),
  }),
  advice: z
    .strictObject({
      enabled: z.boolean(),
      budgetMs: z.number().int().min(1).max(60_000),
      marginVictories: z.number().min(0).max(4),
      marginPoints: z.number().min(0).max(120),
    })
    .default({ enabled: false, budgetMs: 400, marginVictories: 0.1, marginPoints: 5 }),
  /** Before each card of another seat, its prediction from the robot's information set (robot/live/node/prediction.ts); off: no predictions, no surprise. */
  // learned: a policy network (docs/learned-models.md) in modelFile, relative to the project root (the
  // folder with config/) or absolute, with its sidecar MODEL.json; read and checked when the node starts.
  prediction: z
    .strictObject({
      enabled: z.boolean(),
      model: z.enum(PREDICTOR_KINDS),
      top: z.number().int().min(1).max(10),
      modelFile: z.string().min(1).optional(),
    })
    .refine((p) => p.model !== 'learned' || p.modelFile !== undefined, {
      message:
        'model learned needs modelFile: the policy network (MODEL.onnx, written by parceiro train), e.g. models/policy-timed-100ms-seed2311.onnx',
      path: ['modelFile'],
    })
    .default({ enabled: true, model: 'expert', top: 5 }),
  // format: json (the default) or ros2, the rosbag2 MCAP profile (docs/recordings.md).
  recordings: z.strictObject({ dir: z.string().min(1), format: z.enum(RECORDING_FORMATS).default('json') }),
  table: z.strictObject({ host: z.string().min(1), port: z.number().int().min(0).max(65_535) }),
  games: z.number().int().min(1).max(1000),
});

export type NodeSettings = z.output<typeof nodeSettingsSchema>;

export function loadNodeSettings(file = join(defaultConfigDir(), NODE_FILE)): NodeSettings {
  return loadYamlConfig(file, nodeSettingsSchema);
}

// The session's timing settings, from config/session.yaml (validated, errors with file and line), so
// a lab tunes the robot's pace without touching code. Read once, on first use.

import { join } from 'node:path';
import { z } from 'zod';
import { defaultConfigDir, loadYamlConfig } from '../../../behaviours/index.js';

export const SESSION_FILE = 'session.yaml';

export const sessionSettingsSchema = z.strictObject({
  minThinkMs: z.number().int().min(0).max(60_000),
  liftGraceMs: z.number().int().min(0).max(600_000),
});

export type SessionSettings = z.output<typeof sessionSettingsSchema>;

const cache = new Map<string, SessionSettings>();

/** config/session.yaml (or `file`); throws the behaviours' ConfigError naming file, line and key. */
export function loadSessionSettings(file = join(defaultConfigDir(), SESSION_FILE)): SessionSettings {
  let settings = cache.get(file);
  if (!settings) cache.set(file, (settings = loadYamlConfig(file, sessionSettingsSchema)));
  return settings;
}

// Shared by the appraisal tests: scenarios through the public API, and through the built CLI.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Character, EmotionReport, FeltEmotion, ScenarioOutcome } from '../../appraisal/index.js';
import { loadCharacter, parseScenario, runScenario } from '../../appraisal/index.js';
import type { CliRun } from '../launch/run-cli.js';
import { runCli } from '../launch/run-cli.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const scenarioFile = (name: string): string => `${root}test/fixtures/appraisal/${name}.jsonl`;

const characters = new Map<string, Character>();
export function character(name: string): Character {
  let c = characters.get(name);
  if (!c) characters.set(name, (c = loadCharacter(name)));
  return c;
}

/** A fixture scenario through the API: one outcome per scenario line. */
export function apiRun(name: string, preset: string): ScenarioOutcome[] {
  const file = scenarioFile(name);
  return runScenario(character(preset), parseScenario(readFileSync(file, 'utf8'), file), { seat: 0 });
}

export const last = <T>(xs: readonly T[]): T => xs[xs.length - 1]!;

export const find = (r: EmotionReport, type: string, target: unknown = undefined): FeltEmotion | undefined =>
  r.emotions.find((e) => e.type === type && (target === undefined || e.target === target));

/** `parceiro args...` from the package root (asynchronously: see run-cli.ts). */
export const cli = (args: string[], input?: string): Promise<CliRun> => runCli(args, root, input);

export interface CliEmotion {
  type: string;
  target: number | string | null;
  intensity: number;
}
export interface CliLine {
  line: number;
  atMs: number;
  event: string;
  seat: number;
  rules: string[];
  variables: Record<string, unknown>;
  emotions: CliEmotion[];
  strongest: CliEmotion | null;
  toward: Record<string, CliEmotion | null>;
  mood: number;
}

/** A fixture scenario through `parceiro appraise --json`. */
export async function cliRun(name: string, preset: string): Promise<CliLine[]> {
  const { code, out, err } = await cli(['appraise', scenarioFile(name), '--character', preset, '--json']);
  if (code !== 0) throw new Error(`parceiro appraise failed (${code}): ${err}`);
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CliLine);
}

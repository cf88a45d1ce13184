// The settings a replay runs with, read from a recording's session metadata (the defaults where it
// does not say). Shared by replay.ts and resume.ts.

import type { SpeechBackendKind } from '../../../behaviours/index.js';
import type { LevelName, LevelTable, Seat } from '../../../game/index.js';
import { DEFAULT_LEVELS, FITTED_MODEL, PREDICTOR_KINDS, isLevelName } from '../../../game/index.js';
import { recordedModelHere } from '../../learned/index.js';
import type { PredictionSettings } from '../../live/index.js';
import { levelTableOf } from '../../live/index.js';
import type { Recording } from '../../recording/index.js';
import { RecordingError } from '../../recording/index.js';
import type { RecordingFacts } from './scan.js';

/** The settings a replay runs with, from the recording's metadata (or the defaults it names). */
export interface ReplaySettings {
  sessionId: string;
  seed: number;
  games: number;
  robotSeat: Seat;
  firstDealer: Seat;
  character?: string;
  language?: string;
  speech: SpeechBackendKind;
  expectationBudgetMs: number;
  /** The hand model at the deals (null: the recording was made without it). */
  handModel: { searchWeight: number } | null;
  /** The model that predicted the other seats' cards (null: the recording was made without predictions). */
  prediction: PredictionSettings | null;
  minThinkMs?: number;
  liftGraceMs?: number;
  /** The robot's level of play below full, with the recorded settings it recalls with (absent: full, no memory). */
  level?: { name: LevelName; levels: LevelTable };
}

const int = (v: string | undefined, fallback: number): number => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : fallback);

/**
 * The settings of `rec`, saying in `notes` which ones the recording does not give; `facts` (from a pass
 * over its messages) say how the robot spoke and whether there were estimates.
 */
export function replaySettings(rec: Pick<Recording, 'path' | 'session'>, notes: string[], facts: Pick<RecordingFacts, 'spoken' | 'estimates'>): ReplaySettings {
  const s = rec.session;
  if (!s) throw new RecordingError(rec.path, 'has no session metadata (parceiro.session): it cannot be replayed');
  if (s.seed === undefined || !/^\d+$/.test(s.seed)) throw new RecordingError(rec.path, 'its session metadata has no seed: it cannot be replayed');
  const missing = ['games', 'robotSeat', 'firstDealer', 'speech', 'expectationBudgetMs', 'minThinkMs', 'liftGraceMs'].filter((k) => s[k] === undefined);
  if (missing.length) notes.push(`the recording does not give ${missing.join(', ')}: the defaults are used`);
  if (s.previous) notes.push(`this recording continues ${s.previous} after a restart: the state it began from is not in it, so on its own it cannot replay to the same result`);
  const spoken = facts.spoken;
  const recordedSpeech = s.speech ?? spoken ?? 'log';
  // Only the log and publish backends take no time of their own: speech timing is the planned duration.
  const speech: SpeechBackendKind = recordedSpeech === 'publish' ? 'publish' : 'log';
  if (spoken !== undefined && spoken !== 'log' && spoken !== 'publish') {
    notes.push(`the robot spoke through ${spoken}, whose timing a replay cannot reproduce: it replays with the log backend, so utterances may differ`);
  }
  // Only whether there were estimates matters: their values come from the recording.
  const budget = int(s.expectationBudgetMs, facts.estimates > 0 ? 1 : 0);
  const handModel = handModelOf(s.handModel, notes);
  const prediction = predictionOf(s.prediction, notes);
  const level = levelOf(s.level, s.levelSettings, notes);
  return {
    sessionId: s.id ?? 'replay',
    seed: Number(s.seed),
    games: int(s.games, 5),
    robotSeat: int(s.robotSeat, 0) as Seat,
    firstDealer: int(s.firstDealer, 0) as Seat,
    ...(s.character ? { character: s.character } : {}),
    ...(s.language ? { language: s.language } : {}),
    speech,
    expectationBudgetMs: budget,
    handModel,
    prediction,
    ...(s.minThinkMs !== undefined ? { minThinkMs: int(s.minThinkMs, 0) } : {}),
    ...(s.liftGraceMs !== undefined ? { liftGraceMs: int(s.liftGraceMs, 0) } : {}),
    ...(level ? { level } : {}),
  };
}

/**
 * The level of play a recording's session ran at, with the settings it recorded (a replay recalls
 * with those, whatever config/levels.yaml says today); none when it does not say (made before the
 * levels) or says full.
 */
function levelOf(name: string | undefined, settings: string | undefined, notes: string[]): ReplaySettings['level'] {
  if (name === undefined || name === 'full') return undefined;
  if (!isLevelName(name)) {
    notes.push(`the recording's level of play (${name.slice(0, 40)}) is not one this build knows: replayed as full, so its memory messages differ`);
    return undefined;
  }
  try {
    return { name, levels: levelTableOf(settings ?? '', name, DEFAULT_LEVELS) };
  } catch {
    notes.push(`the recording's settings of level ${name} are unreadable: replayed with the embedded ones`);
    return { name, levels: DEFAULT_LEVELS };
  }
}

/**
 * The model a recording's session predicted the other seats' cards with: none when it does not say
 * (recorded before the predictions) or says "off". A learned model is the recorded file (relative to
 * the project root, as the node read it); when it is not here, or is another network than the one
 * recorded (its digest or features version differ), the replay says so and predicts without it.
 */
function predictionOf(recorded: string | undefined, notes: string[]): PredictionSettings | null {
  if (recorded === undefined || recorded === 'off') return null;
  let m: { model?: unknown; top?: unknown; modelFile?: unknown; featuresVersion?: unknown; sha256?: unknown };
  try {
    m = JSON.parse(recorded) as typeof m;
    if (!(PREDICTOR_KINDS as readonly unknown[]).includes(m.model) || typeof m.top !== 'number' || !(m.top >= 1)) throw new Error('no model');
    if (m.model === 'learned' && typeof m.modelFile !== 'string') throw new Error('no model file');
  } catch {
    notes.push(`the recording's prediction setting is unreadable (${recorded.slice(0, 80)}): replayed without predictions`);
    return null;
  }
  if (m.model !== 'learned') return { model: m.model as PredictionSettings['model'], top: m.top };
  const file = m.modelFile as string;
  const here = recordedModelHere({ modelFile: file, sha256: m.sha256, featuresVersion: m.featuresVersion }, 'prediction model');
  if ('why' in here) {
    notes.push(`${here.why}: replayed without predictions`);
    return null;
  }
  return { model: 'learned', top: m.top, modelFile: file };
}

/**
 * The hand model a recording's session ran with: none when it does not say (recorded before the
 * model) or says "off"; a model fitted on other games than this build's is noted, since the robot's
 * hope and fear at each deal may then differ.
 */
function handModelOf(recorded: string | undefined, notes: string[]): { searchWeight: number } | null {
  if (recorded === undefined || recorded === 'off') return null;
  try {
    const m = JSON.parse(recorded) as { searchWeight?: unknown; fittedOn?: unknown };
    if (typeof m.searchWeight !== 'number' || m.searchWeight < 0 || m.searchWeight > 1) throw new Error('no searchWeight');
    if (m.fittedOn !== FITTED_MODEL.fittedOn) notes.push(`the recording's hand model was fitted on other games (${String(m.fittedOn)}): the robot's hope and fear at the deals may differ`);
    return { searchWeight: m.searchWeight };
  } catch {
    notes.push(`the recording's hand model setting is unreadable (${recorded.slice(0, 80)}): replayed without it`);
    return null;
  }
}

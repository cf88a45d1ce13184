// The settings a replay or a restart runs with, read from the recording's metadata through the one
// schema the node wrote it with (robot/live/session/session-settings.ts): a missing or unreadable value is
// a note and a default, except those without which the session cannot be run again (its seed and
// seats), which refuse the recording in one line.

import type { SpeechBackendKind } from '../../../behaviours/index.js';
import type { LevelName, LevelTable, Seat } from '../../../game/index.js';
import { DEFAULT_LEVELS, FITTED_MODEL, isLevelName } from '../../../game/index.js';
import type { LedgerSnapshot } from '../../../table-bridge/index.js';
import { recordedModelHere } from '../../learned/index.js';
import { levelTableOf, readSessionMetadata, restoredChoices } from '../../live/index.js';
import type { ParceiroNodeOptions, PredictionSettings, SessionChoices, SessionMetadata } from '../../live/index.js';
import type { Recording } from '../../recording/index.js';
import { RecordingError } from '../../recording/index.js';
import type { RecordingFacts } from './scan.js';

/** The settings a replay runs with, from the recording's metadata (or the defaults it names). */
export interface ReplaySettings {
  sessionId: string;
  seed: number;
  robotSeat: Seat;
  /** The chosen settings the schema marks restored (the games, the seats, the character, the pace...), as recorded. */
  choices: SessionChoices & { games: number; robotSeat: Seat; firstDealer: Seat };
  speech: SpeechBackendKind;
  expectationBudgetMs: number;
  /** The hand model at the deals (null: the recording was made without it). */
  handModel: { searchWeight: number } | null;
  /** The model that predicted the other seats' cards (null: the recording was made without predictions). */
  prediction: PredictionSettings | null;
  /** The robot's level of play below full, with the recorded settings it recalls with (absent: full, no memory). */
  level?: { name: LevelName; levels: LevelTable };
}

/**
 * The node options a replay and a restart both start the session with, from its recorded settings
 * (each adds what is its own: the session id, speech, the sources and the restore step).
 */
export function sessionOptionsOf(s: ReplaySettings) {
  return {
    seed: s.seed,
    ...s.choices,
    robotSeat: s.robotSeat,
    expectationBudgetMs: s.expectationBudgetMs,
    handModel: s.handModel,
    prediction: s.prediction,
    ...(s.level ? { level: s.level.name, levels: s.level.levels } : { level: 'full' as const }),
  } satisfies Partial<ParceiroNodeOptions>;
}

/** Without these a session cannot be run again: a recording whose values do not fit is refused. */
const REQUIRED = ['seed', 'robotSeat', 'firstDealer', 'games'] as const;

/**
 * The recording's settings decoded by the session schema, or a RecordingError naming the first key
 * without which it cannot be run again; `notes` hear each other value that does not fit, and what
 * stands in for it.
 */
function recordedSettings(
  rec: Pick<Recording, 'path' | 'session'>,
  notes: string[],
  verb = 'replayed',
): SessionMetadata {
  const info = rec.session;
  if (!info) throw new RecordingError(rec.path, `has no session metadata (parceiro.session): it cannot be ${verb}`);
  if (info.seed === undefined)
    throw new RecordingError(rec.path, `its session metadata has no seed: it cannot be ${verb}`);
  const { settings, unreadable } = readSessionMetadata(info);
  for (const u of unreadable) {
    if ((REQUIRED as readonly string[]).includes(u.key)) {
      throw new RecordingError(
        rec.path,
        `its session metadata's ${u.key} is ${JSON.stringify(u.value)}, not ${u.expected}: it cannot be ${verb}`,
      );
    }
  }
  // The models' settings say what they fall back to themselves (handModelOf, predictionOf, peopleModelOf).
  for (const u of unreadable.filter((x) => !['handModel', 'prediction', 'inferenceModel'].includes(x.key))) {
    notes.push(`the recording's ${u.key} is unreadable (${u.value}; expected ${u.expected}): the default is used`);
  }
  return settings;
}

/**
 * The settings of `rec`, saying in `notes` which ones the recording does not give; `facts` (from a pass
 * over its messages) say how the robot spoke and whether there were estimates.
 */
export function replaySettings(
  rec: Pick<Recording, 'path' | 'session'>,
  notes: string[],
  facts: Pick<RecordingFacts, 'spoken' | 'estimates'>,
  given: { character?: string } = {},
): ReplaySettings {
  const s = recordedSettings(rec, notes);
  const character = characterOf(rec.path, s.character, given.character);
  const raw = rec.session!;
  const missing = [
    'games',
    'robotSeat',
    'firstDealer',
    'speech',
    'expectationBudgetMs',
    'minThinkMs',
    'liftGraceMs',
  ].filter((k) => raw[k] === undefined);
  if (missing.length) notes.push(`the recording does not give ${missing.join(', ')}: the defaults are used`);
  if (s.previous)
    notes.push(
      `this recording continues ${s.previous} after a restart: the state it began from is not in it, so on its own it cannot replay to the same result`,
    );
  const spoken = facts.spoken;
  const recordedSpeech = s.speech ?? spoken ?? 'log';
  // Only the log and publish backends take no time of their own: speech timing is the planned duration.
  const speech: SpeechBackendKind = recordedSpeech === 'publish' ? 'publish' : 'log';
  if (spoken !== undefined && spoken !== 'log' && spoken !== 'publish') {
    notes.push(
      `the robot spoke through ${spoken}, whose timing a replay cannot reproduce: it replays with the log backend, so utterances may differ`,
    );
  }
  // Only whether there were estimates matters: their values come from the recording.
  const budget = s.expectationBudgetMs ?? (facts.estimates > 0 ? 1 : 0);
  const handModel = handModelOf(raw.handModel, s, notes);
  const prediction = predictionOf(raw.prediction, s, notes);
  const level = levelOf(s.level, s.levelSettings, notes);
  // Those a session cannot run without default as the node's first session did before they were recorded.
  const choices = {
    games: 5,
    robotSeat: 0 as Seat,
    firstDealer: 0 as Seat,
    ...restoredChoices(s),
    ...(character === undefined ? {} : { character }),
  };
  return {
    sessionId: s.id ?? 'replay',
    seed: s.seed!,
    robotSeat: choices.robotSeat,
    choices,
    speech,
    expectationBudgetMs: budget,
    handModel,
    prediction,
    ...(level ? { level } : {}),
  };
}

/**
 * The character a replay or a restart runs with. A recording names it, it does not open it: a preset
 * name is the one this project ships (config/appraisal/); a character file is read only from the path
 * the operator gives (`--character`), never from the path the recording holds.
 */
function characterOf(file: string, recorded: string | undefined, given: string | undefined): string | undefined {
  if (given !== undefined) return given;
  if (recorded === undefined || /^[\w-]+$/.test(recorded)) return recorded;
  const shown = recorded.length > 80 ? `${recorded.slice(0, 77)}...` : recorded;
  throw new RecordingError(
    file,
    `names its character by a file (${JSON.stringify(shown)}), which a recording does not open: give the file with --character`,
  );
}

/**
 * The level of play a recording's session ran at, with the settings it recorded (a replay recalls
 * with those, whatever config/levels.yaml says today); none when it does not say (made before the
 * levels) or says full.
 */
function levelOf(name: string | undefined, settings: string | undefined, notes: string[]): ReplaySettings['level'] {
  if (name === undefined || name === 'full') return undefined;
  if (!isLevelName(name)) {
    notes.push(
      `the recording's level of play (${name.slice(0, 40)}) is not one this build knows: replayed as full, so its memory messages differ`,
    );
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
function predictionOf(recorded: string | undefined, s: SessionMetadata, notes: string[]): PredictionSettings | null {
  if (recorded === undefined) return null;
  const m = s.prediction;
  if (m === undefined) {
    notes.push(
      `the recording's prediction setting is unreadable (${recorded.slice(0, 80)}): replayed without predictions`,
    );
    return null;
  }
  if (m === null) return null;
  if (m.model !== 'learned') return { model: m.model, top: m.top };
  const file = m.modelFile!;
  const here = recordedModelHere(
    { modelFile: file, sha256: m.sha256, featuresVersion: m.featuresVersion },
    'prediction model',
  );
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
function handModelOf(
  recorded: string | undefined,
  s: SessionMetadata,
  notes: string[],
): { searchWeight: number } | null {
  if (recorded === undefined) return null;
  const m = s.handModel;
  if (m === undefined) {
    notes.push(`the recording's hand model setting is unreadable (${recorded.slice(0, 80)}): replayed without it`);
    return null;
  }
  if (m === null) return null;
  if (m.fittedOn !== FITTED_MODEL.fittedOn)
    notes.push(
      `the recording's hand model was fitted on other games (${String(m.fittedOn)}): the robot's hope and fear at the deals may differ`,
    );
  return { searchWeight: m.searchWeight };
}

/** The table server's seqs and answers as the session began (recorded as `tableSeqs`); null in older recordings. */
export function tableSeqsOf(s: SessionMetadata): LedgerSnapshot | null {
  return s.tableSeqs === undefined || s.tableSeqs === null ? null : (s.tableSeqs as LedgerSnapshot);
}

/**
 * The people's model a resumed session's search weighs its worlds by, as the first part did (its
 * recording's `inferenceModel`): the network's path and bytes when the same network is here; otherwise
 * none (the rule-based odds), and `warn` says why.
 */
export function peopleModelOf(
  recorded: string | undefined,
  s: SessionMetadata,
  warn: (message: string) => void,
): { path: string; bytes: Uint8Array } | undefined {
  if (recorded === undefined || s.inferenceModel === null) return undefined;
  const fallback = ': the robot weighs its worlds by the rule-based odds';
  const m = s.inferenceModel;
  if (m === undefined) {
    warn(`the recording's inference model is unreadable (${recorded.slice(0, 60)})${fallback}`);
    return undefined;
  }
  const here = recordedModelHere(
    { modelFile: m.modelFile, sha256: m.sha256, featuresVersion: m.featuresVersion },
    "people's model",
  );
  if ('why' in here) {
    warn(`${here.why}${fallback}`);
    return undefined;
  }
  return here;
}

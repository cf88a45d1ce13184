// config/behaviours.yaml: the language, the speech backend, the toggles at start, and the pacing of
// speech, postures and gaze. Defaults live in that file, not in code.

import { z } from 'zod';
import { EMOTION_TYPES } from './emotion-input.js';
import type { EmotionType } from './emotion-input.js';
import { loadYamlConfig } from '../config/index.js';
import { CATEGORY_NAMES, UTTERANCE_EMOTIONS } from './utterance-config.js';
import type { UtteranceCategory, UtteranceEmotion } from './utterance-config.js';
import { togglesSchema } from './toggles.js';
import type { Toggles } from './toggles.js';

export const SPEECH_BACKENDS = ['festival', 'espeak-ng', 'publish', 'log'] as const;
export type SpeechBackendKind = (typeof SPEECH_BACKENDS)[number];

export interface SpeechBackendSettings {
  kind: SpeechBackendKind;
  /** The program (and its arguments) that plays a WAV file; the file's path is appended. */
  player: readonly string[];
  festival: {
    /** A festival voice procedure, e.g. voice_kal_diphone; null for festival's default. */
    voice: string | null;
    timeoutMs: number;
  };
  espeakNg: {
    /** espeak-ng voice per utterance language. */
    voices: Readonly<Record<string, string>>;
    /** Words per minute. */
    rate: number;
    timeoutMs: number;
  };
}

export interface BehaviourSettings {
  language: string;
  toggles: Toggles;
  speech: SpeechBackendSettings;
  selection: {
    /** Chance of speaking, by category or category prefix (the longest match wins), with a default. */
    probability: { default: number; byCategory: ReadonlyArray<readonly [string, number]> };
    /**
     * Categories (or prefixes) always spoken, only queued behind a line. They are not comments: the
     * cooldown neither holds them back nor starts from them.
     */
    always: readonly string[];
    /** Quiet time after an optional comment starts, before the next optional comment. */
    cooldownMs: number;
    /**
     * How long after a player's turn begins the robot nudges them (`A tua vez...`): said only if they
     * hesitate, dropped once their card is down.
     */
    nudgeAfterMs: number;
    /** A line is not said again until this many other lines have been said. */
    repeatWindow: number;
    /** From the event to the first word. */
    reactionMs: number;
    /** Silence kept between two lines. */
    gapMs: number;
    /** A line that would have to wait longer than this behind another is dropped (the moment has passed). */
    maxDelayMs: number;
    estimate: { baseMs: number; msPerChar: number };
    /** Which OCC emotions index each emotion subcategory of the play lines. */
    emotions: Readonly<Partial<Record<EmotionType, UtteranceEmotion>>>;
    /** Intensity (0..10, after expressiveness) from which an emotion picks emotional lines. */
    emotionThreshold: number;
    /** Surprise (0..1, after expressiveness) from which another seat's card is commented on as unexpected (play.surprise.*). */
    surpriseThreshold: number;
  };
  postures: {
    /** Intensity (0..10, after expressiveness) from which an emotion shows on the face. */
    threshold: number;
    reactionMs: number;
    /** Surprise (0..1, after expressiveness) from which the face shows it (the `surprised` expression, as far as the surprise). */
    surpriseThreshold: number;
  };
  gaze: {
    moveMs: number;
    /** How long the head stays on a played card before following the game again. */
    dwellMs: number;
  };
}

const ms = z.number().int().min(0).max(120_000);
const probability = z.number().min(0).max(1);
const isCategoryOrPrefix = (k: string): boolean =>
  CATEGORY_NAMES.some((c: UtteranceCategory) => c === k || c.startsWith(`${k}.`));
const categoryKey = z.string().refine(isCategoryOrPrefix, { message: 'not an utterance category or a prefix of one' });

const settingsFileSchema = z
  .strictObject({
    language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'expected a language tag such as pt or en'),
    toggles: togglesSchema,
    speech: z.strictObject({
      // `say` is festival's own wrapper; accepted as a name for the festival backend.
      backend: z.enum([...SPEECH_BACKENDS, 'say']).transform((k): SpeechBackendKind => (k === 'say' ? 'festival' : k)),
      player: z.array(z.string().min(1)).min(1),
      festival: z.strictObject({
        // Spliced into Scheme as a procedure name, so only a plain name is accepted.
        voice: z
          .string()
          .regex(/^[A-Za-z0-9_]+$/, 'expected a festival voice name such as voice_kal_diphone')
          .nullable()
          .default(null),
        timeoutMs: ms,
      }),
      'espeak-ng': z.strictObject({
        voices: z.record(
          z.string(),
          z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_+\-/]*$/, 'expected an espeak-ng voice name such as pt'),
        ),
        rate: z.number().int().min(80).max(450),
        timeoutMs: ms,
      }),
    }),
    selection: z.strictObject({
      probability: z.record(z.string(), probability).superRefine((rec, ctx) => {
        if (!('default' in rec))
          ctx.addIssue({ code: 'custom', message: 'missing "default" (the chance of speaking for other categories)' });
        for (const k of Object.keys(rec)) {
          if (k !== 'default' && !isCategoryOrPrefix(k))
            ctx.addIssue({
              code: 'custom',
              path: [k],
              message: `${JSON.stringify(k)} is not an utterance category or a prefix of one`,
            });
        }
      }),
      always: z.array(categoryKey).default([]),
      cooldownMs: ms,
      // People often take 10-20 s over a hard card: a nudge sooner than 10 s hurries an ordinary one.
      nudgeAfterMs: ms.min(10_000, 'expected at least 10000 ms: a person often takes 10-20 s over a hard card'),
      repeatWindow: z.number().int().min(0).max(10_000),
      reactionMs: ms,
      gapMs: ms,
      maxDelayMs: ms,
      estimate: z.strictObject({ baseMs: ms, msPerChar: z.number().min(1).max(1000) }),
      emotions: z.strictObject(
        Object.fromEntries(UTTERANCE_EMOTIONS.map((e) => [e, z.array(z.enum(EMOTION_TYPES)).default([])])) as Record<
          UtteranceEmotion,
          z.ZodDefault<z.ZodArray<z.ZodEnum<{ [K in EmotionType]: K }>>>
        >,
      ),
      emotionThreshold: z.number().min(0).max(10),
      surpriseThreshold: probability,
    }),
    postures: z.strictObject({ threshold: z.number().min(0).max(10), reactionMs: ms, surpriseThreshold: probability }),
    gaze: z.strictObject({ moveMs: ms, dwellMs: ms }),
  })
  .superRefine((file, ctx) => {
    const owner = new Map<EmotionType, UtteranceEmotion>();
    for (const label of UTTERANCE_EMOTIONS) {
      file.selection.emotions[label].forEach((t, i) => {
        const first = owner.get(t);
        if (first)
          ctx.addIssue({
            code: 'custom',
            path: ['selection', 'emotions', label, i],
            message: `${t} is already listed under ${first}`,
          });
        else owner.set(t, label);
      });
    }
  })
  .transform((file): BehaviourSettings => {
    const { default: byDefault, ...rest } = file.selection.probability;
    const emotions: Partial<Record<EmotionType, UtteranceEmotion>> = {};
    for (const label of UTTERANCE_EMOTIONS) for (const t of file.selection.emotions[label]) emotions[t] = label;
    return {
      language: file.language,
      toggles: file.toggles,
      speech: {
        kind: file.speech.backend,
        player: file.speech.player,
        festival: file.speech.festival,
        espeakNg: file.speech['espeak-ng'],
      },
      selection: {
        ...file.selection,
        probability: { default: byDefault ?? 1, byCategory: Object.entries(rest) },
        emotions,
      },
      postures: file.postures,
      gaze: file.gaze,
    };
  });

/** Reads config/behaviours.yaml (or another file of that form). Throws `ConfigError`. */
export const loadBehaviourSettings = (file: string): BehaviourSettings => loadYamlConfig(file, settingsFileSchema);

/** The chance of speaking for a category: the longest matching prefix, else the default. */
export function speakProbability(settings: BehaviourSettings, category: UtteranceCategory): number {
  let best = -1;
  let p = settings.selection.probability.default;
  for (const [k, v] of settings.selection.probability.byCategory) {
    if ((category === k || category.startsWith(`${k}.`)) && k.length > best) {
      best = k.length;
      p = v;
    }
  }
  return p;
}

export const isAlwaysSpoken = (settings: BehaviourSettings, category: UtteranceCategory): boolean =>
  settings.selection.always.some((k) => category === k || category.startsWith(`${k}.`));

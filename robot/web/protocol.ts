// The /dashboard socket.io namespace: what the server streams (a snapshot on connect, then one update
// per bus message of interest) and the controls a dashboard may send (validated here with zod, answered
// with {ok: true} or {ok: false, reason}). Shared by the server and the browser; the browser imports
// types only.

import * as z from 'zod';
import type { DashboardState, DashboardUpdate } from './state.js';

export const DASHBOARD_NAMESPACE = '/dashboard';
export const DEFAULT_DASHBOARD_PORT = 7420;

export const EXPRESSIONS = ['neutral', 'happy', 'sad', 'angry', 'surprised', 'scared', 'disgusted'] as const;
export const LANGUAGES = ['pt', 'en'] as const;
export const TARGETS = ['partner', 'opponent', 'all'] as const;
/** Toggle names as the bus writes them (snake_case). */
export const TOGGLE_KEYS = [
  'speech',
  'postures',
  'gaze',
  'partner_speech',
  'opponent_speech',
  'expressiveness',
] as const;

/**
 * The lines a say control may name, by language, and the language in force (for a control that names
 * none); null: no library, every line id is refused.
 */
export interface LineChecker {
  /** The target of line `id` in `language`, or undefined when there is no such line. */
  targetOf(language: string, id: string): string | undefined;
  language(): string;
}

const sayControl = (lines: LineChecker | null) =>
  z
    .strictObject({
      type: z.literal('say'),
      /** Free text... */
      text: z.string().trim().min(1).max(500).optional(),
      /** ...or a line of the robot's library, by id (`category#n`), its slots filled from the session. */
      utteranceId: z.string().trim().min(1).max(100).optional(),
      language: z.enum(LANGUAGES).optional(),
      /** Free text: default all. A library line is said to its own target. */
      target: z.enum(TARGETS).optional(),
    })
    .superRefine((v, ctx) => {
      if ((v.text === undefined) === (v.utteranceId === undefined)) {
        const message =
          v.text === undefined
            ? 'expected text (a line of your own) or utteranceId (a line of the library)'
            : 'give text or utteranceId, not both';
        return void ctx.addIssue({ code: 'custom', message, input: v });
      }
      if (v.utteranceId === undefined) return;
      const language = v.language ?? lines?.language() ?? LANGUAGES[0];
      const to = lines?.targetOf(language, v.utteranceId);
      if (to === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['utteranceId'],
          input: v.utteranceId,
          message: `unknown utterance ${JSON.stringify(v.utteranceId)} in the ${language} library (ids are category#n, e.g. trick.end.ours#1)`,
        });
      } else if (v.target !== undefined && v.target !== to) {
        ctx.addIssue({
          code: 'custom',
          path: ['target'],
          input: v.target,
          message: `${v.utteranceId} is said to ${to === 'all' ? 'all' : `the ${to}`}; leave target out or give ${to}`,
        });
      }
    });

/** The controls, with say's line ids checked against `lines`. */
export const controlSchemaFor = (lines: LineChecker | null) =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('toggles'),
      patch: z
        .strictObject({
          speech: z.boolean().optional(),
          postures: z.boolean().optional(),
          gaze: z.boolean().optional(),
          partner_speech: z.boolean().optional(),
          opponent_speech: z.boolean().optional(),
          expressiveness: z.number().min(0).max(1).optional(),
        })
        .refine((p) => Object.keys(p).length > 0, { error: 'expected at least one toggle' }),
    }),
    z.strictObject({ type: z.literal('language'), language: z.enum(LANGUAGES) }),
    z.strictObject({ type: z.literal('pause') }),
    z.strictObject({ type: z.literal('resume') }),
    /** Start the next session now that this one is over (a node serving session after session: parceiro live). */
    z.strictObject({ type: z.literal('next-session') }),
    sayControl(lines),
    /** Have the robot say the last game's review (its words built by the server, in the session's language, to everyone). */
    z.strictObject({ type: z.literal('say-review') }),
    /** A study session (parceiro study run): start the games now, pre-questionnaires in or not. */
    z.strictObject({ type: z.literal('study-start') }),
    /** A study session: end the games now (then the post-questionnaires), or end the session once they are in (or not). */
    z.strictObject({ type: z.literal('study-end') }),
    /** A study session: the operator's note, kept in the study's notes.jsonl with the time. */
    z.strictObject({ type: z.literal('study-note'), text: z.string().trim().min(1).max(2000) }),
    /** A study session: a link with a one-time pass to participant `code`'s questionnaires. */
    z.strictObject({ type: z.literal('study-link'), code: z.string().trim().min(1).max(40) }),
    z.strictObject({
      type: z.literal('expression'),
      expression: z.enum(EXPRESSIONS),
      intensity: z.number().min(0).max(1).default(1),
    }),
  ]);

/** The controls' shape, without a library: any line id is refused. */
export const controlSchema = controlSchemaFor(null);
export type DashboardControl = z.input<typeof controlSchema>;
export type ParsedControl = z.output<typeof controlSchema>;

/** `text`: what a library line became with its slots filled (the robot says it); `link`: a study-link's. */
export type ControlAck = { ok: true; text?: string; link?: string } | { ok: false; reason: string };

export interface DashboardServerEvents {
  snapshot: (state: DashboardState) => void;
  update: (update: DashboardUpdate) => void;
}

export interface DashboardClientEvents {
  control: (control: DashboardControl, ack: (reply: ControlAck) => void) => void;
}

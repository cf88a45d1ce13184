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
export const TOGGLE_KEYS = ['speech', 'postures', 'gaze', 'partner_speech', 'opponent_speech', 'expressiveness'] as const;
export type ToggleKey = (typeof TOGGLE_KEYS)[number];

export const controlSchema = z.discriminatedUnion('type', [
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
  z.strictObject({
    type: z.literal('say'),
    text: z.string().trim().min(1).max(500),
    language: z.enum(LANGUAGES).optional(),
    utteranceId: z.string().max(100).optional(),
    target: z.enum(TARGETS).default('all'),
  }),
  z.strictObject({ type: z.literal('expression'), expression: z.enum(EXPRESSIONS), intensity: z.number().min(0).max(1).default(1) }),
]);
export type DashboardControl = z.input<typeof controlSchema>;
export type ParsedControl = z.output<typeof controlSchema>;

export type ControlAck = { ok: true } | { ok: false; reason: string };

export interface DashboardServerEvents {
  snapshot: (state: DashboardState) => void;
  update: (update: DashboardUpdate) => void;
}

export interface DashboardClientEvents {
  control: (control: DashboardControl, ack: (reply: ControlAck) => void) => void;
}

/** The handshake's refusal codes (in connect_error's `data.code`). */
export type AuthRefusal = 'no-token' | 'bad-token';

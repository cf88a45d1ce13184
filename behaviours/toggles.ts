// The operator's switches: speech, postures, gaze, speech toward the partner and toward the opponents,
// and an expressiveness level that scales every intensity. The board owns the current values; a change
// takes effect at the next behaviour and is reported to whoever listens (the dashboard).

import { z } from 'zod';

export interface Toggles {
  speech: boolean;
  postures: boolean;
  gaze: boolean;
  partnerSpeech: boolean;
  opponentSpeech: boolean;
  /** 0..1: scales the intensity of every emotion before it shows or speaks. */
  expressiveness: number;
}

export const TOGGLE_NAMES = [
  'speech',
  'postures',
  'gaze',
  'partnerSpeech',
  'opponentSpeech',
  'expressiveness',
] as const satisfies readonly (keyof Toggles)[];
export type ToggleName = (typeof TOGGLE_NAMES)[number];

export const togglesSchema = z.strictObject({
  speech: z.boolean(),
  postures: z.boolean(),
  gaze: z.boolean(),
  partnerSpeech: z.boolean(),
  opponentSpeech: z.boolean(),
  expressiveness: z.number().min(0).max(1),
});

const patchSchema = togglesSchema.partial();

export interface ToggleChange {
  toggles: Toggles;
  previous: Toggles;
  changed: readonly ToggleName[];
  /** On the board's clock. */
  atMs: number;
  /** Who asked (e.g. "dashboard"), for the record. */
  by: string;
}

/** A patch that is not a set of toggle values; the message names the toggle and what was expected. */
export class ToggleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToggleError';
  }
}

export class ToggleBoard {
  private current: Toggles;
  private readonly listeners = new Set<(change: ToggleChange) => void>();

  constructor(
    initial: Toggles,
    private readonly now: () => number,
  ) {
    this.current = Object.freeze({ ...initial });
  }

  /** The values now (a frozen snapshot). */
  get(): Toggles {
    return this.current;
  }

  /**
   * Changes some toggles. The patch may come straight from a dashboard, so it is validated; unknown
   * names and wrong values throw `ToggleError` and change nothing. Returns null when nothing changed.
   */
  set(patch: unknown, by = 'operator'): ToggleChange | null {
    const parsed = patchSchema.strict().safeParse(patch);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
      const reason =
        issue.code === 'unrecognized_keys'
          ? `unknown toggle (known: ${TOGGLE_NAMES.join(', ')})`
          : issue.path[0] === 'expressiveness'
            ? 'expected a number from 0 to 1'
            : issue.path.length
              ? 'expected true or false'
              : 'expected an object of toggle values';
      throw new ToggleError(key ? `${key}: ${reason}` : reason);
    }
    const previous = this.current;
    const next = Object.freeze({ ...previous, ...(parsed.data as Partial<Toggles>) });
    const changed = TOGGLE_NAMES.filter((k) => next[k] !== previous[k]);
    if (changed.length === 0) return null;
    this.current = next;
    const change: ToggleChange = { toggles: next, previous, changed, atMs: this.now(), by };
    for (const l of [...this.listeners]) l(change);
    return change;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: (change: ToggleChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

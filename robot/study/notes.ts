// The operator's notes: appended one JSON object a line, with the time (and the session, when given).

import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { StudyError } from './errors.js';
import { notesFile } from './layout.js';
import type { Now } from './participants.js';

const noteSchema = z.object({ at: z.string(), session: z.string().optional(), text: z.string() });
export type Note = z.output<typeof noteSchema>;

export function appendNote(dir: string, o: { text: string; session?: string; now?: Now }): Note {
  const text = o.text.trim();
  if (!text) throw new StudyError('a note needs some text');
  if (text.length > 10_000) throw new StudyError('a note is at most 10000 characters');
  const note: Note = {
    at: (o.now ?? (() => new Date()))().toISOString(),
    ...(o.session === undefined ? {} : { session: o.session }),
    text,
  };
  appendFileSync(notesFile(dir), `${JSON.stringify(note)}\n`);
  return note;
}

/** Every note in order; a line that is not a note (a crash mid-write) is skipped. */
export function listNotes(dir: string): Note[] {
  const file = notesFile(dir);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (!line.trim()) return [];
      try {
        const r = noteSchema.safeParse(JSON.parse(line));
        return r.success ? [r.data] : [];
      } catch {
        return [];
      }
    });
}

/** Rewrites the notes (a deletion's redaction). */
export function writeNotes(dir: string, notes: readonly Note[]): void {
  writeFileSync(notesFile(dir), notes.map((n) => `${JSON.stringify(n)}\n`).join(''));
}

// Deleting one participant's data from the study: their file, their answers, their seat in sessions
// (the code replaced by "deleted"), their code in the operator's notes, and the exports written from
// the study (written again without them). Recordings are not rewritten (an MCAP file is an append-only
// record): they carry the code only, in their metadata, and are listed so the lab can decide (delete
// them, or keep them under its ethics approval now that the code joins no one).

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { shownPath } from '../../config/index.js';
import { StudyError } from './errors.js';
import { checkCode } from './codes.js';
import { filesIn } from './json-files.js';
import { answersDir, exportsLog, participantFile, sessionsDir } from './layout.js';
import { listNotes, writeNotes } from './notes.js';
import { getParticipant } from './participants.js';
import { listSessions, saveSession } from './sessions.js';

export interface DeletionReport {
  code: string;
  /** Files removed, as shown to people. */
  removed: string[];
  /** Sessions whose seat now says "deleted". */
  sessions: string[];
  /** Notes whose text named the code (now "[deleted]"). */
  notes: number;
  /** Recordings of those sessions: they name the code in their metadata (not rewritten). */
  recordings: string[];
  /** Export folders that held the code: written again without it. */
  exports: string[];
}

/** Export folders written from this study (exports.jsonl), that still exist. */
export function exportFolders(dir: string): string[] {
  const file = exportsLog(dir);
  if (!existsSync(file)) return [];
  const outs = readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        const v = JSON.parse(l) as { out?: unknown };
        return typeof v.out === 'string' ? [v.out] : [];
      } catch {
        return [];
      }
    });
  return [...new Set(outs)].filter((d) => existsSync(d));
}

/**
 * Removes `code` everywhere the study keeps it; `rewriteExport(out)` writes an export folder again
 * (the export's own function, passed in so this module does not read recordings).
 */
export function deleteParticipant(dir: string, code: string, rewriteExport: (out: string) => void): DeletionReport {
  checkCode(code);
  if (!getParticipant(dir, code)) throw new StudyError(`no participant ${code} in this study`);
  const report: DeletionReport = { code, removed: [], sessions: [], notes: 0, recordings: [], exports: [] };
  const answers = answersDir(dir, code);
  for (const f of filesIn(answers, '')) report.removed.push(shownPath(join(answers, f)));
  rmSync(answers, { recursive: true, force: true });
  for (const s of listSessions(dir)) {
    const seats = { ...s.seats };
    let found = false;
    for (const seat of Object.keys(seats) as (keyof typeof seats)[])
      if (seats[seat] === code) {
        seats[seat] = 'deleted';
        found = true;
      }
    if (!found) continue;
    saveSession(dir, { ...s, seats });
    report.sessions.push(s.id);
    for (const r of [s.recording, ...(s.parts ?? [])])
      if (r !== undefined) report.recordings.push(shownPath(join(sessionsDir(dir), r)));
  }
  const notes = listNotes(dir);
  const pattern = new RegExp(`\\b${code.replace(/[-]/g, '\\-')}\\b`, 'g');
  const redacted = notes.map((n) => {
    if (!pattern.test(n.text)) return n;
    pattern.lastIndex = 0;
    report.notes++;
    return { ...n, text: n.text.replace(pattern, '[deleted]') };
  });
  if (report.notes > 0) writeNotes(dir, redacted);
  const file = participantFile(dir, code);
  rmSync(file);
  report.removed.unshift(shownPath(file));
  for (const out of exportFolders(dir)) {
    const mentions = filesIn(out, '').some((f) => {
      try {
        return readFileSync(join(out, f), 'utf8').includes(code);
      } catch {
        return false;
      }
    });
    if (!mentions) continue;
    rewriteExport(out);
    report.exports.push(shownPath(out));
  }
  return report;
}

/** What a deletion did, line by line. */
export function formatDeletion(r: DeletionReport): string {
  const out = [`deleted participant ${r.code}:`];
  for (const f of r.removed) out.push(`  removed ${f}`);
  if (r.sessions.length) out.push(`  seat set to "deleted" in session(s) ${r.sessions.join(', ')}`);
  if (r.notes) out.push(`  ${r.notes} operator note(s) redacted (the code replaced by [deleted])`);
  for (const e of r.exports) out.push(`  export ${e} written again without the code`);
  if (r.recordings.length) {
    out.push(
      `  recordings that name ${r.code} in their metadata (not rewritten; the code now joins no one; delete them if your ethics approval requires):`,
    );
    for (const f of r.recordings) out.push(`    ${f}`);
  } else out.push('  no recording names the code');
  return out.join('\n');
}

// parceiro study report: the study's figures (study-figures.ts) from its tables and the robot's
// behaviour figures of all its sessions' recordings (buildReport, as `parceiro report`), as one page.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryLookup, Report } from '../../offline/index.js';
import { buildReport } from '../../offline/index.js';
import { readRecording } from '../../recording/index.js';
import { collectStudy } from '../export/export.js';
import type { ExportOptions } from '../export/export.js';
import { sessionsDir } from '../layout.js';
import { listSessions } from '../sessions.js';
import { readStudy } from '../study-dir.js';
import { loadQuestionnaire } from '../questionnaires/index.js';
import { studyReportHtml } from './report-page.js';
import { studyFigures } from './study-figures.js';
import type { StudyFigures } from './study-figures.js';

export interface StudyReportOptions extends ExportOptions {
  /** The utterance libraries, for the behaviour report's line coverage (as `parceiro report` reads them). */
  libraries: LibraryLookup;
  /** The faces' hold time (config/postures.yaml). */
  holdMs?: number;
}

export interface StudyReport {
  html: string;
  figures: StudyFigures;
  behaviour: Report | null;
  notes: string[];
}

export function studyReport(dir: string, o: StudyReportOptions): StudyReport {
  const study = readStudy(dir);
  const { tables, notes } = collectStudy(dir, o);
  const rows = (name: string) => tables.find((t) => t.name === name)!.rows;
  const figures = studyFigures(
    rows('questionnaires.csv'),
    rows('sessions.csv'),
    study.conditions.map((c) => c.id),
  );
  const files = listSessions(dir)
    .flatMap((s) => (s.recording === undefined ? [] : [s.recording, ...(s.parts ?? [])]))
    .map((f) => join(sessionsDir(dir), f))
    .filter((f) => existsSync(f));
  const behaviour = files.length
    ? buildReport(
        files.map((f) => readRecording(f)),
        o.libraries,
        o.holdMs === undefined ? {} : { holdMs: o.holdMs },
      ).report
    : null;
  const at = (o.now ?? (() => new Date()))().toISOString();
  // Each scale's range as its questionnaire defines it (trust 0-100, Godspeed 1-5), for a fixed axis.
  const ranges: Record<string, [number, number]> = {};
  for (const s of figures.scales)
    for (const q of s.questionnaires) {
      try {
        const def = loadQuestionnaire(q, { studyDir: dir }).scales[s.scale];
        if (def) ranges[s.scale] = [def.min, def.max];
      } catch {
        // No definition: the axis follows the data (the export has noted it).
      }
    }
  return { html: studyReportHtml({ study, figures, behaviour, notes, at, ranges }), figures, behaviour, notes };
}

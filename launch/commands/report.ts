// parceiro report FILE...: what people at the table met over whole sessions, from their recordings:
// the robot's mood, its emotions toward each seat, its faces by game result, its lines, and the checks
// (robot/offline/report/). Exit code 2 for a file that is not a recording or a chart that cannot be written;
// a damaged or truncated recording is reported as far as it goes, with a note.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostureLibrary } from '../../behaviours/index.js';
import {
  BEHAVIOUR_FILES,
  defaultConfigDir,
  lineValence,
  loadPostureLibrary,
  loadTableGeometry,
  loadUtteranceLibrary,
} from '../../behaviours/index.js';
import { readRecording } from '../../robot/recording/index.js';
import type { LibraryLines, LookedAt, Report } from '../../robot/offline/index.js';
import { buildReport, chartHtml, formatReport } from '../../robot/offline/index.js';
import { UsageError } from '../errors.js';

interface ReportCommandOptions {
  json: boolean;
  chart?: string;
}

/**
 * The utterance library of each language, read once. A language without a file has none (its coverage
 * is reported as unknown); a file that is there but wrong is a configuration error (exit 2, with its
 * file, line and key).
 */
export function utteranceLibraries(configDir = defaultConfigDir()): (language: string) => LibraryLines | null {
  const cache = new Map<string, LibraryLines | null>();
  let postures: PostureLibrary | null = null;
  return (language) => {
    if (!cache.has(language)) {
      // The language names a file: only a plain tag, so it cannot reach outside config/utterances/.
      const file = join(configDir, BEHAVIOUR_FILES.utterances(language));
      const library =
        /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(language) && existsSync(file) ? loadUtteranceLibrary(file) : null;
      // How each line sounds, glad or sorry, as the planner judges it (the check of faces against the words).
      postures ??= library ? loadPostureLibrary(join(configDir, BEHAVIOUR_FILES.postures)) : null;
      cache.set(
        language,
        library && {
          lines: library.lines.map((l) => ({
            id: l.id,
            category: l.category,
            valence: lineValence(postures!, l),
            when: l.when,
          })),
        },
      );
    }
    return cache.get(language)!;
  };
}

/**
 * Where a recorded look went, by the table's geometry (config/table-geometry.yaml): at the partner's
 * place, an opponent's, or elsewhere (a card, the play area, its own cards).
 */
function lookedAtOf(configDir = defaultConfigDir()): LookedAt {
  const { places } = loadTableGeometry(join(configDir, BEHAVIOUR_FILES.table));
  const near = (p: { x: number; y: number; z: number }, q: { x: number; y: number; z: number }): boolean =>
    Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z) < 0.01;
  return (p) =>
    near(p, places.across) ? 'partner' : near(p, places.left) || near(p, places.right) ? 'opponent' : null;
}

/** Reads every recording (a file that is not one ends the command), reports, and writes the chart if asked. */
export function reportCommand(files: readonly string[], o: ReportCommandOptions): { report: Report; output: string } {
  const recordings = files.map((f) => readRecording(f));
  // Faces are judged against the hold time the robot is configured with.
  const holdMs = loadPostureLibrary(join(defaultConfigDir(), BEHAVIOUR_FILES.postures)).hold.minMs;
  const { report, timelines } = buildReport(recordings, utteranceLibraries(), { holdMs, lookedAt: lookedAtOf() });
  if (o.chart) {
    try {
      writeFileSync(o.chart, chartHtml(report, timelines));
    } catch (e) {
      throw new UsageError(`--chart: cannot write ${o.chart} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  const output = o.json
    ? JSON.stringify(report, null, 2)
    : `${formatReport(report)}${o.chart ? `\n\nChart: ${o.chart}` : ''}`;
  return { report, output };
}

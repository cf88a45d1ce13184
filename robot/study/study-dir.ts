// A study's folder: made from a study file (kept there as created), found again by its folder, and
// the studies under a folder listed.

import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { shownPath } from '../../config/index.js';
import { StudyError } from './errors.js';
import { STUDY_FILE, participantsDir, sessionsDir, answersDir, studyFile } from './layout.js';
import { loadStudy } from './study-file.js';
import type { Study } from './study-file.js';

/** Where a study's folder goes by default: studies/<id>/ under `cwd`. */
export const defaultStudyDir = (study: Study, cwd = process.cwd()): string => join(cwd, 'studies', study.id);

/** Checks the study file and makes the study's folder with a copy of it. A folder that holds a study already is refused. */
export function createStudy(file: string, dir?: string): { study: Study; dir: string } {
  const study = loadStudy(file);
  const target = dir ?? defaultStudyDir(study);
  if (existsSync(studyFile(target)))
    throw new StudyError(
      `${shownPath(target)} holds a study already (its ${STUDY_FILE}); choose another folder with --dir`,
    );
  for (const d of [participantsDir(target), sessionsDir(target), answersDir(target)]) mkdirSync(d, { recursive: true });
  copyFileSync(file, studyFile(target));
  return { study, dir: target };
}

/** The study of a folder (its study.yaml, checked); a folder without one is a StudyError. */
export function readStudy(dir: string): Study {
  if (!existsSync(studyFile(dir)))
    throw new StudyError(
      `${shownPath(dir)} is not a study's folder (it has no ${STUDY_FILE}; make one with parceiro study create)`,
    );
  return loadStudy(studyFile(dir));
}

/** The studies in the folders under `root` (default studies/): each folder with a study.yaml. */
export function listStudies(root: string): { dir: string; study: Study }[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((d) => statSync(d).isDirectory() && existsSync(studyFile(d)))
    .sort()
    .map((dir) => ({ dir, study: loadStudy(studyFile(dir)) }));
}

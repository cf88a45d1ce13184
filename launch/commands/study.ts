// parceiro study ...: a lab's user study from the command line (robot/study/, docs/studies.md): create
// a study from its file, list and check studies, show a study's progress, add and delete participants,
// plan the next session, attach a recording, write notes, export the data and report the figures.
// Each subcommand is a small function here; `addStudyCommand` wires them into the program.

import { copyFileSync, existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { shownPath } from '../../config/index.js';
import {
  STUDY_FILE,
  addParticipant,
  appendNote,
  createStudy,
  deleteParticipant,
  exportStudy,
  studyReport,
  formatDeletion,
  formatStatus,
  getSession,
  listAnswers,
  listParticipants,
  listSessions,
  listStudies,
  loadStudy,
  markSession,
  planNextSession,
  readStudy,
  sessionsDir,
  studyFile,
  studyStatus,
} from '../../robot/study/index.js';
import type { Study, StudySession } from '../../robot/study/index.js';
import { UsageError } from '../errors.js';
import { BEHAVIOUR_FILES, defaultConfigDir, loadPostureLibrary } from '../../behaviours/index.js';
import { utteranceLibraries } from './report.js';
import { writeFileSync } from 'node:fs';
import { addStudyRunCommand } from './study-run.js';

type Log = (line: string) => void;

const describeStudy = (s: Study): string =>
  `${s.sessions} sessions of ${s.participantsPerSession} participant(s) and the robot, ${s.games} game(s) each, ${s.conditions.length} condition(s) (${s.conditions
    .map((c) => c.id)
    .join(', ')}), assignment ${s.assignment.scheme} (seed ${s.assignment.seed})`;

const seatsText = (s: StudySession): string =>
  Object.entries(s.seats)
    .map(([seat, h]) => `${seat}=${h}`)
    .join(' ');

export function createCommand(file: string, o: { dir?: string }, log: Log): void {
  const { study, dir } = createStudy(file, o.dir);
  log(`created study ${study.id} in ${shownPath(dir)}: ${describeStudy(study)}`);
}

export function listCommand(o: { root: string }, log: Log): void {
  const studies = listStudies(o.root);
  if (!studies.length) {
    log(`no studies under ${shownPath(o.root)} (make one with parceiro study create FILE)`);
    return;
  }
  for (const { dir, study } of studies) {
    const sessions = listSessions(dir);
    log(
      `${study.id}  ${shownPath(dir)}  ${sessions.filter((s) => s.state === 'ended').length}/${study.sessions} sessions ended, ${listParticipants(dir).length} participants  ${study.title}`,
    );
  }
}

/** A study file, or a study's folder: its file and every file the study keeps, read and checked. */
export function checkCommand(target: string, log: Log): void {
  const isDir = existsSync(target) && statSync(target).isDirectory();
  const study = isDir ? readStudy(target) : loadStudy(target);
  log(`${shownPath(isDir ? studyFile(target) : target)}: ok, ${describeStudy(study)}`);
  if (!isDir) return;
  // Reading them checks them (a file that is not what it should be is one line, exit 2).
  const s = studyStatus(target);
  const codes = new Set(s.people.map((p) => p.code));
  for (const x of s.sessions.list)
    for (const h of Object.values(x.seats))
      if (!['robot', 'bot', 'deleted'].includes(h) && !codes.has(h))
        throw new UsageError(`session ${x.id} seats ${h}, who is not a participant of the study`);
  // Answers of someone who is not a participant (a code mistyped on a page, a deletion half done).
  for (const a of listAnswers(target))
    if (!codes.has(a.code))
      throw new UsageError(
        `answers/${a.code}/${a.questionnaire}.${a.phase}.json: ${a.code} is not a participant of the study`,
      );
  log(
    `${shownPath(target)}: ok, ${s.participants.total} participants, ${s.sessions.list.length} sessions, ${s.notes} notes`,
  );
}

export function statusCommand(dir: string, o: { json: boolean }, log: Log): void {
  const s = studyStatus(dir);
  log(o.json ? JSON.stringify(s, null, 2) : formatStatus(s));
}

export function addParticipantCommand(
  dir: string,
  o: { consentVersion?: string; consentText?: string; code?: string; noConsent?: boolean },
  log: Log,
): void {
  const study = readStudy(dir);
  const version = o.noConsent ? undefined : (o.consentVersion ?? study.consent?.version);
  if (!o.noConsent && version === undefined)
    throw new UsageError('--consent-version is needed (the study file names no consent version), or --no-consent');
  const p = addParticipant(dir, {
    ...(version === undefined ? {} : { consentVersion: version }),
    ...(o.consentText === undefined ? {} : { consentText: o.consentText }),
    ...(o.code === undefined ? {} : { code: o.code }),
  });
  log(p.code);
}

export function nextCommand(dir: string, o: { participants?: string }, log: Log): void {
  const s = planNextSession(dir, o.participants === undefined ? {} : { participants: o.participants.split(',') });
  log(`${s.id} condition ${s.condition}, seats ${seatsText(s)}, ${s.games} games, seed ${s.seed ?? 'none'}`);
}

/**
 * A recording made outside `study run` (e.g. `parceiro live --participants ...`): copied into the
 * session's folder and the session marked ended (or crashed, for a recording cut short).
 */
export function attachCommand(dir: string, id: string, recording: string, o: { crashed?: boolean }, log: Log): void {
  const session = getSession(dir, id);
  if (!existsSync(recording)) throw new UsageError(`${recording}: no such file`);
  const name = basename(recording);
  const target = join(sessionsDir(dir), name);
  if (resolve(recording) !== resolve(target)) copyFileSync(recording, target);
  if (session.state === 'planned') markSession(dir, id, 'running', { recording: name });
  const s = markSession(dir, id, o.crashed ? 'crashed' : 'ended', { recording: name });
  log(`${s.id} ${s.state}, recording ${shownPath(target)}`);
}

export function noteCommand(dir: string, text: string, o: { session?: string }, log: Log): void {
  readStudy(dir);
  if (o.session !== undefined) getSession(dir, o.session);
  const n = appendNote(dir, { text, ...(o.session === undefined ? {} : { session: o.session }) });
  log(`noted at ${n.at}${n.session ? ` (session ${n.session})` : ''}`);
}

export function deleteParticipantCommand(dir: string, code: string, log: Log): void {
  readStudy(dir);
  const r = deleteParticipant(dir, code, (out) => exportStudy(dir, out));
  log(formatDeletion(r));
}

export function exportCommand(dir: string, o: { out: string }, log: Log): void {
  const e = exportStudy(dir, o.out);
  log(
    `exported ${shownPath(dir)} to ${shownPath(o.out)}: ${e.files
      .filter((f) => f.name.endsWith('.csv'))
      .map((f) => `${f.name} (${f.rows} rows)`)
      .join(', ')}, codebook.json`,
  );
  for (const n of e.notes) log(`note: ${n}`);
}

export function reportCommand(dir: string, o: { out: string }, log: Log): void {
  const holdMs = loadPostureLibrary(join(defaultConfigDir(), BEHAVIOUR_FILES.postures)).hold.minMs;
  const r = studyReport(dir, { libraries: utteranceLibraries(), holdMs });
  try {
    writeFileSync(o.out, r.html);
  } catch (e) {
    throw new UsageError(`--out: cannot write ${o.out} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const f = r.figures;
  const trust = f.scales.find((s) => s.scale === 'trust');
  log(`report of ${shownPath(dir)}: ${shownPath(o.out)}`);
  log(
    `  sessions won by the robot's team: ${f.winRate.count} of ${f.winRate.n}; mean victory margin ${f.margin.mean === null ? '-' : f.margin.mean.toFixed(2)} (SD ${f.margin.sd === null ? '-' : f.margin.sd.toFixed(2)})`,
  );
  if (trust)
    for (const g of trust.byPartner)
      log(
        `  trust, partner ${g.group}: before ${g.pre.mean === null ? '-' : g.pre.mean.toFixed(1)} (n ${g.pre.n}), after ${g.post.mean === null ? '-' : g.post.mean.toFixed(1)} (n ${g.post.n})`,
      );
  for (const n of r.notes) log(`note: ${n}`);
}

/** `parceiro study` and its subcommands. */
export function addStudyCommand(program: Command, log: Log = (line) => console.log(line)): Command {
  const study = program
    .command('study')
    .description(
      "a lab's user study: participants by code with consent, sessions by condition and seats, questionnaires, export and report (docs/studies.md)",
    );
  study
    .command('create')
    .description(`check a study file and make the study's folder (studies/<id>/, with the file as ${STUDY_FILE})`)
    .argument('<study.yaml>', 'the study file (e.g. config/studies/sueca-trust.yaml)')
    .option('--dir <folder>', "the study's folder (default: studies/<id>/ under the working directory)")
    .action((file: string, o: { dir?: string }) => createCommand(file, o, log));
  study
    .command('list')
    .description('the studies under a folder, with their progress')
    .option('--root <folder>', 'where the studies are', 'studies')
    .action((o: { root: string }) => listCommand(o, log));
  study
    .command('check')
    .description("check a study file, or a study's folder and every file it keeps")
    .argument('<study.yaml|dir>', "a study file or a study's folder")
    .action((target: string) => checkCommand(target, log));
  study
    .command('status')
    .description("a study's progress: sessions done and planned, participants and consent, who answered what")
    .argument('<dir>', "the study's folder")
    .option('--json', 'print JSON', false)
    .action((dir: string, o: { json: boolean }) => statusCommand(dir, o, log));
  study
    .command('add-participant')
    .description('add a participant with their consent; prints their pseudonymous code (never a name)')
    .argument('<dir>', "the study's folder")
    .option('--consent-version <v>', "the consent text's version (default: the study file's consent.version)")
    .option('--consent-text <file>', 'the consent text, kept in the study the first time a version is given')
    .option('--code <code>', 'a code chosen by hand (default: a new random one, e.g. P-7KQ3)')
    .option('--no-consent', 'add without consent (record it later)')
    .action((dir: string, o: { consentVersion?: string; consentText?: string; code?: string; consent: boolean }) =>
      addParticipantCommand(dir, { ...o, noConsent: !o.consent }, log),
    );
  study
    .command('delete-participant')
    .description(
      "remove a participant's data everywhere the study keeps it (file, answers, seat, notes, exports) and say what was removed",
    )
    .argument('<dir>', "the study's folder")
    .argument('<code>', "the participant's code")
    .action((dir: string, code: string) => deleteParticipantCommand(dir, code, log));
  study
    .command('next')
    .description('plan the next session (or show the one planned): its condition, seats and seed')
    .argument('<dir>', "the study's folder")
    .option('--participants <codes>', 'who is at the table, comma separated (default: the next waiting with consent)')
    .action((dir: string, o: { participants?: string }) => nextCommand(dir, o, log));
  study
    .command('attach')
    .description("attach a session's recording made outside `study run` (copied beside the session) and mark it ended")
    .argument('<dir>', "the study's folder")
    .argument('<session>', 'the session id (e.g. S01)')
    .argument('<recording.mcap>', 'the recording')
    .option('--crashed', 'the session crashed: mark it so (resume it, or attach the restart)', false)
    .action((dir: string, id: string, file: string, o: { crashed: boolean }) => attachCommand(dir, id, file, o, log));
  study
    .command('note')
    .description("append an operator's note, with the time")
    .argument('<dir>', "the study's folder")
    .argument('<text>', 'the note')
    .option('--session <id>', 'the session it is about')
    .action((dir: string, text: string, o: { session?: string }) => noteCommand(dir, text, o, log));
  study
    .command('export')
    .description(
      'write tidy CSV (questionnaires, sessions, games, decisions) and codebook.json for R, JASP or pandas; participants by code only',
    )
    .argument('<dir>', "the study's folder")
    .requiredOption('--out <folder>', 'where to write the files (made if missing; files there are replaced)')
    .action((dir: string, o: { out: string }) => exportCommand(dir, o, log));
  study
    .command('report')
    .description(
      "the paper's figures as an HTML page: trust before and after by partner and by condition (95% intervals), the robot team's win rate and victory margin, and the robot's behaviour (parceiro report)",
    )
    .argument('<dir>', "the study's folder")
    .requiredOption('--out <file.html>', 'the page to write')
    .action((dir: string, o: { out: string }) => reportCommand(dir, o, log));
  // parceiro study run (the lab's session at the table): launch/commands/study-run.ts adds it here.
  addStudyRunCommand(study, log);
  return study;
}

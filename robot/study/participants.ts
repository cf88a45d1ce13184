// The study's participants: one file each, named by code, with their consent (when, which version of
// the text, the text's SHA-256) and a withdrawal. No name, no contact: those stay with the lab.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { shownPath } from '../../config/index.js';
import { StudyError } from './errors.js';
import { checkCode, cryptoInt, newCode } from './codes.js';
import type { RandomInt } from './codes.js';
import { filesIn, readJson, writeJson } from './json-files.js';
import { consentFile, participantFile, participantsDir } from './layout.js';

const participantSchema = z.object({
  code: z.string(),
  addedAt: z.string(),
  consent: z.object({ at: z.string(), version: z.string(), textSha256: z.string() }).nullable(),
  withdrawn: z.object({ at: z.string() }).optional(),
});
export type Participant = z.output<typeof participantSchema>;

export type Now = () => Date;
const systemNow: Now = () => new Date();

export function listParticipants(dir: string): Participant[] {
  return filesIn(participantsDir(dir), '.json')
    .map((f) => readJson(participantFile(dir, f.slice(0, -'.json'.length)), participantSchema))
    .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.code.localeCompare(b.code));
}

export function getParticipant(dir: string, code: string): Participant | null {
  const file = participantFile(dir, checkCode(code));
  return existsSync(file) ? readJson(file, participantSchema) : null;
}

export interface AddParticipantOptions {
  /** The consent text's version; absent: no consent yet (null). */
  consentVersion?: string;
  /** The consent text's file: kept as <dir>/consent/<version>.txt the first time, compared after. */
  consentText?: string;
  /** A code chosen by hand; default a new one. */
  code?: string;
  now?: Now;
  random?: RandomInt;
}

/** The consent text of `version`: kept in the study the first time it is given, then read from there. */
function consentDigest(dir: string, version: string, textFile: string | undefined): string {
  if (!/^[\w.-]{1,100}$/.test(version))
    throw new StudyError(`--consent-version: "${version}" is not a version (letters, digits, dot, dash, underscore)`);
  const kept = consentFile(dir, version);
  let text: Buffer;
  if (textFile !== undefined) {
    try {
      text = readFileSync(textFile);
    } catch (e) {
      throw new StudyError(
        `--consent-text: cannot read ${textFile} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      );
    }
    if (existsSync(kept)) {
      if (!readFileSync(kept).equals(text))
        throw new StudyError(
          `--consent-text: ${textFile} differs from consent version ${version} kept in ${shownPath(kept)}; a changed text is a new version`,
        );
    } else {
      mkdirSync(dirname(kept), { recursive: true });
      writeFileSync(kept, text);
    }
  } else if (existsSync(kept)) text = readFileSync(kept);
  else
    throw new StudyError(
      `no text for consent version ${version} in the study: give it once with --consent-text FILE (it is kept as ${shownPath(kept)})`,
    );
  return createHash('sha256').update(text).digest('hex');
}

/** Adds a participant (consent recorded when a version is given). A code already in the study is refused. */
export function addParticipant(dir: string, o: AddParticipantOptions = {}): Participant {
  const taken = new Set(listParticipants(dir).map((p) => p.code));
  let code: string;
  if (o.code !== undefined) {
    code = checkCode(o.code);
    if (taken.has(code)) throw new StudyError(`the code ${code} is already a participant of this study`);
  } else code = newCode(taken, o.random ?? cryptoInt);
  const at = (o.now ?? systemNow)().toISOString();
  const participant: Participant = {
    code,
    addedAt: at,
    consent:
      o.consentVersion === undefined
        ? null
        : { at, version: o.consentVersion, textSha256: consentDigest(dir, o.consentVersion, o.consentText) },
  };
  writeJson(participantFile(dir, code), participant);
  return participant;
}

/** Records consent for a participant added without it. */
export function recordConsent(
  dir: string,
  code: string,
  o: { consentVersion: string; consentText?: string; now?: Now },
): Participant {
  const p = getParticipant(dir, code);
  if (!p) throw new StudyError(`no participant ${code} in this study`);
  const updated: Participant = {
    ...p,
    consent: {
      at: (o.now ?? systemNow)().toISOString(),
      version: o.consentVersion,
      textSha256: consentDigest(dir, o.consentVersion, o.consentText),
    },
  };
  writeJson(participantFile(dir, p.code), updated);
  return updated;
}

// Participants' pseudonymous codes: `P-` and four characters from an alphabet without look-alikes
// (no 0/O, 1/I/L), drawn from a random source (crypto by default, a seeded one in tests). A code says
// nothing about the person; only the lab's own list (kept apart from the study) joins codes to names.

import { randomInt } from 'node:crypto';
import { StudyError } from './errors.js';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 4;

/** A code as the study keeps it: capitals, digits and dashes (so a name cannot be one). */
export const CODE = /^[A-Z0-9][A-Z0-9-]{1,31}$/;

/** The seat words that are not codes. */
export const SEAT_WORDS = ['robot', 'bot', 'deleted'] as const;

/** Uniform integer in [0, n). */
export type RandomInt = (n: number) => number;
export const cryptoInt: RandomInt = (n) => randomInt(n);

/** A new code, not one of `taken` (tries a few times; 31^4 codes leave room for any study). */
export function newCode(taken: ReadonlySet<string>, random: RandomInt = cryptoInt): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    let code = 'P-';
    for (let i = 0; i < LENGTH; i++) code += ALPHABET[random(ALPHABET.length)];
    if (!taken.has(code)) return code;
  }
  throw new StudyError('no free participant code found (the random source repeats itself?)');
}

/** A code given by hand, checked. */
export function checkCode(code: string): string {
  if (!CODE.test(code) || (SEAT_WORDS as readonly string[]).includes(code.toLowerCase()))
    throw new StudyError(
      `"${code}" is not a participant code: capitals, digits and dashes, 2 to 32 characters (e.g. P-7KQ3), never a name`,
    );
  return code;
}

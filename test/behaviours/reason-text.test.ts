// A reason in the robot's words, in pt and en (in the style of Yano and Onisawa's poker partner: how
// sure, in words), from positions where each reason is true; and a language file's reasons are checked
// like its lines.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  certaintyOf,
  loadBehaviourSetup,
  loadUtteranceLibrary,
  reasonText,
} from '../../behaviours/index.js';
import { REASON_KINDS, parseCard, summarizeReason } from '../../game/index.js';
import type { CardOutcome, Reason } from '../../game/index.js';

const pt = loadBehaviourSetup({ language: 'pt' }).utterances;
const en = loadBehaviourSetup({ language: 'en' }).utterances;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-reasons-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const outcome = (card: string, o: Partial<CardOutcome> = {}): CardOutcome => ({
  card: parseCard(card),
  teamTakesTrick: 0,
  partnerTakesTrick: 0,
  trickPoints: 0,
  opponentTrumpsAfter: 0,
  finalPoints: 60,
  winShare: 0.5,
  ...o,
});
const reason = (r: Partial<Reason> & Pick<Reason, 'kind' | 'chosen' | 'other'>) =>
  summarizeReason({ worlds: 48, ...r } as Reason);

describe('a reason in words', () => {
  it('gives ten points to the partner who takes the trick for sure, in pt and en', () => {
    const r = reason({
      kind: 'points-to-partner',
      chosen: outcome('7S', { partnerTakesTrick: 1 }),
      other: outcome('2S'),
      points: 10,
    });
    expect(reasonText(pt, r)).toBe(
      'Joguei o sete de espadas porque esta vaza é do meu parceiro, de certeza: são 10 pontos para nós.',
    );
    expect(reasonText(en, r)).toBe(
      "I played the seven of spades because this trick is my partner's, for sure: 10 points for us.",
    );
  });

  it("names the trump kept, the partner's void, and how sure a ruff is", () => {
    const kept = reason({
      kind: 'keeps-master-trump',
      chosen: outcome('2D'),
      other: outcome('AH'),
      kept: parseCard('AH'),
    });
    expect(reasonText(pt, kept)).toBe('Guardei o ás de copas para as últimas vazas; nesta vaza não fazia falta.');
    const ruff = reason({
      kind: 'partner-ruffs',
      chosen: outcome('2D', { partnerTakesTrick: 0.7 }),
      other: outcome('2C'),
      suit: 2,
    });
    expect(reasonText(en, ruff)).toBe(
      'I led the two of diamonds because my partner has no diamonds left and can ruff, probably.',
    );
    expect(reasonText(pt, ruff)).toBe(
      'Saí com o dois de ouros porque o meu parceiro já não tem ouros e pode cortar, provavelmente.',
    );
  });

  it('has a sentence for every reason kind in both languages, with every slot filled', () => {
    for (const kind of REASON_KINDS) {
      const r = reason({
        kind,
        chosen: outcome('AH', { partnerTakesTrick: 1, teamTakesTrick: 1, winShare: 0.7 }),
        other: outcome('2C'),
        points: 15,
        suit: 1,
        kept: parseCard('7H'),
      });
      for (const library of [pt, en]) {
        const text = reasonText(library, r)!;
        expect(text, `${library.language} ${kind}`).toMatch(/^\p{Lu}.*[.!]$/u);
        expect(text, `${library.language} ${kind}`).not.toMatch(/[{}]|undefined/);
      }
    }
  });

  it('says certainly, probably or maybe as the worlds bear the reason out', () => {
    expect([certaintyOf(1), certaintyOf(0.9), certaintyOf(0.75), certaintyOf(0.6), certaintyOf(0.4)]).toEqual([
      'certainly',
      'certainly',
      'probably',
      'probably',
      'maybe',
    ]);
  });

  it('refuses a language file whose reason uses an unknown slot, naming the file and the reason', () => {
    const file = join(dir, 'pt.yaml');
    const text = readFileSync(new URL('../../config/utterances/pt.yaml', import.meta.url), 'utf8').replace(
      '{card} para tirar os trunfos',
      '{carta} para tirar os trunfos',
    );
    writeFileSync(file, text);
    expect(() => loadUtteranceLibrary(file)).toThrow(ConfigError);
    expect(() => loadUtteranceLibrary(file)).toThrow(/pt\.yaml.*reasons\.kinds\.draws-trumps.*unknown slot \{carta\}/s);
  });
});

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
  decidingEdge,
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

  it('speaks to the partner who asked as "you", not as "my partner"', () => {
    const ruff = reason({
      kind: 'partner-ruffs',
      chosen: outcome('2D', { partnerTakesTrick: 0.7 }),
      other: outcome('2C'),
      suit: 2,
    });
    expect(reasonText(pt, ruff, false, null, 'partner')).toBe(
      'Saí com o dois de ouros porque já não tens ouros e podes cortar, provavelmente.',
    );
    expect(reasonText(en, ruff, true, null, 'partner')).toBe(
      'I led the two of diamonds because you have no diamonds left and can ruff, probably.',
    );
    const toPartner = reason({
      kind: 'points-to-partner',
      chosen: outcome('7S', { partnerTakesTrick: 1 }),
      other: outcome('2S'),
      points: 10,
    });
    expect(reasonText(pt, toPartner, false, null, 'partner')).toBe(
      'Joguei o sete de espadas porque esta vaza é tua, de certeza: são 10 pontos para nós.',
    );
    // An opponent who asks hears of "my partner"; and no sentence said to the partner names the partner.
    expect(reasonText(pt, toPartner, false, null, 'other')).toMatch(/meu parceiro/);
    for (const kind of REASON_KINDS)
      for (const discreet of [false, true]) {
        const r = reason({
          kind,
          chosen: outcome('AH', { partnerTakesTrick: 1, teamTakesTrick: 1, winShare: 0.7 }),
          other: outcome('2C'),
          points: 10,
          suit: 1,
          kept: parseCard('7H'),
        });
        expect(reasonText(pt, r, discreet, null, 'partner')).not.toMatch(/meu parceiro/);
        expect(reasonText(en, r, discreet, null, 'partner')).not.toMatch(/my partner/);
      }
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

describe('what decided in the search, in numbers', () => {
  const value = (card: string, points: number, win: number) => ({ card: parseCard(card), points, win });
  // The robot's record: the four of clubs won the game in 19% of the worlds, the six of clubs in 8%;
  // the worlds the reason was played in saw the same odds, and only more points.
  const vague = reason({
    kind: 'more-points',
    chosen: outcome('4C', { finalPoints: 52, winShare: 0.2 }),
    other: outcome('6C', { finalPoints: 49, winShare: 0.2 }),
    points: 3,
  });
  const edge = decidingEdge(value('4C', 48.2, 0.19), value('6C', 47.9, 0.08));

  it('names the chance to win the game when that decided: 19% against 8%, in pt and en', () => {
    expect(edge).toEqual({ kind: 'win', chance: 19, otherChance: 8 });
    expect(reasonText(pt, vague, true, edge)).toBe(
      'Joguei o quatro de paus porque nos dava mais hipóteses de ganhar o jogo: 19%, contra 8% com a melhor alternativa.',
    );
    expect(reasonText(en, vague, false, edge)).toBe(
      'I played the four of clubs for the better chance of winning the game: 19%, against 8% with the six of clubs.',
    );
    // Without the search's values (an older recording), the reason as it was.
    expect(reasonText(pt, vague, true)).toBe('Com o quatro de paus fazemos mais pontos no fim, de certeza.');
  });

  it('names the points when the chances were the same, and nothing in numbers when neither differs', () => {
    const points = decidingEdge(value('4C', 55.4, 0.41), value('6C', 50.1, 0.4));
    expect(points).toEqual({ kind: 'points', gain: 5 });
    expect(reasonText(pt, vague, false, points)).toBe(
      'Joguei o quatro de paus porque com essa carta fazemos no fim, em média, mais 5 pontos do que com o seis de paus.',
    );
    const even = decidingEdge(value('4C', 50.2, 0.41), value('6C', 50.1, 0.4));
    expect(even).toEqual({ kind: 'even' });
    // A card ranked first by victories (a chance of a double) with a lower chance to win: not "more chance".
    expect(decidingEdge(value('4C', 50.2, 0.38), value('6C', 50.1, 0.41))).toEqual({ kind: 'even' });
    // The worlds of the reason saw better odds, the search no edge: a close call, not "more often".
    const odds = reason({ kind: 'better-odds', chosen: outcome('4C', { winShare: 0.6 }), other: outcome('6C') });
    expect(reasonText(en, odds, true, even)).toBe(en.reasons!.discreet['close-call']);
    expect(reasonText(en, odds, true, null)).toMatch(/^With the four of clubs we win more often/);
  });

  it('follows a tactical reason with the numbers, never naming the other card during the game', () => {
    const r = reason({
      kind: 'takes-trick',
      chosen: outcome('AH', { teamTakesTrick: 1, trickPoints: 21 }),
      other: outcome('2C'),
      points: 21,
    });
    const text = reasonText(pt, r, true, { kind: 'win', chance: 62, otherChance: 55 })!;
    expect(text).toBe(
      'Joguei o ás de copas para ganhar a vaza, de certeza. Assim a nossa hipótese de ganhar o jogo passa de 55% para 62%.',
    );
    expect(text).not.toContain('dois de paus');
    for (const library of [pt, en])
      for (const kind of REASON_KINDS)
        for (const e of [edge, { kind: 'points' as const, gain: 4 }, { kind: 'even' as const }])
          for (const discreet of [true, false]) {
            const said = reasonText(
              library,
              reason({ kind, chosen: outcome('AH'), other: outcome('2C') }),
              discreet,
              e,
            )!;
            expect(said, `${library.language} ${kind}`).toMatch(/^\p{Lu}.*[.!]$/u);
            expect(said, `${library.language} ${kind}`).not.toMatch(/[{}]|undefined/);
            if (discreet) expect(said).not.toMatch(/two of clubs|dois de paus/);
          }
  });

  it('refuses an edge sentence said during the game that would name the other card', () => {
    const file = join(dir, 'pt-edge.yaml');
    const text = readFileSync(new URL('../../config/utterances/pt.yaml', import.meta.url), 'utf8').replace(
      'contra {other_chance} com a melhor alternativa.',
      'contra {other_chance} com {other}.',
    );
    writeFileSync(file, text);
    expect(() => loadUtteranceLibrary(file)).toThrow(
      /pt-edge\.yaml.*reasons\.decidedDiscreet\.win.*unknown slot \{other\}/s,
    );
  });
});

describe('the reason said beside the numbers it was decided by (playthrough 3, trick 8)', () => {
  // The search: 2C 88% to win and 74.4 points, 7H 81% and 71.6. The message once said more-points
  // ("as often"); the game now gives better-odds from the same numbers: both are said by the numbers.
  const value = (card: string, points: number, win: number) => ({ card: parseCard(card), points, win });
  const edge = decidingEdge(value('2C', 74.379, 0.882), value('7H', 71.628, 0.813));
  const was = reason({ kind: 'more-points', chosen: outcome('2C'), other: outcome('7H'), points: 4 });
  const { points: _points, ...rest } = was;
  const now = { ...rest, kind: 'better-odds' as const, support: 0.638 };

  it('says the card played and both chances, in pt and en, whichever kind the message has', () => {
    expect(edge).toEqual({ kind: 'win', chance: 88, otherChance: 81 });
    for (const r of [was, now]) {
      expect(reasonText(pt, r, true, edge)).toBe(
        'Joguei o dois de paus porque nos dava mais hipóteses de ganhar o jogo: 88%, contra 81% com a melhor alternativa.',
      );
      expect(reasonText(en, r, false, edge)).toBe(
        'I played the two of clubs for the better chance of winning the game: 88%, against 81% with the seven of hearts.',
      );
    }
  });

  it('says "as often" only of two cards that win as often, naming the one that makes the points', () => {
    const tied = decidingEdge(value('2C', 74.379, 0.882), value('7H', 71.628, 0.874));
    expect(tied).toEqual({ kind: 'points', gain: 3 });
    const r = { ...was, points: 3 };
    expect(reasonText(pt, r)).toBe(
      'Com o dois de paus ou com o sete de copas ganhamos as mesmas vezes, mas com o dois de paus fazemos mais 3 pontos.',
    );
    expect(reasonText(en, r)).toBe(
      'With the two of clubs or the seven of hearts we win as often, but the two of clubs makes 3 more points.',
    );
    // The other card wins more often (ranked first on victories): the points alone, never "as often".
    const behind = decidingEdge(value('2C', 74.379, 0.882), value('7H', 71.628, 0.91));
    const close = { ...rest, kind: 'close-call' as const };
    for (const [library, as] of [
      [pt, /mesmas vezes|mais vezes/],
      [en, /as often|more often/],
    ] as const) {
      const said = reasonText(library, close, false, behind)!;
      expect(said).toMatch(
        library === pt
          ? /mais 3 pontos do que com o sete de copas/
          : /3 more points on average than with the seven of hearts/,
      );
      expect(said).not.toMatch(as);
    }
  });
});

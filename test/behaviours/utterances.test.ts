// Utterances: the Portuguese and English libraries, selection (category, emotion, target, least
// recently used, never within the repeat window), slot filling, and the checks made at load.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../game/index.js';
import { createRng, parseCard } from '../../game/index.js';
import type {
  SlotName,
  SpeechMemory,
  UtteranceCategory,
  UtteranceLibrary,
  UtteranceTarget,
} from '../../behaviours/index.js';
import {
  CATEGORY_NAMES,
  ConfigError,
  EMPTY_SPEECH_MEMORY,
  UTTERANCE_CATEGORIES,
  UTTERANCE_EMOTIONS,
  cardPhrase,
  loadBehaviourSetup,
  namesNeeded,
  normalise,
  parseYamlConfig,
  rememberSaid,
  renderUtterance,
  saidRecently,
  selectUtterance,
  utteranceFileSchema,
} from '../../behaviours/index.js';
import { configCopy, configText, shippedSetup } from './helpers.js';

const pt = shippedSetup('pt').utterances;
const en = shippedSetup('en').utterances;

const SAMPLE: Record<SlotName, string | number> = {
  partner: 'Rita',
  opponent: 'Zé',
  player: 'Ana',
  card: 'o ás de copas',
  rank: 'o ás',
  suit: 'copas',
  trump: 'ouros',
  points: 21,
  their_points: 40,
  victories: 2,
  their_victories: 1,
  game: 2,
  games: 5,
};

describe.each([
  ['pt', pt],
  ['en', en],
])('the %s library', (language, lib) => {
  it('has at least 150 distinct lines', () => {
    const distinct = new Set(lib.lines.map((l) => normalise(l.text)));
    expect(lib.language).toBe(language);
    expect(distinct.size).toBeGreaterThanOrEqual(150);
  });

  it('has lines for every category of the original robot', () => {
    for (const c of CATEGORY_NAMES) expect(lib.lines.filter((l) => l.category === c).length, c).toBeGreaterThan(0);
  });

  it('speaks differently to the partner and to the opponents, and to the table', () => {
    const to = (t: UtteranceTarget) => lib.lines.filter((l) => l.to === t).length;
    expect(to('partner')).toBeGreaterThan(30);
    expect(to('opponent')).toBeGreaterThan(30);
    expect(to('all')).toBeGreaterThan(30);
    // Each emotion subcategory of a play has its lines.
    for (const [category, emotions] of [
      ['play.self', ['happy', 'self-pity']],
      ['play.partner', ['happy-for', 'pity']],
      ['play.opponent', ['gloating', 'resentment']],
    ] as const) {
      for (const e of emotions)
        expect(
          lib.lines.filter((l) => l.category === category && l.emotions.includes(e)).length,
          `${category} ${e}`,
        ).toBeGreaterThanOrEqual(4);
    }
  });

  it('every line fills its slots completely', () => {
    for (const line of lib.lines) {
      const text = renderUtterance(lib, line, SAMPLE);
      expect(text, line.id).not.toMatch(/[{}]/);
      expect(text.length).toBeGreaterThan(2);
      expect(text[0], line.id).toBe(text[0]!.toLocaleUpperCase(language));
    }
  });
});

describe('Portuguese as it is spoken at a table', () => {
  it('keeps its accents and its table talk', () => {
    const all = pt.lines.map((l) => l.text).join('\n');
    for (const phrase of [
      'Boa, {partner}!',
      'Essa doeu...',
      'Trunfo nela!',
      'Capote!',
      'Bandeira!',
      'renúncia',
      'vaza',
    ])
      expect(all).toContain(phrase);
    const accented = pt.lines.filter((l) => /[áàâãçéêíóôõú]/i.test(l.text)).length;
    expect(accented / pt.lines.length).toBeGreaterThan(0.25);
    expect(configText('utterances/pt.yaml')).toContain('Não faz mal');
  });

  it('is not a word-for-word translation of the English', () => {
    const english = new Set(en.lines.map((l) => normalise(l.text)));
    expect(pt.lines.filter((l) => english.has(normalise(l.text)))).toEqual([]);
  });

  it('names cards with their article: o ás de copas, a dama de espadas', () => {
    expect(cardPhrase(pt, parseCard('AH'))).toBe('o ás de copas');
    expect(cardPhrase(pt, parseCard('QS'))).toBe('a dama de espadas');
    expect(cardPhrase(en, parseCard('7D') as Card)).toBe('the seven of diamonds');
  });

  it('leaves out a call whose name is unknown, with its comma, and capitalises what then starts a sentence', () => {
    const say = (text: string, slots: Record<string, string> = {}) => renderUtterance(pt, { text }, slots);
    expect(say('{partner}, podes partir?')).toBe('Podes partir?');
    expect(say('{partner}, podes partir?', { partner: 'Rita' })).toBe('Rita, podes partir?');
    expect(say('Boa, {partner}!')).toBe('Boa!');
    expect(say('Ah, {player}, apanhei-te!')).toBe('Ah, apanhei-te!');
    expect(say('Então, {opponent}? Estás a pensar muito...')).toBe('Então? Estás a pensar muito...');
    expect(say('Ai, {partner}... não tinhas outra?')).toBe('Ai... não tinhas outra?');
    expect(say('Boa! {partner}, continua.')).toBe('Boa! Continua.');
    expect(say('Bem jogado, {player}. Mas não te habitues.', { player: 'Zé' })).toBe(
      'Bem jogado, Zé. Mas não te habitues.',
    );
    // A configured form (the study knows the partner is a woman) is said in a call.
    expect(
      renderUtterance({ ...pt, names: { partner: 'parceira', opponent: '' } }, { text: 'Boa, {partner}!' }, {}),
    ).toBe('Boa, parceira!');
  });

  it('knows which lines need a name: those that use it other than as a call', () => {
    expect(namesNeeded('Renúncia! {player} não assistiu ao naipe.')).toEqual(['player']);
    expect(namesNeeded('Boa, {partner}! E tu, {opponent}, nada.')).toEqual([]);
    expect(namesNeeded('{player}, és tu a dar.')).toEqual([]);
    const needing = [...pt.lines, ...en.lines].filter((l) => l.needsNames.length > 0).map((l) => l.id);
    expect(needing).toEqual(['game.end.renounce.theirs#1', 'game.end.renounce.theirs#1']);
  });

  it('reads well without any name: no unknown-name word, no stray comma or space', () => {
    for (const lib of [pt, en]) {
      for (const line of lib.lines.filter((l) => l.needsNames.length === 0)) {
        const text = renderUtterance(lib, line, { ...SAMPLE, partner: '', opponent: '', player: '' });
        expect(text, line.id).not.toMatch(/\s[,.!?]|,[,.!?]|^[,.!?]|\s\s|parceiro|amigo|my friend/);
        expect(text[0], line.id).toBe(text[0]!.toLocaleUpperCase(lib.language));
      }
    }
  });

  it('speaks to people without gendered words', () => {
    const gendered =
      /\b(coitad[oa]s?|preparad[oa]s|atent[oa]s|empatad[oa]s|junt[oa]s|amig[oa]s?|(o|do|ao) meu parceiro|parceir[oa]s?|eles|deles)\b/i;
    for (const line of pt.lines) expect(line.text, line.id).not.toMatch(gendered);
  });
});

describe('selection', () => {
  const lib = pt;
  const categoryArb = fc.constantFrom(...CATEGORY_NAMES);
  const targetsArb = fc.subarray<UtteranceTarget>(['partner', 'opponent', 'all'], { minLength: 0 });
  const emotionArb = fc.option(fc.constantFrom(...UTTERANCE_EMOTIONS), { nil: null });
  const requestArb = fc.record({ category: categoryArb, emotion: emotionArb, targets: targetsArb });

  it('never says a line again within the window, and honours category, emotion and targets', () => {
    fc.assert(
      fc.property(
        fc.array(requestArb, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer(),
        (requests, window, seed) => {
          const rng = createRng(seed);
          let memory: SpeechMemory = EMPTY_SPEECH_MEMORY;
          const history: string[] = [];
          for (const request of requests) {
            const line = selectUtterance(lib, request, memory, window, rng);
            if (!line) continue;
            expect(line.category).toBe(request.category);
            expect(request.targets).toContain(line.to);
            if (request.emotion === null) expect(line.emotions).toEqual([]);
            else if (line.emotions.length > 0) expect(line.emotions).toContain(request.emotion);
            const recent = window === 0 ? [] : history.slice(-window);
            expect(recent).not.toContain(line.id);
            history.push(line.id);
            memory = rememberSaid(memory, line, history.length, history.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('picks the least recently said line first', () => {
    const request = {
      category: 'next-player.opponent' as UtteranceCategory,
      emotion: null,
      targets: ['opponent', 'all'] as UtteranceTarget[],
    };
    const lines = lib.lines.filter((l) => l.category === request.category);
    const rng = createRng(3);
    let memory: SpeechMemory = EMPTY_SPEECH_MEMORY;
    const first: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = selectUtterance(lib, request, memory, 0, rng)!;
      first.push(line.id);
      memory = rememberSaid(memory, line, i, i);
    }
    // Every line once before any line twice...
    expect(new Set(first).size).toBe(lines.length);
    // ...and then in the same order: the oldest first.
    for (let i = 0; i < lines.length; i++) {
      const line = selectUtterance(lib, request, memory, 0, rng)!;
      expect(line.id).toBe(first[i]);
      memory = rememberSaid(memory, line, i, i);
    }
  });

  it('says nothing rather than repeat a line inside the window', () => {
    const request = {
      category: 'trump.two.opponent' as UtteranceCategory,
      emotion: null,
      targets: ['opponent', 'all'] as UtteranceTarget[],
    };
    const rng = createRng(1);
    let memory: SpeechMemory = EMPTY_SPEECH_MEMORY;
    const a = selectUtterance(lib, request, memory, 5, rng)!;
    memory = rememberSaid(memory, a, 0, 0);
    const b = selectUtterance(lib, request, memory, 5, rng)!;
    memory = rememberSaid(memory, b, 0, 0);
    expect(a.id).not.toBe(b.id);
    expect(selectUtterance(lib, request, memory, 5, rng)).toBeNull();
    expect(saidRecently(memory, a, 5)).toBe(true);
    expect(saidRecently(memory, a, 1)).toBe(false);
  });

  it("uses neutral lines of the category when no line has the emotion, never another emotion's", () => {
    const rng = createRng(2);
    for (let i = 0; i < 50; i++) {
      const line = selectUtterance(
        lib,
        { category: 'play.opponent', emotion: 'happy-for', targets: ['partner', 'opponent', 'all'] },
        EMPTY_SPEECH_MEMORY,
        0,
        rng,
      )!;
      expect(line.emotions).toEqual([]);
    }
    expect(
      selectUtterance(
        lib,
        { category: 'play.self', emotion: 'pity', targets: ['all', 'partner', 'opponent'] },
        EMPTY_SPEECH_MEMORY,
        0,
        rng,
      ),
    ).toBeNull();
  });

  it('selects nothing when no target is allowed', () => {
    for (const category of CATEGORY_NAMES)
      expect(
        selectUtterance(lib, { category, emotion: null, targets: [] }, EMPTY_SPEECH_MEMORY, 0, createRng(1)),
      ).toBeNull();
  });
});

describe('utterance files with errors', () => {
  const text = configText('utterances/pt.yaml');
  const problems = (t: string) => {
    try {
      parseYamlConfig(t, 'config/utterances/pt.yaml', utteranceFileSchema);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as ConfigError).problems;
    }
    throw new Error('the file was accepted');
  };
  const lineOf = (needle: string, t: string): number => t.slice(0, t.indexOf(needle)).split('\n').length;

  it('rejects a slot the category does not offer, naming file, line, key and the slots it offers', () => {
    const bad = text.replace('"Esta é nossa!"', '"Esta é nossa, {card}!"');
    const [p] = problems(bad);
    expect(p).toMatchObject({
      file: 'config/utterances/pt.yaml',
      line: lineOf('Esta é nossa, {card}', bad),
      key: 'lines.trick.end.ours[2].text',
    });
    expect(p!.reason).toBe('unknown slot {card} for trick.end.ours; it offers {partner}, {opponent}, {points}');
  });

  it('rejects an unknown target, an unknown emotion, an unknown category and a repeated line', () => {
    expect(
      problems(
        text.replace(
          '{ to: all, emotion: happy, text: "Esta é nossa!" }',
          '{ to: everybody, emotion: happy, text: "Esta é nossa!" }',
        ),
      )[0],
    ).toMatchObject({
      key: 'lines.trick.end.ours[2].to',
      reason: 'expected one of "partner", "opponent", "all", got "everybody"',
    });
    expect(
      problems(
        text.replace(
          'emotion: gloating, when: { taken: ours }, text: "Ui,',
          'emotion: smug, when: { taken: ours }, text: "Ui,',
        ),
      )[0]!.key,
    ).toBe('lines.play.opponent[0].emotion');
    expect(problems(text.replace('  trick.end.zero:', '  trick.end.nothing:'))[0]).toMatchObject({
      key: 'lines.trick.end.nothing',
      reason: 'unknown key "trick.end.nothing"',
    });
    expect(problems(text.replace('"Pronto, esta já foi."', '"Essa doeu!"'))[0]).toMatchObject({
      key: 'lines.trick.end.theirs[1].text',
      reason: 'the same line as lines.trick.end.theirs[0]',
    });
    expect(problems(text.replace('"Só tinha esta."', '"Só tinha {esta."'))[0]!.reason).toMatch(/unbalanced/);
  });

  it('the whole setup rejects a file whose language does not match its name', () => {
    const dir = configCopy({
      'utterances/en.yaml': configText('utterances/en.yaml').replace('language: en', 'language: pt'),
    });
    expect(() => loadBehaviourSetup({ configDir: dir, language: 'en' })).toThrow(
      /utterances\/en\.yaml:1:1: language: says pt, but this is the file for en/,
    );
    expect(() => loadBehaviourSetup({ configDir: dir, language: '../behaviours' })).toThrow(/expected a language tag/);
  });

  it('offers every category the slots its lines use in the shipped files', () => {
    for (const lib of [pt, en] as UtteranceLibrary[]) {
      for (const line of lib.lines) {
        for (const m of line.text.matchAll(/\{([^}]*)\}/g))
          expect(UTTERANCE_CATEGORIES[line.category] as readonly string[]).toContain(m[1]);
      }
    }
  });
});

describe('the settings file', () => {
  it('rejects an unknown backend and an unknown category prefix with their lines', () => {
    const text = configText('behaviours.yaml');
    const dir = configCopy({
      'behaviours.yaml': text.replace('backend: espeak-ng', 'backend: espeak').replace('playing: 0.3', 'plying: 0.3'),
    });
    try {
      loadBehaviourSetup({ configDir: dir });
      throw new Error('accepted');
    } catch (e) {
      const msg = (e as Error).message.split('\n');
      expect(msg[0]).toMatch(
        /behaviours\.yaml:\d+:3: speech\.backend: expected one of "festival", "espeak-ng", "publish", "log", "say", got "espeak"/,
      );
      expect(msg[1]).toMatch(
        /behaviours\.yaml:\d+:5: selection\.probability\.plying: "plying" is not an utterance category or a prefix of one/,
      );
    }
  });

  it('accepts `say` as the festival backend', () => {
    const text = configText('behaviours.yaml');
    const dir = configCopy({ 'behaviours.yaml': text.replace('backend: espeak-ng', 'backend: say') });
    expect(loadBehaviourSetup({ configDir: dir }).settings.speech.kind).toBe('festival');
  });
});

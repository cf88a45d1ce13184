// Speech output through the real programs (Debian's festival and espeak-ng; .ci/run installs them).
// Text with quotes, parentheses, backslashes, shell and Scheme syntax and accented letters must be
// spoken as text: the audio is written to a file, what the engine read is checked, and a marker file
// that any injection would create must not exist. A missing or failing backend falls back to the log.
// The tests that run a program are skipped without it (under CI they fail): requirePrograms.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BehaviourLog, SpeechBackendSettings, SpeechOutput } from '../../behaviours/index.js';
import {
  DegradingSpeech,
  EspeakSpeech,
  FestivalSpeech,
  LogSpeech,
  TOPICS,
  createSpeechOutput,
  festivalText,
  schemeString,
} from '../../behaviours/index.js';
import { RecordingPublisher, tempDir } from './helpers.js';
import { requirePrograms } from '../system-programs.js';

const dir = tempDir('parceiro-speech-');
const MARK = join(dir, 'injected');

/** Every way we know to break out of a shell, a Scheme string or an argument list, with Portuguese. */
const HOSTILE = [
  `Olá! Ação, coração e pão: "citação" (entre parênteses) \\ barra \\" e aspas.`,
  `"; touch ${MARK}; echo "`,
  `$(touch ${MARK}) \`touch ${MARK}\` && touch ${MARK} | touch ${MARK} ; touch ${MARK}`,
  `") (system "touch ${MARK}") ("`,
  `\\") (system \\"touch ${MARK}\\") (\\"`,
  `-w ${MARK} --help`,
].join(' ');

const isWav = (file: string): boolean => {
  const b = readFileSync(file);
  return (
    b.length > 1000 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WAVE'
  );
};

const TIMEOUT = 60_000;
const recorder = () => {
  const warnings: string[] = [];
  const infos: string[] = [];
  const log: BehaviourLog = { warn: (m) => void warnings.push(m), info: (m) => void infos.push(m) };
  return { log, warnings, infos };
};

describe("festival's text", () => {
  it('escapes the text for a Scheme string and keeps it Latin-1', () => {
    expect(schemeString('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(festivalText('Ação “olá” — sim… ok\nfim')).toBe('Ação "olá" - sim... ok fim');
    expect(festivalText('Dvořák, 5 €')).toBe('Dvorák, 5 euros');
    // ÿ is byte 0xFF, which festival's tokenizer takes for the end of its input: it goes as y.
    expect(festivalText('Ÿves e ÿ: sim')).toBe('Yves e y: sim');
    expect(
      [...festivalText(`${String.fromCodePoint(...Array.from({ length: 0x17f - 0x20 }, (_, i) => 0x20 + i))}`)].every(
        (c) => c.codePointAt(0)! < 0xff,
      ),
    ).toBe(true);
    expect(() => new FestivalSpeech({ voice: 'kal) (system "id")', player: ['true'], timeoutMs: 1000 })).toThrow(
      /not a plain voice name/,
    );
  });
});

describe('festival (the `say` backend)', () => {
  requirePrograms('festival');
  const festival = new FestivalSpeech({ voice: null, player: ['true'], timeoutMs: TIMEOUT, tempDir: dir });

  it(
    'reads the hostile text exactly as text: accents, quotes and backslashes intact, nothing run',
    async () => {
      const heard = await festival.heard(HOSTILE);
      expect(heard).toBe(festivalText(HOSTILE));
      expect(heard).toContain('Ação, coração e pão');
      expect(heard).toContain('"citação" (entre parênteses) \\ barra \\" e aspas');
      expect(heard).toContain(`(system "touch ${MARK}")`);
      expect(existsSync(MARK)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'writes the hostile text to a WAV file, and nothing else happens',
    async () => {
      const wav = join(dir, 'festival.wav');
      await festival.synthesize(HOSTILE, wav);
      expect(isWav(wav)).toBe(true);
      expect(existsSync(MARK)).toBe(false);
      // Longer text, longer audio: the words were spoken, not swallowed by a broken string.
      const short = join(dir, 'festival-short.wav');
      await festival.synthesize('Olá.', short);
      expect(readFileSync(wav).length).toBeGreaterThan(5 * readFileSync(short).length);
    },
    TIMEOUT,
  );

  it(
    'speaks the whole of a line with ÿ in it, and the lines after it',
    async () => {
      // Festival reads byte 0xFF as the end of its input: sent as is, "ÿ mundo grande" wrote no audio and
      // "Olá ÿ mundo grande" only "Olá"; then the robot gave festival up for the rest of the session.
      expect(await festival.heard('Olá ÿ mundo grande')).toBe('Olá y mundo grande');
      const size = async (text: string, name: string): Promise<number> => {
        const wav = join(dir, name);
        await festival.synthesize(text, wav);
        return readFileSync(wav).length;
      };
      const plain = await size('Olá y mundo grande', 'plain.wav');
      expect(await size('Olá ÿ mundo grande', 'ydots.wav')).toBe(plain);
      expect(await size('ÿ mundo grande', 'ydots-first.wav')).toBeGreaterThan(plain / 2);
    },
    TIMEOUT,
  );

  it(
    'says a line through the player and leaves no temporary files',
    async () => {
      await festival.say({ id: 'x#1', text: 'Boa, parceiro! Essa doeu...', language: 'pt' });
      expect(readdirSync(dir).filter((f) => f.startsWith('parceiro-festival-'))).toEqual([]);
    },
    TIMEOUT,
  );
});

describe('espeak-ng', () => {
  requirePrograms('espeak-ng');
  const espeak = new EspeakSpeech({
    voices: { pt: 'pt', en: 'en' },
    rate: 165,
    player: ['true'],
    timeoutMs: TIMEOUT,
    tempDir: dir,
  });

  it(
    'reads accented Portuguese as Portuguese: the nasal vowels of coração arrive',
    async () => {
      const ipa = await espeak.phonemes('coração, pão e ação', 'pt');
      expect(ipa.normalize('NFD')).toMatch(/\u0303/); // a nasal vowel (tilde)
      const stripped = await espeak.phonemes('coracao, pao e acao', 'pt');
      expect(ipa).not.toBe(stripped);
    },
    TIMEOUT,
  );

  it(
    'writes the hostile text to a WAV file, and nothing else happens',
    async () => {
      const wav = join(dir, 'espeak.wav');
      await espeak.synthesize(HOSTILE, 'pt', wav);
      expect(isWav(wav)).toBe(true);
      expect(existsSync(MARK)).toBe(false);
      expect(existsSync(join(process.cwd(), '--help'))).toBe(false);
      // The phonemes of the hostile text are words (including "touch" and the marker's path), not silence.
      const phonemes = await espeak.phonemes(HOSTILE, 'pt', 'espeak');
      expect(phonemes.length).toBeGreaterThan(100);
    },
    TIMEOUT,
  );

  it(
    'says a line in each language through the player',
    async () => {
      await espeak.say({ id: 'x#1', text: 'Boa, parceiro!', language: 'pt' });
      await espeak.say({ id: 'x#2', text: 'Nice one, partner!', language: 'en' });
      expect(readdirSync(dir).filter((f) => f.startsWith('parceiro-espeak-'))).toEqual([]);
    },
    TIMEOUT,
  );
});

describe('falling back to the log', () => {
  const base: SpeechBackendSettings = {
    kind: 'espeak-ng',
    player: ['true'],
    festival: { voice: null, timeoutMs: TIMEOUT },
    espeakNg: { voices: { pt: 'pt' }, rate: 165, timeoutMs: TIMEOUT },
  };

  it(
    'a backend that is not installed warns once at start and the lines go to the log',
    async () => {
      const { log, warnings, infos } = recorder();
      const speech = new DegradingSpeech(
        new FestivalSpeech({
          voice: null,
          player: ['true'],
          timeoutMs: TIMEOUT,
          command: 'festival-not-installed-here',
        }),
        new LogSpeech(log),
        log,
      );
      await speech.probe();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /festival backend does not work \(festival-not-installed-here is not installed \(not found on PATH\)\)/,
      );
      await speech.say({ id: 'a', text: 'Boa, parceiro!', language: 'pt' });
      await speech.say({ id: 'b', text: 'Essa doeu...', language: 'pt' });
      expect(warnings).toHaveLength(1);
      expect(infos).toEqual(['says (pt): Boa, parceiro!', 'says (pt): Essa doeu...']);
      expect(speech.name).toBe('log');
    },
    TIMEOUT,
  );

  it('a backend that worked and fails on one line says that line to the log and keeps the next ones', async () => {
    const { log, warnings, infos } = recorder();
    const said: string[] = [];
    // A backend that cannot say one character, as festival could not say ÿ.
    const picky: SpeechOutput = {
      name: 'picky',
      say: async (r) => {
        if (r.text.includes('ÿ')) throw new Error('wrote no audio');
        said.push(r.text);
      },
    };
    const speech = new DegradingSpeech(picky, new LogSpeech(log), log);
    await speech.say({ id: 'a#1', text: 'Boa!', language: 'pt' });
    await speech.say({ id: 'b#1', text: 'ÿ', language: 'pt' });
    await speech.say({ id: 'c#1', text: 'Essa doeu...', language: 'pt' });
    expect(said).toEqual(['Boa!', 'Essa doeu...']);
    expect(infos).toEqual(['says (pt): ÿ']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /could not say line b#1 \(wrote no audio\); it goes to the log, the next lines to picky again/,
    );
    expect(speech.name).toBe('picky');
    // Three lines in a row that fail: the backend is broken, given up for the session.
    for (const id of ['d', 'e', 'f']) await speech.say({ id, text: 'ÿ', language: 'pt' });
    expect(speech.name).toBe('log');
    expect(warnings.at(-1)).toMatch(/picky backend does not work \(wrote no audio\); from now on/);
    await speech.say({ id: 'g', text: 'Boa!', language: 'pt' });
    expect(said).toEqual(['Boa!', 'Essa doeu...']);
  });

  it("the publish backend hands the text to the robot's own speech, or falls back without a publisher", async () => {
    const publisher = new RecordingPublisher(() => 0);
    const { log, warnings } = recorder();
    const speech = await createSpeechOutput({ ...base, kind: 'publish' }, { log, publisher });
    await speech.say({ id: 'play.self#1', text: 'Toma lá esta!', language: 'pt' });
    expect(publisher.on(TOPICS.say)).toEqual([{ text: 'Toma lá esta!', language: 'pt', id: 'play.self#1', atMs: 0 }]);
    expect(warnings).toEqual([]);
    const lost = recorder();
    const without = await createSpeechOutput({ ...base, kind: 'publish' }, { log: lost.log });
    expect(lost.warnings).toHaveLength(1);
    await without.say({ id: 'a', text: 'Olá', language: 'pt' });
    expect(lost.infos).toEqual(['says (pt): Olá']);
  });

  describe('with espeak-ng installed', () => {
    requirePrograms('espeak-ng');

    it(
      'a backend that fails while speaking (no sound device) warns once and goes on in the log',
      async () => {
        const { log, warnings, infos } = recorder();
        const speech = await createSpeechOutput({ ...base, player: ['false'] }, { log, tempDir: dir });
        expect(warnings).toEqual([]);
        await speech.say({ id: 'a', text: 'Ação!', language: 'pt' });
        await speech.say({ id: 'b', text: 'Corto!', language: 'pt' });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/espeak-ng backend does not work \(false could not play the audio \(exit 1\)\)/);
        expect(infos).toEqual(['says (pt): Ação!', 'says (pt): Corto!']);
      },
      TIMEOUT,
    );

    it(
      'a line cut short on purpose (speech switched off) is not a failure',
      async () => {
        const { log, warnings } = recorder();
        // A player that would play for a minute.
        const slowPlayer = [process.execPath, '-e', 'setTimeout(() => {}, 60000)'];
        const speech = await createSpeechOutput({ ...base, player: slowPlayer }, { log, tempDir: dir });
        let done = false;
        const said = speech
          .say({ id: 'a', text: 'Uma frase muito comprida que ninguém vai ouvir até ao fim.', language: 'pt' })
          .then(() => void (done = true));
        while (!done) {
          speech.stop();
          await new Promise((r) => setTimeout(r, 50));
        }
        await said;
        expect(warnings).toEqual([]);
        expect(speech.name).toBe('espeak-ng');
      },
      TIMEOUT,
    );
  });

  describe('with festival and espeak-ng installed', () => {
    requirePrograms('festival', 'espeak-ng');

    it(
      'an installed backend gives no warning',
      async () => {
        for (const kind of ['festival', 'espeak-ng', 'log'] as const) {
          const { log, warnings } = recorder();
          const speech = await createSpeechOutput({ ...base, kind }, { log, tempDir: dir });
          expect(speech.name).toBe(kind);
          expect(warnings).toEqual([]);
        }
      },
      TIMEOUT,
    );
  });
});

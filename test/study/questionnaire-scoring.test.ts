// The shipped questionnaires through their room's front door, scored against values worked out by
// hand; and definition files with mistakes, refused by `parceiro study run` in one line naming the
// file, the line and the key (exit 2) before any session is planned.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/index.js';
import { loadQuestionnaire, readQuestionnaireFile, scoreAnswers } from '../../robot/study/questionnaires/index.js';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/launch/cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'parceiro-questionnaires-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the shipped questionnaires', () => {
  it('trust14: the 14 items of the subscale, 0-100% in steps of 10, three reverse-scored', () => {
    const q = loadQuestionnaire('trust14');
    expect(q.items.map((i) => i.name)).toHaveLength(14);
    for (const item of q.items) expect(item.values).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(q.scales['trust']!.reverse).toEqual(['have_errors', 'unresponsive', 'malfunction']);
    expect(q.languages).toEqual(['pt', 'en']);
  });

  it('trust14: the mean of the items, a reverse-scored answer counted as 100 - answer', () => {
    const names = loadQuestionnaire('trust14').items.map((i) => i.name);
    // Eleven straight items at 80 (880), the three reverse-scored at 30 (counted 70 each, 210):
    // (880 + 210) / 14 = 77.857...
    const answers = Object.fromEntries(names.map((n) => [n, 80]));
    answers['have_errors'] = 30;
    answers['unresponsive'] = 30;
    answers['malfunction'] = 30;
    expect(scoreAnswers('trust14', answers)['trust']).toBeCloseTo(1090 / 14, 10);
    // Everything at 100 (never errs, always responds, never malfunctions, as answered): 11 x 100 + 3 x 0.
    const all100 = Object.fromEntries(names.map((n) => [n, 100]));
    expect(scoreAnswers('trust14', all100)['trust']).toBeCloseTo(1100 / 14, 10);
  });

  it('trust14: no score while an item is not answered', () => {
    const names = loadQuestionnaire('trust14').items.map((i) => i.name);
    const answers = Object.fromEntries(names.slice(1).map((n) => [n, 50]));
    expect(scoreAnswers('trust14', answers)).toEqual({});
  });

  it('godspeed: five scales, each the mean of its 1-5 items', () => {
    const q = loadQuestionnaire('godspeed');
    expect(Object.fromEntries(Object.entries(q.scales).map(([k, s]) => [k, s.items.length]))).toEqual({
      anthropomorphism: 5,
      animacy: 6,
      likeability: 5,
      intelligence: 5,
      safety: 3,
    });
    const answers: Record<string, number> = {};
    // Anthropomorphism 1,2,3,4,5 -> 3; animacy 5,5,5,5,5,4 -> 29/6; likeability 4 x 5 -> 4;
    // intelligence 2,2,3,3,5 -> 3; safety 1,2,2 -> 5/3.
    const given: Record<string, number[]> = {
      anthropomorphism: [1, 2, 3, 4, 5],
      animacy: [5, 5, 5, 5, 5, 4],
      likeability: [4, 4, 4, 4, 4],
      intelligence: [2, 2, 3, 3, 5],
      safety: [1, 2, 2],
    };
    for (const [scale, values] of Object.entries(given))
      q.scales[scale]!.items.forEach((item, i) => (answers[item] = values[i]!));
    const scores = scoreAnswers('godspeed', answers);
    expect(scores['anthropomorphism']).toBe(3);
    expect(scores['animacy']).toBeCloseTo(29 / 6, 10);
    expect(scores['likeability']).toBe(4);
    expect(scores['intelligence']).toBe(3);
    expect(scores['safety']).toBeCloseTo(5 / 3, 10);
  });

  it('demographics: no scales, so no scores', () => {
    expect(scoreAnswers('demographics', { age: 24, gender: 'female' })).toEqual({});
  });

  it('a study may replace a shipped questionnaire with its own', () => {
    const study = join(tmp, 'own');
    mkdirSync(join(study, 'questionnaires'), { recursive: true });
    const def = JSON.parse(readFileSync(join(ROOT, 'config/questionnaires/trust14.json'), 'utf8')) as {
      version: string;
      scoring: { scales: { trust: { reverse: string[] } } };
    };
    def.version = 'lab-2';
    def.scoring.scales.trust.reverse = [];
    writeFileSync(join(study, 'questionnaires/trust14.json'), JSON.stringify(def));
    expect(loadQuestionnaire('trust14', { studyDir: study }).version).toBe('lab-2');
    const answers = Object.fromEntries(loadQuestionnaire('trust14').items.map((i) => [i.name, 30]));
    expect(scoreAnswers('trust14', answers, { studyDir: study })['trust']).toBe(30);
    expect(scoreAnswers('trust14', answers)['trust']).toBeCloseTo((11 * 30 + 3 * 70) / 14, 10);
  });
});

// The definition as a test edits it: loosely typed on purpose, to write what a lab might get wrong.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

/** The shipped trust14 definition with one change made by `edit`. */
function badTrust(edit: (d: Loose) => void): string {
  const d = JSON.parse(readFileSync(join(ROOT, 'config/questionnaires/trust14.json'), 'utf8')) as Loose;
  edit(d);
  return JSON.stringify(d, null, 2);
}

const BAD: { what: string; text: string; key: RegExp }[] = [
  {
    what: 'a scale item that is no question',
    text: badTrust((d) => d['scoring'].scales.trust.items.push('likeable')),
    key: /scoring\.scales\.trust\.items\[14\]: no question of the survey is named "likeable"/,
  },
  {
    what: 'a reverse-scored item outside its scale',
    text: badTrust((d) => (d['scoring'].scales.trust.reverse = ['reliable', 'nonsense'])),
    key: /scoring\.scales\.trust\.reverse\[1\]: "nonsense" is not one of this scale's items/,
  },
  {
    what: "an item whose values are not the scale's",
    text: badTrust((d) => (d['scoring'].scales.trust.max = 10)),
    key: /scoring\.scales\.trust\.items\[0\]: "function_successfully" takes 0 to 100, but the scale goes from 0 to 10/,
  },
  {
    what: 'a text without its Portuguese',
    text: badTrust((d) => delete d['survey'].pages[0].elements[2].title.pt),
    key: /survey\.pages\[0\]\.elements\[2\]\.title: no pt text/,
  },
  {
    what: 'two questions of one name',
    text: badTrust((d) => (d['survey'].pages[0].elements[3].name = 'reliable')),
    key: /survey\.pages\[0\]\.elements\[3\]\.name: "reliable" is the name of an earlier question too/,
  },
  {
    what: 'a key the format does not have',
    text: badTrust((d) => (d['scoring'].scales.trust.weights = [1])),
    key: /scoring\.scales\.trust\.weights/,
  },
  {
    what: 'an id that is not the file name',
    text: badTrust((d) => (d['id'] = 'trust40')),
    key: /id: expected "trust14" \(the file's name\), got "trust40"/,
  },
  { what: 'not JSON at all', text: '{"id": "trust14",\n  "version": ', key: /not valid YAML|trust14\.json:\d+/ },
];

describe('a definition with a mistake', () => {
  it.each(BAD)('is refused when loaded, naming the file and key: $what', ({ text, key }) => {
    const file = join(tmp, 'trust14.json');
    writeFileSync(file, text);
    let error: unknown;
    try {
      readQuestionnaireFile(file, 'trust14');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(key);
    expect((error as ConfigError).message).toMatch(/trust14\.json:\d+/);
  });

  it('stops parceiro study run in one line naming the file, line and key, exit 2, no session planned', () => {
    expect(existsSync(CLI)).toBe(true);
    const study = join(tmp, 'cli-study');
    cpSync(join(ROOT, 'config/studies/sueca-trust.yaml'), join(tmp, 'sueca-trust.yaml'));
    const made = spawnSync('node', [CLI, 'study', 'create', join(tmp, 'sueca-trust.yaml'), '--dir', study], {
      encoding: 'utf8',
    });
    expect(made.status).toBe(0);
    mkdirSync(join(study, 'questionnaires'));
    writeFileSync(join(study, 'questionnaires/trust14.json'), BAD[0]!.text);
    const r = spawnSync('node', [CLI, 'study', 'run', study, '--simulated'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^parceiro: error: .*questionnaires\/trust14\.json:\d+:\d+: scoring\.scales\.trust\.items\[14\]: no question/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(study, 'sessions/S01.json'))).toBe(false);
  });
});

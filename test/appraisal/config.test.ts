// Rules and characters as data: the shipped presets load, rule expressions mean what they say, and a
// file with a mistake is refused at load with its file, line and reason (through the API and the CLI).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AppraisalConfigError,
  ScenarioError,
  appraisalConfigDir,
  appraise,
  initialState,
  loadCharacter,
  loadSettings,
  parseScenario,
  presetNames,
} from '../../appraisal/index.js';
import type { AppraisalEvent, Perception } from '../../appraisal/index.js';
import { parseCard } from '../../game/index.js';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-appraisal-'));
let n = 0;
/** Writes a preset file and returns its path. */
function preset(text: string, name = `p${n++}.yaml`): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const rule = (body: string): string => `rules:\n  - name: r\n${body}`;

function loadError(path: string): AppraisalConfigError {
  try {
    loadCharacter(path);
  } catch (e) {
    if (e instanceof AppraisalConfigError) return e;
    throw e;
  }
  throw new Error(`${path} loaded without an error`);
}

describe('the shipped configuration', () => {
  it('has the three presets, and appraisal.yaml names one of them', () => {
    expect(presetNames()).toEqual(['competitive', 'neutral', 'warm']);
    expect(presetNames()).toContain(loadSettings().value.character);
    for (const p of presetNames()) {
      const c = loadCharacter(p);
      expect(c.rules.length).toBeGreaterThan(5);
      expect(c.description).not.toBe('');
      expect(Object.keys(c.goals)).toEqual(['win-game']);
    }
  });

  it('lives inside the package, found from the module, not the working directory', async () => {
    expect(appraisalConfigDir()).toMatch(/config[\\/]appraisal$/);
    const { code, out } = await cli(
      ['appraise', '-', '--json', '--character', 'neutral'],
      '{"type":"wait","atMs":0}\n',
    );
    expect(code).toBe(0);
    expect(JSON.parse(out).mood).toBe(0);
  });

  it('lets a preset replace an included rule by name', () => {
    const path = preset(
      `include: [neutral.yaml]\nrules:\n  - name: trick-taken\n    on: trick\n    appraise: { desirability: 7 }\n`,
    );
    const c = loadCharacter(path);
    expect(c.rules.filter((r) => r.name === 'trick-taken')).toHaveLength(1);
    const r = appraise(c, initialState(c, 0, 0), { event: trick('2S', '3S', '4S', '5S', 1) }, 0);
    expect(r.frame.desirability).toBe(7);
  });
});

const trick = (a: string, b: string, c: string, d: string, winner: 0 | 1 | 2 | 3): AppraisalEvent => {
  const cards = [a, b, c, d].map(parseCard);
  return { type: 'trick', trick: 0, leader: 0, cards, winner, points: 0 };
};

describe('rule expressions', () => {
  const frameOf = (text: string, perception: Perception) => {
    const c = loadCharacter(preset(text));
    return appraise(c, initialState(c, 0, 0), perception, 0);
  };
  const play = (card: string, seat: 0 | 1 | 2 | 3 = 2): Perception => ({
    event: { type: 'play', seat, card: parseCard(card), trick: 0 },
  });

  it('evaluate arithmetic, comparisons, ternaries and the listed functions', () => {
    const r = frameOf(
      rule(`    on: play
    when: [ "role(player) == 'partner'", "card == 'as'", "rank(card) == 'A' && suit(card) == 'S'", "!isTrump(card)", "ours(player)" ]
    appraise:
      desirability: "points(card) > 10 ? min(9, max(2, clamp(points(card) / 2, 0, 5))) : -1"
      praiseworthiness: { player: "round(abs(-2.6)) * sign(-3)" }
      like: { partner: "before.expectedPoints / 60 + after.winProbability" }
`),
      play('AS'),
    );
    expect(r.rules).toEqual(['r']);
    expect(r.frame.desirability).toBe(5);
    expect([...r.frame.praiseworthiness]).toEqual([[2, -3]]);
    expect([...r.frame.like]).toEqual([[2, 1.5]]);
  });

  it('set a goal outcome from a condition, and a success probability from a number', () => {
    const text = `goals:\n  g: { significance: 5 }\n${rule('    on: trick\n    appraise:\n      goal-achieved: { g: ours(winner) }\n      goal-success-probability: { g: after.winProbability }\n')}`;
    expect([...frameOf(text, { event: trick('2S', '3S', 'AS', '5S', 2) }).frame.goalAchieved]).toEqual([['g', true]]);
    const lost = frameOf(text, {
      event: trick('2S', '3S', 'AS', '5S', 1),
      beliefs: { after: { expectedPoints: 50, winProbability: 0.25 } },
    });
    expect([...lost.frame.goalAchieved]).toEqual([['g', false]]);
    expect([...lost.frame.goalSuccessProbability]).toEqual([['g', 0.25]]);
  });

  it('do not match when a condition fails', () => {
    const r = frameOf(rule(`    on: play\n    when: "card == 'KS'"\n    appraise: { desirability: 5 }\n`), play('AS'));
    expect(r.rules).toEqual([]);
    expect(r.frame.desirability).toBeNull();
  });

  it('skip a value that is not a number (0/0) and clamp the rest to -10..10', () => {
    const r = frameOf(
      rule(
        `    on: play\n    appraise:\n      desirability: tablePoints * 100\n      praiseworthiness: { player: "delta / delta" }\n`,
      ),
      play('AS'),
    );
    expect(r.frame.desirability).toBe(10);
    expect(r.frame.praiseworthiness.size).toBe(0);
  });
});

describe('a rule file with a mistake is refused at load, naming file, line and reason', () => {
  const cases: [string, string, RegExp][] = [
    ['broken YAML', 'rules:\n  - name: r\n    on: [play\n', /:\d+: not valid YAML/],
    [
      'an unknown key',
      rule('    on: play\n    wen: "true"\n'),
      /:4: rules\[0\]\.wen: unknown key "wen" \(expected name, on, when, appraise\)/,
    ],
    ['an unknown event type', rule('    on: plays\n'), /:3: rules\[0\]\.on: expected an event type/],
    [
      'an unknown name',
      rule('    on: trick\n    when: poitns > 10\n'),
      /:4: rules\[0\]\.when: unknown name "poitns" \(known here: .*points/,
    ],
    [
      'a name another event has',
      rule('    on: play\n    when: points > 10\n'),
      /:4: rules\[0\]\.when: unknown name "points" \(known here: .*; points\(\.\.\.\) is a function\)/,
    ],
    [
      'a constant that is not a number',
      rule('    on: play\n    appraise: { desirability: "0 / 0" }\n'),
      /:4: rules\[0\]\.appraise\.desirability: "0 \/ 0" is not a number/,
    ],
    [
      'a condition that is not true or false',
      rule('    on: trick\n    when: points + 1\n'),
      /:4: rules\[0\]\.when: "points \+ 1" is a number, expected a boolean/,
    ],
    [
      'text where a number is needed',
      rule('    on: play\n    appraise:\n      desirability: card\n'),
      /:5: rules\[0\]\.appraise\.desirability: "card" is a card, expected a number/,
    ],
    [
      'a misspelt role',
      rule("    on: play\n    when: role(player) == 'partnr'\n"),
      /:4: .*'partnr' is not a role \(one of 'self', 'partner', 'opponent'\)/,
    ],
    ['a card that does not exist', rule("    on: play\n    when: card == '1X'\n"), /'1X' is not a card/],
    [
      'a comparison of different things',
      rule('    on: play\n    when: card == player\n'),
      /cannot compare a card with a number/,
    ],
    [
      'an unknown function',
      rule('    on: play\n    appraise: { desirability: "sqrt(2)" }\n'),
      /unknown function "sqrt"/,
    ],
    [
      'a wrong number of arguments',
      rule('    on: play\n    appraise: { desirability: "clamp(2, 3)" }\n'),
      /clamp takes 3 arguments, got 2/,
    ],
    [
      'syntax jsep cannot read',
      rule('    on: play\n    appraise: { desirability: "2 +" }\n'),
      /:4: rules\[0\]\.appraise\.desirability: cannot read "2 \+"/,
    ],
    ['an assignment', rule('    on: play\n    appraise: { desirability: "delta = 2" }\n'), /cannot read|unsupported/],
    [
      'a computed field',
      rule('    on: play\n    appraise: { desirability: "after[\'winProbability\']" }\n'),
      /only fields of a named record/,
    ],
    [
      'an unknown field',
      rule('    on: play\n    appraise: { desirability: "after.points" }\n'),
      /after has no field "points" \(it has expectedPoints, winProbability\)/,
    ],
    [
      'a target the event does not have',
      rule('    on: play\n    appraise:\n      praiseworthiness: { winner: 3 }\n'),
      /:5: rules\[0\]\.appraise\.praiseworthiness\.winner: "winner" is not a target of play events \(use self, partner, team, opponents, nextOpponent, prevOpponent, player\)/,
    ],
    [
      'a target only one of its events has',
      rule('    on: [play, trick]\n    appraise:\n      praiseworthiness: { player: 3 }\n'),
      /"player" is not a target of all of play, trick/,
    ],
    ['an unknown target', rule('    on: play\n    appraise:\n      like: { bob: 3 }\n'), /unknown target "bob"/],
    [
      'an undeclared goal',
      rule('    on: play\n    appraise:\n      goal-success-probability: { win-session: 1 }\n'),
      /:5: rules\[0\]\.appraise\.goal-success-probability\.win-session: unknown goal "win-session"/,
    ],
    [
      'a number out of range',
      rule('    on: play\n    appraise: { desirability: 12 }\n'),
      /:4: rules\[0\]\.appraise\.desirability: 12 is outside -10\.\.10/,
    ],
    [
      'a constant expression out of range',
      rule('    on: play\n    appraise: { desirability: "6 * 2" }\n'),
      /"6 \* 2" is 12, outside -10\.\.10/,
    ],
    [
      'a probability out of range',
      'goals:\n  g: { significance: 5 }\n' +
        rule('    on: end\n    appraise:\n      goal-success-probability: { g: 1.5 }\n'),
      /1\.5 is outside 0\.\.1/,
    ],
    [
      'a certain outcome written as a probability',
      'goals:\n  g: { significance: 5 }\n' +
        rule('    on: end\n    appraise:\n      goal-success-probability: { g: 1 }\n'),
      /:7: rules\[0\]\.appraise\.goal-success-probability\.g: a probability of 1 is an estimate, not an outcome; to achieve or fail the goal, write goal-achieved: \{ g: true \}/,
    ],
    [
      'an outcome of an undeclared goal',
      rule('    on: end\n    appraise:\n      goal-achieved: { win-session: won }\n'),
      /:5: rules\[0\]\.appraise\.goal-achieved\.win-session: unknown goal "win-session"/,
    ],
    [
      'an outcome that is not true or false',
      'goals:\n  g: { significance: 5 }\n' +
        rule('    on: trick\n    appraise:\n      goal-achieved: { g: ourPoints }\n'),
      /:7: rules\[0\]\.appraise\.goal-achieved\.g: "ourPoints" is a number, expected a boolean/,
    ],
    [
      'a goal without significance',
      'goals:\n  g: { likelihood: 0.5 }\n',
      /:2: goals\.g\.significance: expected a number/,
    ],
    [
      'a disposition for an unknown emotion',
      'dispositions:\n  jealousy: { threshold: 2 }\n',
      /:2: dispositions\.jealousy: unknown key "jealousy"/,
    ],
    [
      'a threshold out of range',
      'dispositions:\n  joy: { threshold: 11 }\n',
      /:2: dispositions\.joy\.threshold: must be at most 10/,
    ],
    [
      'two rules of one name',
      'rules:\n  - { name: a, on: play }\n  - { name: a, on: trick }\n',
      /:3: rules\[1\]\.name: a rule named "a" is already in this file/,
    ],
    ['a missing include', 'include: [nothing-here.yaml]\n', /:1: include\[0\]: no such file "nothing-here.yaml"/],
    ['a rule without a name', 'rules:\n  - on: play\n', /:2: rules\[0\]\.name: expected a name/],
  ];
  for (const [what, text, message] of cases) {
    it(what, () => {
      const path = preset(text);
      const e = loadError(path);
      expect(e.message).toMatch(message);
      expect(e.message.startsWith(e.file)).toBe(true);
      expect(e.file).toMatch(/\.yaml$/);
    });
  }

  it('an include cycle', () => {
    preset('include: [cycle-b.yaml]\n', 'cycle-a.yaml');
    preset('include: [cycle-a.yaml]\n', 'cycle-b.yaml');
    expect(loadError(join(dir, 'cycle-a.yaml')).message).toMatch(
      /cycle-b\.yaml:1: include\[0\]: "cycle-a.yaml" includes this file again/,
    );
  });

  it('an unknown preset name', () => {
    expect(() => loadCharacter('grumpy')).toThrow(
      /unknown character "grumpy" \(presets: competitive, neutral, warm; or give a \.yaml file\)/,
    );
  });

  it('through the CLI: exit code 2 and one line, no stack trace', async () => {
    const path = preset(rule('    on: trick\n    when: poitns > 10\n'));
    const { code, out, err } = await cli(['appraise', '-', '--character', path], '{"type":"wait","atMs":0}\n');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^parceiro: error: .*\.yaml:4: rules\[0\]\.when: unknown name "poitns"/);
    expect(err).not.toMatch(/\n\s+at /);
  });
});

describe('a scenario with a mistake names its line', () => {
  const cases: [string, string, RegExp][] = [
    ['broken JSON', '{"type":"deal",', /^s\.jsonl:1: not valid JSON/],
    ['a line that is not an object', '[1, 2]', /^s\.jsonl:1: expected a JSON object with a "type"/],
    [
      'an unknown type',
      '{"type":"shuffle"}',
      /^s\.jsonl:1: type: expected one of deal, trump, play, trick, end, renounce, session-end, wait, got "shuffle"/,
    ],
    ['an unknown card', '\n{"type":"play","seat":1,"card":"1X","trick":0}', /^s\.jsonl:2: card: unknown card "1X"/],
    [
      'a card in a hand',
      '{"type":"deal","seat":0,"dealer":3,"trump":"5H","hand":["AS","ZZ"]}',
      /^s\.jsonl:1: hand\[1\]: unknown card "ZZ"/,
    ],
    [
      'a seat that is not one',
      '{"type":"play","seat":4,"card":"AS","trick":0}',
      /^s\.jsonl:1: seat: expected a seat 0-3/,
    ],
    ['an unknown field', '{"type":"play","seat":1,"card":"AS","trick":0,"atms":5}', /^s\.jsonl:1: atms: unknown field/],
    [
      'time going back',
      '{"type":"wait","atMs":5000}\n{"type":"wait","atMs":4000}',
      /^s\.jsonl:2: atMs: 4000 is before the previous line's time \(5000 ms\)/,
    ],
    [
      'a trick of three cards',
      '{"type":"trick","trick":0,"leader":0,"cards":["AS","2S","3S"],"winner":0}',
      /^s\.jsonl:1: cards: a trick has 4 cards/,
    ],
    [
      'trick points that do not add up',
      '{"type":"trick","trick":0,"leader":0,"cards":["AS","2S","3S","4S"],"winner":0,"points":12}',
      /^s\.jsonl:1: points: 12 does not match the cards, which hold 11/,
    ],
    [
      'beliefs out of range',
      '{"type":"play","seat":1,"card":"AS","trick":0,"after":{"expectedPoints":130,"winProbability":0.5}}',
      /^s\.jsonl:1: after\.expectedPoints: expected points 0-120/,
    ],
    [
      'a negative standard error',
      '{"type":"play","seat":1,"card":"AS","trick":0,"after":{"expectedPoints":60,"winProbability":0.5,"winSe":-0.1}}',
      /^s\.jsonl:1: after\.winSe: expected a standard error of a probability, 0 or more/,
    ],
    [
      'both after and beliefs',
      '{"type":"play","seat":1,"card":"AS","trick":0,"after":{"expectedPoints":60,"winProbability":0.5},"beliefs":{"moves":[{"mean":60}],"winProbability":0.5}}',
      /give either after or beliefs/,
    ],
  ];
  for (const [what, text, message] of cases) {
    it(what, () => {
      expect(() => parseScenario(text, 's.jsonl')).toThrow(ScenarioError);
      expect(() => parseScenario(text, 's.jsonl')).toThrow(message);
    });
  }

  it('reads the runtime event format, comments, the player beliefs, and times', () => {
    const steps = parseScenario(
      [
        '# a comment',
        '{"type":"deal","game":1,"seat":1,"dealer":3,"trump":"5s","hand":["4S","JS"],"atMs":100}',
        '{"type":"play","seat":0,"card":"AD","trick":0,"beliefs":{"moves":[{"card":"AD","mean":71,"sd":3,"winProbability":0.8}],"worlds":40,"winProbability":0.8}}',
        '{"type":"end","points":[64,56],"outcome":{"winner":"A","victories":1},"renounce":{"seat":2,"trick":3,"card":"KD","discovered":{"trick":5,"card":"2D"}},"atMs":900}',
        '{"type":"renounce","seat":2,"trick":3,"card":"KD"}',
        '{"type":"session-end","victories":[5,3],"games":5}',
        '{"type":"wait","atMs":2000}',
      ].join('\n'),
      's.jsonl',
    );
    expect(steps.map((s) => [s.line, s.atMs, s.perception?.event.type ?? 'wait'])).toEqual([
      [2, 100, 'deal'],
      [3, 100, 'play'],
      [4, 900, 'end'],
      [5, 900, 'renounce'],
      [6, 900, 'session-end'],
      [7, 2000, 'wait'],
    ]);
    expect(steps[0]!.perception!.event).toEqual({
      type: 'deal',
      seat: 1,
      dealer: 3,
      trumpCard: parseCard('5S'),
      hand: [parseCard('4S'), parseCard('JS')],
    });
    expect(steps[1]!.perception!.beliefs).toEqual({ after: { expectedPoints: 71, winProbability: 0.8 } });
    expect(steps[2]!.perception!.event).toMatchObject({
      renounce: { seat: 2, trick: 3, card: parseCard('KD'), discovered: { trick: 5, card: parseCard('2D') } },
    });
  });

  it('through the CLI: exit code 2 and one line with the file and line', async () => {
    const { code, out, err } = await cli(
      ['appraise', '-'],
      '{"type":"wait","atMs":0}\n{"type":"play","seat":1,"card":"1X","trick":0}\n',
    );
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim()).toMatch(/^parceiro: error: standard input:2: card: unknown card "1X"/);
    expect(err.trim().split('\n')).toHaveLength(1);
    const missing = await cli(['appraise', 'no-such-scenario.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no-such-scenario\.jsonl: no such file/);
    const badSeat = await cli(['appraise', '-', '--seat', '5'], '');
    expect(badSeat.code).toBe(2);
    expect(badSeat.err).toMatch(/--seat expects a whole number from 0 to 3/);
  });
});

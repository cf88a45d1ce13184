// Behaviour people expect of the robot's emotions, on hand-written scenarios, checked twice: through
// the appraisal's public API and through `parceiro appraise` as an author runs it.

import { describe, expect, it } from 'vitest';
import { parseScenario, runScenario } from '../../appraisal/index.js';
import type { CliEmotion, CliLine } from './helpers.js';
import { apiRun, character, cli, cliRun, scenarioFile } from './helpers.js';

/** One line's state, the same shape from either road. */
interface Seen {
  event: string;
  emotions: CliEmotion[];
  toward: Record<string, CliEmotion | null>;
  mood: number;
}

const viaApi = async (name: string, preset: string): Promise<Seen[]> =>
  apiRun(name, preset).map(({ step, report }) => ({
    event: step.perception?.event.type ?? 'wait',
    emotions: report.emotions,
    toward: Object.fromEntries(report.toward.map((t) => [String(t.seat), t.emotion])),
    mood: report.mood,
  }));
const viaCli = async (name: string, preset: string): Promise<Seen[]> =>
  (await cliRun(name, preset)).map((l: CliLine) => ({
    event: l.event,
    emotions: l.emotions,
    toward: l.toward,
    mood: l.mood,
  }));

const roads: [string, (name: string, preset: string) => Promise<Seen[]>][] = [
  ['the API', viaApi],
  ['the CLI', viaCli],
];

const has = (s: Seen, type: string, target?: number | string | null): CliEmotion | undefined =>
  s.emotions.find((e) => e.type === type && (target === undefined || e.target === target));
const end = (xs: Seen[]): Seen => xs[xs.length - 1]!;
const PARTNER = '2';
const PROSPECT_RESOLUTIONS = ['satisfaction', 'relief', 'disappointment', 'fears-confirmed'] as const;

for (const [road, run] of roads) {
  describe(`scenarios through ${road}`, () => {
    for (const preset of ['competitive', 'warm']) {
      it(`${preset}: the partner wins a rich trick -> joy, and happy-for toward the partner`, async () => {
        const s = end(await run('partner-rich-trick', preset));
        expect(has(s, 'joy', null)?.intensity).toBeGreaterThan(2);
        expect(has(s, 'happy-for', 2)?.intensity).toBeGreaterThan(2);
        expect(s.toward[PARTNER]?.type).toBe('happy-for');
        expect(has(s, 'distress')).toBeUndefined();
        expect(s.mood).toBeGreaterThan(0);
      });

      it(`${preset}: an opponent captures the robot's ace -> distress, and resentment toward that opponent`, async () => {
        const s = end(await run('ace-captured', preset));
        expect(has(s, 'distress', null)?.intensity).toBeGreaterThan(2);
        expect(s.toward['1']?.type).toBe('resentment');
        expect(has(s, 'joy')).toBeUndefined();
        expect(s.mood).toBeLessThan(0);
      });

      it(`${preset}: an opponent loses a rich trick to the robot's team -> gloating`, async () => {
        const s = end(await run('opponents-lose-rich-trick', preset));
        expect(has(s, 'gloating')?.intensity).toBeGreaterThan(1);
        expect(s.toward['3']?.type).toBe('gloating'); // seat 3 gave up its ace
      });
    }

    it('competitive: the resentment is for the opponent who cut, not for the other one', async () => {
      const s = end(await run('ace-captured', 'competitive'));
      expect(has(s, 'resentment', 1)).toBeDefined();
      expect(s.toward['3']).toBeNull();
    });

    it('neutral: the same tricks bring joy or distress, but nothing toward anyone', async () => {
      for (const [name, feeling] of [
        ['partner-rich-trick', 'joy'],
        ['ace-captured', 'distress'],
        ['opponents-lose-rich-trick', 'joy'],
      ] as const) {
        const s = end(await run(name, 'neutral'));
        expect(has(s, feeling)).toBeDefined();
        expect(Object.values(s.toward)).toEqual([null, null, null]);
        expect(s.emotions.every((e) => e.target === null)).toBe(true);
      }
    });

    it('the partner wastes a high card -> reproach in the competitive preset, not in the warm one', async () => {
      const competitive = await run('partner-wastes-high-card', 'competitive');
      const atPlay = competitive.findIndex((s, i) => i > 0 && has(s, 'reproach', 2));
      expect(atPlay).toBeGreaterThan(0);
      expect(competitive[atPlay]!.event).toBe('play');
      expect(end(competitive).toward[PARTNER]?.type).toBe('reproach');

      const warm = await run('partner-wastes-high-card', 'warm');
      expect(warm.every((s) => !has(s, 'reproach') && !has(s, 'anger'))).toBe(true);
      expect(end(warm).toward[PARTNER]?.type).toBe('pity'); // sorry for the partner instead
      expect(has(end(warm), 'distress')).toBeDefined();
    });

    for (const preset of ['neutral', 'competitive', 'warm']) {
      it(`${preset}: a rising win probability brings hope, then satisfaction on winning`, async () => {
        const lines = await run('hope-then-win', preset);
        const hopes = lines.slice(1, 4).map((s) => has(s, 'hope')?.intensity ?? 0);
        expect(hopes.every((h) => h > 1)).toBe(true);
        expect(hopes[2]!).toBeGreaterThan(hopes[0]!); // reinforced as it keeps rising
        expect(lines.slice(0, 4).some((s) => has(s, 'fear'))).toBe(false);
        const s = end(lines);
        expect(s.event).toBe('end');
        expect(has(s, 'satisfaction')?.intensity).toBeGreaterThan(3);
        expect(has(s, 'disappointment')).toBeUndefined();
        expect(has(s, 'relief')).toBeUndefined();
      });

      it(`${preset}: ... and disappointment on losing`, async () => {
        const lines = await run('hope-then-lose', preset);
        expect(has(lines[3]!, 'hope')).toBeDefined();
        const s = end(lines);
        expect(has(s, 'disappointment')?.intensity).toBeGreaterThan(3);
        expect(has(s, 'satisfaction')).toBeUndefined();
        expect(has(s, 'fears-confirmed')).toBeUndefined();
        expect(has(s, 'distress')).toBeDefined();
      });
    }

    describe('prospects are confirmed or disconfirmed only when the outcome is certain', () => {
      /** Per line, the prospect-based emotions that line brought (felt anew, or stronger than the line before). */
      const resolutions = (lines: Seen[]): string[][] =>
        lines.map((s, i) =>
          PROSPECT_RESOLUTIONS.filter(
            (type) =>
              (has(s, type, null)?.intensity ?? 0) > (i > 0 ? (has(lines[i - 1]!, type, null)?.intensity ?? 0) : 0),
          ),
        );

      for (const preset of ['neutral', 'competitive', 'warm']) {
        it(`${preset}: a deal after a won or a lost game, even with a win probability of 1 or 0, brings hope or fear, not a resolution`, async () => {
          const lines = await run('next-deal', preset);
          const got = resolutions(lines);
          const deals = lines.flatMap((s, i) => (s.event === 'deal' ? [i] : []));
          expect(deals).toHaveLength(3);
          for (const d of deals) {
            expect(got[d]).toEqual([]);
            expect(got[d + 1]).toEqual([]); // nor the first play after it
          }
          expect(has(lines[deals[1]!]!, 'hope')).toBeDefined(); // a one-world estimate of 1
          expect(has(lines[deals[2]!]!, 'fear')).toBeDefined(); // a one-world estimate of 0
          // One resolution per game, at its end: won after hope, lost after fear, won after hope.
          const ends = lines.flatMap((s, i) => (s.event === 'end' ? [i] : []));
          expect(ends.map((i) => got[i])).toEqual([['satisfaction'], ['fears-confirmed'], ['satisfaction']]);
          expect(got.filter((r, i) => r.length > 0 && !ends.includes(i))).toEqual([]);
        });

        it(`${preset}: a mid-game swing of the win probability to 1 or to 0 is hope or fear; the end resolves it`, async () => {
          const lines = await run('win-probability-swings', preset);
          const got = resolutions(lines);
          expect(got.slice(0, -1).flat()).toEqual([]);
          expect(has(lines[1]!, 'hope')).toBeDefined(); // at 1: every sampled world won
          expect(has(lines[3]!, 'fear')).toBeDefined(); // at 0: every sampled world lost
          expect(got[got.length - 1]).toEqual(['satisfaction']); // won, hoping (0.6)
        });

        it(`${preset}: a team past 60 points makes the outcome certain: resolved at that trick, not again at the end`, async () => {
          const win = await run('made-certain-win', preset);
          const got = resolutions(win);
          expect(win[3]!.event).toBe('trick'); // the third trick brings the robot's team to 63
          expect(got).toEqual([[], [], [], ['satisfaction'], [], []]);

          const loss = await run('made-certain-loss', preset);
          // 51 for the opponents with every sampled world lost is not certain; 60 is (61 is out of reach).
          expect(resolutions(loss)).toEqual([[], [], [], [], ['fears-confirmed'], []]);
        });
      }
    });

    it('emotions fade with time (half-life 15 s) and the mood drifts back to neutral', async () => {
      const [, trick, half, later, much] = (await run('fading', 'competitive')) as [Seen, Seen, Seen, Seen, Seen];
      const joy = (s: Seen): number => has(s, 'joy')?.intensity ?? 0;
      expect(joy(trick)).toBeGreaterThan(3);
      expect(joy(half)).toBeCloseTo(joy(trick) / 2, 2); // 15 s later
      expect(joy(later)).toBeCloseTo(joy(trick) / 16, 2); // 60 s later
      expect(much.emotions).toEqual([]);
      expect(trick.mood).toBeGreaterThan(1);
      expect(half.mood).toBeLessThan(trick.mood);
      expect(later.mood).toBeLessThan(half.mood);
      expect(later.mood).toBeGreaterThan(0);
      expect(much.mood).toBe(0);
    });
  });
}

describe('renounces and the session', () => {
  const lines = (preset: string, text: string): Seen[] =>
    runScenario(character(preset), parseScenario(text, 'inline'), { seat: 0 }).map(({ step, report }) => ({
      event: step.perception?.event.type ?? 'wait',
      emotions: report.emotions,
      toward: Object.fromEntries(report.toward.map((t) => [String(t.seat), t.emotion])),
      mood: report.mood,
    }));
  const partnerRenounces = '{"type":"renounce","seat":2,"trick":3,"card":"2H","discovered":{"trick":5,"card":"3H"}}';
  const opponentRenounces = '{"type":"renounce","seat":3,"trick":3,"card":"2H"}';

  it('competitive: a renounce is reproached, whoever made it', () => {
    const partner = end(lines('competitive', partnerRenounces));
    expect(partner.toward[PARTNER]?.type).toBe('reproach');
    expect(has(partner, 'anger', 2)).toBeDefined(); // distress and reproach together
    const s = end(lines('competitive', opponentRenounces));
    expect(has(s, 'joy')).toBeDefined();
    expect(has(s, 'reproach', 3)).toBeDefined();
  });

  it("warm: the partner's renounce brings pity, not blame", () => {
    const s = end(lines('warm', partnerRenounces));
    expect(s.toward[PARTNER]?.type).toBe('pity');
    expect(has(s, 'reproach')).toBeUndefined();
  });

  it('a renounce found out makes the outcome certain, even one the points had made certain', () => {
    const deal = '{"type":"deal","seat":0,"dealer":3,"trump":"5H","after":{"expectedPoints":70,"winProbability":0.7}}';
    const tricks = [
      '{"type":"trick","trick":0,"leader":0,"cards":["AS","2S","7S","3S"],"winner":0}',
      '{"type":"trick","trick":1,"leader":0,"cards":["AH","2H","7H","3H"],"winner":0}',
      '{"type":"trick","trick":2,"leader":0,"cards":["AD","2D","7D","3D"],"winner":0}',
    ];
    for (const p of ['neutral', 'competitive', 'warm']) {
      const won = lines(p, [deal, ...tricks].join('\n'));
      expect(has(end(won), 'satisfaction')).toBeDefined(); // 63 points
      const overturned = lines(p, [deal, ...tricks, partnerRenounces].join('\n'));
      expect(has(end(overturned), 'disappointment')).toBeDefined(); // the win is lost after all
      const early = lines(p, [deal, opponentRenounces].join('\n'));
      expect(has(end(early), 'satisfaction')).toBeDefined();
    }
  });

  it('warm: the session ends with love for the partner; every preset is glad of a won session', () => {
    const won = '{"type":"session-end","victories":[6,2],"games":5}';
    expect(end(lines('warm', won)).toward[PARTNER]?.type).toBe('love');
    for (const p of ['neutral', 'competitive', 'warm']) expect(has(end(lines(p, won)), 'joy')).toBeDefined();
    expect(has(end(lines('neutral', '{"type":"session-end","victories":[2,6],"games":5}')), 'distress')).toBeDefined();
  });
});

describe('parceiro appraise', () => {
  it('prints one JSON line per scenario line, with the stable names', async () => {
    const lines = await cliRun('partner-rich-trick', 'competitive');
    expect(lines.map((l) => l.line)).toEqual([3, 4, 5, 6, 7, 8]); // comments are not lines of output
    const l = lines[5]!;
    expect(Object.keys(l).sort()).toEqual(
      ['atMs', 'emotions', 'event', 'line', 'mood', 'rules', 'seat', 'strongest', 'toward', 'variables', 'what'].sort(),
    );
    expect(l).toMatchObject({ atMs: 9000, event: 'trick', seat: 0 });
    expect(l.rules).toContain('partner-takes-rich-trick');
    expect(l.variables).toMatchObject({ desirability: 6.25, 'desirability-for-other': { '2': 6.25 } });
    expect(l.strongest).toEqual(l.emotions[0]);
    expect(Object.keys(l.toward)).toEqual(['1', '2', '3']);
  });

  it('gives the same output for the same scenario, every time', async () => {
    const args = ['appraise', scenarioFile('hope-then-win'), '--character', 'warm', '--json'];
    const a = await cli(args);
    expect(a.code).toBe(0);
    expect((await cli(args)).out).toBe(a.out);
  });

  it('prints a readable table on request', async () => {
    const { code, out } = await cli([
      'appraise',
      scenarioFile('ace-captured'),
      '--character',
      'competitive',
      '--table',
    ]);
    expect(code).toBe(0);
    expect(out).toMatch(/^character: competitive/);
    expect(out).toMatch(/toward 2 \(partner\)/);
    expect(out).toMatch(/resentment\(1\) \d+\.\d\d/);
    expect(out).toMatch(/rules: .*own-card-captured/);
  });

  it('uses the character appraisal.yaml names when none is given, and reads standard input', async () => {
    const input = '{"type":"trick","trick":0,"leader":0,"cards":["KS","7S","AS","2S"],"winner":2}\n';
    const { code, out } = await cli(['appraise', '-', '--json'], input);
    expect(code).toBe(0);
    expect(JSON.parse(out).emotions.length).toBeGreaterThan(0);
  });

  it('takes the robot seat from --seat until a deal says otherwise', async () => {
    const input = '{"type":"trick","trick":0,"leader":0,"cards":["KS","7S","AS","2S"],"winner":2}\n';
    const { out } = await cli(['appraise', '-', '--json', '--seat', '1', '--character', 'competitive'], input);
    const l = JSON.parse(out) as CliLine;
    expect(l.seat).toBe(1);
    expect(l.emotions.find((e) => e.type === 'distress')).toBeDefined(); // seat 2 is an opponent of seat 1
  });
});

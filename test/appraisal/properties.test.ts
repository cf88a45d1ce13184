// Properties of the appraisal on arbitrary event sequences (any seats, cards, beliefs, times and
// dispositions): intensities stay within 0..10 and the mood within -10..10, decay never increases an
// emotion, and the same input gives the same output. Through the API, and through the CLI.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  AppraisalEvent,
  AppraisalResult,
  Character,
  EmotionReport,
  EmotionalState,
  Perception,
} from '../../appraisal/index.js';
import { EMOTION_TYPES, appraise, emotionReport, emotionKey, initialState, passTime } from '../../appraisal/index.js';
import type { Card, Seat } from '../../game/index.js';
import { formatCard } from '../../game/index.js';
import type { CliLine } from './helpers.js';
import { character, cli } from './helpers.js';

const seat = fc.constantFrom<Seat>(0, 1, 2, 3);
const card = fc.integer({ min: 0, max: 39 }).map((n) => n as Card);
const trickNo = fc.integer({ min: 0, max: 9 });
const points = fc.oneof(fc.double({ min: 0, max: 120, noNaN: true }), fc.constant(Number.NaN));
const probability = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, Number.NaN));
const expectation = fc.record({ expectedPoints: points, winProbability: probability });

const event: fc.Arbitrary<AppraisalEvent> = fc.oneof(
  fc.record({
    type: fc.constant('deal' as const),
    seat,
    dealer: seat,
    trumpCard: card,
    hand: fc.array(card, { maxLength: 10 }),
  }),
  fc.record({ type: fc.constant('trump' as const), dealer: seat, trumpCard: card }),
  fc.record({ type: fc.constant('play' as const), seat, card, trick: trickNo }),
  fc.record({ type: fc.constant('play' as const), seat, card, trick: trickNo }),
  fc.record({
    type: fc.constant('trick' as const),
    trick: trickNo,
    leader: seat,
    cards: fc.array(card, { minLength: 4, maxLength: 4 }),
    winner: seat,
    points: fc.integer({ min: 0, max: 44 }),
  }),
  fc.record({
    type: fc.constant('end' as const),
    points: fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 120 })),
    outcome: fc.record({
      winner: fc.constantFrom('A' as const, 'B' as const, 'draw' as const),
      victories: fc.integer({ min: 0, max: 4 }),
    }),
    renounce: fc.option(fc.record({ seat, trick: trickNo, card }), { nil: null }),
  }),
  fc.record({ type: fc.constant('renounce' as const), renounce: fc.record({ seat, trick: trickNo, card }) }),
  fc.record({
    type: fc.constant('session-end' as const),
    victories: fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })),
    games: fc.integer({ min: 1, max: 10 }),
  }),
);

const perception: fc.Arbitrary<Perception> = fc
  .record({
    event,
    before: fc.option(expectation, { nil: undefined }),
    after: fc.option(expectation, { nil: undefined }),
  })
  .map(({ event, before, after }) =>
    before || after ? { event, beliefs: { ...(before ? { before } : {}), ...(after ? { after } : {}) } } : { event },
  );

const step = fc.record({ perception, dt: fc.integer({ min: 0, max: 40_000 }) });

/** One of the presets, its dispositions possibly changed at random. */
const characterArb: fc.Arbitrary<Character> = fc
  .record({
    preset: fc.constantFrom('neutral', 'competitive', 'warm'),
    dispositions: fc.option(
      fc.array(
        fc.record({
          threshold: fc.double({ min: 0, max: 10, noNaN: true }),
          decay: fc.double({ min: 0, max: 10, noNaN: true }),
        }),
        { minLength: 22, maxLength: 22 },
      ),
      { nil: undefined },
    ),
  })
  .map(({ preset, dispositions }) => {
    const c = character(preset);
    if (!dispositions) return c;
    return {
      ...c,
      dispositions: Object.fromEntries(EMOTION_TYPES.map((t, i) => [t, dispositions[i]!])) as Character['dispositions'],
    };
  });

function run(
  c: Character,
  steps: readonly { perception: Perception; dt: number }[],
): { state: EmotionalState; results: AppraisalResult[]; reports: EmotionReport[] } {
  let state = initialState(c, 0, 0);
  let t = 0;
  const results: AppraisalResult[] = [];
  const reports: EmotionReport[] = [];
  for (const s of steps) {
    t += s.dt;
    const r = appraise(c, state, s.perception, t);
    state = r.state;
    results.push(r);
    reports.push(emotionReport(c, state, t));
  }
  return { state, results, reports };
}

const within = (x: number, lo: number, hi: number): boolean => Number.isFinite(x) && x >= lo && x <= hi;

describe('appraisal properties (API)', () => {
  it('keeps every intensity within 0..10 and the mood within -10..10', () => {
    fc.assert(
      fc.property(characterArb, fc.array(step, { minLength: 1, maxLength: 40 }), (c, steps) => {
        const { results, reports } = run(c, steps);
        for (const r of results) {
          for (const e of r.state.emotions) expect(within(e.intensity, 0, 10)).toBe(true);
          for (const e of r.felt) expect(within(e.intensity, 0, 10)).toBe(true);
          expect(within(r.state.mood, -10, 10)).toBe(true);
          for (const p of Object.values(r.state.likelihood)) expect(within(p, 0, 1)).toBe(true);
        }
        for (const rep of reports) {
          for (const e of rep.emotions) expect(within(e.intensity, c.model.minimumIntensity, 10)).toBe(true);
          expect(within(rep.mood, -10, 10)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never lets decay increase an emotion or the mood, however often it is looked at', () => {
    fc.assert(
      fc.property(
        characterArb,
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 1, maxLength: 8 }),
        (c, steps, gaps) => {
          const { state } = run(c, steps);
          let t = state.at;
          let prev = emotionReport(c, state, t);
          let rebased = state;
          for (const gap of gaps) {
            t += gap;
            const now = emotionReport(c, state, t);
            const before = new Map(prev.emotions.map((e) => [emotionKey(e.type, e.target), e.intensity]));
            for (const e of now.emotions) {
              const was = before.get(emotionKey(e.type, e.target));
              expect(was).toBeDefined(); // nothing new appears with time alone
              expect(e.intensity).toBeLessThanOrEqual(was!);
            }
            expect(Math.abs(now.mood)).toBeLessThanOrEqual(Math.abs(prev.mood));
            expect(now.mood * prev.mood).toBeGreaterThanOrEqual(0);
            // Decay is exact: passing time in steps gives what one jump gives.
            rebased = passTime(c, rebased, t);
            const stepped = emotionReport(c, rebased, t);
            expect(stepped.emotions.map((e) => e.type)).toEqual(now.emotions.map((e) => e.type));
            stepped.emotions.forEach((e, i) => expect(e.intensity).toBeCloseTo(now.emotions[i]!.intensity, 9));
            expect(stepped.mood).toBeCloseTo(now.mood, 9);
            prev = now;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same output for the same input', () => {
    fc.assert(
      fc.property(characterArb, fc.array(step, { minLength: 1, maxLength: 30 }), (c, steps) => {
        const plain = (x: ReturnType<typeof run>) =>
          JSON.stringify({
            s: x.state,
            r: x.reports,
            f: x.results.map((r) => [
              r.rules,
              r.felt,
              r.frame.desirability,
              [...r.frame.desirabilityForOther],
              [...r.frame.praiseworthiness],
              [...r.frame.like],
              [...r.frame.goalSuccessProbability],
            ]),
          });
        expect(plain(run(c, steps))).toBe(plain(run(c, steps)));
      }),
      { numRuns: 200 },
    );
  });
});

// ---- through the CLI ------------------------------------------------------------------------

/** An event as a scenario line: the runtime's JSON, cards in card notation. */
function line(p: Perception, atMs: number): string {
  const e = p.event;
  const b = p.beliefs;
  const clean = (x: { expectedPoints: number; winProbability: number } | undefined) =>
    x && Number.isFinite(x.expectedPoints) && Number.isFinite(x.winProbability) ? x : undefined;
  const beliefs = {
    ...(clean(b?.before) ? { before: b!.before } : {}),
    ...(clean(b?.after) ? { after: b!.after } : {}),
  };
  const f = formatCard;
  const body: Record<string, unknown> =
    e.type === 'deal'
      ? { type: e.type, seat: e.seat, dealer: e.dealer, trump: f(e.trumpCard), hand: [...new Set(e.hand)].map(f) }
      : e.type === 'trump'
        ? { type: e.type, dealer: e.dealer, trump: f(e.trumpCard) }
        : e.type === 'play'
          ? { type: e.type, seat: e.seat, card: f(e.card), trick: e.trick }
          : e.type === 'trick'
            ? { type: e.type, trick: e.trick, leader: e.leader, cards: ['2S', '3H', '7D', 'AC'], winner: e.winner }
            : e.type === 'end'
              ? {
                  type: e.type,
                  points: [Math.min(60, e.points[0]), Math.min(60, e.points[1])],
                  outcome: e.outcome,
                  renounce: e.renounce && { seat: e.renounce.seat, trick: e.renounce.trick, card: f(e.renounce.card) },
                }
              : e.type === 'renounce'
                ? { type: e.type, seat: e.renounce.seat, trick: e.renounce.trick, card: f(e.renounce.card) }
                : { type: e.type, victories: e.victories, games: e.games };
  return JSON.stringify({ ...body, ...beliefs, atMs });
}

describe('appraisal properties (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parceiro-scenarios-'));
  // A few long random scenarios, fixed seed: each event is followed by a wait, so decay can be seen alone.
  const scenarios = fc.sample(fc.array(step, { minLength: 30, maxLength: 60 }), { numRuns: 4, seed: 4242 });

  scenarios.forEach((steps, i) => {
    it(`random scenario ${i + 1}: bounds, decay and the same output twice`, async () => {
      let t = 0;
      const text: string[] = [];
      for (const s of steps) {
        t += s.dt;
        text.push(line(s.perception, t));
        t += 1 + (s.dt % 20_000);
        text.push(JSON.stringify({ type: 'wait', atMs: t }));
      }
      const file = join(dir, `s${i}.jsonl`);
      writeFileSync(file, `${text.join('\n')}\n`);
      const preset = ['neutral', 'competitive', 'warm'][i % 3]!;
      const a = await cli(['appraise', file, '--character', preset, '--json']);
      expect(a.err).toBe('');
      expect(a.code).toBe(0);
      const lines = a.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as CliLine);
      expect(lines).toHaveLength(text.length);
      for (const l of lines) {
        for (const e of l.emotions) expect(within(e.intensity, 0, 10)).toBe(true);
        expect(within(l.mood, -10, 10)).toBe(true);
      }
      for (let k = 1; k < lines.length; k += 2) {
        const [after, waited] = [lines[k - 1]!, lines[k]!];
        expect(waited.event).toBe('wait');
        for (const e of waited.emotions) {
          const was = after.emotions.find((x) => x.type === e.type && x.target === e.target);
          expect(was).toBeDefined();
          expect(e.intensity).toBeLessThanOrEqual(was!.intensity);
        }
        expect(Math.abs(waited.mood)).toBeLessThanOrEqual(Math.abs(after.mood));
      }
      expect((await cli(['appraise', file, '--character', preset, '--json'])).out).toBe(a.out);
    });
  });
});

// Reappraisal: the robot reacts to an event at once, with the expectation it has, and appraises it
// again when the quick estimate of the position after it comes back. Only what the new expectation
// changes is felt then (joy or distress, praise or blame that depend on it, hope or fear); what the
// event gave at once is not felt twice, and the game context stays where the events left it.

import { describe, expect, it } from 'vitest';
import { Appraiser, PRIOR_EXPECTATION, manualClock } from '../../appraisal/index.js';
import type { AppraisalEvent } from '../../appraisal/index.js';
import { parseCard, pointsOf } from '../../game/index.js';
import { character as shipped, find } from './helpers.js';
import type { Character } from '../../appraisal/index.js';

// The partner's ace of diamonds below leads its trick: the shipped characters take a card that takes
// the lead of a rich trick as good news for its side whatever the estimate says (tested at the end).
// The reappraisal's arithmetic is tested without that rule.
const character = (name: string): Character => ({ ...shipped(name), leadTrickPoints: 0 });

const cards = (s: string) => s.split(' ').map(parseCard);
const deal: AppraisalEvent = {
  type: 'deal',
  seat: 0,
  dealer: 3,
  trumpCard: parseCard('5H'),
  hand: cards('AS 7S KH 2D 3D QC JC 4S 6H 5C'),
};
const partnerPlays: AppraisalEvent = { type: 'play', seat: 2, card: parseCard('AD'), trick: 0 };

describe('reappraising an event when its expectation comes later', () => {
  it('a deal perceived at once feels nothing of the hand; its estimate brings joy and hope', () => {
    const clock = manualClock(0);
    const a = new Appraiser(character('neutral'), { seat: 0, clock });
    const first = a.perceive(deal);
    expect(first.felt).toEqual([]);
    const context = first.state.game;
    clock.advance(150);
    const late = a.reappraise(deal, context, { expectedPoints: 84, winProbability: 0.8 });
    // delta 24 / 4 = 6 of desirability; the win probability rose from 0.5 to 0.8.
    expect(late.felt.map((e) => e.type).sort()).toEqual(['hope', 'joy']);
    expect(find(late.report, 'hope')!.intensity).toBeCloseTo(0.8 * 6 - 1, 9);
    expect(a.state.expectation).toEqual({ expectedPoints: 84, winProbability: 0.8 });
    expect(a.state.likelihood['win-game']).toBe(0.8);
    expect(a.state.game).toEqual(context);
  });

  it('gives what one appraisal with the expectation would have given, less what was felt at once', () => {
    const character_ = character('competitive');
    const clock = manualClock(0);
    const now = new Appraiser(character_, { seat: 0, clock });
    now.perceive(deal, { after: PRIOR_EXPECTATION });
    const told = now.perceive(partnerPlays, { after: { expectedPoints: 40, winProbability: 0.2 } });

    const later = new Appraiser(character_, { seat: 0, clock: manualClock(0) });
    later.perceive(deal, { after: PRIOR_EXPECTATION });
    const atOnce = later.perceive(partnerPlays);
    expect(atOnce.felt).toEqual([]); // no change of expectation yet: no news, no blame
    const re = later.reappraise(partnerPlays, atOnce.state.game, { expectedPoints: 40, winProbability: 0.2 });
    // The partner's blunder: distress, reproach and anger toward the partner, fear for the game.
    const byName = (a: { type: string; target: unknown }, b: { type: string; target: unknown }): number =>
      `${a.type}>${a.target}`.localeCompare(`${b.type}>${b.target}`);
    expect([...re.felt].sort(byName)).toEqual([...told.felt].sort(byName));
    expect(re.report.emotions).toEqual(told.report.emotions);
    expect(re.felt.map((e) => e.type).sort()).toEqual(['anger', 'distress', 'fear', 'reproach']);
    expect(re.state.expectation).toEqual(told.state.expectation);
  });

  it('feels nothing new when the estimate says what the robot expected already', () => {
    const clock = manualClock(0);
    const a = new Appraiser(character('warm'), { seat: 0, clock });
    a.perceive(deal, { after: { expectedPoints: 70, winProbability: 0.6 } });
    const first = a.perceive(partnerPlays);
    const re = a.reappraise(partnerPlays, first.state.game, { expectedPoints: 70, winProbability: 0.6 });
    expect(re.felt).toEqual([]);
    expect(re.report.emotions).toEqual(first.report.emotions);
  });

  it('judges the change from the expectation in force when it comes back, not the one the event was perceived with', () => {
    const clock = manualClock(0);
    const a = new Appraiser(character('neutral'), { seat: 0, clock });
    const d = a.perceive(deal);
    const p = a.perceive(partnerPlays);
    // The deal's estimate came back first (the robot got good news), then the play's: worse than that.
    a.reappraise(deal, d.state.game, { expectedPoints: 90, winProbability: 0.9 });
    const re = a.reappraise(partnerPlays, p.state.game, { expectedPoints: 70, winProbability: 0.65 });
    expect(re.felt.map((e) => e.type).sort()).toEqual(['distress', 'fear']);
    expect(re.frame.desirability).toBe(-10); // (70 - 90) / 2
  });

  describe('prospects, as the runtime appraises them (each estimate late)', () => {
    const PROSPECT = new Set(['satisfaction', 'relief', 'disappointment', 'fears-confirmed']);
    const resolutions = (felt: readonly { type: string }[]): string[] =>
      felt.map((e) => e.type).filter((t) => PROSPECT.has(t));
    const t = (trick: number, cards_: string, winner: 0 | 1 | 2 | 3): AppraisalEvent => {
      const cs = cards(cards_);
      return { type: 'trick', trick, leader: 0, cards: cs, winner, points: cs.reduce((p, c) => p + pointsOf(c), 0) };
    };
    const end = (points: [number, number], winner: 'A' | 'B'): AppraisalEvent => ({
      type: 'end',
      points,
      outcome: { winner, victories: 1 },
      renounce: null,
    });

    for (const preset of ['neutral', 'competitive', 'warm']) {
      it(`${preset}: the next game's deal, estimated at 0 or 1 from one sampled world, brings fear or hope, with no outcome carried over`, () => {
        const clock = manualClock(0);
        const a = new Appraiser(character(preset), { seat: 0, clock });
        a.perceive(deal, { after: { expectedPoints: 70, winProbability: 0.7 } });
        clock.advance(60_000);
        expect(resolutions(a.perceive(end([84, 36], 'A')).felt)).toEqual(['satisfaction']);
        expect(a.state.resolved).toEqual({ 'win-game': true });

        clock.advance(4000);
        const secondDeal: AppraisalEvent = { ...deal, dealer: 0 };
        const next = a.perceive(secondDeal);
        expect(next.felt).toEqual([]);
        expect(a.state.resolved).toEqual({});
        expect(a.state.likelihood['win-game']).toBe(0.5);
        clock.advance(150);
        const late = a.reappraise(secondDeal, next.state.game, { expectedPoints: 40, winProbability: 0 });
        expect(resolutions(late.felt)).toEqual([]);
        expect(late.felt.map((e) => e.type)).toContain('fear');

        // That game is lost at its end, and the one after that dealt with a one-world estimate of 1.
        clock.advance(60_000);
        expect(resolutions(a.perceive(end([40, 80], 'B')).felt)).toEqual(['fears-confirmed']);
        clock.advance(4000);
        const thirdDeal: AppraisalEvent = { ...deal, dealer: 1 };
        const third = a.perceive(thirdDeal);
        clock.advance(150);
        const hopeful = a.reappraise(thirdDeal, third.state.game, { expectedPoints: 75, winProbability: 1 });
        expect(resolutions(hopeful.felt)).toEqual([]);
        expect(hopeful.felt.map((e) => e.type)).toContain('hope');
      });

      it(`${preset}: once 61 points make the win certain, a late estimate of an earlier play moves nothing, and the end adds nothing`, () => {
        const clock = manualClock(0);
        const a = new Appraiser(character(preset), { seat: 0, clock });
        a.perceive(deal, { after: { expectedPoints: 66, winProbability: 0.6 } });
        clock.advance(3000);
        const play = a.perceive(partnerPlays);
        let felt: string[] = [];
        for (const [i, trick] of [t(0, 'AS 2S 7S 3S', 0), t(1, 'AH 2H 7H 3H', 0), t(2, 'AD 2D 7D 3D', 0)].entries()) {
          clock.advance(5000);
          felt = resolutions(a.perceive(trick).felt);
          if (i < 2) expect(felt).toEqual([]);
        }
        expect(felt).toEqual(['satisfaction']); // 63 points
        clock.advance(500);
        const late = a.reappraise(partnerPlays, play.state.game, { expectedPoints: 40, winProbability: 0.1 });
        expect(late.felt.filter((e) => e.type === 'fear' || PROSPECT.has(e.type))).toEqual([]);
        expect(a.state.likelihood['win-game']).toBe(1);
        clock.advance(60_000);
        expect(resolutions(a.perceive(end([84, 36], 'A')).felt)).toEqual([]);
      });
    }
  });

  describe("an estimate's noise", () => {
    // The node's quick estimates average a few hundred sampled worlds: their standard errors are
    // about 1.5 points and 0.03 of win probability, so two estimates of one position differ by up to
    // 4 points and 0.08 (two standard errors of the difference) from sampling alone.
    const noisy = (expectedPoints: number, winProbability: number) => ({
      expectedPoints,
      winProbability,
      pointsSe: 1.5,
      winSe: 0.03,
    });
    const afterPartner = (
      preset: string,
      before: { expectedPoints: number; winProbability: number },
      after: { expectedPoints: number; winProbability: number },
      noiseBand?: number,
    ) => {
      const c = character(preset);
      const a = new Appraiser(noiseBand === undefined ? c : { ...c, noiseBand }, { seat: 0, clock: manualClock(0) });
      a.perceive(deal, { after: before });
      const p = a.perceive(partnerPlays);
      return a.reappraise(partnerPlays, p.state.game, after);
    };
    const types = (r: { felt: readonly { type: string }[] }): string[] => r.felt.map((e) => e.type).sort();

    it('a change within two standard errors of the two estimates is not news: nothing is felt, and the goal keeps its probability', () => {
      expect(character('warm').noiseBand).toBe(2);
      const re = afterPartner('warm', noisy(70, 0.6), noisy(67, 0.53));
      expect(re.frame.desirability).toBe(0); // delta reads 0: the play changed nothing the robot can tell
      expect(re.felt).toEqual([]);
      // The same change from estimates that do not say how noisy they are (or with noiseBand 0) is news.
      expect(
        types(
          afterPartner(
            'warm',
            { expectedPoints: 70, winProbability: 0.6 },
            { expectedPoints: 67, winProbability: 0.53 },
          ),
        ),
      ).toContain('fear');
      expect(types(afterPartner('neutral', noisy(70, 0.6), noisy(67, 0.53), 0))).toEqual(['distress', 'fear']);
    });

    it('a change beyond the noise is felt in full, not shrunk by it', () => {
      const re = afterPartner('neutral', noisy(70, 0.6), noisy(58, 0.4));
      expect(re.frame.desirability).toBe(-6); // (58 - 70) / 2
      expect(types(re)).toEqual(['distress', 'fear']);
    });

    it('small changes that add up are felt once they clear the noise from the probability last appraised', () => {
      const c = character('neutral');
      const a = new Appraiser(c, { seat: 0, clock: manualClock(0) });
      a.perceive(deal, { after: noisy(66, 0.6) });
      const fears: number[] = [];
      [0.56, 0.52, 0.48].forEach((p, i) => {
        const e: AppraisalEvent = {
          type: 'play',
          seat: ((i % 3) + 1) as 1 | 2 | 3,
          card: parseCard(['2C', '3C', '4C'][i]!),
          trick: 0,
        };
        const seen = a.perceive(e);
        const r = a.reappraise(e, seen.state.game, noisy(66 - 2 * (i + 1), p));
        if (r.felt.some((f) => f.type === 'fear')) fears.push(p);
      });
      // 0.56 and 0.52 are within 0.085 of 0.6; 0.48 is not.
      expect(fears).toEqual([0.48]);
      expect(a.state.likelihood['win-game']).toBe(0.48);
    });
  });
});

describe('a card that takes the lead of a rich trick, as the table sees it', () => {
  const opponentLeads: AppraisalEvent = { type: 'play', seat: 1, card: parseCard('AD'), trick: 0 };
  const after = (a: Appraiser, e: AppraisalEvent, expectation: { expectedPoints: number; winProbability: number }) =>
    a.reappraise(e, a.perceive(e).state.game, expectation).felt.map((f) => `${f.type}>${String(f.target)}`);

  for (const name of ['warm', 'competitive'])
    it(`${name}: no joy, hope or gloating at an opponent's ace that takes the lead, though the estimate rises`, () => {
      const a = new Appraiser(shipped(name), { seat: 0, clock: manualClock(0) });
      a.perceive(deal, { after: { expectedPoints: 60, winProbability: 0.5 } });
      const felt = after(a, opponentLeads, { expectedPoints: 80, winProbability: 0.8 });
      expect(felt.filter((f) => /^(joy|hope|gloating)>/.test(f))).toEqual([]);
      // Without the rule, the same estimate is joy and hope (and gloating for the competitive robot).
      const b = new Appraiser(character(name), { seat: 0, clock: manualClock(0) });
      b.perceive(deal, { after: { expectedPoints: 60, winProbability: 0.5 } });
      expect(after(b, opponentLeads, { expectedPoints: 80, winProbability: 0.8 })).toEqual(
        expect.arrayContaining(['joy>null', 'hope>null']),
      );
    });

  it("no distress, fear, pity or blame at the partner's ace that takes the lead; bad news of an opponent's still felt", () => {
    const a = new Appraiser(shipped('competitive'), { seat: 0, clock: manualClock(0) });
    a.perceive(deal, { after: { expectedPoints: 60, winProbability: 0.5 } });
    expect(after(a, partnerPlays, { expectedPoints: 40, winProbability: 0.2 })).toEqual([]);
    const b = new Appraiser(shipped('competitive'), { seat: 0, clock: manualClock(0) });
    b.perceive(deal, { after: { expectedPoints: 60, winProbability: 0.5 } });
    expect(after(b, opponentLeads, { expectedPoints: 40, winProbability: 0.2 })).toEqual(
      expect.arrayContaining(['distress>null', 'fear>null']),
    );
  });
});

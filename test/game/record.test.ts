// Game records: recordOf -> JSON text -> scoreRecord gives back the game (complete or cut short), a
// renounce ends a recorded game there, and unreadable records fail with RecordError naming the place.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameRecord, Seat } from '../../game/index.js';
import {
  Game,
  RecordError,
  createRng,
  dealCards,
  formatCard,
  parseCard,
  recordOf,
  scoreGame,
  scoreRecord,
} from '../../game/index.js';
import { RefGame, mulberry32, pick, refOutcome, same, suitL, toStrings } from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const seatArb = fc.constantFrom<Seat>(0, 1, 2, 3);

/** Plays `n` random legal plays (by the reference) from an engine deal. */
function playPrefix(seed: number, dealer: Seat, n: number) {
  const deal = dealCards(createRng(seed), dealer);
  const hands = deal.hands.map((h) => toStrings(h));
  const game = new Game(deal);
  const ref = new RefGame(dealer, formatCard(deal.trumpCard), hands);
  const rand = mulberry32(seed ^ 0xabcdef);
  while (ref.history.length < n && !ref.done) {
    const c = pick(ref.legal(), rand);
    game.play(parseCard(c));
    ref.play(c);
  }
  return { deal, hands, game, ref, rand };
}

const throughJson = (rec: GameRecord): unknown => JSON.parse(JSON.stringify(rec)) as unknown;

describe('record round trip', () => {
  it('complete games: recordOf -> JSON -> scoreRecord gives the tricks, points and outcome of the game', () => {
    fc.assert(
      fc.property(seedArb, seatArb, (seed, dealer) => {
        const { deal, hands, game, ref } = playPrefix(seed, dealer, 40);
        const rec = recordOf(deal, game);
        expect(Object.keys(rec).sort()).toEqual(['dealer', 'hands', 'plays', 'trump']);
        same(rec, { dealer, trump: formatCard(deal.trumpCard), hands, plays: ref.history });
        const report = scoreRecord(throughJson(rec));
        same(report, {
          tricks: ref.allTricks(),
          points: ref.points,
          complete: true,
          result: refOutcome(ref.points[0]),
          renounce: null,
          unscoredPlays: 0,
        });
        same(scoreGame(game), report);
      }),
      { numRuns: 150 },
    );
  });

  it('games cut short: complete false, result null, the partial trick with winner and points null', () => {
    fc.assert(
      fc.property(seedArb, seatArb, fc.integer({ min: 0, max: 39 }), (seed, dealer, n) => {
        const { deal, game, ref } = playPrefix(seed, dealer, n);
        const report = scoreRecord(throughJson(recordOf(deal, game)));
        const tricks = ref.allTricks();
        expect(tricks).toHaveLength(Math.ceil(n / 4));
        if (n % 4) expect(tricks.at(-1)).toMatchObject({ winner: null, points: null });
        same(report, { tricks, points: ref.points, complete: false, result: null, renounce: null, unscoredPlays: 0 });
        same(scoreGame(game), report);
      }),
      { numRuns: 150 },
    );
  });

  it('accepts cards in any case and with spaces', () => {
    const { deal, game, ref } = playPrefix(11, 2, 40);
    const rec = recordOf(deal, game);
    const loose = { ...rec, trump: ` ${rec.trump.toLowerCase()}`, plays: rec.plays.map((c) => c.toLowerCase()) };
    expect(scoreRecord(loose).points).toEqual(ref.points);
  });
});

describe('a renounce in a record', () => {
  it('ends the game there: renounce set, 4 victories to the other team, later plays unscored', () => {
    fc.assert(
      fc.property(seedArb, seatArb, fc.nat(), fc.integer({ min: 0, max: 6 }), (seed, dealer, which, extra) => {
        // Find the positions where the seat to move holds the led suit and another suit.
        const full = playPrefix(seed, dealer, 40);
        const replay = new RefGame(full.ref.dealer, full.ref.trumpCard, full.hands);
        const candidates: number[] = [];
        for (const c of full.ref.history) {
          if (replay.table.length) {
            const led = suitL(replay.table[0]!);
            const h = replay.hands[replay.toMove]!;
            if (h.some((x) => suitL(x) === led) && h.some((x) => suitL(x) !== led))
              candidates.push(replay.history.length);
          }
          replay.play(c);
        }
        fc.pre(candidates.length > 0);
        const at = candidates[which % candidates.length]!;
        const { deal, game, ref, rand } = playPrefix(seed, dealer, at);
        const seat = ref.toMove;
        const led = suitL(ref.table[0]!);
        const wrong = pick(
          ref.hands[seat]!.filter((c) => suitL(c) !== led),
          rand,
        );
        const trick = ref.trickIndex;
        const points = [...ref.points];
        const tricksBefore = ref.tricks.map((t) => ({ ...t }));
        // The renounce trick stays unscored, even when the renounce is its fourth card.
        const partial = { leader: ref.leader, cards: [...ref.table, wrong], winner: null, points: null };
        ref.play(wrong);
        // Plays after the renounce: carry on legally from the true hands.
        const after: string[] = [];
        while (after.length < extra && !ref.done) {
          const c = pick(ref.legal(), rand);
          after.push(c);
          ref.play(c);
        }
        const rec = recordOf(deal, game);
        rec.plays.push(wrong, ...after);
        const report = scoreRecord(throughJson(rec));
        same(report, {
          tricks: [...tricksBefore, partial],
          points,
          complete: true,
          result: { winner: seat % 2 === 0 ? 'B' : 'A', victories: 4 },
          renounce: { seat, trick, card: wrong },
          unscoredPlays: after.length,
        });
      }),
      { numRuns: 150 },
    );
  });
});

describe('unreadable records', () => {
  const base = (): GameRecord => {
    const { deal, game } = playPrefix(5, 1, 40);
    return recordOf(deal, game);
  };
  const pathOf = (value: unknown): string => {
    try {
      scoreRecord(value);
    } catch (e) {
      if (e instanceof RecordError) return e.path;
      throw e;
    }
    return 'accepted';
  };

  it('the base record is accepted', () => {
    expect(pathOf(base())).toBe('accepted');
  });

  it('not an object, or a missing field', () => {
    for (const v of [null, [], 'AS', 3]) expect(pathOf(v)).toBe('record');
    for (const key of ['dealer', 'trump', 'hands', 'plays'] as const) {
      const rec: Record<string, unknown> = { ...base() };
      delete rec[key];
      expect(pathOf(rec)).toBe(key);
    }
  });

  it('bad dealer', () => {
    for (const dealer of [4, -1, 1.5, '1', null, true]) expect(pathOf({ ...base(), dealer })).toBe('dealer');
  });

  it('unknown card string in a hand names hands[s][i]', () => {
    for (const bad of ['ZZ', '10S', 'A', '', 'AX', 7]) {
      const rec = base();
      (rec.hands[1] as unknown[])[3] = bad;
      expect(pathOf(rec)).toBe('hands[1][3]');
    }
  });

  it('a card dealt twice names the second place', () => {
    const rec = base();
    rec.hands[2]![4] = rec.hands[0]![7]!;
    expect(pathOf(rec)).toBe('hands[2][4]');
    const rec2 = base();
    rec2.hands[3]![9] = rec2.hands[3]![0]!;
    expect(pathOf(rec2)).toBe('hands[3][9]');
  });

  it('a hand of the wrong size names hands[s]; not four hands names hands', () => {
    const short = base();
    short.hands[2] = short.hands[2]!.slice(0, 9);
    expect(pathOf(short)).toBe('hands[2]');
    const long = base();
    long.hands[0] = [...long.hands[0]!, long.hands[1]!.pop()!];
    expect(pathOf(long)).toBe('hands[0]');
    const three = base();
    three.hands = three.hands.slice(0, 3);
    expect(pathOf(three)).toBe('hands');
    expect(pathOf({ ...base(), hands: 'AS' })).toBe('hands');
  });

  it('a trump card not in the dealer hand, or not a card, names trump', () => {
    const rec = base();
    rec.trump = rec.hands[(rec.dealer + 1) % 4]![0]!;
    expect(pathOf(rec)).toBe('trump');
    expect(pathOf({ ...base(), trump: 'XX' })).toBe('trump');
  });

  it('a play not in the hand of the seat to move, already played, or not a card, names plays[k]', () => {
    fc.assert(
      fc.property(seedArb, seatArb, fc.integer({ min: 0, max: 39 }), (seed, dealer, k) => {
        const { deal, game, ref, rand } = playPrefix(seed, dealer, k);
        const mover = ref.toMove;
        const elsewhere = ref.hands.flatMap((h, s) => (s === mover ? [] : h));
        const rec = recordOf(deal, game);
        if (elsewhere.length)
          expect(pathOf({ ...rec, plays: [...rec.plays, pick(elsewhere, rand)] })).toBe(`plays[${k}]`);
        if (k > 0) expect(pathOf({ ...rec, plays: [...rec.plays, pick(ref.history, rand)] })).toBe(`plays[${k}]`);
        expect(pathOf({ ...rec, plays: [...rec.plays, 'KX'] })).toBe(`plays[${k}]`);
      }),
      { numRuns: 100 },
    );
    expect(pathOf({ ...base(), plays: 'AS' })).toBe('plays');
  });

  it('RecordError says where and what', () => {
    const rec = base();
    rec.hands[2]![4] = rec.hands[0]![7]!;
    try {
      scoreRecord(rec);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RecordError);
      expect((e as RecordError).message).toMatch(/^hands\[2\]\[4\]: /);
      expect((e as RecordError).problem).toContain('twice');
    }
  });
});

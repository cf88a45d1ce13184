// Information sets: what SeatView.snapshot() tells a seat, checked against the reference model, and
// consistencyProblems: the true hands always fit every seat's information set, and real
// inconsistencies are caught.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, InfoSet, Seat } from '../../game/index.js';
import { Game, SeatView, consistencyProblems, formatCard, parseCard } from '../../game/index.js';
import {
  RefGame,
  dealSpec,
  isPlainData,
  mulberry32,
  pick,
  refDeal,
  same,
  sorted,
  suitL,
  toCards,
  toStrings,
} from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const SUIT_INDEX = (letter: string): number => 'SHDC'.indexOf(letter);
const SEATS: Seat[] = [0, 1, 2, 3];

/** The information set seat `v` should have, from the reference model alone. */
function expectedInfo(ref: RefGame, v: Seat) {
  return {
    seat: v,
    dealer: ref.dealer,
    trump: SUIT_INDEX(ref.trumpSuit),
    trumpCard: ref.trumpCard,
    trumpCardInDealerHand: ref.hands[ref.dealer]!.includes(ref.trumpCard),
    hand: sorted(ref.hands[v]!),
    unseen: sorted(SEATS.filter((s) => s !== v).flatMap((s) => ref.hands[s]!)),
    voids: SEATS.map((s) => [...ref.shownVoid[s]!].map(SUIT_INDEX).sort()),
    handSizes: SEATS.map((s) => ref.hands[s]!.length),
    points: ref.points,
    trick: ref.trickIndex,
    leader: ref.leader,
    table: ref.table,
    plays: ref.history,
  };
}

function asStrings(info: InfoSet) {
  return {
    ...info,
    trumpCard: formatCard(info.trumpCard),
    hand: sorted(toStrings(info.hand)),
    unseen: sorted(toStrings(info.unseen)),
    voids: info.voids.map((v) => [...v].sort()),
    table: toStrings(info.table),
    plays: toStrings(info.plays),
  };
}

const cardsOf = (ref: RefGame): Card[][] => ref.hands.map((h) => toCards(h));

describe('SeatView.snapshot', () => {
  it('matches the reference at every step for every seat, and the true hands are consistent with it', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        const d = refDeal(seed);
        const game = new Game(dealSpec(d.dealer, d.trumpCard, d.hands));
        const ref = new RefGame(d.dealer, d.trumpCard, d.hands);
        const views = SEATS.map((s) => new SeatView(game, s));
        const rand = mulberry32(seed);
        for (;;) {
          const truth = cardsOf(ref);
          const actual = [];
          const expected = [];
          for (const v of SEATS) {
            const info = views[v]!.snapshot();
            const own = new Set(info.hand);
            actual.push({
              info: asStrings(info),
              problems: consistencyProblems(info, truth),
              // Nothing of another seat in `hand`; own cards never counted unseen.
              ownUnseen: info.unseen.filter((c) => own.has(c)),
              // Plain, serializable data.
              plain: isPlainData(info),
              // Legal cards only on the seat's turn.
              legal: sorted(toStrings(views[v]!.legalCards())),
            });
            expected.push({
              info: expectedInfo(ref, v),
              problems: [],
              ownUnseen: [],
              plain: true,
              legal: !ref.done && v === ref.toMove ? sorted(ref.legal()) : [],
            });
          }
          same(actual, expected);
          if (ref.done) break;
          const card = pick(ref.legal(), rand);
          game.play(parseCard(card));
          ref.play(card);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('does not carry the game in any enumerable field', () => {
    const d = refDeal(1);
    const view = new SeatView(new Game(dealSpec(d.dealer, d.trumpCard, d.hands)), 2);
    expect(Object.keys(view)).toEqual(['seat']);
    expect(JSON.stringify(view)).toBe('{"seat":2}');
  });
});

describe('consistencyProblems catches real inconsistencies', () => {
  /** Runs random games and calls `probe` at every step for every viewer. */
  function explore(seeds: number, probe: (info: InfoSet, ref: RefGame, v: Seat) => void): void {
    for (let seed = 0; seed < seeds; seed++) {
      const d = refDeal(seed * 7 + 3);
      const game = new Game(dealSpec(d.dealer, d.trumpCard, d.hands));
      const ref = new RefGame(d.dealer, d.trumpCard, d.hands);
      const rand = mulberry32(seed);
      while (!ref.done) {
        for (const v of SEATS) probe(new SeatView(game, v).snapshot(), ref, v);
        const card = pick(ref.legal(), rand);
        game.play(parseCard(card));
        ref.play(card);
      }
    }
  }

  it('a card of a suit a seat showed void in, swapped into that seat', () => {
    let cases = 0;
    explore(60, (info, ref, v) => {
      for (const s of SEATS) {
        if (s === v) continue;
        for (const suit of ref.shownVoid[s]!) {
          for (const t of SEATS) {
            if (t === v || t === s) continue;
            const x = ref.hands[t]!.find((c) => suitL(c) === suit);
            const y = ref.hands[s]![0];
            if (!x || !y) continue;
            const hands = ref.hands.map((h) => [...h]);
            hands[t] = hands[t]!.map((c) => (c === x ? y : c));
            hands[s] = hands[s]!.map((c) => (c === y ? x : c));
            const problems = consistencyProblems(
              info,
              hands.map((h) => toCards(h)),
            );
            expect(problems.some((p) => p.includes(`seat ${s}`) && p.includes('void'))).toBe(true);
            cases++;
          }
        }
      }
    });
    expect(cases).toBeGreaterThan(100);
  });

  it('the turned-up trump card moved out of the dealer hand while unplayed', () => {
    let cases = 0;
    explore(20, (info, ref, v) => {
      const dealer = ref.dealer;
      if (v === dealer || !ref.hands[dealer]!.includes(ref.trumpCard)) return;
      const t = SEATS.find((s) => s !== v && s !== dealer && ref.hands[s]!.length === ref.hands[dealer]!.length);
      if (t === undefined) return;
      const y = ref.hands[t]![0]!;
      const hands = ref.hands.map((h) => [...h]);
      hands[t] = hands[t]!.map((c) => (c === y ? ref.trumpCard : c));
      hands[dealer] = hands[dealer]!.map((c) => (c === ref.trumpCard ? y : c));
      const problems = consistencyProblems(
        info,
        hands.map((h) => toCards(h)),
      );
      expect(problems.some((p) => p.includes('does not hold the trump card'))).toBe(true);
      cases++;
    });
    expect(cases).toBeGreaterThan(50);
  });

  it("the viewer's own card or a played card in another hand, and wrong hand sizes", () => {
    let cases = 0;
    explore(10, (info, ref, v) => {
      const t = ((v + 1) % 4) as Seat;
      const u = ((v + 2) % 4) as Seat;
      const own = ref.hands[v]![0];
      const theirs = ref.hands[t]![0];
      if (own && theirs) {
        const hands = ref.hands.map((h) => [...h]);
        hands[t] = hands[t]!.map((c) => (c === theirs ? own : c));
        expect(
          consistencyProblems(
            info,
            hands.map((h) => toCards(h)),
          ).length,
        ).toBeGreaterThan(0);
        cases++;
      }
      const played = ref.history[0];
      if (played && theirs) {
        const hands = ref.hands.map((h) => [...h]);
        hands[t] = hands[t]!.map((c) => (c === theirs ? played : c));
        expect(
          consistencyProblems(
            info,
            hands.map((h) => toCards(h)),
          ).length,
        ).toBeGreaterThan(0);
      }
      if (theirs) {
        const hands = ref.hands.map((h) => [...h]);
        hands[t] = hands[t]!.slice(1);
        hands[u] = [...hands[u]!, theirs];
        const problems = consistencyProblems(
          info,
          hands.map((h) => toCards(h)),
        );
        expect(problems.some((p) => p.startsWith(`seat ${t} holds ${ref.hands[t]!.length - 1} cards`))).toBe(true);
      }
    });
    expect(cases).toBeGreaterThan(100);
  });
});

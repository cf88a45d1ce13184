// Renounce (failing to follow suit while holding it), caught both ways: at the play when the hands are
// known, and later, when the offender shows the suit, at a live table where they are not.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../game/index.js';
import { Game, PlayResult, eventsOfPlay, parseCard } from '../../game/index.js';
import { DEAL_C, RefGame, dealSpec, mulberry32, pick, playErrorCode, refDeal, suitL } from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const otherTeamWins = (seat: Seat) => ({ winner: seat % 2 === 0 ? 'B' : 'A', victories: 4 });

/** A random legal game by the reference model, and the positions where a renounce is possible. */
function simulate(seed: number): { deal: ReturnType<typeof refDeal>; history: string[]; candidates: number[] } {
  const deal = refDeal(seed);
  const ref = new RefGame(deal.dealer, deal.trumpCard, deal.hands);
  const rand = mulberry32(seed ^ 0x1234567);
  const candidates: number[] = [];
  while (!ref.done) {
    if (ref.table.length) {
      const led = suitL(ref.table[0]!);
      const hand = ref.hands[ref.toMove]!;
      if (hand.some((c) => suitL(c) === led) && hand.some((c) => suitL(c) !== led)) candidates.push(ref.history.length);
    }
    ref.play(pick(ref.legal(), rand));
  }
  return { deal, history: ref.history, candidates };
}

describe('renounce with known hands', () => {
  it('is caught at the play: status renounce, {seat, trick, card}, 4 victories to the other team', () => {
    fc.assert(
      fc.property(seedArb, fc.nat(), fc.nat(), (seed, which, cardPick) => {
        const { deal, history, candidates } = simulate(seed);
        fc.pre(candidates.length > 0);
        const at = candidates[which % candidates.length]!;
        const ref = new RefGame(deal.dealer, deal.trumpCard, deal.hands);
        const game = new Game(dealSpec(deal.dealer, deal.trumpCard, deal.hands));
        for (const c of history.slice(0, at)) {
          game.play(parseCard(c));
          ref.play(c);
        }
        const seat = ref.toMove;
        const led = suitL(ref.table[0]!);
        const others = ref.hands[seat]!.filter((c) => suitL(c) !== led);
        const wrong = others[cardPick % others.length]!;
        expect(ref.isRenounce(wrong)).toBe(true);
        expect(game.isLegal(parseCard(wrong))).toBe(false);
        const points = [game.points(0), game.points(1)];
        const trick = game.trick;

        const result = game.play(parseCard(wrong));
        expect(result).toBe(PlayResult.GameOver);
        expect(game.status).toBe('renounce');
        // What the seats are told: the play, then the end with the renounce; never a scored trick.
        expect(eventsOfPlay(game, seat, parseCard(wrong), result, trick)).toStrictEqual([
          { type: 'play', seat, card: parseCard(wrong), trick },
          { type: 'end', points, outcome: otherTeamWins(seat), renounce: { seat, trick, card: parseCard(wrong) } },
        ]);
        expect(game.isOver).toBe(true);
        expect(game.renounce).toStrictEqual({ seat, trick: ref.trickIndex, card: parseCard(wrong) });
        expect(game.outcome).toEqual(otherTeamWins(seat));
        expect(game.trick).toBe(trick);
        expect([game.points(0), game.points(1)]).toEqual(points);
        expect(game.legalCards()).toEqual([]);
        const next = ref.hands[(seat + 1) % 4]![0];
        if (next) expect(playErrorCode(() => game.play(parseCard(next)))).toBe('game-over');
      }),
      { numRuns: 200 },
    );
  });
});

describe('renounce with unknown hands (a live table)', () => {
  it('is not caught at the play but when the offender later shows the suit; names the same seat, trick and card', () => {
    let delayed = 0;
    fc.assert(
      fc.property(seedArb, fc.nat(), fc.nat(), (seed, which, cardPick) => {
        const { deal, history, candidates } = simulate(seed);
        fc.pre(candidates.length > 0);
        const at = candidates[which % candidates.length]!;
        const ref = new RefGame(deal.dealer, deal.trumpCard, deal.hands);
        const live = new Game({ dealer: deal.dealer, trumpCard: parseCard(deal.trumpCard), hands: null });
        expect(live.handsKnown).toBe(false);
        for (const c of history.slice(0, at)) {
          live.play(parseCard(c), ref.toMove);
          ref.play(c);
        }
        const seat = ref.toMove;
        const led = suitL(ref.table[0]!);
        const others = ref.hands[seat]!.filter((c) => suitL(c) !== led);
        const wrong = others[cardPick % others.length]!;
        const trick = ref.trickIndex;
        const immediate =
          seat === deal.dealer && led === suitL(deal.trumpCard) && ref.hands[seat]!.includes(deal.trumpCard);

        const result = live.play(parseCard(wrong), seat);
        ref.play(wrong);
        if (immediate) {
          // The trump card is public: the dealer cannot claim to lack trumps while it is unplayed.
          expect(result).toBe(PlayResult.GameOver);
          expect(live.renounce).toStrictEqual({ seat, trick, card: parseCard(wrong) });
          expect(live.outcome).toEqual(otherTeamWins(seat));
          return;
        }
        expect(live.status).toBe('playing');
        expect(live.renounce).toBeNull();
        expect(live.isVoid(seat, 'SHDC'.indexOf(led) as 0 | 1 | 2 | 3)).toBe(true);

        // Carry on with legal plays from the true hands until the offender shows the led suit.
        const rand = mulberry32(seed ^ 0x9e3779b9);
        let discovered = false;
        while (!ref.done) {
          const mover = ref.toMove;
          const card = pick(ref.legal(), rand);
          const t = ref.trickIndex;
          const reveals = mover === seat && suitL(card) === led;
          const before = [live.points(0), live.points(1)];
          const r = live.play(parseCard(card), mover);
          ref.play(card);
          if (reveals) {
            expect(r).toBe(PlayResult.GameOver);
            expect(live.status).toBe('renounce');
            expect(live.renounce).toStrictEqual({
              seat,
              trick,
              card: parseCard(wrong),
              discovered: { trick: t, card: parseCard(card) },
            });
            expect(live.outcome).toEqual(otherTeamWins(seat));
            // The revealing card does not complete a trick for scoring.
            expect([live.points(0), live.points(1)]).toEqual(before);
            expect(playErrorCode(() => live.play(parseCard(card)))).toBe('game-over');
            discovered = true;
            break;
          }
          expect(live.status).toBe('playing');
          expect([live.points(0), live.points(1)]).toEqual(ref.points);
        }
        expect(discovered).toBe(true);
        delayed++;
      }),
      { numRuns: 200 },
    );
    expect(delayed).toBeGreaterThan(100);
  });

  it('legal games give the same result whether the hands are known or not', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        const { deal, history } = simulate(seed);
        const known = new Game(dealSpec(deal.dealer, deal.trumpCard, deal.hands));
        const live = new Game({ dealer: deal.dealer, trumpCard: parseCard(deal.trumpCard), hands: null });
        for (const c of history) {
          const seat = known.toMove;
          expect(live.toMove).toBe(seat);
          expect(live.play(parseCard(c), seat)).toBe(known.play(parseCard(c)));
        }
        expect(live.status).toBe('complete');
        expect(known.status).toBe('complete');
        expect([live.points(0), live.points(1)]).toEqual([known.points(0), known.points(1)]);
        expect(live.outcome).toEqual(known.outcome);
      }),
      { numRuns: 100 },
    );
  });
});

describe('scripted renounces (deal C: dealer 3 turned up 2H, hearts trump)', () => {
  const { dealer, trumpCard, hands } = DEAL_C;
  const live = (): Game => new Game({ dealer, trumpCard: parseCard(trumpCard), hands: null });
  const playAll = (game: Game, cards: string[]): void => {
    for (const c of cards) game.play(parseCard(c));
  };

  it('known hands: seat 2 plays 4H on the spade lead while holding 2S', () => {
    const game = new Game(dealSpec(dealer, trumpCard, hands));
    playAll(game, ['AS', '3H']);
    expect(game.play(parseCard('4H'))).toBe(PlayResult.GameOver);
    expect(game.renounce).toStrictEqual({ seat: 2, trick: 0, card: parseCard('4H') });
    expect(game.outcome).toEqual({ winner: 'B', victories: 4 });
  });

  it('unknown hands: the dealer fails to follow trump while the turned-up 2H is unplayed: caught at the play', () => {
    const game = live();
    playAll(game, ['AS', '3H', '2S', '5S']); // seat 1 cuts and leads next
    playAll(game, ['6H', '4H']);
    expect(game.toMove).toBe(3);
    expect(game.play(parseCard('7S'), 3)).toBe(PlayResult.GameOver);
    expect(game.renounce).toStrictEqual({ seat: 3, trick: 1, card: parseCard('7S') });
    expect(game.outcome).toEqual({ winner: 'A', victories: 4 });
  });

  it('unknown hands: the dealer may show void in trump once the trump card is played', () => {
    const game = live();
    playAll(game, ['AS', '3H', '2S', '5S']);
    playAll(game, ['6H', '4H', '2H', '6S']); // the dealer follows trump with the turned-up 2H
    expect(game.trickWinner(1)).toBe(1);
    expect(game.trumpCardPlayed).toBe(true);
    playAll(game, ['2D', 'QH', '7S', '7D']); // seat 2 cuts
    expect(game.trickWinner(2)).toBe(2);
    game.play(parseCard('JH'), 2);
    // The dealer still holds hearts, but nobody at the table can know: taken at its word.
    expect(game.play(parseCard('KC'), 3)).toBe(PlayResult.Continue);
    expect(game.status).toBe('playing');
    expect(game.renounce).toBeNull();
    expect(game.isVoid(3, 1)).toBe(true);
  });

  it('unknown hands: a non-dealer failing to follow trump is taken at its word, then caught when it shows a heart', () => {
    const game = live();
    playAll(game, ['AS', '3H', '2S', '5S']);
    // Trick 1: seat 1 leads 6H; seat 2 holds 4H QH JH but plays 3S.
    game.play(parseCard('6H'));
    expect(game.play(parseCard('3S'))).toBe(PlayResult.Continue);
    expect(game.status).toBe('playing');
    playAll(game, ['5H', '6S']);
    expect(game.trickWinner(1)).toBe(1);
    // Trick 2: seat 1 leads 2C, seat 3 wins with 7C.
    playAll(game, ['2C', '5C', '7C', 'QS']);
    expect(game.trickWinner(2)).toBe(3);
    // Trick 3: seat 3 leads KH; seat 2 shows QH.
    playAll(game, ['KH', 'JS', '2D']);
    expect(game.status).toBe('playing');
    expect(game.play(parseCard('QH'))).toBe(PlayResult.GameOver);
    expect(game.renounce).toStrictEqual({
      seat: 2,
      trick: 1,
      card: parseCard('3S'),
      discovered: { trick: 3, card: parseCard('QH') },
    });
    expect(game.outcome).toEqual({ winner: 'B', victories: 4 });
  });
});

describe('one hand known (a physical deal: the robot knows its own cards only)', () => {
  const partial = (deal: ReturnType<typeof refDeal>, seat: Seat): Game =>
    new Game({
      dealer: deal.dealer,
      trumpCard: parseCard(deal.trumpCard),
      hands: deal.hands.map((h, s) => (s === seat ? h.map(parseCard) : null)),
    });

  it('legal games give the same result, and the known seat has its legal cards', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: 3 }), (seed, seat) => {
        const { deal, history } = simulate(seed);
        const known = new Game(dealSpec(deal.dealer, deal.trumpCard, deal.hands));
        const live = partial(deal, seat as Seat);
        expect(live.handsKnown).toBe(false);
        expect(live.knowsHand(seat as Seat)).toBe(true);
        for (const c of history) {
          const mover = known.toMove;
          if (mover === seat) expect(live.legalCards()).toEqual(known.legalCards());
          expect(live.play(parseCard(c), mover)).toBe(known.play(parseCard(c)));
        }
        expect(live.status).toBe('complete');
        expect(live.outcome).toEqual(known.outcome);
        expect(live.hand(seat as Seat)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses another seat's play of a card the known seat holds, and changes nothing", () => {
    const deal = refDeal(5);
    const robot = ((deal.dealer + 2) & 3) as Seat;
    const game = partial(deal, robot);
    const first = game.toMove;
    const card = parseCard(deal.hands[robot]!.find((c) => parseCard(c) !== parseCard(deal.trumpCard))!);
    expect(playErrorCode(() => game.play(card, first))).toBe('not-in-hand');
    expect(() => game.play(card, first)).toThrow(`is in seat ${robot}'s hand, not seat ${first}'s`);
    expect(game.plays).toBe(0);
    expect(() => game.hand(first)).toThrow(`the hand of seat ${first} is not known`);
  });

  it('a renounce by an unknown seat is found when it shows the suit; by the known seat, at once', () => {
    const { dealer, trumpCard, hands } = DEAL_C;
    const deal = { dealer, trumpCard, hands };
    // Seat 2 is known: its 4H on the spade lead while holding 2S is caught at the play.
    const g2 = partial(deal, 2);
    for (const c of ['AS', '3H']) g2.play(parseCard(c));
    expect(g2.play(parseCard('4H'))).toBe(PlayResult.GameOver);
    expect(g2.renounce).toStrictEqual({ seat: 2, trick: 0, card: parseCard('4H') });
    // Seat 0 is known instead: seat 2 is taken at its word, and found out when it plays 2S.
    const g0 = partial(deal, 0);
    for (const c of ['AS', '3H', '4H', '5S']) g0.play(parseCard(c), g0.toMove);
    expect(g0.status).toBe('playing');
    expect(g0.trickWinner(0)).toBe(2);
    expect(g0.play(parseCard('2S'), 2)).toBe(PlayResult.GameOver);
    expect(g0.renounce).toStrictEqual({
      seat: 2,
      trick: 0,
      card: parseCard('4H'),
      discovered: { trick: 1, card: parseCard('2S') },
    });
    expect(g0.outcome).toEqual({ winner: 'B', victories: 4 });
  });
});

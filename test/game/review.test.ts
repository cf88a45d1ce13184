// The end-of-game review: a finished game looked back on with all cards in view.
// Its values along the game are checked against the independent reference search where it is cheap
// (the last three tricks), and end to end by what must hold whatever the game: the value at the end
// is the points as played, it only ever changes against the team whose seat played, the moments are
// the largest changes, and the better card really keeps the value. Deterministic: seeded games.

import { describe, expect, it } from 'vitest';
import { loadBehaviourSetup, reviewSentences } from '../../behaviours/index.js';
import {
  ExpertPlayer,
  Game,
  RandomPlayer,
  RulePlayer,
  Solver,
  createRng,
  dealCards,
  formatCard,
  parseCard,
  playGame,
  positionOf,
  reviewGame,
  teamOf,
  victoriesFor,
} from '../../game/index.js';
import type { Card, GameReview, Player, PlayedGame, Seat } from '../../game/index.js';
import { referenceMoveValues } from '../solver/reference.js';

const KINDS = ['expert', 'rule', 'random'] as const;

/** A seeded game between players of one kind, as the review is given it. */
function played(seed: number, kind: (typeof KINDS)[number]): PlayedGame {
  const deal = dealCards(createRng(seed), (seed & 3) as Seat);
  const players: Player[] = [0, 1, 2, 3].map((s) => {
    const o = { seat: s as Seat, seed: seed * 4 + s };
    return kind === 'expert' ? new ExpertPlayer(o) : kind === 'rule' ? new RulePlayer(o) : new RandomPlayer(o);
  });
  const game = playGame(deal, players);
  const plays: Card[] = [];
  for (let i = 0; i < game.plays; i++) plays.push(game.playAt(i));
  return { dealer: deal.dealer, trumpCard: deal.trumpCard, plays };
}

/** The game replayed to just before card `k`, hands known. */
function before(g: PlayedGame, k: number): Game {
  const seats: Seat[] = [];
  const probe = new Game({ dealer: g.dealer, trumpCard: g.trumpCard, hands: null });
  for (const c of g.plays) {
    seats.push(probe.toMove);
    probe.play(c);
  }
  const hands: Card[][] = [[], [], [], []];
  g.plays.forEach((c, i) => hands[seats[i]!]!.push(c));
  const game = new Game({ dealer: g.dealer, trumpCard: g.trumpCard, hands });
  for (let i = 0; i < k; i++) game.play(g.plays[i]!);
  return game;
}

const solver = new Solver();
const games = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((seed) => ({
  seed,
  kind: KINDS[seed % 3]!,
  game: played(seed, KINDS[seed % 3]!),
}));
const reviews = new Map<number, GameReview>(games.map(({ seed, game }) => [seed, reviewGame(game, solver)]));

describe('the end-of-game review', () => {
  it('values the last three tricks of every game as the reference search does, and the end as played', () => {
    for (const { seed, game } of games) {
      const r = reviews.get(seed)!;
      expect(r.status).toBe('reviewed');
      expect(r.values).toHaveLength(41);
      expect(r.dealt).toBe(r.values[0]);
      const end = before(game, 40);
      expect(r.final).toBe(end.points(0));
      expect(r.values[40]).toBe(end.points(0));
      for (let k = 28; k < 40; k++) {
        const g = before(game, k);
        const ref = referenceMoveValues(positionOf(g));
        const valueA = teamOf(g.toMove) === 0 ? ref.value : 120 - ref.value;
        expect(r.values[k], `seed ${seed}, before card ${k}`).toBe(valueA);
      }
    }
  });

  it('changes only against the team whose seat played, and counts every change', () => {
    for (const { seed, game } of games) {
      const r = reviews.get(seed)!;
      let changes = 0;
      for (let k = 0; k < 40; k++) {
        const seat = before(game, k).toMove;
        const diff = r.values[k + 1]! - r.values[k]!;
        if (diff !== 0) changes++;
        // Best play keeps the value; any other card can only lose for the team that plays it.
        if (teamOf(seat) === 0) expect(diff, `seed ${seed}, card ${k}`).toBeLessThanOrEqual(0);
        else expect(diff, `seed ${seed}, card ${k}`).toBeGreaterThanOrEqual(0);
      }
      expect(r.changes).toBe(changes);
    }
  });

  it('tells the largest changes, in the order played, each with a card that keeps the value', () => {
    let told = 0;
    for (const { seed, game } of games) {
      const r = reviews.get(seed)!;
      const weight = (k: number): number =>
        Math.abs(victoriesFor(r.values[k + 1]!) - victoriesFor(r.values[k]!)) * 1000 +
        Math.abs(r.values[k + 1]! - r.values[k]!);
      const worth = [...Array(40).keys()].filter(
        (k) =>
          victoriesFor(r.values[k + 1]!) !== victoriesFor(r.values[k]!) ||
          Math.abs(r.values[k + 1]! - r.values[k]!) >= 5,
      );
      expect(r.moments.length).toBe(Math.min(3, worth.length));
      expect(r.moments.map((m) => m.play)).toEqual([...r.moments.map((m) => m.play)].sort((a, b) => a - b));
      const smallest = Math.min(...r.moments.map((m) => weight(m.play)));
      for (const k of worth) if (!r.moments.some((m) => m.play === k)) expect(weight(k)).toBeLessThanOrEqual(smallest);
      for (const m of r.moments) {
        told++;
        const g = before(game, m.play);
        expect(g.toMove).toBe(m.seat);
        expect(formatCard(m.card)).toBe(formatCard(game.plays[m.play]!));
        expect(m.trick).toBe(g.trick);
        expect([m.before, m.after]).toEqual([r.values[m.play], r.values[m.play + 1]]);
        // Played instead, the better card keeps the value from before (the solver's own values of both cards).
        expect(g.isLegal(m.better!)).toBe(true);
        const values = new Map(solver.moveValues(positionOf(g)).moves.map((v) => [v.card, v.value]));
        const forA = (v: number): number => (teamOf(m.seat) === 0 ? v : 120 - v);
        expect(forA(values.get(m.better!)!)).toBe(m.before);
        expect(forA(values.get(m.card)!)).toBe(m.after);
      }
    }
    // Casual and random players leave something to tell.
    expect(told).toBeGreaterThan(10);
  });

  it('is a function of the game: the same review with a fresh solver', () => {
    const { seed, game } = games[4]!;
    expect(reviewGame(game, new Solver({ ttBits: 16 }))).toEqual({ ...reviews.get(seed)!, nodes: expect.any(Number) });
  });

  it('says a renounce was the end, and that a game cut short cannot be reviewed', () => {
    const g = games[0]!.game;
    const renounce = reviewGame({
      ...g,
      plays: g.plays.slice(0, 13),
      renounce: { seat: 2, card: g.plays[12]!, trick: 3 },
    });
    expect(renounce).toMatchObject({
      status: 'renounce',
      dealt: null,
      moments: [{ play: 12, trick: 3, seat: 2, better: null }],
    });
    expect(reviewGame({ ...g, plays: g.plays.slice(0, 13) })).toMatchObject({ status: 'incomplete', moments: [] });
  });
});

describe('the review in words', () => {
  const pt = loadBehaviourSetup({ language: 'pt' }).utterances;
  const en = loadBehaviourSetup({ language: 'en' }).utterances;
  // The robot in seat 0 (team A); its partner 2, the opponent on its right 1 (who plays after it), on its left 3.
  const review: GameReview = {
    status: 'reviewed',
    dealt: 70,
    final: 56,
    changes: 5,
    values: [],
    nodes: 0,
    moments: [
      // A slip of 3 points that changed nothing: not told aloud.
      { play: 3, trick: 0, seat: 0, card: parseCard('AH'), better: parseCard('2H'), before: 70, after: 67 },
      { play: 17, trick: 4, seat: 3, card: parseCard('7S'), better: parseCard('KS'), before: 66, after: 77 },
      { play: 22, trick: 5, seat: 2, card: parseCard('KD'), better: parseCard('3C'), before: 77, after: 56 },
    ],
  };

  it("says what the game was worth, and its two weightiest moments from the robot's side, in the order played", () => {
    expect(reviewSentences(pt, review, 0)).toEqual([
      'Com as cartas à vista, valia-nos 70 pontos; fizemos 56.',
      'Na vaza 5 o adversário da minha esquerda jogou o sete de espadas; o rei de espadas dava-lhes mais 11.',
      'Na vaza 6 o meu parceiro jogou o rei de ouros; o três de paus dava-nos mais 21, e o resultado era outro.',
    ]);
    expect(reviewSentences(en, review, 0)[2]).toBe(
      "In trick 6 my partner played the king of diamonds; the three of clubs would've made us 21 more, and changed the result.",
    );
    // Seen from seat 1 (team B), the same review: the opponents' slips are now the partner's.
    expect(reviewSentences(en, review, 1)[0]).toBe('With all cards in view it was worth 50 to us; we made 64.');
  });

  it('claims a changed result only where the better card, the rest of the game as it went, changes it', () => {
    // 56 as played: 21 more (77) wins the game, 4 more (60) draws it, 3 more (59) still loses; the
    // opponents' 11 more (45 for the robot's team) only loses by more.
    const moment = (seat: Seat, before: number, after: number, trick: number) => ({
      play: trick * 4,
      trick,
      seat,
      card: parseCard('AH'),
      better: parseCard('2H'),
      before,
      after,
    });
    const told = (m: ReturnType<typeof moment>, final = 56) =>
      reviewSentences(pt, { ...review, final, moments: [m] }, 0)[1]!;
    expect(told(moment(2, 77, 56, 5))).toMatch(/e o resultado era outro\.$/);
    expect(told(moment(0, 60, 56, 5))).toMatch(/e o resultado era outro\.$/);
    // 3 more: the result stands, and a slip of so few points is not told at all.
    expect(told(moment(0, 59, 56, 5))).toBe(pt.review!.small);
    expect(told(moment(3, 66, 77, 5))).not.toMatch(/resultado/);
    // A slip that crossed a line in the values, made good later in the game: the result stands.
    expect(told(moment(2, 64, 58, 5), 70)).not.toMatch(/resultado/);
    // The opponents' better card would have turned a 64 into a loss.
    expect(told(moment(1, 52, 61, 5), 64)).toMatch(/e o resultado era outro\.$/);
  });

  it('speaks to the partner as tu about their own cards, and names the opponents as the partner sees them', () => {
    // Seat 2 (the partner) asked: its own slip in the second person; seat 3, the robot's left, is the partner's right.
    expect(reviewSentences(pt, review, 0, 2).slice(1)).toEqual([
      'Na vaza 5 o adversário à tua direita jogou o sete de espadas; o rei de espadas dava-lhes mais 11.',
      'Na vaza 6 jogaste o rei de ouros; o três de paus dava-nos mais 21, e o resultado era outro.',
    ]);
    expect(reviewSentences(en, review, 0, 2)[2]).toBe(
      "In trick 6 you played the king of diamonds; the three of clubs would've made us 21 more, and changed the result.",
    );
    const right = { ...review.moments[1]!, seat: 1 as Seat };
    expect(reviewSentences(en, { ...review, moments: [right] }, 0, 2)[1]).toMatch(
      /^In trick 5 your left-hand opponent /,
    );
    // An opponent (seat 3) asked: its own card, its partner's (seat 1), the robot's partner's.
    expect(reviewSentences(pt, review, 0, 3)[1]).toBe(
      'Na vaza 5 jogaste o sete de espadas; o rei de espadas dava-vos mais 11.',
    );
    expect(reviewSentences(pt, { ...review, moments: [right] }, 0, 3)[1]).toMatch(/^Na vaza 5 o teu parceiro jogou /);
    expect(reviewSentences(pt, review, 0, 3)[2]).toMatch(/^Na vaza 6 o meu parceiro jogou /);
    // Nobody in particular (the operator, a table of several people): from the robot's side.
    expect(reviewSentences(pt, review, 0, null)).toEqual(reviewSentences(pt, review, 0));
  });

  it('is short: at most two moments and 65 words, over whole games of every kind, in pt and en', () => {
    for (const kind of KINDS) {
      for (const seed of [11, 12, 13, 14, 15]) {
        const r = reviewGame(played(seed, kind));
        for (const library of [pt, en]) {
          for (const listener of [null, 2, 3] as const) {
            const sentences = reviewSentences(library, r, 0, listener);
            expect(sentences.length).toBeLessThanOrEqual(3);
            const words = sentences.join(' ').split(/\s+/).length;
            expect(words, sentences.join(' ')).toBeLessThanOrEqual(65);
          }
        }
      }
    }
  });

  it('says when nothing changed the result, and a renounce', () => {
    expect(reviewSentences(en, { ...review, moments: [], changes: 0 }, 0)[1]).toBe(en.review!.none);
    expect(reviewSentences(en, { ...review, moments: [], changes: 2 }, 0)[1]).toBe(en.review!.small);
    const renounce: GameReview = {
      status: 'renounce',
      dealt: null,
      final: null,
      changes: 0,
      values: [],
      nodes: 0,
      moments: [{ play: 9, trick: 2, seat: 1, card: parseCard('QC'), better: null, before: -1, after: -1 }],
    };
    expect(reviewSentences(pt, renounce, 0)).toEqual([
      'O jogo acabou numa renúncia: na vaza 3, o adversário da minha direita não assistiu e jogou a dama de paus.',
    ]);
    // Told to the renouncer's partner, and to the renouncer.
    expect(reviewSentences(pt, renounce, 0, 2)).toEqual([
      'O jogo acabou numa renúncia: na vaza 3, o adversário à tua esquerda não assistiu e jogou a dama de paus.',
    ]);
    expect(reviewSentences(pt, renounce, 0, 1)).toEqual([
      'O jogo acabou numa renúncia: na vaza 3 não assististe e jogaste a dama de paus.',
    ]);
  });
});

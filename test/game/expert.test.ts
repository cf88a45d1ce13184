// The expert player (game/players/expert.ts): only legal cards, deterministic by seed, reusable across
// games, the card-play heuristics on hand-built positions, and its strength against the rule-based
// player on a fixed set of seeded duplicate deals (a count of games, never a clock).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player, Seat } from '../../game/index.js';
import {
  BUILTIN_PLAYERS,
  ExpertPlayer,
  Game,
  RandomPlayer,
  RulePlayer,
  SeatView,
  createRng,
  dealCards,
  formatCard,
  parseCard,
  playGame,
  runBoards,
  summarize,
} from '../../game/index.js';
import type { TournamentSpec } from '../../game/index.js';
import { RefGame, completeDeal, dealSpec, toStrings } from './helpers.js';

const seedArb = fc.integer({ min: 0, max: 0x7fffffff });
const seatArb = fc.constantFrom<Seat>(0, 1, 2, 3);
const SEATS: Seat[] = [0, 1, 2, 3];
const OTHERS = ['expert', 'rule', 'random'] as const;

describe('expert player: legality and determinism', () => {
  it('is registered as the plain kind expert', () => {
    expect(BUILTIN_PLAYERS['expert']!({ seat: 0, seed: 1 }).kind).toBe('expert');
  });

  it('only ever plays a legal card (never renounces) and leaves the view unchanged', () => {
    fc.assert(
      fc.property(
        seedArb,
        seatArb,
        fc.tuple(fc.constantFrom(...OTHERS), fc.constantFrom(...OTHERS), fc.constantFrom(...OTHERS)),
        (seed, dealer, kinds) => {
          const deal = dealCards(createRng(seed, 7), dealer);
          const game = new Game(deal);
          const ref = new RefGame(
            dealer,
            formatCard(deal.trumpCard),
            deal.hands.map((h) => toStrings(h)),
          );
          // Seat 0 is always the expert; the others are a mix.
          const names = ['expert', ...kinds];
          const players = names.map((k, s) => BUILTIN_PLAYERS[k]!({ seat: s as Seat, seed: seed + s }));
          while (!ref.done) {
            const seat = ref.toMove;
            const view = new SeatView(game, seat);
            const before = names[seat] === 'expert' ? JSON.stringify(view.snapshot()) : '';
            const card = players[seat]!.choose(view);
            const c = formatCard(card);
            if (!ref.legal().includes(c)) expect(ref.legal(), `seat ${seat} (${names[seat]}) chose ${c}`).toContain(c);
            expect(ref.isRenounce(c)).toBe(false);
            if (before && JSON.stringify(view.snapshot()) !== before)
              expect(view.snapshot()).toEqual(JSON.parse(before));
            game.play(card);
            ref.play(c);
          }
          expect(game.status).toBe('complete');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('same seed, same game; one instance per seat can be reused across games', () => {
    const history = (dealSeed: number, players: Player[]): string => {
      const game = playGame(dealCards(createRng(dealSeed), (dealSeed & 3) as Seat), players);
      return Array.from({ length: game.plays }, (_, i) => formatCard(game.playAt(i))).join(' ');
    };
    const fresh = (seed: number): Player[] => SEATS.map((s) => new ExpertPlayer({ seat: s, seed: seed * 4 + s }));
    const reused = fresh(1);
    for (let i = 0; i < 30; i++) {
      expect(history(500 + i, fresh(i))).toBe(history(500 + i, fresh(i)));
      // A reused instance plays a game exactly as a new one would, up to the tie-breaking Rng's stream.
      const a = history(900 + i, reused);
      expect(a.split(' ')).toHaveLength(40);
    }
  });
});

// ---- the heuristics on hand-built positions -----------------------------------------------------

/**
 * A position: dealer 3 turned up 2H (hearts trump), seat 0 leads trick 0. `fixed` pins (part of) the
 * hands, `voids` keeps suits away from seats, `script` is played first; the seat to move decides.
 */
function position(fixed: string[][], script: string[] = [], voids: string[][] = [[], [], [], []]): SeatView {
  const dealer: Seat = 3;
  const hands = completeDeal(
    fixed.map((h, s) => (s === dealer && !h.includes('2H') ? [...h, '2H'] : h)),
    voids,
  );
  const game = new Game(dealSpec(dealer, '2H', hands));
  for (const c of script) game.play(parseCard(c));
  return new SeatView(game, game.toMove);
}

/** The expert's choices at a position over several seeds (ties are broken by the seed). */
function expertChoices(view: SeatView, seeds = 20): Set<string> {
  const out = new Set<string>();
  for (let seed = 0; seed < seeds; seed++)
    out.add(formatCard(new ExpertPlayer({ seat: view.seat, seed }).choose(view)));
  return out;
}

describe('expert player: card-play heuristics', () => {
  it('feeds a 7 whose ace is still out to a partner sure to win the trick', () => {
    // Seat 0 leads 2S, partner seat 1 takes it with AS, seat 2 follows; seat 3 is last and has no spade.
    const view = position(
      [['2S'], ['AS'], ['3S'], ['7D', '2D', '3D', '2C', '3C', '4C', '5C', '6C', '3H']],
      ['2S', 'AS', '3S'],
      [[], [], [], ['S']],
    );
    expect(view.seat).toBe(3);
    expect(expertChoices(view)).toEqual(new Set(['7D']));
  });

  it('feeds an ace an opponent could ruff later to a partner sure to win', () => {
    // Trick 0: seat 2 shows it has no diamond and ruffs. Trick 1: seat 2 leads 2S, seat 3 (partner of
    // seat 1) takes it with AS; seat 1 is last, has no spade and no trump: it gives the AD now.
    const view = position(
      [
        ['2D', '3S'],
        ['3D', 'AD', '6D', '2C', '3C', '4C', '5C', '6C', 'QC', 'JC'],
        ['4H', '2S', 'AH', '7H'],
        ['5D', 'AS'],
      ],
      ['2D', '3D', '4H', '5D', '2S', 'AS', '3S'],
      [[], ['S', 'H'], ['D'], []],
    );
    expect(view.seat).toBe(1);
    expect(expertChoices(view)).toEqual(new Set(['AD']));
  });

  it('ruffs with its lowest trump and keeps the 7 of trumps when a low trump wins', () => {
    // Seat 0 leads KS; seat 3 is last with no spade, holding 7H and 3H (and the turned-up 2H).
    const view = position(
      [['KS'], ['2S'], ['3S'], ['7H', '3H', '2D', '3D', '4D', '2C', '3C', '4C', '5C']],
      ['KS', '2S', '3S'],
      [[], [], [], ['S']],
    );
    expect(view.seat).toBe(3);
    expect(expertChoices(view)).toEqual(new Set(['2H']));
  });

  it('ruffs a trick with points that its partner cannot win', () => {
    // Seat 0 leads AS (the master); seat 1 has no spade and only low trumps beside side cards.
    const view = position(
      [['AS'], ['3H', '4H', '2D', '3D', '4D', '5D', '2C', '3C', '4C', '5C']],
      ['AS'],
      [[], ['S'], [], []],
    );
    expect(view.seat).toBe(1);
    expect(expertChoices(view)).toEqual(new Set(['3H']));
  });

  it('plays its cheapest card on a trick already lost', () => {
    // Seat 0 leads AS; seat 1 must follow with KS or 2S and cannot win: 2S.
    const view = position([['AS'], ['KS', '2S', '2D', '3D', '4D', '5D', '2C', '3C', '4C', '5C']], ['AS']);
    expect(expertChoices(view)).toEqual(new Set(['2S']));
  });

  it('leads the suit its partner is void in (the partner ruffs) when the opponents follow it', () => {
    // Trick 0: seat 0 leads AC and wins; partner seat 2 has no club (discards 2D) but holds trumps.
    const view = position(
      [['AC', '5C', '6C', '2S', '3S', '4S', '5S', '3D', '4D', '5D'], ['3C'], ['2D', 'AH', '7H', 'KH'], ['4C']],
      ['AC', '3C', '2D', '4C'],
      [[], [], ['C'], []],
    );
    expect(view.seat).toBe(0);
    const choices = expertChoices(view);
    for (const c of choices) expect(['5C', '6C']).toContain(c);
  });
});

// ---- strength -----------------------------------------------------------------------------------

describe('expert player: strength on fixed seeded deals', () => {
  const spec = (teamB: [string, string], games: number, seed: number): TournamentSpec => ({
    teamA: ['expert', 'expert'],
    teamB,
    games,
    seed,
    duplicate: true,
    sessionGames: 1,
  });

  it('beats the rule-based player in more than 60% of 400 duplicate games', () => {
    const s = spec(['rule', 'rule'], 400, 11);
    const summary = summarize(s, runBoards(s, 0, 200, { players: {} }));
    expect(summary.teamA.renounces).toBe(0);
    expect(summary.teamA.winRate).toBeGreaterThan(0.6);
  });

  it('beats the random player in more than 70% of 400 duplicate games', () => {
    const s = spec(['random', 'random'], 400, 12);
    const summary = summarize(s, runBoards(s, 0, 200, { players: {} }));
    expect(summary.teamA.winRate).toBeGreaterThan(0.7);
  });
});

// Keep the imports of the other players honest (they are what the expert is measured against).
void RulePlayer;
void RandomPlayer;

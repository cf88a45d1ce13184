// Scripted "people" for the human-model tests: players who deviate from the
// rule-based player in a known way, and recordings of sessions in which they sit at a virtual table.

import type { Card, Player, Seat } from '../../game/index.js';
import { Game, RulePlayer, SeatView, createRng, dealCards, deriveSeed, formatCard, suitOf } from '../../game/index.js';
import { InProcessBus } from '../../robot/bus/index.js';
import { Recorder } from '../../robot/recording/index.js';

/** Always plays its highest-ranked legal card (rank ties: the lowest suit): it never keeps its aces and sevens back. */
export class HighCardPlayer implements Player {
  readonly kind = 'high-card';
  choose(view: SeatView): Card {
    let best = -1;
    for (const c of view.legalCards())
      if (best < 0 || c % 10 > best % 10 || (c % 10 === best % 10 && suitOf(c) < suitOf(best as Card))) best = c;
    return best as Card;
  }
}

/** Who sits where in the scripted sessions: the robot (rule) at 0, people at 1 and 3, a bot (rule) at 2. */
export const PEOPLE: readonly Seat[] = [1, 3];

/** One seeded game of the scripted session: its deal and plays. */
export function scriptedGame(
  seed: number,
  g: number,
): { dealer: Seat; trumpCard: Card; hands: Card[][]; plays: Card[] } {
  const deal = dealCards(createRng(seed, g), (g & 3) as Seat);
  const players: Player[] = [0, 1, 2, 3].map((s) =>
    PEOPLE.includes(s as Seat)
      ? new HighCardPlayer()
      : new RulePlayer({ seat: s as Seat, seed: deriveSeed(seed, g, s) }),
  );
  const game = new Game(deal);
  while (!game.isOver) game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
  const plays: Card[] = [];
  for (let k = 0; k < game.plays; k++) plays.push(game.playAt(k));
  return { dealer: deal.dealer, trumpCard: deal.trumpCard, hands: deal.hands.map((h) => [...h!]), plays };
}

const blank = {
  trick: -1,
  leader: -1,
  cards: [],
  winner: -1,
  points: 0,
  final_points: [0, 0],
  winner_team: '',
  victories: [0, 0],
};
const tableEvent = (id: string, kind: string, seats: number[], tableKind: string) => ({
  table_id: id,
  seq: 0,
  kind,
  zone: '',
  seat: -1,
  fiducial: -1,
  card: '',
  action: '',
  dealer: -1,
  trump_card: '',
  seats,
  table_name: id,
  table_kind: tableKind,
  reason: '',
  event: '',
  code: '',
  repeats: 0,
  first_seq: 0,
});

/**
 * A recording of `games` scripted games (from `first`): a virtual table hosts the people's seats, a
 * simulated one the bot's; the last game is cut short after `cutLast` cards when given.
 */
export async function recordScripted(
  path: string,
  seed: number,
  first: number,
  games: number,
  cutLast?: number,
): Promise<void> {
  const bus = new InProcessBus();
  let now = 1_700_000_000_000;
  const rec = await Recorder.start({
    path,
    bus,
    clock: () => now,
    session: { sessionId: `scripted-${seed}`, seed: String(seed), robotSeat: '0' },
  });
  bus.publish('tableEvents', tableEvent('people', 'hello', [...PEOPLE], 'virtual'));
  bus.publish('tableEvents', tableEvent('bots', 'hello', [2], 'simulated'));
  for (let g = first; g < first + games; g++) {
    const { dealer, trumpCard, plays } = scriptedGame(seed, g);
    const seats = new Game({ dealer, trumpCard, hands: null });
    bus.publish('gameEvents', { ...blank, type: 'deal', game: g, seat: dealer, card: formatCard(trumpCard) });
    const n = g === first + games - 1 && cutLast !== undefined ? cutLast : plays.length;
    for (const c of plays.slice(0, n)) {
      now += 10;
      const seat = seats.toMove;
      seats.play(c);
      bus.publish('gameEvents', { ...blank, type: 'play', game: g, seat, card: formatCard(c) });
    }
  }
  await rec.close();
}

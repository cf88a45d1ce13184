// The one projection of the session onto a table (boardgame.io's playerView): what that table may see.
// Public information for everyone; hands only of the seats the table hosts, and only when the runtime
// knows them. Every `state` message and hello answer goes through here.

import type { Card, Seat } from '../game/index.js';
import { formatCard, leaderOf, nextSeat, pointsOf } from '../game/index.js';
import type { GameState, Seating, TableState } from './messages.js';
import { PROTOCOL_VERSION } from './messages.js';
import type { SessionSnapshot } from './table-handler.js';

const play = (seat: Seat, card: Card): { seat: Seat; card: string } => ({ seat, card: formatCard(card) });

/**
 * `seating`: who holds each seat (the server knows the connected tables); `language`: the session's
 * (the node knows it); each left out when not given.
 */
export function tableState(
  snapshot: SessionSnapshot,
  hostedSeats: readonly Seat[],
  seating?: Seating,
  language?: string,
): TableState {
  const s = snapshot.session;
  return {
    protocol: PROTOCOL_VERSION,
    version: snapshot.version,
    session: {
      id: s.id,
      games: s.games,
      played: s.played,
      victories: [s.victories[0], s.victories[1]],
      draws: s.draws,
      complete: s.complete,
    },
    robotSeat: snapshot.robotSeat,
    paused: snapshot.paused,
    game: snapshot.game ? gameState(snapshot.game, hostedSeats) : null,
    ...(seating ? { seats: seating } : {}),
    ...(language ? { language } : {}),
  };
}

/** Who holds each seat: the robot's seat, then the connected tables' seats; the rest are free. */
export function seatingOf(
  robotSeat: Seat,
  tables: readonly { name: string; kind: Seating[number]['kind']; seats: readonly Seat[] }[],
): Seating {
  return ([0, 1, 2, 3] as Seat[]).map((seat) => {
    if (seat === robotSeat) return { seat, holder: 'robot', name: '', kind: null };
    const t = tables.find((x) => x.seats.includes(seat));
    return t ? { seat, holder: 'table', name: t.name, kind: t.kind } : { seat, holder: 'free', name: '', kind: null };
  });
}

function gameState(snap: NonNullable<SessionSnapshot['game']>, hostedSeats: readonly Seat[]): GameState {
  const g = snap.game;
  const plays: { seat: Seat; card: string }[] = [];
  // Seats of earlier plays follow from the trick leaders: the seat after the dealer, then each winner.
  for (let i = 0; i < g.plays; i++) {
    plays.push(play(nextSeat(leaderOf(g, i >> 2), i & 3), g.playAt(i)));
  }
  const table = plays.slice(plays.length - g.cardsInTrick);
  let lastTrick: GameState['lastTrick'] = null;
  if (g.trick > 0) {
    const k = g.trick - 1;
    const cards = [0, 1, 2, 3].map((i) => g.playAt(k * 4 + i));
    lastTrick = {
      leader: leaderOf(g, k),
      cards: cards.map(formatCard),
      winner: g.trickWinner(k),
      points: cards.reduce((p, c) => p + pointsOf(c), 0),
    };
  }
  const r = g.renounce;
  return {
    index: snap.index,
    deal: snap.deal,
    dealer: g.dealer,
    trumpCard: formatCard(g.trumpCard),
    trumpCardPlayed: g.trumpCardPlayed,
    status: g.status,
    trick: g.trick,
    leader: g.leader,
    // Nobody is to move while a physical deal's robot hand is still being read.
    toMove: g.isOver || (snap.robotCards !== undefined && snap.robotCards < 10) ? null : g.toMove,
    table,
    plays,
    lastTrick,
    points: [g.points(0), g.points(1)],
    handSizes: [g.handSize(0), g.handSize(1), g.handSize(2), g.handSize(3)],
    hands: g.handsKnown
      ? [...hostedSeats].sort((a, b) => a - b).map((seat) => ({ seat, cards: g.hand(seat).map(formatCard) }))
      : [],
    outcome: g.outcome ? { winner: g.outcome.winner, victories: g.outcome.victories } : null,
    renounce: r
      ? {
          seat: r.seat,
          trick: r.trick,
          card: formatCard(r.card),
          ...(r.discovered ? { discovered: { trick: r.discovered.trick, card: formatCard(r.discovered.card) } } : {}),
        }
      : null,
    awaiting: snap.awaiting ? play(snap.awaiting.seat, snap.awaiting.card) : null,
    ...(snap.robotCards === undefined ? {} : { robotCards: snap.robotCards }),
    ...(snap.spots === undefined
      ? {}
      : { spots: snap.spots.map((x) => ({ seat: x.seat, card: formatCard(x.card), trick: x.trick })) }),
  };
}

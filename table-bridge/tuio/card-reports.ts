// What a card placed or lifted on a camera table means to the runtime, given the session's state: the
// protocol event to send, or why nothing is sent. Pure, so every rule is a unit test.
//
// - A seat's play spot: placed is card:detected (a play, the robot's announced card included), lifted
//   is card:removed (a played card taken back, which the runtime asks to be put back, or a trick
//   gathered, which it accepts).
// - The robot's hand area: both ways, since the runtime reads the robot's hand from it; between games
//   nothing (the adapter reads what lies there once the next game starts). People's hand
//   areas: nothing; the runtime does not track people's hands, and a card slid from a hand area to a
//   play spot is played when it settles on the spot.
// - The trump area, when no game is being played: the next game with that card turned up, dealt by the
//   seat due (the first game's from the settings, then the seat after the last dealer). After the
//   session's last game too: a runtime that serves session after session starts the next one with it,
//   and one that does not answers `session-over`.

import type { Seat } from '../../game/index.js';
import type { TableState } from '../messages.js';
import type { LinkEvent } from './table-link.js';
import type { PlacementEvent } from './placements.js';
import { zoneName } from './placements.js';

type CardReport = { send: LinkEvent } | { ignore: string };

/** The seat due to deal the next game: the first game's, or the seat after the last game's dealer. */
export function dealerDue(state: TableState, firstDealer: Seat): Seat {
  return state.game ? (((state.game.dealer + 1) & 3) as Seat) : firstDealer;
}

export function cardReport(e: PlacementEvent, state: TableState, firstDealer: Seat): CardReport {
  const z = e.zone;
  const ref = { fiducial: e.fiducial };
  if (z.area === 'trump') {
    if (e.type === 'lifted') return { ignore: 'a card taken from the trump area (the dealer keeps it)' };
    if (state.game?.status === 'playing')
      return { ignore: `a card in the trump area while game ${state.game.index + 1} is being played` };
    return {
      send: {
        event: 'game:control',
        body: { action: 'new-game', deal: { dealer: dealerDue(state, firstDealer), trump: ref } },
      },
    };
  }
  const zone = { area: z.area, seat: z.seat };
  if (z.area === 'hand' && z.seat !== state.robotSeat)
    return { ignore: `${zoneName(z)}: people's hands are not tracked` };
  // People deal before the trump card is shown: the robot's cards are read when the game starts.
  if (z.area === 'hand' && state.game?.status !== 'playing')
    return { ignore: `${zoneName(z)}: no game yet (the cards lying there are read when it starts)` };
  return { send: { event: e.type === 'placed' ? 'card:detected' : 'card:removed', body: { zone, ...ref } } };
}

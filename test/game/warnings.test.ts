// Warnings of the situation in the training mode: built deals where each holds, and where
// it must not (the ace of trumps with the team, a trump still out with the opponents). Only the team's
// two hands and the table count: the opponents' hands are never read.

import { describe, expect, it } from 'vitest';
import { Game, parseCard, situationWarnings } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import { builtGame } from './built-deal.js';

const game = builtGame;

const kinds = (g: Game, robot: Seat = 0) => situationWarnings(g, robot).map((w) => w.kind);

describe('warnings of the situation', () => {
  it("the ace of trumps on the other side of the partner's seven", () => {
    // Trumps are hearts; the partner (seat 2) holds the seven, seat 1 the ace.
    const g = game({ dealer: 3, trumpCard: '2H', hands: { 1: 'AH', 2: '7H 3S' } });
    expect(situationWarnings(g, 0)).toEqual([{ kind: 'ace-with-them', card: parseCard('AH') }]);
    // With the robot, or played, it is no warning.
    expect(kinds(game({ dealer: 3, trumpCard: '2H', hands: { 0: 'AH', 2: '7H 3S' } }))).toEqual([]);
    // Without the seven, nothing to warn about either.
    expect(kinds(game({ dealer: 3, trumpCard: '2H', hands: { 1: 'AH', 2: 'KH 3S' } }))).toEqual([]);
  });

  it('no trumps left with the opponents, from the two hands and the table only', () => {
    // Every heart but the dealer's turned-up two is in seats 0 and 2; the dealer (seat 3) holds the two.
    const all = { 0: 'AH 7H KH JH QH', 2: '6H 5H 4H 3H AS' } as const;
    expect(kinds(game({ dealer: 3, trumpCard: '2H', hands: all }))).toEqual([]);
    // With the dealer's two of trumps played, none is out with them.
    const g = game({ dealer: 0, trumpCard: '2H', hands: { 0: 'AH 7H KH JH QH 2H', 2: '6H 5H 4H 3H AS' } });
    expect(kinds(g)).toEqual(['no-trumps-with-them']);
    // One trump with an opponent: nothing said.
    expect(
      kinds(game({ dealer: 0, trumpCard: '2H', hands: { 0: 'AH 7H KH JH 2H', 1: 'QH', 2: '6H 5H 4H 3H AS' } })),
    ).toEqual([]);
  });

  it("needs both of the team's hands, and a game still going", () => {
    const g = new Game({ dealer: 3, trumpCard: parseCard('2H'), hands: null });
    expect(situationWarnings(g, 0)).toEqual([]);
  });
});

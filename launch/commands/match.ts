// parceiro match: plays a short simulated session and narrates it trick by trick. Until the robot
// runtime exists this is what `npm start` shows.

import type { Card, Deal, GameEvent, Player, Seat, SessionScore } from '../../game/index.js';
import { performance } from 'node:perf_hooks';
import {
  SUITS,
  deriveSeed,
  formatCard,
  playSession,
  playerFactory,
  sessionWinner,
  suitOf,
  teamName,
  teamOf,
} from '../../game/index.js';
import { loadLevels } from '../levels.js';
import { parseTeam } from './tournament.js';

interface MatchOptions {
  teamA: string;
  teamB: string;
  games: number;
  seed: number;
  quiet: boolean;
  budget: number;
  /** The levels of play's settings for `level:` players (default: config/levels.yaml). */
  levels?: string;
}

const SUIT_NAMES = ['espadas (spades)', 'copas (hearts)', 'ouros (diamonds)', 'paus (clubs)'];

const team = (option: string, value: string): [string, string] => parseTeam(option, value);

export function matchCommand(o: MatchOptions, write: (line: string) => void): SessionScore {
  const [a0, a1] = team('--team-a', o.teamA);
  const [b0, b1] = team('--team-b', o.teamB);
  const kinds = [a0, b0, a1, b1];
  const levels = kinds.some((k) => k.startsWith('level:'))
    ? loadLevels(...(o.levels !== undefined ? [o.levels] : []))
    : undefined;
  const players: Player[] = kinds.map((k, s) =>
    playerFactory(k)({
      seat: s as Seat,
      seed: deriveSeed(o.seed, s, 0x9a7e),
      clock: () => performance.now(),
      budgetMs: o.budget,
      ...(levels ? { levels } : {}),
    }),
  );
  const who = (s: Seat): string => `seat ${s} (${teamName(teamOf(s))}, ${kinds[s]})`;
  const hand = (cards: readonly Card[]): string =>
    SUITS.map((_, su) =>
      cards
        .filter((c) => suitOf(c) === su)
        .sort((x, y) => y - x)
        .map(formatCard)
        .join(' '),
    )
      .filter(Boolean)
      .join('  ');

  write(`Parceiro: a simulated Sueca match, ${o.games} game${o.games === 1 ? '' : 's'}, seed ${o.seed}`);
  write(`Team A: seat 0 ${a0}, seat 2 ${a1}    Team B: seat 1 ${b0}, seat 3 ${b1}`);

  let trickLine: string[] = [];
  const onEvent = (e: GameEvent): void => {
    if (o.quiet) return;
    if (e.type === 'deal') write(`  ${who(e.seat).padEnd(20)} ${hand(e.hand)}`);
    else if (e.type === 'play')
      trickLine.push(`${trickLine.length ? '' : `seat ${e.seat} leads `}${formatCard(e.card)}`);
    else if (e.type === 'trick') {
      write(
        `  trick ${String(e.trick + 1).padStart(2)}: ${trickLine.join(', ')} -> ${who(e.winner)} takes ${e.points}`,
      );
      trickLine = [];
    } else if (e.type === 'end' && e.renounce) {
      write(
        `  renounce! seat ${e.renounce.seat} did not follow suit with ${formatCard(e.renounce.card)} in trick ${e.renounce.trick + 1}`,
      );
    }
  };

  const score = playSession(players, {
    games: o.games,
    seed: o.seed,
    firstDealer: 0,
    hooks: { onEvent },
    onGameStart: (i, deal: Deal) => {
      write('');
      write(
        `Game ${i + 1}: seat ${deal.dealer} deals and turns up ${formatCard(deal.trumpCard)}: trumps are ${SUIT_NAMES[suitOf(deal.trumpCard)]}`,
      );
    },
    onGameEnd: (_i, game, s) => {
      const out = game.outcome!;
      const verdict =
        out.winner === 'draw'
          ? 'a draw, no victories'
          : `team ${out.winner} wins ${out.victories} ${out.victories === 1 ? 'victory' : 'victories'}`;
      write(
        `  points A ${game.points(0)} - B ${game.points(1)}: ${verdict}.   Session: A ${s.victories[0]} - B ${s.victories[1]}`,
      );
    },
  });
  const w = sessionWinner(score);
  write('');
  write(
    `Session over: team A ${score.victories[0]} victories, team B ${score.victories[1]}: ${w === 'draw' ? 'a draw' : `team ${w} wins the session`}.`,
  );
  return score;
}

// The session's verdicts on table events, as pure functions of the context: the machine's guards and
// actions both call them, so a refused event changes nothing and its reason is the engine's own.

import type { Card, Game, Seat } from '../../game/index.js';
import { PlayError, formatCard } from '../../game/index.js';
import type { CardEvent, ControlEvent, TableInfo, Verdict } from '../../table-bridge/index.js';
import { accept, refuse } from '../../table-bridge/index.js';
import type { SessionContext } from './session-machine.js';

type Ctx = Pick<SessionContext, 'config' | 'score' | 'current' | 'tables' | 'lifted'>;

/** The card `seat` has on its spot in the current trick, if any. */
export function onSpot(game: Game, seat: Seat): Card | undefined {
  const i = (seat - game.leader) & 3;
  return i < game.cardsInTrick ? game.trickCard(i) : undefined;
}

export function judgeHello(ctx: Ctx, table: TableInfo): Verdict {
  const robot = ctx.config.robotSeat;
  if (table.seats.includes(robot)) return refuse('seat-taken', `seat ${robot} is the robot's; the runtime plays it`);
  for (const other of ctx.tables.values()) {
    const shared = other.id === table.id ? [] : table.seats.filter((s) => other.seats.includes(s));
    if (shared.length) return refuse('seat-taken', `seat ${shared[0]} is hosted by table ${other.id}`);
  }
  return accept();
}

export function judgeNewGame(ctx: Ctx, event: Extract<ControlEvent, { action: 'new-game' }>, paused: boolean): Verdict {
  const { games } = ctx.config;
  if (ctx.score.games >= games) return refuse('session-over', `the session of ${games} games is over`);
  const cur = ctx.current;
  if (cur && !cur.game.isOver) return refuse('game-in-progress', `game ${cur.index + 1} is still being played`);
  if (event.deal) {
    return refuse('unsupported', 'a physical deal (hands unknown to the runtime) is not supported yet: send new-game without a deal and the runtime deals');
  }
  if (paused) return refuse('paused', 'the session is paused');
  return accept();
}

export interface CardJudgement {
  verdict: Verdict;
  /** The card is a legal play for its seat now: the machine plays it. */
  apply: boolean;
  /** A lifted card is back on its spot. */
  putBack: boolean;
}

const no = (verdict: Verdict): CardJudgement => ({ verdict, apply: false, putBack: false });

export function judgeCard(ctx: Ctx, e: CardEvent, paused: boolean): CardJudgement {
  const cur = ctx.current;
  if (!cur) return no(refuse('no-game', 'no game is being played; start one with game:control new-game'));
  if (e.zone.area === 'hand') return no(accept('hand areas are not tracked: the runtime dealt the cards'));
  const { game } = cur;
  const { seat } = e.zone;
  const name = formatCard(e.card);
  if (onSpot(game, seat) === e.card) {
    // Seen again where it lies: a second read, or a lifted card put back. Nothing changes.
    if (ctx.lifted.has(e.card)) return { verdict: accept(`${name} was put back on seat ${seat}'s spot`), apply: false, putBack: true };
    return no(accept(`${name} is already on seat ${seat}'s spot`));
  }
  if (game.isOver) return no(refuse('game-over', `the game is over; ${name} cannot be played`));
  if (paused) return no(refuse('paused', `the game is paused; ${name} was not played`));
  if (seat === ctx.config.robotSeat) return no(refuse('not-your-seat', `seat ${seat} is the robot's; the runtime plays its cards`));
  if (!e.table.seats.includes(seat)) return no(refuse('not-your-seat', `table ${e.table.id} does not host seat ${seat}`));
  try {
    game.clone().play(e.card, seat);
  } catch (err) {
    if (err instanceof PlayError) return no(refuse(err.code, err.message));
    throw err;
  }
  return { verdict: accept(), apply: true, putBack: false };
}

export function judgeRemoved(ctx: Ctx, e: CardEvent): Verdict {
  const cur = ctx.current;
  if (!cur || e.zone.area === 'hand' || cur.game.isOver) return accept();
  if (onSpot(cur.game, e.zone.seat) !== e.card) return accept();
  return accept(`${formatCard(e.card)} was played and stays played: put it back`);
}

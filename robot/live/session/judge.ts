// The session's verdicts on table events, as pure functions of the context: the machine's guards and
// actions both call them, so a refused event changes nothing and its reason is the engine's own.

import type { Card, Game, Seat } from '../../../game/index.js';
import { PlayError, formatCard, leaderOf, nextSeat } from '../../../game/index.js';
import type { CardEvent, ControlEvent, TableInfo, Verdict } from '../../../table-bridge/index.js';
import { accept, refuse } from '../../../table-bridge/index.js';
import type { SessionContext } from './session-machine.js';

type Ctx = Pick<SessionContext, 'config' | 'score' | 'current' | 'tables' | 'lifted'>;
type Current = NonNullable<Ctx['current']>;

/** Cards a hand holds at the deal. */
export const HAND_SIZE = 10;

/** A physical deal whose robot hand is not complete yet: nobody may play. */
export function collectingRobotHand(cur: Current | null): boolean {
  return cur !== null && cur.physical !== null && cur.physical.robotHand.length < HAND_SIZE;
}

/** Who played `card` in this game and in which trick (0-based), or null when it was not played. */
export function playedBy(game: Game, card: Card): { seat: Seat; trick: number } | null {
  for (let i = 0; i < game.plays; i++) {
    if (game.playAt(i) !== card) continue;
    const trick = i >> 2;
    return { seat: nextSeat(leaderOf(game, trick), i & 3), trick };
  }
  return null;
}

/** Physical deals: the card as it lies on a play spot (the trick it was played in), if it does. */
function lyingCard(cur: Current | null, card: Card): { seat: Seat; card: Card; trick: number } | undefined {
  return cur?.physical?.spots.find((x) => x.card === card);
}

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
  if (ctx.score.games >= games)
    return refuse('session-over', `the session of ${games} game${games === 1 ? '' : 's'} is over`);
  const cur = ctx.current;
  if (cur && !cur.game.isOver) return refuse('game-in-progress', `game ${cur.index + 1} is still being played`);
  if (paused) return refuse('paused', 'the session is paused');
  // The dealer rotates one seat a game. People may have agreed otherwise, so it is only noted.
  if (event.deal && cur) {
    const expected = nextSeat(cur.game.dealer, 1);
    if (event.deal.dealer !== expected)
      return accept(
        `seat ${event.deal.dealer} deals; after seat ${cur.game.dealer} dealt, seat ${expected} was due (the dealer rotates one seat a game)`,
      );
  }
  return accept();
}

interface CardJudgement {
  verdict: Verdict;
  /** The card is a legal play for a person's seat now: the machine plays it. */
  apply: boolean;
  /** A lifted card is back on its spot. */
  putBack: boolean;
  /** Physical deal: the card joins the robot's hand (read from its hand area). */
  robotHand: boolean;
  /** Physical deal: the robot's announced card is on its spot: the machine plays it. */
  robotCard: boolean;
}

const no = (verdict: Verdict): CardJudgement => ({
  verdict,
  apply: false,
  putBack: false,
  robotHand: false,
  robotCard: false,
});

export function judgeCard(ctx: Ctx, e: CardEvent, paused: boolean): CardJudgement {
  const cur = ctx.current;
  if (!cur) return no(refuse('no-game', 'no game is being played; start one with game:control new-game'));
  if (e.zone.area === 'hand') return judgeHandArea(ctx, cur, e, paused);
  const { game } = cur;
  const { seat } = e.zone;
  const robot = ctx.config.robotSeat;
  const name = formatCard(e.card);
  if (onSpot(game, seat) === e.card) {
    // Seen again where it lies: a second read, or a lifted card put back. Nothing changes.
    if (ctx.lifted.has(e.card)) return { ...no(accept(`${name} was put back on seat ${seat}'s spot`)), putBack: true };
    return no(accept(`${name} is already on seat ${seat}'s spot`));
  }
  if (cur.physical) {
    // Physical cards stay on their spots after their trick until someone gathers them: read again
    // there (or put down again by the seat that played it) they change nothing.
    const lying = lyingCard(cur, e.card);
    if (lying && lying.seat === seat)
      return no(
        accept(
          `${name} still lies on seat ${seat}'s spot from trick ${lying.trick + 1}; it was played then and changes nothing (gather the trick when you like)`,
        ),
      );
    const by = playedBy(game, e.card);
    if (by && by.seat === seat)
      return no(accept(`${name} was played by seat ${seat} in trick ${by.trick + 1}; read again, it changes nothing`));
  }
  if (game.isOver) return no(refuse('game-over', `the game is over; ${name} cannot be played`));
  if (paused) return no(refuse('paused', `the game is paused; ${name} was not played`));
  if (collectingRobotHand(cur)) {
    const n = cur.physical!.robotHand.length;
    return no(
      refuse(
        'out-of-turn',
        `no card can be played yet: the robot's hand is not complete (${n} of its ${HAND_SIZE} cards read from its hand area); ${name} was not played`,
      ),
    );
  }
  if (seat === robot) {
    if (!cur.physical) return no(refuse('not-your-seat', `seat ${seat} is the robot's; the runtime plays its cards`));
    return judgeRobotCard(cur, robot, e);
  }
  if (!e.table.seats.includes(seat))
    return no(refuse('not-your-seat', `table ${e.table.id} does not host seat ${seat}`));
  const rules = refusedByRules(game, e.card, seat);
  return rules ? no(rules) : { ...no(accept()), apply: true };
}

/** The engine's refusal of `card` for `seat` now, or null when it would be played (on a copy: nothing changes). */
function refusedByRules(game: Game, card: Card, seat: Seat): Verdict | null {
  try {
    game.clone().play(card, seat);
  } catch (err) {
    if (err instanceof PlayError) return refuse(err.code, err.message);
    throw err;
  }
  return null;
}

/**
 * A card on the robot's spot in a physical deal: someone placed the robot's card. It counts only when
 * it is the card the robot announced; anything else changes nothing.
 */
function judgeRobotCard(cur: Current, robot: Seat, e: CardEvent): CardJudgement {
  const name = formatCard(e.card);
  const awaiting = cur.physical!.awaiting;
  if (awaiting === null) {
    if (cur.game.toMove !== robot)
      return no(
        refusedByRules(cur.game, e.card, robot) ??
          refuse('out-of-turn', `it is seat ${cur.game.toMove}'s turn, not the robot's`),
      );
    return no(
      refuse(
        'robot-card-mismatch',
        `the robot has not announced its card yet; ${name} was not played: wait for its card, then put that one on its spot`,
      ),
    );
  }
  if (e.card !== awaiting) {
    const want = formatCard(awaiting);
    return no(refuse('robot-card-mismatch', `the robot plays ${want}, not ${name}: put ${want} on its spot`));
  }
  return { ...no(accept()), robotCard: true };
}

/**
 * A card in a hand area. The runtime's own deals need none of them. In a physical deal the robot's
 * hand area is where its ten cards are dealt: each card read there joins its hand until it holds ten
 * (with the trump card if it dealt, without it otherwise); people's hand areas are not tracked.
 */
function judgeHandArea(ctx: Ctx, cur: Current, e: CardEvent, paused: boolean): CardJudgement {
  const phys = cur.physical;
  const { seat } = e.zone;
  const robot = ctx.config.robotSeat;
  if (!phys) return no(accept('hand areas are not tracked: the runtime dealt the cards'));
  if (seat !== robot)
    return no(accept(`seat ${seat}'s hand area is not tracked: people's cards count when they are played`));
  const { game } = cur;
  const name = formatCard(e.card);
  const trump = formatCard(game.trumpCard);
  if (collectingRobotHand(cur)) {
    const n = phys.robotHand.length;
    if (phys.robotHand.includes(e.card))
      return no(accept(`${name} is already in the robot's hand (${n} of ${HAND_SIZE})`));
    if (paused) return no(refuse('paused', `the game is paused; ${name} was not taken into the robot's hand`));
    if (e.card === game.trumpCard && robot !== game.dealer) {
      return no(
        refuse(
          'trump-card-in-dealer-hand',
          `${name} is the trump card, which the dealer (seat ${game.dealer}) holds: it cannot be in the robot's hand`,
        ),
      );
    }
    if (
      robot === game.dealer &&
      n === HAND_SIZE - 1 &&
      !phys.robotHand.includes(game.trumpCard) &&
      e.card !== game.trumpCard
    ) {
      return no(
        refuse(
          'trump-card-in-dealer-hand',
          `the robot dealt and turned up ${trump}, which stays in its hand: its last card must be ${trump}, not ${name}`,
        ),
      );
    }
    return { ...no(accept()), robotHand: true };
  }
  if (game.isOver)
    return no(
      refuse(
        'game-over',
        `the game is over; the robot's hand area is read again after the next new-game with a deal (${name} did not count)`,
      ),
    );
  // The hand is complete: it only loses cards by playing them.
  if (game.hand(robot).includes(e.card)) return no(accept(`${name} is in the robot's hand`));
  if (game.isPlayed(e.card))
    return no(refuse('already-played', `${name} was already played; it is not in the robot's hand`));
  return no(
    refuse(
      'not-in-hand',
      `the robot already holds its ${HAND_SIZE} cards and ${name} is not one of them: take it out of the robot's hand area`,
    ),
  );
}

/** Physical deal: a card lifted from the robot's hand area before its hand is complete leaves the hand. */
export function dropsRobotCard(ctx: Ctx, e: CardEvent): boolean {
  const cur = ctx.current;
  return (
    e.zone.area === 'hand' &&
    e.zone.seat === ctx.config.robotSeat &&
    collectingRobotHand(cur) &&
    cur!.physical!.robotHand.includes(e.card)
  );
}

/** Physical deals: a card of a finished trick taken off its spot (the trick being gathered). */
export function gathersCard(ctx: Ctx, e: CardEvent): boolean {
  const cur = ctx.current;
  if (!cur?.physical || e.zone.area !== 'play') return false;
  const lying = lyingCard(cur, e.card);
  return lying !== undefined && lying.seat === e.zone.seat && onSpot(cur.game, e.zone.seat) !== e.card;
}

export function judgeRemoved(ctx: Ctx, e: CardEvent): Verdict {
  const cur = ctx.current;
  if (cur && e.zone.area === 'hand' && e.zone.seat === ctx.config.robotSeat && collectingRobotHand(cur)) {
    return dropsRobotCard(ctx, e) ? accept() : accept(`${formatCard(e.card)} was not in the robot's hand`);
  }
  if (gathersCard(ctx, e)) {
    const { trick } = lyingCard(cur, e.card)!;
    const left = cur!.physical!.spots.filter((x) => x.trick === trick && x.card !== e.card).length;
    return left ? accept() : accept(`trick ${trick + 1} gathered`);
  }
  // Whatever else is lifted changes nothing; the note says why, for people.
  const name = formatCard(e.card);
  const { seat } = e.zone;
  if (!cur) return accept(`no game is being played; lifting ${name} changes nothing`);
  if (e.zone.area === 'hand') {
    if (!cur.physical) return accept('hand areas are not tracked: the runtime dealt the cards');
    if (seat !== ctx.config.robotSeat)
      return accept(`seat ${seat}'s hand area is not tracked: people's cards count when they are played`);
    return accept(
      `the robot's hand only loses cards by playing them; lifting ${name} from its hand area changes nothing`,
    );
  }
  if (cur.game.isOver) return accept(`the game is over; lifting ${name} changes nothing`);
  if (onSpot(cur.game, seat) !== e.card)
    return accept(`${name} is not lying on seat ${seat}'s spot as far as the runtime knows; nothing changes`);
  return accept(`${name} was played and stays played: put it back`);
}

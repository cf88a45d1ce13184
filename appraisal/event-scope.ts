// The words a rule may use about an event: its names (with types), functions and targets, per event
// type, and the values they take for one event. This is the vocabulary documented in README.md.

import type { Card, Seat } from '../game/index.js';
import { DECK, RANKS, SUITS, formatCard, partnerOf, pointsOf, suitOf, teamOf, winningIndex } from '../game/index.js';
import type { Target } from './emotions.js';
import type { AppraisalEvent, AppraisalEventType, Expectation } from './events.js';
import type { Env, FunctionSpec, RecordType, Scope, TextDomain, Value, ValueType } from './expression.js';
import { BOOLEAN, NUMBER, text } from './expression.js';
import type { GameContext } from './game-context.js';

const CARD_NAMES = new Map<string, Card>(DECK.map((c) => [formatCard(c), c]));

const ROLES = ['self', 'partner', 'opponent'] as const;
type Role = (typeof ROLES)[number];

const oneOf = (name: string, values: readonly string[], normalize = (s: string): string => s): TextDomain => ({
  name,
  check: (s) => {
    const v = normalize(s.trim());
    return values.includes(v) ? v : null;
  },
  hint: `one of ${values.map((v) => `'${v}'`).join(', ')}`,
});

const ROLE = oneOf('role', ROLES, (s) => s.toLowerCase());
export const CARD: TextDomain = {
  name: 'card',
  check: (s) => {
    const v = s.trim().toUpperCase();
    return CARD_NAMES.has(v) ? v : null;
  },
  hint: "rank then suit, e.g. 'AS', '7H'",
};
export const RANK = oneOf('rank', RANKS, (s) => s.toUpperCase());
export const SUIT = oneOf('suit', SUITS, (s) => s.toUpperCase());

const T_ROLE = text(ROLE);
const T_CARD = text(CARD);
const T_RANK = text(RANK);
const T_SUIT = text(SUIT);
const EXPECTATION: RecordType = { kind: 'record', fields: { expectedPoints: NUMBER, winProbability: NUMBER } };

/** The names every event has. */
const COMMON: Record<string, ValueType | RecordType> = {
  self: NUMBER,
  partner: NUMBER,
  /** The opponents one by one: the seat after the robot's, and the one before it. */
  nextOpponent: NUMBER,
  prevOpponent: NUMBER,
  trick: NUMBER,
  before: EXPECTATION,
  after: EXPECTATION,
  delta: NUMBER,
  winDelta: NUMBER,
  hasBeliefs: BOOLEAN,
  ourPoints: NUMBER,
  theirPoints: NUMBER,
  ourVictories: NUMBER,
  theirVictories: NUMBER,
  trumpSuit: T_SUIT,
};

const OUTCOME = { won: BOOLEAN, lost: BOOLEAN, drawn: BOOLEAN };

/** The names particular to each event type. */
const PARTICULAR: Record<AppraisalEventType, Record<string, ValueType>> = {
  deal: { dealer: NUMBER, trumpCard: T_CARD, handPoints: NUMBER, handTrumps: NUMBER },
  trump: { dealer: NUMBER, trumpCard: T_CARD },
  play: {
    player: NUMBER,
    card: T_CARD,
    lead: BOOLEAN,
    tablePoints: NUMBER,
    winning: BOOLEAN,
    choice: NUMBER,
    surprise: NUMBER,
  },
  trick: {
    leader: NUMBER,
    winner: NUMBER,
    points: NUMBER,
    selfCard: T_CARD,
    partnerCard: T_CARD,
    winnerCard: T_CARD,
    nextOpponentCard: T_CARD,
    prevOpponentCard: T_CARD,
  },
  end: { ...OUTCOME, victories: NUMBER, byRenounce: BOOLEAN },
  renounce: { player: NUMBER, card: T_CARD, discovered: BOOLEAN },
  'session-end': { ...OUTCOME, games: NUMBER },
};

/** Target words: who an appraisal variable is about. */
export const TARGET_WORDS = [
  'self',
  'partner',
  'team',
  'opponents',
  'nextOpponent',
  'prevOpponent',
  'player',
  'winner',
  'leader',
  'dealer',
] as const;
export type TargetWord = (typeof TARGET_WORDS)[number];

const SEAT_WORDS: Record<AppraisalEventType, readonly TargetWord[]> = {
  deal: ['dealer'],
  trump: ['dealer'],
  play: ['player'],
  trick: ['winner', 'leader'],
  end: [],
  renounce: ['player'],
  'session-end': [],
};

/** The target words an event type knows. */
export const targetWords = (type: AppraisalEventType): readonly TargetWord[] => [
  'self',
  'partner',
  'team',
  'opponents',
  'nextOpponent',
  'prevOpponent',
  ...SEAT_WORDS[type],
];

/** The seat or team a target word names for this event. */
export function resolveTarget(word: TargetWord, env: Env): Target {
  if (word === 'team' || word === 'opponents') return word;
  return env[word] as Seat;
}

const cardOf = (s: unknown): Card | undefined => CARD_NAMES.get(s as string);

const fn = (
  params: ValueType[],
  returns: ValueType,
  impl: FunctionSpec['impl'],
  extra: Partial<FunctionSpec> = {},
): FunctionSpec => ({ params, returns, impl, ...extra });

const roleOf = (env: Env, seat: number): Role =>
  seat === env.self ? 'self' : seat === env.partner ? 'partner' : 'opponent';

const FUNCTIONS = new Map<string, FunctionSpec>([
  [
    'role',
    fn([NUMBER], T_ROLE, ((env: Env, seat: number) => roleOf(env, seat)) as FunctionSpec['impl'], { readsEvent: true }),
  ],
  [
    'ours',
    fn(
      [NUMBER],
      BOOLEAN,
      ((env: Env, seat: number) => ((seat ^ (env.self as number)) & 1) === 0) as FunctionSpec['impl'],
      { readsEvent: true },
    ),
  ],
  [
    'isTrump',
    fn(
      [T_CARD],
      BOOLEAN,
      ((env: Env, card: string) => card !== '' && card.slice(-1) === env.trumpSuit) as FunctionSpec['impl'],
      { readsEvent: true },
    ),
  ],
  [
    'points',
    fn([T_CARD], NUMBER, ((_: Env, card: string) => {
      const c = cardOf(card);
      return c === undefined ? 0 : pointsOf(c);
    }) as FunctionSpec['impl']),
  ],
  ['rank', fn([T_CARD], T_RANK, ((_: Env, card: string) => card.slice(0, -1)) as FunctionSpec['impl'])],
  ['suit', fn([T_CARD], T_SUIT, ((_: Env, card: string) => card.slice(-1)) as FunctionSpec['impl'])],
  ['abs', fn([NUMBER], NUMBER, ((_: Env, x: number) => Math.abs(x)) as FunctionSpec['impl'])],
  ['sign', fn([NUMBER], NUMBER, ((_: Env, x: number) => Math.sign(x)) as FunctionSpec['impl'])],
  ['round', fn([NUMBER], NUMBER, ((_: Env, x: number) => Math.round(x)) as FunctionSpec['impl'])],
  [
    'min',
    fn([NUMBER, NUMBER], NUMBER, ((_: Env, ...xs: number[]) => Math.min(...xs)) as FunctionSpec['impl'], {
      variadic: true,
    }),
  ],
  [
    'max',
    fn([NUMBER, NUMBER], NUMBER, ((_: Env, ...xs: number[]) => Math.max(...xs)) as FunctionSpec['impl'], {
      variadic: true,
    }),
  ],
  [
    'clamp',
    fn([NUMBER, NUMBER, NUMBER], NUMBER, ((_: Env, x: number, lo: number, hi: number) =>
      Math.min(hi, Math.max(lo, x))) as FunctionSpec['impl']),
  ],
]);

const SCOPES = Object.fromEntries(
  (Object.keys(PARTICULAR) as AppraisalEventType[]).map((t) => [
    t,
    { variables: new Map(Object.entries({ ...COMMON, ...PARTICULAR[t] })), functions: FUNCTIONS } satisfies Scope,
  ]),
) as unknown as Record<AppraisalEventType, Scope>;

/** The names several event types share, for a rule that listens to all of them. */
export function sharedScope(types: readonly AppraisalEventType[]): Scope {
  if (types.length === 1) return SCOPES[types[0]!];
  const variables = new Map<string, ValueType | RecordType>();
  for (const [name, t] of SCOPES[types[0]!].variables) {
    if (types.every((k) => SCOPES[k].variables.get(name) === t || sameType(SCOPES[k].variables.get(name), t)))
      variables.set(name, t);
  }
  return { variables, functions: FUNCTIONS };
}

const sameType = (a: ValueType | RecordType | undefined, b: ValueType | RecordType): boolean =>
  a !== undefined && a.kind === b.kind && (a.kind !== 'text' || (b.kind === 'text' && a.domain === b.domain));

const txt = (c: Card | undefined): string => (c === undefined ? '' : formatCard(c));

/** A change no bigger than `band` reads 0: it is within the estimates' noise. */
const beyond = (change: number, band: number): number => (Math.abs(change) <= band ? 0 : change);

/**
 * The values of an event's names; `after` is the game context with the event applied; `surprise` the
 * event's unexpectedness (0..1); `noiseBand` how many standard errors of the two estimates' difference
 * a change of expectation must exceed to count (delta and winDelta are 0 within it).
 */
export function eventEnv(
  e: AppraisalEvent,
  after: GameContext,
  was: Expectation,
  now: Expectation,
  hasBeliefs: boolean,
  choice = 1,
  surprise = 0,
  noiseBand = 0,
): Env {
  const self = after.self;
  const us = teamOf(self);
  const env: Record<string, Value | Expectation> = {
    self,
    partner: partnerOf(self),
    nextOpponent: (self + 1) & 3,
    prevOpponent: (self + 3) & 3,
    trick: after.trick,
    before: was,
    after: now,
    delta: beyond(
      now.expectedPoints - was.expectedPoints,
      noiseBand * Math.hypot(was.pointsSe ?? 0, now.pointsSe ?? 0),
    ),
    winDelta: beyond(now.winProbability - was.winProbability, noiseBand * Math.hypot(was.winSe ?? 0, now.winSe ?? 0)),
    hasBeliefs,
    ourPoints: after.points[us],
    theirPoints: after.points[1 - us]!,
    ourVictories: after.victories[us],
    theirVictories: after.victories[1 - us]!,
    trumpSuit: after.trump === null ? '' : SUITS[after.trump],
  };
  switch (e.type) {
    case 'deal': {
      env.dealer = e.dealer;
      env.trumpCard = formatCard(e.trumpCard);
      env.handPoints = e.hand.reduce((p, c) => p + pointsOf(c), 0);
      env.handTrumps = e.hand.filter((c) => suitOf(c) === suitOf(e.trumpCard)).length;
      break;
    }
    case 'trump':
      env.dealer = e.dealer;
      env.trumpCard = formatCard(e.trumpCard);
      break;
    case 'play': {
      const table = after.table;
      env.player = e.seat;
      env.card = formatCard(e.card);
      env.lead = table.length === 1;
      env.tablePoints = table.reduce((p, c) => p + pointsOf(c), 0);
      env.winning = winningIndex(table, after.trump) === table.length - 1;
      env.trick = e.trick;
      env.choice = Math.min(1, Math.max(0, choice));
      env.surprise = Math.min(1, Math.max(0, surprise));
      break;
    }
    case 'trick': {
      const at = (seat: Seat): Card | undefined => e.cards[(seat - e.leader) & 3];
      env.leader = e.leader;
      env.winner = e.winner;
      env.points = e.points;
      env.selfCard = txt(at(self));
      env.partnerCard = txt(at(partnerOf(self)));
      env.winnerCard = txt(at(e.winner));
      env.nextOpponentCard = txt(at(((self + 1) & 3) as Seat));
      env.prevOpponentCard = txt(at(((self + 3) & 3) as Seat));
      env.trick = e.trick;
      break;
    }
    case 'end': {
      const w = e.outcome.winner;
      env.won = w !== 'draw' && (w === 'A' ? 0 : 1) === us;
      env.lost = w !== 'draw' && (w === 'A' ? 0 : 1) !== us;
      env.drawn = w === 'draw';
      env.victories = e.outcome.victories;
      env.byRenounce = e.renounce !== null;
      break;
    }
    case 'renounce':
      env.player = e.renounce.seat;
      env.card = formatCard(e.renounce.card);
      env.discovered = e.renounce.discovered !== undefined;
      env.trick = e.renounce.trick;
      break;
    case 'session-end': {
      const [a, b] = e.victories;
      const ours = us === 0 ? a : b;
      const theirs = us === 0 ? b : a;
      env.won = ours > theirs;
      env.lost = ours < theirs;
      env.drawn = ours === theirs;
      env.games = e.games;
      break;
    }
  }
  return env;
}

// Scenarios: a sequence of events with beliefs and times, one JSON object per line, in the event
// format the runtime speaks (robot/arena/external-player/PROTOCOL.md: cards in card notation), plus the
// appraisal's own events and a `wait`. Parsing is pure; a bad line is a ScenarioError with its line.

import { z } from 'zod';
import type { Card, Renounce, Seat } from '../game/index.js';
import { CardParseError, parseCard, pointsOf } from '../game/index.js';
import type { AppraisalEvent, Expectation, Perception } from './events.js';

export type ScenarioStep =
  /** An event to appraise at `atMs`. */
  | { line: number; atMs: number; perception: Perception }
  /** Only time passing: report what is felt at `atMs`. */
  | { line: number; atMs: number; perception: null };

export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${source}:${line}: ${reason}`);
    this.name = 'ScenarioError';
  }
}

const card = z.string({ error: 'expected a card in card notation, e.g. "AS"' }).transform((s, ctx): Card => {
  try {
    return parseCard(s);
  } catch (e) {
    if (!(e instanceof CardParseError)) throw e;
    ctx.issues.push({ code: 'custom', message: e.message, input: s });
    return z.NEVER;
  }
});
const seat = z
  .number({ error: 'expected a seat 0-3' })
  .int('expected a seat 0-3')
  .min(0, 'expected a seat 0-3')
  .max(3, 'expected a seat 0-3') as unknown as z.ZodType<Seat>;
const trickIndex = z
  .number({ error: 'expected a trick 0-9' })
  .int('expected a trick 0-9')
  .min(0, 'expected a trick 0-9')
  .max(9, 'expected a trick 0-9');
const expectation = z.strictObject({
  expectedPoints: z
    .number({ error: 'expected points 0-120' })
    .min(0, 'expected points 0-120')
    .max(120, 'expected points 0-120'),
  winProbability: z
    .number({ error: 'expected a probability 0-1' })
    .min(0, 'expected a probability 0-1')
    .max(1, 'expected a probability 0-1'),
  // How noisy each is as an estimate (its standard error): the character's noiseBand takes smaller changes as noise.
  pointsSe: z
    .number({ error: 'expected a standard error in points, 0 or more' })
    .min(0, 'expected a standard error in points, 0 or more')
    .optional(),
  winSe: z
    .number({ error: 'expected a standard error of a probability, 0 or more' })
    .min(0, 'expected a standard error of a probability, 0 or more')
    .optional(),
});
/** The robot player's beliefs as it reports them (game/decision.ts `Beliefs`); only what appraisal reads is checked. */
const playerBeliefs = z.looseObject({
  moves: z
    .array(z.looseObject({ mean: z.number({ error: 'expected the mean points of the card' }) }), {
      error: 'expected the moves of the beliefs',
    })
    .min(1, 'needs at least one move'),
  winProbability: z.number({ error: 'expected a probability 0-1' }).min(0).max(1),
});

const common = {
  atMs: z.number({ error: 'expected a time in milliseconds' }).min(0, 'expected a time of 0 ms or more').optional(),
  before: expectation.optional(),
  after: expectation.optional(),
  beliefs: playerBeliefs.optional(),
  note: z.string().optional(),
};

const renounce = z.strictObject({
  seat,
  trick: trickIndex,
  card,
  discovered: z.strictObject({ trick: trickIndex, card }).optional(),
});

const twoCounts = (max: number, what: string) =>
  z.tuple([z.number().int().min(0).max(max), z.number().int().min(0).max(max)], {
    error: `expected [team A, team B] ${what}`,
  });

const SCHEMAS = {
  deal: z.strictObject({
    ...common,
    type: z.literal('deal'),
    game: z.number().optional(),
    seat,
    dealer: seat,
    trump: card,
    hand: z.array(card).max(10, 'a hand has at most 10 cards').optional(),
  }),
  trump: z.strictObject({ ...common, type: z.literal('trump'), dealer: seat, trump: card }),
  play: z.strictObject({
    ...common,
    type: z.literal('play'),
    seat,
    card,
    trick: trickIndex,
    /** How unexpected the card was to the robot's prediction, 0..1 (robot/live/node/prediction.ts). */
    surprise: z
      .number({ error: 'expected a surprise 0-1' })
      .min(0, 'expected a surprise 0-1')
      .max(1, 'expected a surprise 0-1')
      .optional(),
  }),
  trick: z.strictObject({
    ...common,
    type: z.literal('trick'),
    trick: trickIndex,
    leader: seat,
    cards: z.array(card).length(4, 'a trick has 4 cards, from the leader on'),
    winner: seat,
    points: z.number().int().min(0).max(44).optional(),
  }),
  end: z.strictObject({
    ...common,
    type: z.literal('end'),
    points: twoCounts(120, 'card points'),
    outcome: z.strictObject({
      winner: z.enum(['A', 'B', 'draw'], { error: 'expected "A", "B" or "draw"' }),
      victories: z.number().int().min(0).max(4),
    }),
    renounce: renounce.nullable().optional(),
  }),
  renounce: z.strictObject({ ...common, ...renounce.shape, type: z.literal('renounce') }),
  'session-end': z.strictObject({
    ...common,
    type: z.literal('session-end'),
    victories: twoCounts(1000, 'victories'),
    games: z.number().int().min(1),
  }),
  wait: z.strictObject({
    type: z.literal('wait'),
    atMs: z.number({ error: 'a wait needs atMs: the time to report at' }).min(0),
    note: z.string().optional(),
  }),
} as const;
type StepType = keyof typeof SCHEMAS;

const path = (p: readonly PropertyKey[]): string =>
  p.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${String(k)}` : String(k))).join('');

/** Parses a scenario. `source` names it in errors (a file name, or "standard input"). */
export function parseScenario(text: string, source: string): ScenarioStep[] {
  const steps: ScenarioStep[] = [];
  let time = 0;
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('//')) return;
    const fail = (reason: string): never => {
      throw new ScenarioError(source, line, reason);
    };
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      fail(`not valid JSON (${(e as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail('expected a JSON object with a "type"');
    const type = (value as { type?: unknown }).type;
    if (typeof type !== 'string' || !(type in SCHEMAS))
      fail(`type: expected one of ${Object.keys(SCHEMAS).join(', ')}, got ${JSON.stringify(type)}`);
    const parsed = SCHEMAS[type as StepType].safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.code === 'unrecognized_keys' ? issue.keys[0]! : path(issue.path);
      fail(`${where ? `${where}: ` : ''}${issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message}`);
    }
    const d = parsed.data as Record<string, unknown> & { atMs?: number };
    if (d.atMs !== undefined) {
      if (d.atMs < time)
        fail(`atMs: ${d.atMs} is before the previous line's time (${time} ms); times must not go back`);
      time = d.atMs;
    }
    if (type === 'wait') {
      steps.push({ line, atMs: time, perception: null });
      return;
    }
    const event = toEvent(type as Exclude<StepType, 'wait'>, d, fail);
    if (d.after !== undefined && d.beliefs !== undefined) fail('give either after or beliefs, not both');
    const beliefs = d.beliefs as z.infer<typeof playerBeliefs> | undefined;
    const after: Expectation | undefined =
      (d.after as Expectation | undefined) ??
      (beliefs ? { expectedPoints: beliefs.moves[0]!.mean, winProbability: beliefs.winProbability } : undefined);
    const before = d.before as Expectation | undefined;
    const surprise = d.surprise as number | undefined;
    const perception: Perception = {
      event,
      ...(before || after ? { beliefs: { ...(before ? { before } : {}), ...(after ? { after } : {}) } } : {}),
      ...(surprise ? { surprise } : {}),
    };
    steps.push({ line, atMs: time, perception });
  });
  return steps;
}

type Data = Record<string, unknown>;

function toRenounce(d: Data): Renounce {
  const r: Renounce = { seat: d.seat as Seat, trick: d.trick as number, card: d.card as Card };
  const found = d.discovered as { trick: number; card: Card } | undefined;
  if (found) r.discovered = found;
  return r;
}

function toEvent(type: Exclude<StepType, 'wait'>, d: Data, fail: (reason: string) => never): AppraisalEvent {
  switch (type) {
    case 'deal':
      return {
        type,
        seat: d.seat as Seat,
        dealer: d.dealer as Seat,
        trumpCard: d.trump as Card,
        hand: (d.hand as Card[] | undefined) ?? [],
      };
    case 'trump':
      return { type, dealer: d.dealer as Seat, trumpCard: d.trump as Card };
    case 'play':
      return { type, seat: d.seat as Seat, card: d.card as Card, trick: d.trick as number };
    case 'trick': {
      const cards = d.cards as Card[];
      const points = cards.reduce((p, c) => p + pointsOf(c), 0);
      if (d.points !== undefined && d.points !== points)
        fail(`points: ${d.points as number} does not match the cards, which hold ${points}`);
      if (new Set(cards).size !== 4) fail('cards: a card appears twice');
      return { type, trick: d.trick as number, leader: d.leader as Seat, cards, winner: d.winner as Seat, points };
    }
    case 'end': {
      const pts = d.points as [number, number];
      if (pts[0] + pts[1] > 120) fail(`points: ${pts[0]} + ${pts[1]} is more than the 120 in the deck`);
      const r = d.renounce as Data | null | undefined;
      return {
        type,
        points: pts,
        outcome: d.outcome as { winner: 'A' | 'B' | 'draw'; victories: number },
        renounce: r ? toRenounce(r) : null,
      };
    }
    case 'renounce':
      return { type, renounce: toRenounce(d) };
    case 'session-end':
      return { type, victories: d.victories as [number, number], games: d.games as number };
  }
}

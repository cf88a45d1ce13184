import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../game/index.js';
import { Game, SeatView, RandomPlayer, createRng, dealCards } from '../../game/index.js';
import type { InboundEvent } from '../../table-bridge/index.js';
import {
  INBOUND_SCHEMAS,
  tableState,
  tableStateSchema,
  validateInbound,
  validateOutbound,
} from '../../table-bridge/index.js';

const EVENTS = Object.keys(INBOUND_SCHEMAS) as InboundEvent[];

const VALID: Record<InboundEvent, Record<string, unknown>> = {
  hello: {
    protocol: 1,
    token: 'secret',
    table: { id: 'touch-1', name: 'the touch table', kind: 'touch' },
    seats: [1, 2, 3],
  },
  'card:detected': { seq: 4, zone: { area: 'play', seat: 2 }, fiducial: 12 },
  'card:removed': { seq: 5, zone: { area: 'hand', seat: 0 }, card: '7H' },
  'game:control': { seq: 6, action: 'new-game', deal: { dealer: 3, trump: { card: 'AS' } } },
};

const reasonOf = (event: InboundEvent, payload: unknown): string => {
  const r = validateInbound(event, payload);
  if (r.ok) throw new Error(`expected ${JSON.stringify(payload)} to be refused`);
  return r.reason;
};

describe('inbound schemas', () => {
  it('accept the documented examples', () => {
    for (const e of EVENTS) expect(validateInbound(e, VALID[e])).toMatchObject({ ok: true });
    expect(validateInbound('game:control', { seq: 1, action: 'pause' })).toMatchObject({ ok: true });
    expect(validateInbound('game:control', { seq: 1, action: 'new-game' })).toMatchObject({ ok: true });
    // Unknown fields are ignored within a version.
    expect(validateInbound('card:detected', { ...VALID['card:detected'], confidence: 0.9 })).toMatchObject({
      ok: true,
    });
  });

  it('say what was wrong and where', () => {
    expect(reasonOf('card:detected', { seq: 1, zone: { area: 'play', seat: 7 }, fiducial: 3 })).toBe(
      'card:detected.zone.seat: expected a seat 0..3, got 7',
    );
    expect(reasonOf('card:detected', { seq: 1, zone: { area: 'play', seat: 1 }, card: '1S' })).toBe(
      'card:detected.card: unknown card "1S"',
    );
    expect(reasonOf('card:detected', { seq: 1, zone: { area: 'play', seat: 1 }, card: 'AS', fiducial: 9 })).toContain(
      'exactly one of fiducial or card, got both',
    );
    expect(reasonOf('card:detected', { seq: 1, zone: { area: 'play', seat: 1 } })).toContain('got neither');
    expect(reasonOf('card:removed', { seq: 0, zone: { area: 'table', seat: 1 }, fiducial: -2 })).toMatch(
      /^card:removed\.seq: expected a sequence number .*got 0; card:removed\.zone\.area: expected "hand" or "play", got "table"; card:removed\.fiducial: .*got -2$/,
    );
    expect(reasonOf('game:control', { seq: 2, action: 'shuffle' })).toBe(
      'game:control.action: expected "new-game", "pause", "resume", "why" or "review", got "shuffle"',
    );
    expect(reasonOf('game:control', { seq: 2, action: 'new-game', deal: { dealer: 1, trump: { card: 'ZZ' } } })).toBe(
      'game:control.deal.trump.card: unknown card "ZZ"',
    );
    expect(reasonOf('hello', { ...VALID.hello, seats: [1, 1] })).toBe('hello.seats: a seat is listed twice');
    expect(reasonOf('hello', { ...VALID.hello, table: { id: 'a b', name: 'x', kind: 'touch' } })).toMatch(
      /^hello\.table\.id: expected 1-64 letters/,
    );
    expect(reasonOf('hello', 'hi')).toBe('hello: expected object, got "hi"');
    expect(reasonOf('card:detected', { zone: { area: 'play', seat: 1 }, fiducial: 1 })).toBe(
      'card:detected.seq: expected a sequence number (a whole number 1 or more), got nothing',
    );
  });

  it('never throw on arbitrary payloads, and refuse with a reason naming the event', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EVENTS),
        fc.anything({
          withObjectString: true,
          withNullPrototype: true,
          withMap: true,
          withSet: true,
          withBigInt: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
        }),
        (event, payload) => {
          const r = validateInbound(event, payload);
          if (!r.ok) {
            expect(r.reason.startsWith(event)).toBe(true);
            expect(r.reason.length).toBeGreaterThan(event.length + 2);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuse a valid message with one field broken, naming that field', () => {
    const leafPaths = (v: unknown, path: string[] = []): string[][] =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? Object.entries(v).flatMap(([k, x]) => leafPaths(x, [...path, k]))
        : [path];
    const withValue = (obj: unknown, path: string[], value: unknown): unknown => {
      if (!path.length) return value;
      const o = { ...(obj as Record<string, unknown>) };
      o[path[0]!] = withValue(o[path[0]!], path.slice(1), value);
      return o;
    };
    const breaking = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string(),
      fc.double(),
      fc.integer({ min: -1e6, max: -1 }),
      fc.boolean(),
      fc.object(),
      fc.array(fc.nat()),
    );
    fc.assert(
      fc.property(fc.constantFrom(...EVENTS), fc.nat(), breaking, (event, pick, value) => {
        const paths = leafPaths(VALID[event]);
        const path = paths[pick % paths.length]!;
        const r = validateInbound(event, withValue(VALID[event], path, value));
        // Some values are still valid (a string where any string goes, an optional field left out).
        if (!r.ok) expect(r.reason).toContain(event);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the state projection', () => {
  it('shows a table its own seats hands and never another seat', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 0, max: 40 }),
        fc.subarray([0, 1, 2, 3] as Seat[]),
        (seed, plays, hosted) => {
          const deal = dealCards(createRng(seed), (seed & 3) as Seat);
          const game = new Game(deal);
          const players = [0, 1, 2, 3].map((s) => new RandomPlayer({ seat: s as Seat, seed: seed + s }));
          for (let i = 0; i < plays && !game.isOver; i++)
            game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
          const state = tableState(
            {
              version: 0,
              session: { id: 's', games: 1, played: 0, victories: [0, 0], draws: 0, complete: false },
              robotSeat: 0,
              paused: false,
              game: { index: 0, deal: 'runtime', game, awaiting: null },
            },
            hosted,
          );
          expect(validateOutbound(tableStateSchema, 'state', state)).toMatchObject({ ok: true });
          const g = state.game!;
          expect(g.hands.map((h) => h.seat)).toEqual([...hosted].sort());
          for (const h of g.hands) expect(h.cards).toHaveLength(game.handSize(h.seat));
          expect(g.plays).toHaveLength(game.plays);
          expect(g.table).toHaveLength(game.cardsInTrick);
          // Nothing of a hidden hand anywhere in the message: every card named is public or hosted.
          const hidden = [0, 1, 2, 3].filter((s) => !hosted.includes(s as Seat)).flatMap((s) => game.hand(s as Seat));
          const text = JSON.stringify(state);
          for (const c of hidden) {
            const name =
              ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'][c % 10]! + ['S', 'H', 'D', 'C'][Math.floor(c / 10)]!;
            if (name !== g.trumpCard) expect(text).not.toContain(`"${name}"`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

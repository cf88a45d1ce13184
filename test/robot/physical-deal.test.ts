// Physical deals (people dealt real cards): the session machine through the real TableServer and a
// SimulatedTable in its physical-deal mode over socket.io. The runtime knows only the robot's hand,
// read from the robot's hand area; people are taken at their word, a renounce is found when it shows;
// the robot's announced card counts once someone has put it on its spot. Time in the machine is
// xstate's SimulatedClock, advanced by the tests only.

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Seat } from '../../game/index.js';
import { DECK, formatCard, parseCard } from '../../game/index.js';
import type { EventAck, Fault, GameState, SimulatedTableOptions } from '../../table-bridge/index.js';
import { defaultFiducials } from '../../table-bridge/index.js';
import { tableDeal } from '../../table-bridge/table-deal.js';
import { simTable } from '../table-bridge/harness.js';
import { startSession, withFault } from './session-harness.js';

const withPhysicalFault = (fault: Fault, seed: number) => withFault(fault, seed, { physicalDeal: true });
const physicalTable = (url: string, o: Partial<SimulatedTableOptions> = {}): ReturnType<typeof simTable> =>
  simTable(url, { physicalDeal: true, ...o });
const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 10_000, interval: 5 });

function expectWholeGame(g: GameState): void {
  expect(g.deal).toBe('physical');
  expect(g.status).toBe('complete');
  expect(g.plays).toHaveLength(40);
  expect(new Set(g.plays.map((p) => p.card)).size).toBe(40);
  expect(g.points[0] + g.points[1]).toBe(120);
  expect(g.toMove).toBeNull();
  // The runtime never knew a person's hand, so no state carried one.
  expect(g.hands).toEqual([]);
  expect(g.robotCards).toBe(10);
  expect(g.awaiting).toBeNull();
}

describe('physical deals, whole games', () => {
  it('a dealer out of turn is accepted with a note (people may have agreed on it), and the game is played', async () => {
    const { url } = await startSession({ seed: 6, games: 2 });
    const sim = physicalTable(url, { seed: 8, autoNewGame: false });
    await sim.start();
    const newGame = (index: number, dealer: Seat) =>
      sim.send('game:control', {
        seq: sim.nextSeq(),
        action: 'new-game',
        deal: { dealer, trump: { card: formatCard(tableDeal(8, index, dealer).trumpCard) } },
      });
    expect(await newGame(0, 0)).toEqual({ ok: true, seq: expect.any(Number) });
    await sim.waitFor((s) => s.session.played === 1);
    // Seat 0 dealt the first game, so seat 1 is due; seat 2 deals.
    expect(await newGame(1, 2)).toMatchObject({
      ok: true,
      note: 'seat 2 deals; after seat 0 dealt, seat 1 was due (the dealer rotates one seat a game)',
    });
    const end = await sim.finished();
    expect(sim.results.map((g) => g.dealer)).toEqual([0, 2]);
    expect(end.session.played).toBe(2);
  });

  it('two games: the robot reads its hand, people are taken at their word, its cards are placed by hand', async () => {
    const { url, runtime, on } = await startSession({ seed: 5, games: 2 });
    const sim = physicalTable(url, { seed: 12 });
    await sim.start();
    const end = await sim.finished();
    expect(end.session).toMatchObject({ played: 2, complete: true });
    expect(runtime.status).toBe('session_over');
    expect(sim.results.map((g) => g.dealer)).toEqual([0, 1]);
    for (const g of sim.results) expectWholeGame(g);
    // The deals are the table's: its trump cards, and the robot (seat 0) played exactly the cards it was dealt.
    sim.results.forEach((g, i) => {
      const deal = tableDeal(12, i, g.dealer as Seat);
      expect(g.trumpCard).toBe(formatCard(deal.trumpCard));
      expect(
        g.plays
          .filter((p) => p.seat === 0)
          .map((p) => p.card)
          .sort(),
      ).toEqual(deal.hands[0]!.map(formatCard).sort());
      // People played their dealt cards too (the bots play from the hands the table dealt).
      for (const seat of [1, 2, 3] as Seat[])
        expect(
          g.plays
            .filter((p) => p.seat === seat)
            .map((p) => p.card)
            .sort(),
        ).toEqual(deal.hands[seat]!.map(formatCard).sort());
    });
    // The runtime sent no hands; the robot announced 20 cards, each asked to be put on its spot.
    expect(sim.hands).toEqual([]);
    expect(sim.robotPlays).toHaveLength(20);
    const placePrompts = sim.prompts.filter((p) => p.kind === 'place-robot-card');
    expect(placePrompts.map((p) => p.card)).toEqual(sim.robotPlays.map((p) => p.card));
    expect(placePrompts.every((p) => p.seat === 0)).toBe(true);
    // On the bus: the deal as the robot sees it once its hand is read, then 40 plays a game; the decisions match the robot's cards.
    const events = on('gameEvents') as { type: string; seat: number; card: string }[];
    expect(events.filter((e) => e.type === 'deal')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'play')).toHaveLength(80);
    expect((on('decision') as { card: string }[]).map((d) => d.card)).toEqual(sim.robotPlays.map((p) => p.card));
    // hello, then each game: new-game, ten cards into the robot's hand area, 30 people's cards and 10 placed robot cards.
    expect(on('tableEvents')).toHaveLength(1 + 2 * (1 + 10 + 40));
    const states = on('gameState') as { status: string; robot_hand: string[]; to_move: number }[];
    const dealing = states.filter((s) => s.status === 'dealing');
    expect(dealing.length).toBeGreaterThanOrEqual(20);
    expect(dealing.every((s) => s.to_move === -1)).toBe(true);
    expect(Math.max(...dealing.map((s) => s.robot_hand.length))).toBe(9);
    expect(states.at(-1)).toMatchObject({ status: 'session_over' });
  });
});

describe("the robot's hand from its hand area", () => {
  const hand = (card: string) => ({ zone: { area: 'hand', seat: 0 }, card });
  const play = (seat: Seat, card: string) => ({ zone: { area: 'play', seat }, card });

  it('is read card by card with clear refusals; nobody plays until it holds ten; then it only loses cards by playing them', async () => {
    const { url, runtime, on } = await startSession({ autoThink: false });
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    const send = (event: 'card:detected' | 'card:removed' | 'game:control', body: object): Promise<EventAck> =>
      sim.send(event, { seq: sim.nextSeq(), ...body });
    // Seat 2 dealt and turned up the ace of spades: it is in seat 2's hand.
    expect(
      await send('game:control', { action: 'new-game', deal: { dealer: 2, trump: { card: 'AS' } } }),
    ).toMatchObject({ ok: true });
    let s = await sim.waitFor((st) => st.game !== null);
    expect(s.game).toMatchObject({
      deal: 'physical',
      dealer: 2,
      trumpCard: 'AS',
      robotCards: 0,
      toMove: null,
      hands: [],
      status: 'playing',
    });
    expect(runtime.status).toBe('dealing');
    expect(sim.prompts.some((p) => p.kind === 'info' && p.text.includes("robot's 10 cards in its hand area"))).toBe(
      true,
    );
    expect(await send('game:control', { action: 'new-game' })).toMatchObject({ ok: false, code: 'game-in-progress' });

    // Nothing can be played while the hand is incomplete, on any spot.
    expect(await send('card:detected', play(3, '2H'))).toMatchObject({
      ok: false,
      code: 'out-of-turn',
      reason: expect.stringContaining("the robot's hand is not complete (0 of its 10 cards"),
    });
    expect(await send('card:detected', play(0, '2H'))).toMatchObject({ ok: false, code: 'out-of-turn' });
    // The trump card is the dealer's.
    expect(await send('card:detected', hand('AS'))).toMatchObject({
      ok: false,
      code: 'trump-card-in-dealer-hand',
      reason: "AS is the trump card, which the dealer (seat 2) holds: it cannot be in the robot's hand",
    });
    const robotCards = ['2H', '3H', '4H', '5H', '6H', 'QH', 'JH', 'KH', '7H', 'AH'];
    for (const c of robotCards.slice(0, 9))
      expect(await send('card:detected', hand(c))).toEqual({ ok: true, seq: expect.any(Number) });
    // A second read changes nothing; a card lifted before the hand is complete leaves it.
    expect(await send('card:detected', hand('3H'))).toMatchObject({
      ok: true,
      note: "3H is already in the robot's hand (9 of 10)",
    });
    expect(await send('card:removed', hand('3H'))).toEqual({ ok: true, seq: expect.any(Number) });
    s = await sim.waitFor((st) => st.game!.robotCards === 8);
    expect(await send('card:removed', hand('KS'))).toMatchObject({ ok: true, note: "KS was not in the robot's hand" });
    expect(await send('card:detected', hand('3H'))).toMatchObject({ ok: true });
    // While paused, a card is refused and not counted.
    expect(await send('game:control', { action: 'pause' })).toMatchObject({ ok: true });
    expect(await send('card:detected', hand('AH'))).toMatchObject({ ok: false, code: 'paused' });
    expect(await send('game:control', { action: 'resume' })).toMatchObject({ ok: true });
    expect(runtime.snapshot().game!.robotCards).toBe(9);
    const gameStates = on('gameState') as { status: string; robot_hand: string[] }[];
    expect(gameStates.at(-1)).toMatchObject({
      status: 'dealing',
      robot_hand: ['2H', '3H', '4H', '5H', '6H', 'QH', 'JH', 'KH', '7H'],
    });

    // The tenth card completes it: the game starts with seat 3, after the dealer.
    expect(await send('card:detected', hand('AH'))).toMatchObject({ ok: true });
    s = await sim.waitFor((st) => st.game!.robotCards === 10);
    expect(s.game).toMatchObject({ toMove: 3, hands: [], handSizes: [10, 10, 10, 10] });
    expect(runtime.status).toBe('playing');
    expect(on('gameEvents')).toContainEqual(expect.objectContaining({ type: 'deal', seat: 2, card: 'AS' }));
    // An eleventh card is not the robot's; one of its own read again is.
    expect(await send('card:detected', hand('KS'))).toMatchObject({
      ok: false,
      code: 'not-in-hand',
      reason: "the robot already holds its 10 cards and KS is not one of them: take it out of the robot's hand area",
    });
    expect(await send('card:detected', hand('7H'))).toMatchObject({ ok: true, note: "7H is in the robot's hand" });
    expect(await send('card:removed', hand('7H'))).toEqual({
      ok: true,
      seq: expect.any(Number),
      note: "the robot's hand only loses cards by playing them; lifting 7H from its hand area changes nothing",
    });
    expect(runtime.snapshot().game!.game.hand(0)).toHaveLength(10);

    // People are taken at their word, but not for the robot's cards or the dealer's trump card.
    expect(await send('card:detected', play(3, '7H'))).toMatchObject({
      ok: false,
      code: 'not-in-hand',
      reason: "7H is in seat 0's hand, not seat 3's",
    });
    expect(await send('card:detected', play(3, 'AS'))).toMatchObject({ ok: false, code: 'trump-card-in-dealer-hand' });
    expect(await send('card:detected', play(1, '2S'))).toMatchObject({ ok: false, code: 'out-of-turn' });
    // A card of no one's seat in particular: any card not played and not the robot's is believed.
    expect(await send('card:detected', play(3, '2S'))).toEqual({ ok: true, seq: expect.any(Number) });
    // A person's hand area is not tracked.
    expect(await send('card:detected', { zone: { area: 'hand', seat: 1 }, card: '3S' })).toMatchObject({
      ok: true,
      note: expect.stringContaining('not tracked'),
    });
    s = await sim.waitFor((st) => st.game!.plays.length === 1);
    expect(s.game!.toMove).toBe(0);
    // Every refusal went to the operator too.
    expect(on('tableOutput').filter((m) => (m as { kind: string }).kind === 'rejected').length).toBeGreaterThanOrEqual(
      8,
    );
  });

  it('when the robot dealt, the trump card is one of its ten', async () => {
    const { url, runtime } = await startSession({ autoThink: false });
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    const send = (event: 'card:detected' | 'game:control', body: object): Promise<EventAck> =>
      sim.send(event, { seq: sim.nextSeq(), ...body });
    expect(
      await send('game:control', { action: 'new-game', deal: { dealer: 0, trump: { card: '7D' } } }),
    ).toMatchObject({ ok: true });
    await sim.waitFor((st) => st.game !== null);
    for (const c of ['2S', '3S', '4S', '5S', '6S', 'QS', 'JS', 'KS', '7S'])
      expect(await send('card:detected', hand(c))).toMatchObject({ ok: true });
    expect(await send('card:detected', hand('AS'))).toMatchObject({
      ok: false,
      code: 'trump-card-in-dealer-hand',
      reason: 'the robot dealt and turned up 7D, which stays in its hand: its last card must be 7D, not AS',
    });
    expect(runtime.snapshot().game!.robotCards).toBe(9);
    expect(
      await send('card:detected', {
        zone: { area: 'hand', seat: 0 },
        fiducial: defaultFiducials().idOf(parseCard('7D')),
      }),
    ).toMatchObject({ ok: true });
    const s = await sim.waitFor((st) => st.game!.robotCards === 10);
    expect(s.game!.toMove).toBe(1);
    expect(runtime.snapshot().game!.game.hand(0).map(formatCard)).toContain('7D');
  });
});

describe("the robot's card, put on its spot by hand", () => {
  it('counts only when it is the announced card; before the announcement and a different card change nothing', async () => {
    // Seat 3 deals, so the robot (seat 0) leads the first trick.
    const { url, runtime, clock, on } = await startSession({ seed: 3, autoThink: false, minThinkMs: 1000 });
    const sim = physicalTable(url, { seed: 4, firstDealer: 3, autoPlay: false, autoNewGame: true });
    await sim.start();
    const s = await sim.waitFor((st) => st.game !== null);
    const deal = tableDeal(4, 0, 3);
    expect(s.game!.trumpCard).toBe(formatCard(deal.trumpCard));
    // autoPlay off: the test reads the robot's hand in itself, by fiducial.
    for (const c of deal.hands[0]!)
      expect(
        await sim.send('card:detected', {
          seq: sim.nextSeq(),
          zone: { area: 'hand', seat: 0 },
          fiducial: defaultFiducials().idOf(c),
        }),
      ).toMatchObject({ ok: true });
    await eventually(() =>
      expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'minimumTime' } } })).toBe(true),
    );
    const spot = (card: string) => ({ seq: sim.nextSeq(), zone: { area: 'play', seat: 0 }, card });
    const mine = deal.hands[0]!.map(formatCard);
    expect(await sim.send('card:detected', spot(mine[0]!))).toMatchObject({
      ok: false,
      code: 'robot-card-mismatch',
      reason: expect.stringContaining('has not announced its card yet'),
    });
    clock.increment(1000);
    const announced = await sim.waitFor((st) => st.game!.awaiting !== null);
    const card = announced.game!.awaiting!.card;
    expect(announced.game!.awaiting).toEqual({ seat: 0, card });
    expect(announced.game!.plays).toEqual([]);
    await eventually(() => expect(sim.robotPlays.map((p) => p.card)).toEqual([card]));
    expect(sim.prompts).toContainEqual(expect.objectContaining({ kind: 'place-robot-card', seat: 0, card }));
    expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'placing' } } })).toBe(true);
    // A person cannot play in the meantime: it is the robot's turn.
    expect(
      await sim.send('card:detected', {
        seq: sim.nextSeq(),
        zone: { area: 'play', seat: 1 },
        card: formatCard(deal.hands[1]![0]!),
      }),
    ).toMatchObject({ ok: false, code: 'out-of-turn' });
    const wrong = mine.find((c) => c !== card)!;
    expect(await sim.send('card:detected', spot(wrong))).toMatchObject({
      ok: false,
      code: 'robot-card-mismatch',
      reason: `the robot plays ${card}, not ${wrong}: put ${card} on its spot`,
    });
    expect(on('tableOutput')).toContainEqual(
      expect.objectContaining({ kind: 'rejected', code: 'robot_card_mismatch', seat: 0, card: wrong }),
    );
    expect(runtime.snapshot().game!.game.plays).toBe(0);
    // Paused, even the right card waits; after resume it is played; read again, it changes nothing.
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'pause' })).toMatchObject({ ok: true });
    expect(await sim.send('card:detected', spot(card))).toMatchObject({ ok: false, code: 'paused' });
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'resume' })).toMatchObject({ ok: true });
    expect(await sim.send('card:detected', spot(card))).toEqual({ ok: true, seq: expect.any(Number) });
    const played = await sim.waitFor((st) => st.game!.plays.length === 1);
    expect(played.game!).toMatchObject({ awaiting: null, toMove: 1, plays: [{ seat: 0, card }] });
    expect(await sim.send('card:detected', spot(card))).toMatchObject({
      ok: true,
      note: `${card} is already on seat 0's spot`,
    });
    expect(on('gameEvents')).toContainEqual(expect.objectContaining({ type: 'play', seat: 0, card }));
  });

  it('the mismatch fault of the simulated table: refused, then the right card, and the game goes on', async () => {
    const { url } = await startSession({ seed: 14 });
    const sim = physicalTable(url, { seed: 14 });
    const report = sim.inject('robot-card-mismatch');
    await sim.start();
    const r = await report;
    expect(r.seat).toBe(0);
    expect(r.acks[0]).toMatchObject({
      ok: false,
      code: 'robot-card-mismatch',
      reason: expect.stringMatching(/^the robot plays (\w\w), not (\w\w): put \1 on its spot$/),
    });
    expect(r.acks[1]).toEqual({ ok: true, seq: expect.any(Number) });
    await sim.finished();
    expectWholeGame(sim.results[0]!);
  });
});

describe('faults of a physical deal', () => {
  it('a renounce is taken at its word, found when the seat shows the suit, and ends the game: 4 victories to the others', async () => {
    const { report, sim, started } = await withPhysicalFault('renounce', 31);
    // Both cards were accepted: nobody could see the renounce when it was made.
    expect(report.acks.map((a) => a.ok)).toEqual([true, true]);
    const g = sim.results[0]!;
    expect(g.status).toBe('renounce');
    const seatPlays = g.plays.filter((p) => p.seat === report.seat);
    const renounced = seatPlays.at(-2)!.card;
    const shown = seatPlays.at(-1)!.card;
    expect(g.renounce).toEqual({
      seat: report.seat,
      trick: report.trick,
      card: renounced,
      discovered: { trick: expect.any(Number), card: shown },
    });
    expect(g.renounce!.discovered!.trick).toBeGreaterThan(report.trick);
    expect(g.plays.at(-1)).toEqual({ seat: report.seat, card: shown });
    const other = report.seat % 2 === 0 ? 'B' : 'A';
    expect(g.outcome).toEqual({ winner: other, victories: 4 });
    expect(started.runtime.score.victories[other === 'A' ? 0 : 1]).toBe(4);
    expect(started.on('gameEvents')).toContainEqual(
      expect.objectContaining({ type: 'renounce', seat: report.seat, card: renounced, trick: report.trick }),
    );
    expect(started.runtime.status).toBe('session_over');
    // Once the game is over, the robot's hand area counts for nothing until the next deal.
    expect(
      await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'hand', seat: 0 }, card: '2S' }),
    ).toMatchObject({ ok: false, code: 'game-over' });
  });

  it('a table that drops mid-trick comes back to the full state of the physical deal, nothing lost', async () => {
    const { report, sim, started } = await withPhysicalFault('disconnect', 23);
    expect(sim.joins).toBe(2);
    const hello = report.hello!;
    if (!hello.ok) throw new Error('reconnection refused');
    const g = hello.state.game!;
    expect(g).toMatchObject({ deal: 'physical', status: 'playing', robotCards: 10, hands: [] });
    expect(g.table[0]!.seat).toBe(report.seat);
    expect(report.acks[1]).toEqual({ ...report.acks[0], duplicate: true });
    expect(started.on('tableOutput')).toContainEqual(
      expect.objectContaining({ kind: 'prompt', text: expect.stringContaining('disconnected') }),
    );
    expectWholeGame(sim.results[0]!);
  });

  it('a table that drops while the robot waits for its card sees it in the state, and places it after', async () => {
    const { url, runtime } = await startSession({ seed: 8, autoThink: false, minThinkMs: 0 });
    const sim = physicalTable(url, { seed: 8, firstDealer: 3, autoPlay: false });
    await sim.start();
    const s = await sim.waitFor((st) => st.game !== null);
    for (const c of tableDeal(8, 0, 3).hands[0]!)
      await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'hand', seat: 0 }, card: formatCard(c) });
    const waiting = await sim.waitFor((st) => st.game!.awaiting !== null);
    expect(s.game!.index).toBe(0);
    const hello = await sim.reconnect();
    if (!hello.ok) throw new Error('reconnection refused');
    expect(hello.state.game!.awaiting).toEqual(waiting.game!.awaiting);
    expect(
      await sim.send('card:detected', {
        seq: sim.nextSeq(),
        zone: { area: 'play', seat: 0 },
        card: waiting.game!.awaiting!.card,
      }),
    ).toMatchObject({ ok: true });
    expect(runtime.snapshot().game!.game.plays).toBe(1);
  });

  it('several faults and a two-game physical session still completes', async () => {
    const { url } = await startSession({ seed: 44, games: 2 });
    const sim = physicalTable(url, { seed: 44 });
    const faults: Fault[] = [
      'unknown-fiducial',
      'robot-card-mismatch',
      'disconnect',
      'same-card-twice',
      'out-of-turn',
      'replay-seq',
      'lift-and-replace',
      'already-played',
    ];
    const reports = Promise.all(faults.map((f) => sim.inject(f)));
    await sim.start();
    expect((await reports).map((r) => r.fault)).toEqual(faults);
    const end = await sim.finished();
    expect(end.session.played).toBe(2);
    for (const g of sim.results) expectWholeGame(g);
  });
});

describe('bad table input in a physical deal', () => {
  it('random card events: every refusal has a reason and changes nothing, none fails the runtime', async () => {
    // As fast as the test sends: the rate limit (which answers without judging) would make what is
    // applied depend on the machine's speed.
    const unlimited = { perSecond: 1e9, burst: 1e9, waiting: 1e9, closeAfter: 1e9 };
    const { url, runtime } = await startSession({ seed: 17 }, { eventRate: unlimited });
    const sim = physicalTable(url, { seed: 17, firstDealer: 2, autoPlay: false });
    await sim.start();
    await sim.waitFor((st) => st.game !== null);
    const robotHand = tableDeal(17, 0, 2).hands[0]!.map(formatCard);
    // Cards of the robot's hand come up more often, so its hand fills and the game moves on.
    const card = fc.oneof(fc.constantFrom(...robotHand), fc.constantFrom(...DECK.map(formatCard)));
    const events = fc.sample(
      fc.record({
        event: fc.constantFrom('card:detected' as const, 'card:removed' as const),
        area: fc.constantFrom('hand', 'play'),
        seat: fc.integer({ min: 0, max: 3 }),
        card,
      }),
      { seed: 42, numRuns: 400 },
    );
    const state = (): string => {
      const g = runtime.snapshot().game!;
      return JSON.stringify({
        plays: g.game.plays,
        toMove: g.game.toMove,
        robotCards: g.robotCards,
        awaiting: g.awaiting,
        status: g.game.status,
        known: g.game.knowsHand(0) ? g.game.hand(0) : null,
      });
    };
    let refused = 0;
    for (const e of events) {
      const before = state();
      const ack = await sim.send(e.event, { seq: sim.nextSeq(), zone: { area: e.area, seat: e.seat }, card: e.card });
      if (ack.ok) continue;
      refused++;
      expect(ack.code).not.toBe('internal');
      expect(ack.reason.length).toBeGreaterThan(10);
      expect(state(), `${e.event} ${e.area} ${e.seat} ${e.card}: ${ack.reason}`).toBe(before);
    }
    expect(refused).toBeGreaterThan(100);
    // The robot's hand filled and people's random cards were believed when they could be.
    expect(runtime.snapshot().game!.robotCards).toBe(10);
    expect(runtime.snapshot().game!.game.plays).toBeGreaterThan(0);
    expect(runtime.actor.getSnapshot().status).toBe('active');
  });
});

describe('physical cards left on the table', () => {
  it('a finished trick lies on the spots until gathered: re-reads change nothing, gathering is expected, a lifted card of the trick in progress is asked back with its grace time', async () => {
    const { url, runtime, clock } = await startSession({
      seed: 3,
      autoThink: true,
      minThinkMs: 1000,
      liftGraceMs: 2500,
    });
    const sim = physicalTable(url, { seed: 4, firstDealer: 3, autoPlay: false, autoNewGame: true });
    await sim.start();
    await sim.waitFor((st) => st.game !== null);
    const deal = tableDeal(4, 0, 3);
    for (const c of deal.hands[0]!)
      expect(
        await sim.send('card:detected', {
          seq: sim.nextSeq(),
          zone: { area: 'hand', seat: 0 },
          fiducial: defaultFiducials().idOf(c),
        }),
      ).toMatchObject({ ok: true });
    const hands = deal.hands.map((h) => h.map(formatCard));
    const on = (seat: number, card: string, event: 'card:detected' | 'card:removed' = 'card:detected') =>
      sim.send(event, { seq: sim.nextSeq(), zone: { area: 'play', seat }, card });
    /** Plays the first trick: the robot's announced card placed, then each person a card that follows suit. */
    const announced = await sim.waitFor((st) => st.game!.awaiting !== null);
    const lead = announced.game!.awaiting!.card;
    expect(await on(0, lead)).toMatchObject({ ok: true });
    const suit = lead[lead.length - 1]!;
    const played: string[] = [lead];
    for (const seat of [1, 2, 3]) {
      const hand = hands[seat]!;
      const card = hand.find((c) => c.endsWith(suit)) ?? hand[0]!;
      if (seat === 2) {
        // Seat 1's card lifted while the trick is in progress: asked back, with the grace time.
        expect(await on(1, played[1]!, 'card:removed')).toMatchObject({
          ok: true,
          note: expect.stringContaining('put it back'),
        });
        expect(sim.prompts.at(-1)).toMatchObject({ kind: 'put-back', seat: 1, card: played[1], withinMs: 2500 });
        expect(sim.state!.game!.spots!.map((x) => x.card)).not.toContain(played[1]);
        expect(await on(1, played[1]!)).toMatchObject({ ok: true, note: `${played[1]} was put back on seat 1's spot` });
        await sim.waitFor((st) => st.game!.spots!.some((x) => x.card === played[1]));
      }
      expect(await on(seat, card)).toMatchObject({ ok: true });
      played.push(card);
    }
    const after = await sim.waitFor((st) => st.game!.trick === 1);
    // The four cards still lie where they were played, and the winner is asked to gather them.
    expect(after.game!.spots).toEqual(played.map((card, seat) => ({ seat, card, trick: 0 })));
    const winner = after.game!.lastTrick!.winner;
    expect(sim.prompts).toContainEqual(
      expect.objectContaining({ kind: 'gather', seat: winner, text: expect.stringContaining('trick 1') }),
    );
    // The camera reads them again: harmless.
    expect(await on(2, played[2]!)).toMatchObject({ ok: true, note: expect.stringContaining('still lies on seat 2') });
    // A lift past its grace time would be told as a rejection; gathering is not: no rejection follows.
    const rejectedBefore = sim.rejections.length;
    for (let seat = 0; seat < 4; seat++) {
      const ack = await on(seat, played[seat]!, 'card:removed');
      expect(ack).toEqual(
        seat < 3
          ? { ok: true, seq: expect.any(Number) }
          : { ok: true, seq: expect.any(Number), note: 'trick 1 gathered' },
      );
    }
    clock.increment(5000);
    await sim.waitFor((st) => st.game!.spots!.length === 0);
    expect(sim.rejections.length).toBe(rejectedBefore);
    // Put down again on its own spot by the seat that played it: still nothing changes.
    expect(await on(3, played[3]!)).toMatchObject({
      ok: true,
      note: expect.stringContaining('was played by seat 3 in trick 1'),
    });
    // On another seat's spot it is a mistake, refused (it was played, by seat 1).
    expect(await on(3, played[1]!)).toMatchObject({ ok: false });
    expect(runtime.snapshot().game!.game.plays).toBe(4);
  });
});

// The session machine through the real TableServer and a SimulatedTable over socket.io, the robot on
// the rule-based player. Time in the machine is xstate's SimulatedClock, advanced by the tests only,
// so nothing here depends on the machine's speed.

import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { Seat } from '../../game/index.js';
import type { Fault, GameState } from '../../table-bridge/index.js';
import { TOPICS, checkMessage } from '../../robot/bus/index.js';
import { cleanup, helloMessage, rawClient, simTable } from '../table-bridge/harness.js';
import { publishedMessages, startSession, withFault } from './session-harness.js';

/** Socket round trips on a loaded machine: wait generously (nothing here measures time). */
const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 10_000, interval: 5 });

function expectWholeGame(g: GameState): void {
  expect(g.status).toBe('complete');
  expect(g.plays).toHaveLength(40);
  expect(new Set(g.plays.map((p) => p.card)).size).toBe(40);
  expect(g.points[0] + g.points[1]).toBe(120);
  expect(g.trick).toBe(10);
  expect(g.toMove).toBeNull();
}

describe('the session machine plays whole games through the real table server', () => {
  it('one game: dealing, trump, ten tricks, the end with its score, everything on the bus', async () => {
    const { url, runtime, on } = await startSession({ seed: 11 });
    const sim = simTable(url, { seed: 3 });
    expect((await sim.start()).state.game).toBeNull();
    const end = await sim.finished();
    expect(end.session).toMatchObject({ played: 1, complete: true });
    const g = sim.results[0]!;
    expectWholeGame(g);
    expect(runtime.status).toBe('session_over');
    // The robot announced its ten cards, each in the record at seat 0, and published a decision for each.
    expect(sim.robotPlays.map((p) => p.card)).toEqual(g.plays.filter((p) => p.seat === 0).map((p) => p.card));
    expect(sim.hands.map((h) => h.seat).sort()).toEqual([1, 2, 3]);
    const decisions = on('decision') as { card: string; fallback: string }[];
    expect(decisions.map((d) => d.card)).toEqual(sim.robotPlays.map((p) => p.card));
    // The last trick's card is forced.
    expect(decisions[9]!.fallback).toBe('forced');
    const events = on('gameEvents') as { type: string; winner_team: string; victories: number[] }[];
    expect(events.filter((e) => e.type === 'play')).toHaveLength(40);
    expect(events.filter((e) => e.type === 'trick')).toHaveLength(10);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['end', 'session_end']);
    expect(events.at(-2)!.winner_team).toBe(g.outcome!.winner.toLowerCase());
    expect(on('tableOutput').filter((m) => (m as { kind: string }).kind === 'robot_play')).toHaveLength(10);
    expect(on('tableEvents')).toHaveLength(32); // hello, new-game and thirty cards
    const states = on('gameState') as { status: string; victories: number[] }[];
    expect(states[0]!.status).toBe('waiting');
    expect(states.at(-1)).toMatchObject({ status: 'session_over', victories: end.session.victories });
    expect(sim.prompts.some((p) => p.kind === 'info' && p.text.includes('trump card'))).toBe(true);
  });

  it('a two-game session: the dealer rotates, victories add up, the same seeds give the same games', async () => {
    const play = async (): Promise<{ victories: number[]; results: GameState[] }> => {
      const { url } = await startSession({ seed: 21, games: 2, sessionId: 'two' });
      const sim = simTable(url, { seed: 5, byCard: true, bots: 'random' });
      await sim.start();
      const end = await sim.finished();
      await cleanup();
      return { victories: end.session.victories, results: sim.results };
    };
    const first = await play();
    expect(first.results.map((g) => g.dealer)).toEqual([0, 1]);
    for (const g of first.results) expectWholeGame(g);
    const victories = [0, 0];
    for (const g of first.results)
      if (g.outcome!.winner !== 'draw') victories[g.outcome!.winner === 'A' ? 0 : 1]! += g.outcome!.victories;
    expect(first.victories).toEqual(victories);
    const again = await play();
    expect(again.results.map((g) => g.plays)).toEqual(first.results.map((g) => g.plays));
  });

  it('pause holds the game (the robot too) and resume goes on', async () => {
    const { url, runtime, clock } = await startSession({ seed: 2, firstDealer: 3, autoThink: false });
    const sim = simTable(url, { autoPlay: false });
    await sim.start();
    await sim.waitFor((s) => s.game !== null);
    // The robot leads; it has decided and waits for its minimum time.
    await eventually(() =>
      expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'minimumTime' } } })).toBe(true),
    );
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'pause' })).toMatchObject({ ok: true });
    expect(runtime.status).toBe('paused');
    clock.increment(1000);
    expect(sim.robotPlays).toHaveLength(0);
    expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'ready' } } })).toBe(true);
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'pause' })).toMatchObject({
      ok: true,
      note: 'already paused',
    });
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'resume' })).toMatchObject({ ok: true });
    const s = await sim.waitFor((st) => st.game!.plays.length === 1);
    expect(s.game!.plays[0]!.seat).toBe(0);
    await eventually(() => expect(sim.robotPlays).toHaveLength(1));
  });

  it("takes a physical deal (new-game with the dealer and trump card): it waits for the robot's hand (physical-deal.test.ts)", async () => {
    const { url, runtime } = await startSession();
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    expect(
      await sim.send('game:control', {
        seq: sim.nextSeq(),
        action: 'new-game',
        deal: { dealer: 2, trump: { card: 'AS' } },
      }),
    ).toMatchObject({ ok: true });
    const s = await sim.waitFor((st) => st.game !== null);
    expect(s.game).toMatchObject({
      deal: 'physical',
      dealer: 2,
      trumpCard: 'AS',
      robotCards: 0,
      toMove: null,
      hands: [],
    });
    expect(sim.hands).toEqual([]);
    expect(runtime.status).toBe('dealing');
  });
});

describe('the bus', () => {
  it('every message the session publishes passes checkMessage, on all its topics', async () => {
    const { url, bus } = await startSession({ seed: 9, games: 2 });
    const sim = simTable(url, { seed: 9 });
    const faults = Promise.all(
      (['out-of-turn', 'lift-and-replace', 'disconnect'] as Fault[]).map((f) => sim.inject(f)),
    );
    await sim.start();
    await faults;
    await sim.finished();
    const published = publishedMessages();
    const names = new Set(published.map((e) => e.topic.name));
    for (const key of ['gameState', 'gameEvents', 'decision', 'tableOutput', 'tableEvents'] as const)
      expect(names).toContain(TOPICS[key].name);
    expect(published.length).toBeGreaterThan(100);
    for (const e of published) expect(checkMessage(e.topic.message, e.message), e.topic.name).toBeNull();
    // gameState is latched: a subscriber arriving now gets the last state at once.
    const late: string[] = [];
    bus.subscribe('gameState', (m) => late.push(m.status));
    expect(late).toEqual(['session_over']);
  });
});

describe("the robot's turn", () => {
  it('takes at least the minimum think time on the injected clock, while the table is still served', async () => {
    const { url, runtime, clock, on } = await startSession({
      seed: 8,
      firstDealer: 3,
      autoThink: false,
      minThinkMs: 1500,
    });
    const sim = simTable(url, { autoPlay: false });
    await sim.start();
    const s = await sim.waitFor((st) => st.game !== null);
    expect(s.game!.toMove).toBe(0);
    await eventually(() =>
      expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'minimumTime' } } })).toBe(true),
    );
    // While the robot thinks, a card for another seat is refused as out of turn, with the reason.
    const card = s.game!.hands.find((h) => h.seat === 1)!.cards[0]!;
    expect(await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat: 1 }, card })).toEqual({
      ok: false,
      seq: expect.any(Number),
      code: 'out-of-turn',
      reason: `seat 1 played ${card} but it is seat 0's turn`,
    });
    expect(on('tableOutput')).toContainEqual(
      expect.objectContaining({ kind: 'rejected', code: 'out_of_turn', seat: 1, card }),
    );
    clock.increment(1499);
    expect(sim.robotPlays).toHaveLength(0);
    expect(runtime.snapshot().game!.game.plays).toBe(0);
    clock.increment(1);
    expect(runtime.snapshot().game!.game.plays).toBe(1);
    await eventually(() => expect(sim.robotPlays).toHaveLength(1));
    expect(sim.robotPlays[0]).toMatchObject({ game: 0, trick: 0, seat: 0 });
  });

  it("plays when the minimum time's timer fires, not with another event that comes once the time is up (a replay could not tell which came first)", async () => {
    // The clock says the time is up while its timer has not fired yet, as on a loaded machine.
    const timers = new SimulatedClock();
    let late = 0;
    const clock = {
      now: () => timers.now() + late,
      setTimeout: (fn: () => void, ms: number) => timers.setTimeout(fn, ms),
      clearTimeout: (id: unknown) => timers.clearTimeout(id as never),
    };
    const { url, runtime } = await startSession({ seed: 8, firstDealer: 3, autoThink: false, minThinkMs: 1500, clock });
    const sim = simTable(url, { autoPlay: false });
    await sim.start();
    await sim.waitFor((st) => st.game !== null);
    await eventually(() =>
      expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'minimumTime' } } })).toBe(true),
    );
    late = 2000;
    // A table joins (a change of the session): before, the robot's card went down with it.
    const watcher = rawClient(url);
    expect(
      await watcher.emitWithAck('hello', helloMessage({ table: { id: 'watcher', name: 'w', kind: 'virtual' } }, [])),
    ).toMatchObject({ ok: true });
    expect(runtime.snapshot().game!.game.plays).toBe(0);
    timers.increment(1500);
    expect(runtime.snapshot().game!.game.plays).toBe(1);
  });

  it('plays a forced card at once, without waiting on the clock', async () => {
    // Never advance the clock past the minimum by hand: count how often the machine waits for it.
    const { url, runtime, clock, on } = await startSession({ seed: 13, autoThink: false, minThinkMs: 1000 });
    let waits = 0;
    runtime.actor.subscribe((snap) => {
      if (snap.matches({ flow: { game: { robot: 'minimumTime' } } }))
        setImmediate(() => {
          waits++;
          clock.increment(1000);
        });
    });
    const sim = simTable(url, { seed: 13 });
    await sim.start();
    await sim.finished();
    const decisions = on('decision') as { fallback: string }[];
    const forced = decisions.filter((d) => d.fallback === 'forced').length;
    expect(forced).toBeGreaterThanOrEqual(1);
    expect(waits).toBe(decisions.length - forced);
  });

  it("an asynchronous player's slow answer does not block the table", async () => {
    let release: (() => void) | null = null;
    const { url, runtime } = await startSession({
      seed: 4,
      firstDealer: 3,
      autoThink: false,
      minThinkMs: 0,
      player: {
        kind: 'slow',
        decide: (view) =>
          new Promise((resolve) => {
            release = () => resolve({ card: view.legalCards()[0]! });
          }),
      },
    });
    const sim = simTable(url, { autoPlay: false });
    await sim.start();
    await eventually(() => expect(release).not.toBeNull());
    expect(runtime.actor.getSnapshot().matches({ flow: { game: { robot: 'thinking' } } })).toBe(true);
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'new-game' })).toMatchObject({
      ok: false,
      code: 'game-in-progress',
    });
    release!();
    await sim.waitFor((s) => s.game!.plays.length === 1);
  });
});

describe('faults of a real table', () => {
  it('a card out of turn is refused with its reason, and told to the operator', async () => {
    const { report, sim, started } = await withFault('out-of-turn');
    expect(report.acks[0]).toMatchObject({
      ok: false,
      code: 'out-of-turn',
      reason: expect.stringMatching(/^seat \d played \w\w but it is seat \d's turn$/),
    });
    expect(started.on('tableOutput')).toContainEqual(
      expect.objectContaining({
        kind: 'rejected',
        code: 'out_of_turn',
        text: (report.acks[0] as { reason: string }).reason,
      }),
    );
    expectWholeGame(sim.results[0]!);
  });

  it('an unknown fiducial is refused by the bridge', async () => {
    const { report, sim } = await withFault('unknown-fiducial');
    expect(report.acks[0]).toMatchObject({ ok: false, code: 'unknown-fiducial' });
    expectWholeGame(sim.results[0]!);
  });

  it('a card already played is refused', async () => {
    const { report, sim } = await withFault('already-played');
    expect(report.acks[0]).toMatchObject({
      ok: false,
      code: 'already-played',
      reason: expect.stringMatching(/^\w\w was already played$/),
    });
    expectWholeGame(sim.results[0]!);
  });

  it('the same card detected twice is applied once', async () => {
    const { report, sim } = await withFault('same-card-twice');
    expect(report.acks[1]).toMatchObject({ ok: true, note: expect.stringContaining('is already on seat') });
    expectWholeGame(sim.results[0]!);
  });

  it('an event sent again with the same seq is a duplicate', async () => {
    const { report, sim } = await withFault('replay-seq');
    expect(report.acks[1]).toEqual({ ...report.acks[0], duplicate: true });
    expectWholeGame(sim.results[0]!);
  });

  it('a card lifted and put back within the grace time changes nothing', async () => {
    const { report, sim } = await withFault('lift-and-replace');
    expect(report.acks.map((a) => a.ok)).toEqual([true, true, true]);
    expect(report.acks[1]).toMatchObject({ note: expect.stringContaining('stays played: put it back') });
    expect(report.acks[2]).toMatchObject({ note: expect.stringContaining('was put back') });
    expect(sim.prompts.some((p) => p.kind === 'put-back' && p.seat === report.seat)).toBe(true);
    expect(sim.rejections).toEqual([]);
    expectWholeGame(sim.results[0]!);
  });

  it('a card lifted and not put back within the grace time is told to the table, on the injected clock', async () => {
    const { url, clock, on } = await startSession({ seed: 6, autoThink: false, liftGraceMs: 2000 });
    const sim = simTable(url, { autoPlay: false, byCard: true });
    await sim.start();
    const s = await sim.waitFor((st) => st.game !== null);
    const seat = s.game!.toMove! as Seat;
    const card = s.game!.hands.find((h) => h.seat === seat)!.cards[0]!;
    expect(await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat }, card })).toMatchObject({
      ok: true,
    });
    expect(await sim.send('card:removed', { seq: sim.nextSeq(), zone: { area: 'play', seat }, card })).toMatchObject({
      ok: true,
      note: expect.stringContaining('put it back'),
    });
    clock.increment(1999);
    expect(on('tableOutput').filter((m) => (m as { kind: string }).kind === 'rejected')).toEqual([]);
    clock.increment(1);
    await eventually(() => expect(sim.rejections).toHaveLength(1));
    expect(sim.rejections[0]).toMatchObject({
      code: 'already-played',
      reason: expect.stringContaining(`${card} was lifted`),
    });
    expect(on('tableOutput')).toContainEqual(
      expect.objectContaining({ kind: 'rejected', code: 'already_played', card }),
    );
    // It stays played: the game goes on from it.
    expect(sim.state!.game!.plays).toHaveLength(1);
  });

  it('a renounce, caught at once with the hands known, gives the opponents 4 victories', async () => {
    const { report, sim, started } = await withFault('renounce');
    expect(report.acks[0]).toMatchObject({ ok: true });
    const g = sim.results[0]!;
    expect(g.status).toBe('renounce');
    expect(g.renounce).toMatchObject({ seat: report.seat, trick: report.trick });
    const other = report.seat % 2 === 0 ? 'B' : 'A';
    expect(g.outcome).toEqual({ winner: other, victories: 4 });
    expect(started.runtime.score.victories[other === 'A' ? 0 : 1]).toBe(4);
    expect(started.on('gameEvents')).toContainEqual(expect.objectContaining({ type: 'renounce', seat: report.seat }));
  });

  it('a table that drops mid-trick comes back with the full state, nothing lost', async () => {
    const { report, sim, started } = await withFault('disconnect');
    expect(sim.joins).toBe(2);
    const hello = report.hello!;
    if (!hello.ok) throw new Error('reconnection refused');
    const g = hello.state.game!;
    expect(g.status).toBe('playing');
    expect(g.table[0]!.seat).toBe(report.seat);
    expect(g.hands.map((h) => h.seat)).toEqual([1, 2, 3]);
    expect(report.acks[1]).toEqual({ ...report.acks[0], duplicate: true });
    expect(started.on('tableOutput')).toContainEqual(
      expect.objectContaining({ kind: 'prompt', text: expect.stringContaining('disconnected') }),
    );
    expectWholeGame(sim.results[0]!);
  });

  it('several faults in a two-game session, and the session still completes', async () => {
    const { url } = await startSession({ seed: 44, games: 2 });
    const sim = simTable(url, { seed: 44 });
    const faults: Fault[] = [
      'unknown-fiducial',
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

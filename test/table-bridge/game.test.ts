import { afterEach, describe, expect, it } from 'vitest';
import type { Fault, FaultReport, GameState, TableState } from '../../table-bridge/index.js';
import { cleanup, simTable, startServer } from './harness.js';

afterEach(cleanup);

/** Checks a finished game's record for what the rules guarantee. */
function expectWholeGame(g: GameState): void {
  expect(g.status).toBe('complete');
  expect(g.plays).toHaveLength(40);
  expect(new Set(g.plays.map((p) => p.card)).size).toBe(40);
  expect(g.points[0] + g.points[1]).toBe(120);
  expect(g.trick).toBe(10);
  expect(g.toMove).toBeNull();
}

describe('whole games through the real socket.io server', () => {
  it('one game: the simulated table plays three seats, the referee the robot', async () => {
    const { url, referee } = await startServer({ seed: 11, games: 1 });
    const sim = simTable(url, { seed: 3 });
    const hello = await sim.start();
    expect(hello.state.game).toBeNull();
    const end = await sim.finished();
    expect(end.session).toMatchObject({ played: 1, complete: true });
    expectWholeGame(sim.results[0]!);
    expect(referee.score.games).toBe(1);
    // The robot's ten cards were announced to the table, each in the record at seat 0.
    expect(sim.robotPlays).toHaveLength(10);
    expect(sim.robotPlays.map((p) => p.card)).toEqual(
      sim.results[0]!.plays.filter((p) => p.seat === 0).map((p) => p.card),
    );
    expect(sim.hands.map((h) => h.seat).sort()).toEqual([1, 2, 3]);
    expect(sim.prompts.some((p) => p.kind === 'session-over')).toBe(true);
  });

  it('a two-game session: the dealer rotates, victories add up, and the same seeds give the same games', async () => {
    const play = async (): Promise<{ end: TableState; results: GameState[] }> => {
      const { url } = await startServer({ seed: 21, games: 2, sessionId: 'two' });
      const sim = simTable(url, { seed: 5, byCard: true, bots: 'random' });
      await sim.start();
      const end = await sim.finished();
      await cleanup();
      return { end, results: sim.results };
    };
    const first = await play();
    expect(first.results).toHaveLength(2);
    for (const g of first.results) expectWholeGame(g);
    expect(first.results.map((g) => g.dealer)).toEqual([0, 1]);
    expect(first.results.map((g) => g.index)).toEqual([0, 1]);
    const victories = [0, 0];
    for (const g of first.results)
      if (g.outcome!.winner !== 'draw') victories[g.outcome!.winner === 'A' ? 0 : 1]! += g.outcome!.victories;
    expect(first.end.session.victories).toEqual(victories);
    const again = await play();
    expect(again.results.map((g) => g.plays)).toEqual(first.results.map((g) => g.plays));
  });

  it('pause holds the game and resume goes on', async () => {
    const { url } = await startServer({ seed: 2 });
    const sim = simTable(url, { autoPlay: false });
    await sim.start();
    const s = await sim.waitFor((st) => st.game !== null);
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'pause' })).toMatchObject({ ok: true });
    await sim.waitFor((st) => st.paused);
    const seat = s.game!.toMove!;
    const card = s.game!.hands.find((h) => h.seat === seat)!.cards[0];
    expect(await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat }, card })).toMatchObject({
      ok: false,
      code: 'paused',
    });
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'resume' })).toMatchObject({ ok: true });
    expect(await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat }, card })).toMatchObject({
      ok: true,
    });
  });

  it('refuses a physical deal, which needs the session machine', async () => {
    const { url } = await startServer();
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    expect(
      await sim.send('game:control', {
        seq: sim.nextSeq(),
        action: 'new-game',
        deal: { dealer: 2, trump: { fiducial: 9 } },
      }),
    ).toMatchObject({
      ok: false,
      code: 'unsupported',
    });
  });
});

describe('faults of a real table, injected by the simulated table', () => {
  /** Plays a one-game session with `fault` injected at the first turn where it can happen. */
  async function withFault(
    fault: Fault,
    seed = 31,
  ): Promise<{ report: FaultReport; sim: ReturnType<typeof simTable>; end: TableState }> {
    const { url } = await startServer({ seed, games: 1 });
    const sim = simTable(url, { seed });
    const report = sim.inject(fault);
    await sim.start();
    const r = await report;
    const end = await sim.finished();
    return { report: r, sim, end };
  }

  it('a card out of turn is refused and the game goes on', async () => {
    const { report, sim } = await withFault('out-of-turn');
    expect(report.acks[0]).toMatchObject({
      ok: false,
      code: 'out-of-turn',
      reason: expect.stringMatching(/^seat \d played \w\w but it is seat \d's turn$/),
    });
    expect(report.acks[1]).toMatchObject({ ok: true });
    expectWholeGame(sim.results[0]!);
  });

  it('an unknown fiducial is refused with its id', async () => {
    const { report, sim } = await withFault('unknown-fiducial');
    expect(report.acks[0]).toMatchObject({
      ok: false,
      code: 'unknown-fiducial',
      reason: 'card:detected.fiducial: unknown fiducial 900',
    });
    expectWholeGame(sim.results[0]!);
  });

  it('a card already played is refused', async () => {
    const { report, sim } = await withFault('already-played');
    expect(report.trick).toBeGreaterThan(0);
    expect(report.acks[0]).toMatchObject({
      ok: false,
      code: 'already-played',
      reason: expect.stringMatching(/^\w\w was already played$/),
    });
    expectWholeGame(sim.results[0]!);
  });

  it('the same card detected twice is applied once', async () => {
    const { report, sim } = await withFault('same-card-twice');
    expect(report.acks[0]).toMatchObject({ ok: true });
    expect(report.acks[1]).toMatchObject({ ok: true, note: expect.stringContaining('is already on seat') });
    expect(report.acks[1]).not.toHaveProperty('duplicate');
    expectWholeGame(sim.results[0]!);
  });

  it('a card lifted and put back changes nothing, and the table is asked to put it back', async () => {
    const { report, sim } = await withFault('lift-and-replace');
    expect(report.acks.map((a) => a.ok)).toEqual([true, true, true]);
    expect(report.acks[1]).toMatchObject({ note: expect.stringContaining('stays played: put it back') });
    expect(sim.prompts.some((p) => p.kind === 'put-back' && p.seat === report.seat)).toBe(true);
    expectWholeGame(sim.results[0]!);
  });

  it('an event sent again with the same seq is a duplicate', async () => {
    const { report, sim } = await withFault('replay-seq');
    expect(report.acks[1]).toEqual({ ...report.acks[0], duplicate: true });
    expectWholeGame(sim.results[0]!);
  });

  it('a renounce ends the game with 4 victories to the other team', async () => {
    const { report, end, sim } = await withFault('renounce');
    expect(report.acks[0]).toMatchObject({ ok: true });
    const g = sim.results[0]!;
    expect(g.status).toBe('renounce');
    expect(g.renounce).toMatchObject({ seat: report.seat, trick: report.trick });
    const other = report.seat % 2 === 0 ? 'B' : 'A';
    expect(g.outcome).toEqual({ winner: other, victories: 4 });
    expect(end.session.victories[other === 'A' ? 0 : 1]).toBe(4);
  });

  it('a table that drops mid-trick comes back with the full state, its replayed event a duplicate', async () => {
    const { report, sim } = await withFault('disconnect');
    expect(sim.joins).toBe(2);
    const hello = report.hello!;
    if (!hello.ok) throw new Error('reconnection refused');
    expect(hello.lastSeq).toBe(report.acks[0]!.seq);
    // Mid-trick: the card it played is on the table in the resynced state, with the game's plays so far.
    const g = hello.state.game!;
    expect(g.status).toBe('playing');
    expect(g.table.length).toBeGreaterThanOrEqual(1);
    expect(g.table.length).toBeLessThan(4);
    expect(g.table[0]!.seat).toBe(report.seat);
    expect(g.hands.map((h) => h.seat)).toEqual([1, 2, 3]);
    expect(report.acks[1]).toEqual({ ...report.acks[0], duplicate: true });
    expectWholeGame(sim.results[0]!);
  });

  it('several faults in one session, and the session still completes', async () => {
    const { url } = await startServer({ seed: 44, games: 2 });
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

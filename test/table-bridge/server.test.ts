import { afterEach, describe, expect, it } from 'vitest';
import { parseCard } from '../../game/index.js';
import type { EventAck, HelloAck, TableHandler } from '../../table-bridge/index.js';
import { HelloRefusedError } from '../../table-bridge/index.js';
import { LocalReferee } from './local-referee.js';
import { TOKEN, cleanup, helloMessage, once, rawClient, simTable, startServer } from './harness.js';

afterEach(cleanup);

const hello = async (socket: ReturnType<typeof rawClient>, msg: unknown): Promise<HelloAck> =>
  (await socket.emitWithAck('hello', msg)) as HelloAck;
const send = async (socket: ReturnType<typeof rawClient>, event: string, msg: unknown): Promise<EventAck> =>
  (await socket.emitWithAck(event, msg)) as EventAck;

describe('hello', () => {
  it('listens on 127.0.0.1 by default', async () => {
    const { url } = await startServer();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers with the session, the last seq and the full state', async () => {
    const { url } = await startServer({ sessionId: 'sess-1' });
    const ack = await simTable(url).start();
    expect(ack).toMatchObject({ ok: true, protocol: 1, session: 'sess-1', table: 'sim', lastSeq: 0 });
    expect(ack.state).toMatchObject({
      protocol: 1,
      robotSeat: 0,
      paused: false,
      game: null,
      session: { id: 'sess-1', games: 1, played: 0, complete: false },
    });
  });

  it('refuses a wrong token and closes the connection', async () => {
    const { url } = await startServer();
    const socket = rawClient(url);
    const closed = once(socket, 'disconnect');
    expect(await hello(socket, helloMessage({ token: 'nope' }))).toEqual({
      ok: false,
      code: 'bad-token',
      reason: "the token does not match this runtime's",
    });
    expect(await closed).toBe('io server disconnect');
    await expect(simTable(url, { token: `${TOKEN}x` }).start()).rejects.toThrow(HelloRefusedError);
  });

  it('refuses another protocol version, saying both', async () => {
    const { url } = await startServer();
    const err = await simTable(url, { protocol: 2 })
      .start()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HelloRefusedError);
    expect(err).toMatchObject({
      code: 'wrong-version',
      reason: 'this runtime speaks table protocol 1, the table sent 2',
    });
    // Checked before the shape: a future hello may look different.
    expect(await hello(rawClient(url), { protocol: 3, whatever: true })).toMatchObject({
      ok: false,
      code: 'wrong-version',
    });
  });

  it('refuses a malformed hello with the field at fault', async () => {
    const { url } = await startServer();
    expect(await hello(rawClient(url), helloMessage({ seats: [1, 9] }))).toEqual({
      ok: false,
      code: 'invalid',
      reason: 'hello.seats[1]: expected a seat 0..3, got 9',
    });
    expect(await hello(rawClient(url), helloMessage({ table: { id: 'x', name: 'x', kind: 'paper' } }))).toMatchObject({
      code: 'invalid',
      reason: 'hello.table.kind: expected "touch" or "virtual" or "simulated", got "paper"',
    });
  });

  it('refuses the robot seat and seats another table hosts', async () => {
    const { url } = await startServer();
    expect(await hello(rawClient(url), helloMessage({}, [0, 1]))).toMatchObject({
      ok: false,
      code: 'seat-taken',
      reason: "seat 0 is the robot's; the runtime plays it",
    });
    await simTable(url, { id: 'a', seats: [1, 2, 3] }).start();
    expect(
      await hello(rawClient(url), helloMessage({ table: { id: 'b', name: 'b', kind: 'virtual' } }, [2])),
    ).toMatchObject({ code: 'seat-taken', reason: 'seat 2 is hosted by table a' });
  });

  it('closes a connection that does not say hello in time', async () => {
    const { url } = await startServer({}, { helloTimeoutMs: 50 });
    expect(await once(rawClient(url), 'disconnect')).toBe('io server disconnect');
  });

  it("a simulated table keeps a state that comes right behind the hello's answer, not the older one in the answer", async () => {
    // The runtime answers the hello and changes the session at once (the robot announcing a card
    // just as a restarted table comes back): the two messages arrive together, the answer first.
    class EagerReferee extends LocalReferee {
      override onHello(table: Parameters<LocalReferee['onHello']>[0]) {
        const verdict = super.onHello(table);
        if (verdict.ok) queueMicrotask(() => void this.onControl({ table, seq: 1, action: 'new-game', deal: null }));
        return verdict;
      }
    }
    const referee = new EagerReferee({ seed: 1, games: 1 });
    const { url, server } = await startServer({}, { handler: referee });
    referee.attach(server);
    const table = simTable(url, { autoNewGame: false, autoPlay: false });
    const ack = await table.start();
    expect(ack.state.game).toBeNull();
    // Whatever the order the table read them in, it ends on the newer state: the game in play.
    const now = await table.waitFor((s) => s.game !== null);
    await new Promise((resolve) => setImmediate(resolve));
    expect(table.state).toBe(now);
    expect(table.state!.game).toMatchObject({ index: 0, status: 'playing' });
  }, 10_000);
});

describe('events', () => {
  it('are refused before hello', async () => {
    const { url } = await startServer();
    expect(
      await send(rawClient(url), 'card:detected', { seq: 1, zone: { area: 'play', seat: 1 }, card: 'AS' }),
    ).toEqual({ ok: false, code: 'no-hello', reason: 'card:detected: say hello first', seq: 1 });
  });

  it('each get an acknowledgement; a bad one is refused with a reason and changes nothing', async () => {
    const { url } = await startServer({ seed: 5 });
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'new-game' })).toEqual({ ok: true, seq: 1 });
    const before = await sim.waitFor((s) => s.game !== null);
    const g = before.game!;
    const seat = g.toMove!;
    const card = g.hands.find((h) => h.seat === seat)!.cards[0]!;

    expect(await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat: 7 }, card })).toEqual({
      ok: false,
      code: 'invalid',
      reason: 'card:detected.zone.seat: expected a seat 0..3, got 7',
      seq: 2,
    });
    expect(
      await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat }, fiducial: 913 }),
    ).toEqual({
      ok: false,
      code: 'unknown-fiducial',
      reason: 'card:detected.fiducial: unknown fiducial 913',
      seq: 3,
    });
    expect(
      await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat }, card: '1S' }),
    ).toMatchObject({ code: 'invalid', reason: 'card:detected.card: unknown card "1S"' });
    expect(await sim.send('card:detected', { seq: 'x' })).toMatchObject({ ok: false, code: 'invalid', seq: null });
    expect(
      await sim.send('game:control', {
        seq: sim.nextSeq(),
        action: 'new-game',
        deal: { dealer: 1, trump: { fiducial: 4000 } },
      }),
    ).toMatchObject({
      code: 'unknown-fiducial',
      reason: 'game:control.deal.trump.fiducial: unknown fiducial 4000',
    });
    expect(await sim.send('game:control', { seq: sim.nextSeq(), action: 'new-game' })).toMatchObject({
      ok: false,
      code: 'game-in-progress',
    });
    const other = ([1, 2, 3] as const).find((s) => s !== seat)!;
    const wrong = g.hands.find((h) => h.seat === other)!.cards[0]!;
    expect(
      await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat: other }, card: wrong }),
    ).toMatchObject({
      ok: false,
      code: 'out-of-turn',
      reason: `seat ${other} played ${wrong} but it is seat ${seat}'s turn`,
    });
    // None of it changed the game.
    expect(sim.state!.game!.plays).toEqual(g.plays);

    const played = await sim.send('card:detected', { seq: sim.nextSeq(), zone: { area: 'play', seat }, card });
    expect(played).toMatchObject({ ok: true });
    const after = await sim.waitFor((s) => s.game!.plays.some((p) => p.card === card));
    expect(after.game!.plays.find((p) => p.card === card)!.seat).toBe(seat);
  });

  it('without an acknowledgement callback are not applied, and refused by a rejected message', async () => {
    const { url } = await startServer();
    const socket = rawClient(url);
    await hello(socket, helloMessage());
    const rejected = once<{ code: string; reason: string; seq: number }>(socket, 'rejected');
    socket.emit('game:control', { seq: 1, action: 'new-game' });
    expect(await rejected).toEqual({
      code: 'invalid',
      reason: 'game:control: an acknowledgement callback is required',
      event: 'game:control',
      seq: 1,
    });
  });

  it('replayed with a seen seq are answered as duplicates and not applied twice', async () => {
    const { url } = await startServer({ seed: 9 }, { rememberAcks: 3 });
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    const newGame = { seq: sim.nextSeq(), action: 'new-game' };
    expect(await sim.send('game:control', newGame)).toEqual({ ok: true, seq: 1 });
    const s = await sim.waitFor((st) => st.game !== null);
    // Had it been applied again, it would be refused: a game is in progress.
    expect(await sim.send('game:control', newGame)).toEqual({ ok: true, seq: 1, duplicate: true });
    const seat = s.game!.toMove!;
    const card = s.game!.hands.find((h) => h.seat === seat)!.cards[0]!;
    const refused = { seq: sim.nextSeq(), zone: { area: 'play', seat: seat === 1 ? 2 : 1 }, card };
    const first = await sim.send('card:detected', refused);
    expect(first.ok).toBe(false);
    // A refusal is remembered too: the same event does not get a different answer later.
    expect(await sim.send('card:detected', refused)).toEqual(first);
    for (let i = 0; i < 3; i++) await sim.send('game:control', { seq: sim.nextSeq(), action: 'pause' });
    expect(await sim.send('game:control', newGame)).toMatchObject({
      ok: false,
      code: 'stale-seq',
      reason: expect.stringContaining('seq 1 is not above 5'),
    });
  });

  it('turn a handler failure into an internal refusal that can be retried', async () => {
    const referee = new LocalReferee({ seed: 1, games: 1 });
    let fail = true;
    const handler: TableHandler = {
      onHello: (t) => referee.onHello(t),
      onCardDetected: (e) => referee.onCardDetected(e),
      onCardRemoved: (e) => referee.onCardRemoved(e),
      onControl: (e) => {
        if (fail) throw new Error('boom');
        return referee.onControl(e);
      },
      snapshot: () => referee.snapshot(),
    };
    const { url, server } = await startServer({}, { handler });
    referee.attach(server);
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    const msg = { seq: sim.nextSeq(), action: 'new-game' };
    expect(await sim.send('game:control', msg)).toEqual({
      ok: false,
      code: 'internal',
      reason: 'game:control: the runtime failed to handle the event',
      seq: 1,
    });
    fail = false;
    expect(await sim.send('game:control', msg)).toEqual({ ok: true, seq: 1 });
  });
});

describe('outbound', () => {
  it('shows each table only the hands of its seats', async () => {
    const { url } = await startServer({ seed: 4 });
    const a = rawClient(url);
    const b = rawClient(url);
    await hello(a, helloMessage({ table: { id: 'a', name: 'a', kind: 'virtual' } }, [1]));
    await hello(b, helloMessage({ table: { id: 'b', name: 'b', kind: 'virtual' } }, [2, 3]));
    const hands: { seat: number; cards: string[] }[] = [];
    b.on('hand', (m: { seat: number; cards: string[] }, ack: (r: { ok: boolean }) => void) => {
      hands.push(m);
      ack({ ok: true });
    });
    // The first state with a game (a state may come first that only says who took which seat).
    type St = { game: { hands: { seat: number }[] } | null };
    const firstGame = (socket: typeof a): Promise<{ game: { hands: { seat: number }[] } }> =>
      new Promise((resolve) => {
        const on = (st: St): void => {
          if (!st.game) return;
          socket.off('state', on);
          resolve({ game: st.game });
        };
        socket.on('state', on);
      });
    const stateA = firstGame(a);
    const stateB = firstGame(b);
    a.on('hand', (_m: unknown, ack: (r: { ok: boolean }) => void) => ack({ ok: true }));
    expect(await send(a, 'game:control', { seq: 1, action: 'new-game' })).toEqual({ ok: true, seq: 1 });
    expect((await stateA).game.hands.map((h) => h.seat)).toEqual([1]);
    expect((await stateB).game.hands.map((h) => h.seat)).toEqual([2, 3]);
    expect(hands.map((h) => h.seat).sort()).toEqual([2, 3]);
    expect(hands.every((h) => h.cards.length === 10)).toBe(true);
  });

  it('report a table that does not answer robot:play in time', async () => {
    // The table never answers, so the timeout is reached however slow the machine.
    const { url, server } = await startServer({}, { ackTimeoutMs: 100 });
    const silent = rawClient(url);
    await hello(silent, helloMessage());
    const shown = once(silent, 'robot:play');
    const deliveries = await server.announceRobotPlay({ game: 0, trick: 0, seat: 0, card: parseCard('AS') });
    expect(await shown).toEqual({ game: 0, trick: 0, seat: 0, card: 'AS', fiducial: 9 });
    expect(deliveries).toEqual([{ table: 'raw', result: 'timeout' }]);
  });

  it('report a table that answers robot:play', async () => {
    const { url, server } = await startServer();
    await simTable(url).start();
    expect(await server.announceRobotPlay({ game: 0, trick: 0, seat: 0, card: parseCard('AS') })).toEqual([
      { table: 'sim', result: 'ok' },
    ]);
  });
});

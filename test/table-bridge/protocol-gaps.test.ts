// What PROTOCOL.md promises a table developer and an independent client once found missing: one answer
// for every event (unknown names and oversized messages too), a second hello closing the connection, a
// replaced connection told why, a seq used again for another event refused, the state's version, and
// an event's answer coming after what it caused.

import { afterEach, describe, expect, it } from 'vitest';
import type { EventAck, HelloAck, TableState } from '../../table-bridge/index.js';
import { MESSAGE_LIMIT } from '../../table-bridge/index.js';
import { cleanup, helloMessage, once, rawClient, simTable, startServer } from './harness.js';

afterEach(cleanup);

const hello = async (socket: ReturnType<typeof rawClient>, msg: unknown): Promise<HelloAck> =>
  (await socket.emitWithAck('hello', msg)) as HelloAck;

describe('every event gets exactly one answer', () => {
  it('an unknown event name is answered unknown-event, with or without an acknowledgement', async () => {
    const { url } = await startServer();
    const socket = rawClient(url);
    await hello(socket, helloMessage());
    expect(await socket.emitWithAck('card:moved', { seq: 4 })).toEqual({
      ok: false,
      code: 'unknown-event',
      reason: 'unknown event "card:moved": this protocol has hello, card:detected, card:removed and game:control',
      seq: 4,
    });
    const rejected = once<Record<string, unknown>>(socket, 'rejected');
    socket.emit('ping-me', {});
    expect(await rejected).toMatchObject({ code: 'unknown-event', event: 'ping-me' });
  });

  it('a message over 64 KiB is answered too-large and changes nothing; the connection stays', async () => {
    const { url } = await startServer();
    const socket = rawClient(url);
    await hello(socket, helloMessage());
    const big = { seq: 1, action: 'new-game', padding: 'x'.repeat(70 * 1024) };
    const ack = (await socket.emitWithAck('game:control', big)) as EventAck;
    expect(ack).toMatchObject({ ok: false, code: 'too-large', seq: 1 });
    expect(ack.ok === false && ack.reason).toContain(`at most ${MESSAGE_LIMIT}`);
    // Nothing was applied: the same seq starts the game now.
    expect(await socket.emitWithAck('game:control', { seq: 1, action: 'new-game' })).toEqual({ ok: true, seq: 1 });
    const hugeHello = (await hello(rawClient(url), { ...helloMessage(), padding: 'y'.repeat(70 * 1024) })) as {
      ok: false;
      code: string;
    };
    expect(hugeHello).toMatchObject({ ok: false, code: 'too-large' });
  });
});

describe('hello', () => {
  it('a second hello on a joined connection is refused and closes it', async () => {
    const { url } = await startServer();
    const socket = rawClient(url);
    expect(await hello(socket, helloMessage())).toMatchObject({ ok: true });
    const closed = once(socket, 'disconnect');
    expect(await hello(socket, helloMessage())).toMatchObject({
      ok: false,
      code: 'invalid',
      reason: expect.stringContaining('already joined as table raw'),
    });
    expect(await closed).toBe('io server disconnect');
  });

  it('a second connection with the same table id takes over, and the old one is told why before it is closed', async () => {
    const { url } = await startServer();
    const first = rawClient(url);
    await hello(first, helloMessage());
    const told = once<Record<string, unknown>>(first, 'rejected');
    const closed = once(first, 'disconnect');
    expect(await hello(rawClient(url), helloMessage())).toMatchObject({ ok: true, table: 'raw' });
    expect(await told).toEqual({
      code: 'replaced',
      reason: 'table raw said hello on another connection; this one is closed',
    });
    expect(await closed).toBe('io server disconnect');
  });

  it('the id "operator" is reserved for the dashboard', async () => {
    const { url } = await startServer();
    expect(
      await hello(rawClient(url), helloMessage({ table: { id: 'operator', name: 'x', kind: 'touch' } })),
    ).toMatchObject({ ok: false, code: 'invalid' });
  });
});

describe('sequence numbers', () => {
  it('a seq used again for a different event is refused seq-reused and not applied; the same event again is a duplicate', async () => {
    const { url } = await startServer({ seed: 3 });
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    expect(await sim.send('game:control', { seq: 1, action: 'new-game' })).toEqual({ ok: true, seq: 1 });
    expect(await sim.send('game:control', { seq: 1, action: 'pause' })).toEqual({
      ok: false,
      code: 'seq-reused',
      reason: 'seq 1 was already used for another event (new-game); nothing was applied: number each new event above 1',
      seq: 1,
    });
    expect(sim.state!.paused).toBe(false);
    expect(await sim.send('game:control', { seq: 1, action: 'new-game' })).toEqual({
      ok: true,
      seq: 1,
      duplicate: true,
    });
  });
});

describe('the state', () => {
  it('carries a version that grows with every change, and an answer comes after the state its event made', async () => {
    const { url } = await startServer({ seed: 4 });
    const socket = rawClient(url);
    const seen: { kind: 'state' | 'ack'; version?: number }[] = [];
    socket.on('state', (s: TableState) => seen.push({ kind: 'state', version: s.version! }));
    const ack = await hello(socket, helloMessage());
    if (!ack.ok) throw new Error('hello refused');
    const v0 = ack.state.version!;
    expect(v0).toBeGreaterThanOrEqual(0);
    socket.emit('game:control', { seq: 1, action: 'new-game' }, () => seen.push({ kind: 'ack' }));
    await new Promise<void>((resolve) => {
      const t = setInterval(() => seen.some((x) => x.kind === 'ack') && (clearInterval(t), resolve()), 10);
    });
    const states = seen.filter((x) => x.kind === 'state');
    expect(states.length).toBeGreaterThan(0);
    // The state the new game made arrived before its answer.
    expect(seen.findIndex((x) => x.kind === 'state')).toBeLessThan(seen.findIndex((x) => x.kind === 'ack'));
    for (let i = 1; i < states.length; i++) expect(states[i]!.version!).toBeGreaterThanOrEqual(states[i - 1]!.version!);
    expect(states.at(-1)!.version!).toBeGreaterThan(v0);
  });
});

describe('a skipped seq', () => {
  it('is refused stale-seq saying it was never answered, not forgotten', async () => {
    const { url } = await startServer({ seed: 3 });
    const sim = simTable(url, { autoNewGame: false, autoPlay: false });
    await sim.start();
    expect(await sim.send('game:control', { seq: 1, action: 'new-game' })).toMatchObject({ ok: true });
    expect(await sim.send('game:control', { seq: 5, action: 'pause' })).toMatchObject({ ok: true });
    expect(await sim.send('game:control', { seq: 3, action: 'resume' })).toMatchObject({
      ok: false,
      code: 'stale-seq',
      reason: expect.stringContaining('no answer was given to it (skipped, or refused for its shape)'),
    });
    // Below a table's first seq too: nothing was ever forgotten.
    const other = rawClient(url);
    await other.emitWithAck('hello', helloMessage({ table: { id: 'panel', name: 'panel', kind: 'touch' } }, []));
    // (It watches only, so its event is refused: an answer all the same, remembered with its seq.)
    expect(await other.emitWithAck('game:control', { seq: 5, action: 'resume' })).toMatchObject({
      ok: false,
      code: 'display-only',
    });
    expect(await other.emitWithAck('game:control', { seq: 3, action: 'resume' })).toMatchObject({
      ok: false,
      code: 'stale-seq',
      reason: expect.stringContaining('no answer was given to it'),
    });
  });
});

// A table that misbehaves costs the node little: its events over a rate limit are answered
// `rate-limited` without reaching the runtime, hellos with a wrong token from one address are slowed
// down (never the right token), and a table that hosts no seat only watches. The clock of the limits is the test's.

import { createConnection } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventAck, HelloAck, TableHandler } from '../../table-bridge/index.js';
import { LocalReferee } from './local-referee.js';
import { TOKEN, cleanup, helloMessage, once, rawClient, startServer } from './harness.js';

afterEach(cleanup);

const hello = async (socket: ReturnType<typeof rawClient>, msg: unknown): Promise<HelloAck> =>
  (await socket.emitWithAck('hello', msg)) as HelloAck;

/** A referee that counts what reaches it. */
class CountingReferee extends LocalReferee {
  events = 0;
  override onControl(...args: Parameters<LocalReferee['onControl']>) {
    this.events++;
    return super.onControl(...args);
  }
  override onCardDetected(...args: Parameters<LocalReferee['onCardDetected']>) {
    this.events++;
    return super.onCardDetected(...args);
  }
  override onCardRemoved(...args: Parameters<LocalReferee['onCardRemoved']>) {
    this.events++;
    return super.onCardRemoved(...args);
  }
}

/** A server whose handler is `referee`. */
async function served(referee: LocalReferee, server: Parameters<typeof startServer>[1] = {}): Promise<string> {
  const { server: srv, url } = await startServer({}, { handler: referee, ...server });
  referee.attach(srv);
  return url;
}

describe('the rate limit of a connection', () => {
  it('answers events over it rate-limited with the wait, at once and without the runtime; the clock refills it', async () => {
    let now = 0;
    const referee = new CountingReferee({ seed: 1, games: 1 });
    const url = await served(referee, {
      now: () => now,
      eventRate: { perSecond: 2, burst: 5, waiting: 100, closeAfter: 1000 },
    });
    const socket = rawClient(url);
    await hello(socket, helloMessage());
    // Ten pauses at once, as a flood sends them: the burst of five is heard, the rest are not.
    const acks = (await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        socket.emitWithAck('game:control', { seq: i + 1, action: i % 2 ? 'resume' : 'pause' }),
      ),
    )) as EventAck[];
    const limited = acks.filter((a) => !a.ok && a.code === 'rate-limited');
    expect(limited.length).toBe(5);
    expect(referee.events).toBe(5);
    for (const a of limited) {
      expect(a).toMatchObject({
        ok: false,
        code: 'rate-limited',
        retryAfterMs: 500,
        reason: expect.stringContaining(
          'more than 2 events a second from this connection (5 at once); nothing was applied',
        ),
      });
    }
    // Unknown events and events without an answer count too, and are told why.
    expect(await socket.emitWithAck('card:moved', { seq: 11 })).toMatchObject({ ok: false, code: 'rate-limited' });
    const told = once<Record<string, unknown>>(socket, 'rejected');
    socket.emit('game:control', { seq: 12, action: 'pause' });
    expect(await told).toMatchObject({ code: 'rate-limited', event: 'game:control', seq: 12, retryAfterMs: 500 });
    // Half a second later one more is heard; the same seq works, as nothing was recorded for it.
    now += 500;
    expect(await socket.emitWithAck('game:control', { seq: 12, action: 'pause' })).toMatchObject({ ok: true, seq: 12 });
    expect(await socket.emitWithAck('game:control', { seq: 13, action: 'resume' })).toMatchObject({
      ok: false,
      code: 'rate-limited',
    });
    expect(referee.events).toBe(6);
  });

  it('bounds the events of one connection waiting for the runtime', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const referee = new CountingReferee({ seed: 1, games: 1 });
    // The runtime busy: every control waits at the gate.
    const slow: TableHandler = {
      onHello: (t) => referee.onHello(t),
      onCardDetected: (e) => referee.onCardDetected(e),
      onCardRemoved: (e) => referee.onCardRemoved(e),
      onControl: async (e) => {
        await gate;
        return referee.onControl(e);
      },
      snapshot: () => referee.snapshot(),
    };
    const { server, url } = await startServer(
      {},
      { handler: slow, eventRate: { perSecond: 1000, burst: 1000, waiting: 3, closeAfter: 1000 } },
    );
    referee.attach(server);
    const socket = rawClient(url);
    await hello(socket, helloMessage());
    const sent = Array.from(
      { length: 6 },
      (_, i) =>
        socket.emitWithAck('game:control', { seq: i + 1, action: i % 2 ? 'resume' : 'pause' }) as Promise<EventAck>,
    );
    // The three over the bound are answered while the three before them still wait.
    const over = await Promise.all(sent.slice(3));
    for (const a of over)
      expect(a).toMatchObject({
        ok: false,
        code: 'rate-limited',
        reason: expect.stringContaining('3 events from this connection are still waiting for the runtime'),
      });
    release();
    expect((await Promise.all(sent.slice(0, 3))).map((a) => a.ok)).toEqual([true, true, true]);
  });

  it('is per connection: another table is heard while one floods', async () => {
    const now = 0;
    const referee = new CountingReferee({ seed: 1, games: 1 });
    const url = await served(referee, {
      now: () => now,
      eventRate: { perSecond: 1, burst: 3, waiting: 100, closeAfter: 1000 },
    });
    const flooder = rawClient(url);
    await hello(flooder, helloMessage({ table: { id: 'flooder', name: 'f', kind: 'touch' } }, [2]));
    const cards = ['AS', '7S', 'KS', 'JS'];
    const flood = Array.from({ length: 200 }, (_, i) =>
      flooder.emitWithAck('card:detected', { seq: i + 1, card: cards[i % 4], zone: { area: 'play', seat: 2 } }),
    );
    const other = rawClient(url);
    expect(
      await hello(other, helloMessage({ table: { id: 'other', name: 'o', kind: 'touch' } }, [1, 3])),
    ).toMatchObject({ ok: true });
    expect(await other.emitWithAck('game:control', { seq: 1, action: 'new-game' })).toMatchObject({ ok: true });
    const answers = (await Promise.all(flood)) as EventAck[];
    expect(answers.filter((a) => a.ok === false && a.code === 'rate-limited').length).toBe(197);
    // Three of the flood and the other table's new game reached the runtime.
    expect(referee.events).toBe(4);
  });
});

describe('a connection that keeps flooding', () => {
  it('is told and closed, and its address is slowed down like a wrong token', async () => {
    const now = 0;
    const referee = new CountingReferee({ seed: 1, games: 1 });
    const url = await served(referee, {
      now: () => now,
      eventRate: { perSecond: 1, burst: 1, waiting: 100, closeAfter: 5 },
      helloLockout: { free: 0, firstMs: 200, maxMs: 200, forgetMs: 60_000 },
    });
    const socket = rawClient(url);
    await hello(socket, helloMessage());
    const told = once<Record<string, unknown>>(socket, 'rejected');
    const closed = once(socket, 'disconnect');
    const acks: EventAck[] = [];
    for (let i = 0; i < 20; i++)
      socket.emit('game:control', { seq: i + 1, action: 'pause' }, (a: EventAck) => acks.push(a));
    expect(await told).toEqual({
      code: 'rate-limited',
      reason:
        'more than 5 events over the rate limit in a second: this connection is closed (1 events a second at most)',
      retryAfterMs: 1000,
    });
    expect(await closed).toBe('io server disconnect');
    // One heard (its answer before the close), five answered rate-limited (at once), the rest not read.
    expect(acks.map((a) => (a.ok ? 'ok' : a.code)).sort()).toEqual(['ok', ...Array(5).fill('rate-limited')]);
    expect(referee.events).toBe(1);
    // Its address's next wrong token waits; the right one does not.
    expect(await hello(rawClient(url), helloMessage({ token: 'not-the-token-at-all' }))).toMatchObject({
      ok: false,
      code: 'too-many-attempts',
      retryAfterMs: 200,
    });
    expect(
      await hello(rawClient(url), helloMessage({ table: { id: 'next', name: 'n', kind: 'touch' } })),
    ).toMatchObject({
      ok: true,
    });
  });
});

describe('hellos with a wrong token', () => {
  it('are slowed down per address: past the free ones, each is answered only after a wait that doubles; the right token is heard at once', async () => {
    let now = 0;
    const { url } = await startServer(
      {},
      { now: () => now, helloLockout: { free: 3, firstMs: 100, maxMs: 400, forgetMs: 60_000 } },
    );
    const wrong = helloMessage({ token: 'not-the-token-at-all' });
    for (let i = 0; i < 3; i++)
      expect(await hello(rawClient(url), wrong)).toMatchObject({ ok: false, code: 'bad-token' });
    // Past the free ones: held, then answered with the wait it had, doubling up to maxMs.
    const held = [0, 1, 2, 3].map((i) =>
      hello(rawClient(url), { ...wrong, table: { id: `w${i}`, name: 'w', kind: 'touch' } }),
    );
    // The right token from the same address meanwhile is heard at once.
    expect(
      await hello(rawClient(url), helloMessage({ table: { id: 'right', name: 'right', kind: 'touch' } }, [])),
    ).toMatchObject({ ok: true });
    const answers = await Promise.all(held);
    expect(answers.map((a) => (a.ok ? 'ok' : a.code))).toEqual(Array(4).fill('too-many-attempts'));
    expect(answers.map((a) => (a as { retryAfterMs: number }).retryAfterMs).sort((x, y) => x - y)).toEqual([
      100, 200, 400, 400,
    ]);
    for (const a of answers)
      expect((a as { reason: string }).reason).toMatch(
        /^too many hellos with a wrong token from 127\.0\.0\.1: this one was answered after 1 s/,
      );
    // After a quiet while the failures are forgotten.
    now += 60_001;
    for (let i = 0; i < 3; i++)
      expect(await hello(rawClient(url), wrong)).toMatchObject({ ok: false, code: 'bad-token' });
  });

  it('the right token is never slowed down by hellos that had it', async () => {
    const { url } = await startServer(
      {},
      { helloLockout: { free: 1, firstMs: 60_000, maxMs: 60_000, forgetMs: 60_000 } },
    );
    for (let i = 0; i < 5; i++)
      expect(
        await hello(rawClient(url), helloMessage({ table: { id: `t${i}`, name: 't', kind: 'touch' } }, [])),
      ).toMatchObject({ ok: true });
    expect(TOKEN.length).toBeGreaterThan(0);
  });
});

describe('what a table may do', () => {
  it('a table hosting no seat watches: its cards and controls are refused display-only, and nothing reaches the runtime', async () => {
    const referee = new CountingReferee({ seed: 1, games: 1 });
    const url = await served(referee);
    const player = rawClient(url);
    await hello(player, helloMessage({}, [1, 2, 3]));
    expect(await player.emitWithAck('game:control', { seq: 1, action: 'new-game' })).toMatchObject({ ok: true });
    const events = referee.events;
    const display = rawClient(url);
    expect(
      await hello(display, helloMessage({ table: { id: 'wall', name: 'wall screen', kind: 'virtual' } }, [])),
    ).toMatchObject({ ok: true });
    const tries: [string, Record<string, unknown>][] = [
      ['game:control', { seq: 1, action: 'pause' }],
      ['game:control', { seq: 2, action: 'resume' }],
      ['game:control', { seq: 3, action: 'new-game' }],
      ['card:detected', { seq: 4, card: 'AS', zone: { area: 'play', seat: 1 } }],
      ['card:removed', { seq: 5, card: 'AS', zone: { area: 'play', seat: 1 } }],
    ];
    for (const [event, msg] of tries) {
      expect(await display.emitWithAck(event, msg)).toEqual({
        ok: false,
        code: 'display-only',
        reason: `${event}: table wall hosts no seat: it shows the game and cannot change it (a table that plays says hello with its seats)`,
        seq: msg.seq,
      });
    }
    expect(referee.events).toBe(events);
    // Its answers are remembered like any other: the same event again gets the same answer.
    expect(await display.emitWithAck('game:control', { seq: 1, action: 'pause' })).toMatchObject({
      ok: false,
      code: 'display-only',
    });
  });

  it("a card lifted from a seat another table hosts is refused not-your-seat (the robot's seat is every playing table's)", async () => {
    const referee = new CountingReferee({ seed: 1, games: 1 });
    const url = await served(referee);
    const a = rawClient(url);
    await hello(a, helloMessage({ table: { id: 'a', name: 'a', kind: 'touch' } }, [1, 3]));
    const b = rawClient(url);
    await hello(b, helloMessage({ table: { id: 'b', name: 'b', kind: 'touch' } }, [2]));
    expect(await a.emitWithAck('game:control', { seq: 1, action: 'new-game' })).toMatchObject({ ok: true });
    const before = referee.events;
    expect(await a.emitWithAck('card:removed', { seq: 2, card: 'AS', zone: { area: 'play', seat: 2 } })).toEqual({
      ok: false,
      code: 'not-your-seat',
      reason: 'card:removed: table a does not host seat 2; nothing changed',
      seq: 2,
    });
    expect(referee.events).toBe(before);
    // Its own seats and the robot's (seat 0) reach the runtime.
    await a.emitWithAck('card:removed', { seq: 3, card: 'AS', zone: { area: 'play', seat: 0 } });
    await b.emitWithAck('card:removed', { seq: 1, card: 'AS', zone: { area: 'play', seat: 2 } });
    expect(referee.events).toBe(before + 2);
  });
});

describe('plain HTTP on the table port', () => {
  it('is answered at once with a page saying what the port is, hundreds at a time, and a table still joins', async () => {
    const { url } = await startServer();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${url}/${i % 3 ? '' : 'favicon.ico'}`).then(async (r) => ({ status: r.status, text: await r.text() })),
      ),
    );
    for (const [i, a] of answers.entries()) {
      expect(a.status).toBe(i % 3 ? 200 : 404);
      expect(a.text).toContain('Parceiro table server: card tables connect here with socket.io 4, namespace /table');
    }
    expect(await hello(rawClient(url), helloMessage())).toMatchObject({ ok: true });
  });

  it('a request whose headers never end is closed', async () => {
    const { url } = await startServer({}, { headersTimeoutMs: 200 });
    const { hostname, port } = new URL(url);
    const socket = createConnection({ host: hostname, port: Number(port) });
    let answer = '';
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => socket.on('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});

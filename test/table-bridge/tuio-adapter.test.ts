// The TUIO adapter over real sockets: TUIO over UDP on 127.0.0.1 (free ports), the table protocol
// against a real TableServer. Malformed packets are skipped and logged once; an unknown marker and a
// played card lifted from its spot get the runtime's answers shown; the link resends an unanswered
// event with the same seq after a reconnection and continues above lastSeq. Every wait is for a
// condition, never for a time.

import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCard } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import { defaultFiducials } from '../../table-bridge/index.js';
import { tableDeal } from '../../table-bridge/table-deal.js';
import type { TuioFrame, TuioSettings } from '../../table-bridge/tuio/index.js';
import {
  TableLink,
  TuioCamera,
  TuioListener,
  TuioTable,
  centroid,
  encodeTuioFrame,
  handSlots,
  loadTuioSettings,
} from '../../table-bridge/tuio/index.js';
import { TOKEN, cleanup, startServer } from './harness.js';
import { startSession } from '../robot/session-harness.js';

const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 60_000, interval: 10 });
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  await cleanup();
});

function udpSender(port: number) {
  const socket = createSocket('udp4');
  closers.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return (packet: Uint8Array) =>
    new Promise<void>((resolve, reject) =>
      socket.send(packet, port, '127.0.0.1', (err) => (err ? reject(err) : resolve())),
    );
}

const logger = () => {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at =
    (level: string) =>
    (obj: object, msg = '') =>
      void lines.push({ level, obj, msg });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
};

describe('the TUIO listener', () => {
  it('hands on the frames of real bundles, and skips a malformed packet with one warning per sender', async () => {
    const frames: TuioFrame[] = [];
    const { lines, log } = logger();
    const listener = new TuioListener({ host: '127.0.0.1', port: 0, onFrame: (f) => frames.push(f), logger: log });
    closers.push(() => listener.close());
    const { port } = await listener.listen();
    const send = udpSender(port);
    await send(new TextEncoder().encode('GET / HTTP/1.1\r\n\r\n'));
    await send(new Uint8Array([1, 2, 3]));
    await send(
      encodeTuioFrame(
        { source: 'cam', fseq: 1, alive: [4], markers: [{ session: 4, fiducial: 12, x: 0.5, y: 0.5, angle: 0 }] },
        1,
      ),
    );
    await send(encodeTuioFrame({ source: 'cam', fseq: 2, alive: [4], markers: [] }, 2));
    await eventually(() => expect(listener.counts).toEqual({ packets: 4, frames: 2, malformed: 2 }));
    expect(frames.map((f) => [f.version, f.fseq])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/skipped a packet that is not TUIO/);
    expect(warnings[0]!.obj).toMatchObject({ reason: expect.stringContaining('not an OSC packet') });
  });

  it('says which port is taken', async () => {
    const first = new TuioListener({ host: '127.0.0.1', port: 0, onFrame: () => {} });
    closers.push(() => first.close());
    const { port } = await first.listen();
    await expect(new TuioListener({ host: '127.0.0.1', port, onFrame: () => {} }).listen()).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});

describe('the adapter at a physically dealt game, step by step', () => {
  const settings = (): TuioSettings => ({
    ...loadTuioSettings(),
    host: '127.0.0.1',
    port: 0,
    settleMs: 50,
    flickerMs: 150,
  });

  it("an unknown marker is reported with its id and place and the runtime's answer; a played card lifted is asked back, and put back", async () => {
    const { url } = await startSession({ seed: 2, games: 1 });
    const notices: string[] = [];
    const { lines, log } = logger();
    const adapter = new TuioTable({
      url,
      token: TOKEN,
      settings: settings(),
      fiducials: defaultFiducials(),
      notify: (l) => notices.push(l),
      logger: log,
    });
    closers.push(() => adapter.close());
    const { port, state } = await adapter.start();
    expect(state.robotSeat).toBe(0);
    const cam = new TuioCamera({ host: '127.0.0.1', port, version: 2, seed: 1, fps: 100 });
    closers.push(() => cam.close());
    cam.start();
    const g = settings().geometry;
    const ids = defaultFiducials();
    // Seat 1 deals (the seat after the robot's) and turns up its last card.
    const deal = tableDeal(5, 0, 1);
    cam.place(ids.idOf(deal.trumpCard), centroid(g.trump));
    await adapter.link.waitFor((s) => s.game?.status === 'playing');
    expect(adapter.link.state!.game).toMatchObject({
      dealer: 1,
      trumpCard: formatCard(deal.trumpCard),
      deal: 'physical',
    });
    cam.lift(ids.idOf(deal.trumpCard));

    // A marker the mapping does not know, on seat 2's spot.
    cam.place(913, centroid(g.seats[2].play));
    await eventually(() =>
      expect(adapter.sent.find((s) => !s.ack.ok)?.ack).toMatchObject({ code: 'unknown-fiducial' }),
    );
    expect(notices).toContainEqual(
      expect.stringMatching(
        /^marker 913 at \(0\.500, 0\.360\) in seat 2's play spot is not a card of .*fiducials\.yaml$/,
      ),
    );
    expect(notices).toContainEqual(
      expect.stringMatching(/^marker 913 placed in seat 2's play spot: refused \(unknown-fiducial\): .*913/),
    );
    expect(lines.some((l) => l.level === 'warn' && (l.obj as { fiducial?: number }).fiducial === 913)).toBe(true);
    cam.lift(913);

    // The robot's ten cards in its hand area.
    handSlots(g.seats[0].hand, 10).forEach((p, i) => cam.place(ids.idOf(deal.hands[0]![i]!), p));
    await adapter.link.waitFor((s) => s.game?.robotCards === 10);
    // Seat 2 leads; its card is put on its spot, lifted in the trick, and put back.
    const seat = adapter.link.state!.game!.toMove as Seat;
    expect(seat).toBe(2);
    const card = deal.hands[2]![0]!;
    cam.place(ids.idOf(card), centroid(g.seats[2].play));
    await adapter.link.waitFor((s) => s.game!.plays.length === 1);
    cam.lift(ids.idOf(card));
    await eventually(() =>
      expect(
        notices.some(
          (n) =>
            n.includes(`${formatCard(card)} was played in this trick: put it back`) ||
            n.includes(`${formatCard(card)} was played: put it back`),
        ),
      ).toBe(true),
    );
    const removed = adapter.sent.find(
      (s) => s.event.event === 'card:removed' && 'fiducial' in s.event.body && s.event.body.fiducial === ids.idOf(card),
    );
    // The unknown marker's lifting was not sent: the runtime had refused it already.
    expect(adapter.sent.filter((s) => s.event.event === 'card:removed')).toHaveLength(1);
    expect(removed?.ack).toMatchObject({ ok: true, note: expect.stringContaining('put it back') });
    cam.place(ids.idOf(card), centroid(g.seats[2].play));
    await eventually(() =>
      expect(adapter.sent.at(-1)?.ack).toMatchObject({ ok: true, note: expect.stringContaining('put back') }),
    );
    expect(adapter.link.state!.game!.plays).toEqual([{ seat: 2, card: formatCard(card) }]);
  });
});

describe('dealing before the trump card is shown', () => {
  it("the robot's cards already lying in its hand area are read when the game starts", async () => {
    const { url } = await startSession({ seed: 3, games: 1 });
    const adapter = new TuioTable({
      url,
      token: TOKEN,
      settings: { ...loadTuioSettings(), host: '127.0.0.1', port: 0, settleMs: 50 },
      fiducials: defaultFiducials(),
    });
    closers.push(() => adapter.close());
    const { port } = await adapter.start();
    const cam = new TuioCamera({ host: '127.0.0.1', port, version: 1, seed: 2, fps: 100 });
    closers.push(() => cam.close());
    cam.start();
    const g = loadTuioSettings().geometry;
    const ids = defaultFiducials();
    const deal = tableDeal(8, 0, 1);
    handSlots(g.seats[0].hand, 10).forEach((p, i) => cam.place(ids.idOf(deal.hands[0]![i]!), p));
    await eventually(() => expect(adapter.lying().filter((c) => c.zone.area === 'hand')).toHaveLength(10));
    // Nothing sent yet: there is no game to put them in.
    expect(adapter.sent).toEqual([]);
    cam.place(ids.idOf(deal.trumpCard), centroid(g.trump));
    const s = await adapter.link.waitFor((st) => st.game?.robotCards === 10);
    expect(s.game).toMatchObject({ dealer: 1, toMove: 2 });
    expect(adapter.sent.filter((x) => !x.ack.ok)).toEqual([]);
  });
});

describe('the table link', () => {
  it('resends an unanswered event with the same seq after a reconnection, and a new link of the same id continues above lastSeq', async () => {
    const { url } = await startServer({ games: 1 });
    const link = new TableLink({
      url,
      token: TOKEN,
      id: 'cam',
      name: 'camera',
      kind: 'touch',
      seatsFor: (robot) => ([0, 1, 2, 3] as Seat[]).filter((s) => s !== robot),
    });
    closers.push(() => link.close());
    const joined = await link.start();
    expect(joined.robotSeat).toBe(0);
    expect(joined.seats?.filter((s) => s.holder === 'table').map((s) => s.seat)).toEqual([1, 2, 3]);
    const pause = link.send({ event: 'game:control', body: { action: 'pause' } });
    // Cut while the event may or may not have arrived: either way it is answered once, under its seq.
    link.reconnect();
    const first = await pause;
    expect(first).toMatchObject({ ok: true, seq: 1 });
    await link.waitFor((s) => s.paused);
    expect(link.joins).toBe(2);
    expect(await link.send({ event: 'game:control', body: { action: 'resume' } })).toMatchObject({ ok: true, seq: 2 });
    link.close();

    const again = new TableLink({
      url,
      token: TOKEN,
      id: 'cam',
      name: 'camera',
      kind: 'touch',
      seatsFor: (robot) => ([0, 1, 2, 3] as Seat[]).filter((s) => s !== robot),
      robotSeat: 0,
    });
    closers.push(() => again.close());
    await again.start();
    expect(await again.send({ event: 'game:control', body: { action: 'pause' } })).toMatchObject({ ok: true, seq: 3 });
  });

  it('stops at a wrong token, with the reason', async () => {
    const { url } = await startServer();
    const link = new TableLink({ url, token: 'wrong', id: 'cam', name: 'camera', kind: 'touch', seatsFor: () => [] });
    closers.push(() => link.close());
    await expect(link.start()).rejects.toThrow(/bad-token/);
  });
});

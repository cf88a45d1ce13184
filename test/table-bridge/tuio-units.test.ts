// The TUIO adapter's pure parts: OSC packets to frames (TUIO 1.1 and 2.0, and what is not TUIO), the
// markers alive per tracker, cards placed and lifted in zones with flicker and slides (time passed in),
// what each placement means to the runtime, and the geometry file's checks.

import { toBuffer } from 'osc-min';
import { describe, expect, it } from 'vitest';
import type { TableState } from '../../table-bridge/index.js';
import { ConfigError } from '../../table-bridge/index.js';
import type { PlacementEvent, TuioFrame } from '../../table-bridge/tuio/index.js';
import {
  CardPlacements,
  MarkerBoard,
  TuioPacketError,
  aroundCentre,
  cardReport,
  decodeTuioPacket,
  encodeTuioFrame,
  loadTuioSettings,
  overlap,
  parseTuioSettings,
  selfIntersects,
  zoneAt,
} from '../../table-bridge/tuio/index.js';

const geometry = loadTuioSettings().geometry;
const PLAY1: [number, number] = [0.64, 0.5];
const HAND1: [number, number] = [0.9, 0.5];
const PLAY0: [number, number] = [0.5, 0.64];
const HAND0: [number, number] = [0.5, 0.9];
const TRUMP: [number, number] = [0.9, 0.9];
const NOWHERE: [number, number] = [0.25, 0.25];

const osc = (elements: Parameters<typeof toBuffer>[0]) => {
  const v = toBuffer(elements);
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
};

describe('TUIO packets', () => {
  it('decodes a TUIO 1.1 /tuio/2Dobj bundle as reacTIVision sends it', () => {
    const packet = osc({
      timetag: [0, 1],
      elements: [
        { address: '/tuio/2Dobj', args: ['source', 'reacTIVision@127.0.0.1'] },
        { address: '/tuio/2Dobj', args: ['alive', { type: 'integer', value: 12 }, { type: 'integer', value: 15 }] },
        {
          address: '/tuio/2Dobj',
          args: ['set', { type: 'integer', value: 12 }, { type: 'integer', value: 19 }, 0.25, 0.75, 1.5, 0, 0, 0, 0, 0],
        },
        { address: '/tuio/2Dobj', args: ['fseq', { type: 'integer', value: 301 }] },
      ],
    });
    const [frame, ...rest] = decodeTuioPacket(packet);
    expect(rest).toEqual([]);
    expect(frame).toEqual({
      version: 1,
      source: 'reacTIVision@127.0.0.1',
      fseq: 301,
      alive: [12, 15],
      markers: [{ session: 12, fiducial: 19, x: 0.25, y: 0.75, angle: 1.5 }],
    });
  });

  it('decodes a TUIO 2.0 bundle: /tuio2/frm with its timetag, /tuio2/tok (the component id is the fiducial), /tuio2/alv', () => {
    const packet = osc({
      timetag: [0, 1],
      elements: [
        {
          address: '/tuio2/frm',
          args: [
            { type: 'integer', value: 7 },
            { type: 'timetag', value: [100, 0] },
            { type: 'integer', value: (640 << 16) | 480 },
            'cam',
          ],
        },
        {
          address: '/tuio2/tok',
          args: [
            { type: 'integer', value: 3 },
            { type: 'integer', value: 0 },
            { type: 'integer', value: 21 },
            0.5,
            0.5,
            0,
          ],
        },
        {
          address: '/tuio2/ptr',
          args: [
            { type: 'integer', value: 4 },
            { type: 'integer', value: 0 },
            { type: 'integer', value: 0 },
            0.1,
            0.1,
            0,
            0,
            0,
            0,
            0,
          ],
        },
        {
          address: '/tuio2/alv',
          args: [
            { type: 'integer', value: 3 },
            { type: 'integer', value: 4 },
          ],
        },
      ],
    });
    expect(decodeTuioPacket(packet)).toEqual([
      {
        version: 2,
        source: 'cam',
        fseq: 7,
        alive: [3, 4],
        markers: [{ session: 3, fiducial: 21, x: 0.5, y: 0.5, angle: 0 }],
      },
    ]);
  });

  it('round-trips its own frames in both versions', () => {
    const frame = {
      source: 's',
      fseq: 5,
      alive: [1, 2],
      markers: [{ session: 1, fiducial: 9, x: 0.5, y: 0.25, angle: 0 }],
    };
    for (const version of [1, 2] as const) {
      const [back] = decodeTuioPacket(encodeTuioFrame(frame, version));
      expect(back).toEqual({ version, ...frame });
    }
  });

  it('ignores other profiles, and refuses what is not TUIO with a reason', () => {
    const cursor = osc({
      timetag: [0, 1],
      elements: [
        { address: '/tuio/2Dcur', args: ['alive'] },
        { address: '/tuio/2Dcur', args: ['fseq', { type: 'integer', value: 1 }] },
      ],
    });
    expect(decodeTuioPacket(cursor)).toEqual([]);
    expect(() => decodeTuioPacket(new TextEncoder().encode('hello world!'))).toThrow(TuioPacketError);
    expect(() => decodeTuioPacket(new Uint8Array([0x23, 0x62, 0x75]))).toThrow(/not an OSC packet/);
    const noAlive = osc({
      timetag: [0, 1],
      elements: [{ address: '/tuio/2Dobj', args: ['fseq', { type: 'integer', value: 1 }] }],
    });
    expect(() => decodeTuioPacket(noAlive)).toThrow('a /tuio/2Dobj bundle without its alive message');
    const badSet = osc({
      timetag: [0, 1],
      elements: [
        { address: '/tuio/2Dobj', args: ['alive', { type: 'integer', value: 1 }] },
        { address: '/tuio/2Dobj', args: ['set', 'one', 2] },
        { address: '/tuio/2Dobj', args: ['fseq', { type: 'integer', value: 1 }] },
      ],
    });
    expect(() => decodeTuioPacket(badSet)).toThrow('/tuio/2Dobj set session id: expected a number, got string');
  });
});

describe('the markers alive per tracker', () => {
  const frame = (fseq: number, alive: number[], markers: TuioFrame['markers'] = []): TuioFrame => ({
    version: 1,
    source: '',
    fseq,
    alive,
    markers,
  });
  const m = (session: number, fiducial: number) => ({ session, fiducial, x: 0.5, y: 0.5, angle: 0 });

  it('keeps the last place of markers not restated, drops those no longer alive, and skips late frames', () => {
    const board = new MarkerBoard();
    expect(board.apply(frame(10, [1, 2], [m(1, 5), m(2, 6)]))).toBe(true);
    expect(board.apply(frame(11, [1, 2]))).toBe(true);
    expect(board.present().map((x) => x.fiducial)).toEqual([5, 6]);
    // A frame that arrives after a newer one changes nothing.
    expect(board.apply(frame(9, [1]))).toBe(false);
    expect(board.present()).toHaveLength(2);
    expect(board.apply(frame(12, [2]))).toBe(true);
    expect(board.present().map((x) => x.fiducial)).toEqual([6]);
    // fseq -1 repeats the last frame; a far lower number is a tracker that restarted.
    expect(board.apply(frame(-1, [2]))).toBe(true);
    expect(board.apply(frame(400, [2]))).toBe(true);
    expect(board.apply(frame(1, [], []))).toBe(true);
    expect(board.present()).toEqual([]);
  });
});

describe('cards placed and lifted in zones', () => {
  const placements = () => new CardPlacements({ geometry, flickerMs: 200, settleMs: 100 });
  const at = (fiducial: number, p: [number, number]) => ({ fiducial, x: p[0], y: p[1] });
  const short = (events: PlacementEvent[]) =>
    events.map((e) => `${e.type} ${e.fiducial} ${e.zone.area}${'seat' in e.zone ? e.zone.seat : ''}`);

  it('maps points to zones', () => {
    expect(zoneAt(geometry, PLAY1)).toEqual({ area: 'play', seat: 1 });
    expect(zoneAt(geometry, HAND0)).toEqual({ area: 'hand', seat: 0 });
    expect(zoneAt(geometry, TRUMP)).toEqual({ area: 'trump' });
    expect(zoneAt(geometry, NOWHERE)).toBeNull();
  });

  it('a card counts once it has settled; a flicker shorter than flickerMs is no removal, even with a new session', () => {
    const p = placements();
    expect(p.observe([at(19, PLAY1)], 0)).toEqual([]);
    expect(short(p.observe([at(19, PLAY1)], 60))).toEqual([]);
    expect(short(p.observe([at(19, PLAY1)], 100))).toEqual(['placed 19 play1']);
    // Lost for 150 ms, found again: the same card lying there.
    expect(p.observe([], 133)).toEqual([]);
    expect(p.tick(250)).toEqual([]);
    expect(p.observe([at(19, PLAY1)], 283)).toEqual([]);
    expect(p.tick(1000)).toEqual([]);
    // Gone for longer: lifted.
    expect(p.observe([], 1033)).toEqual([]);
    expect(short(p.tick(1233))).toEqual(['lifted 19 play1']);
    expect(p.lying()).toEqual([]);
    p.observe([at(19, PLAY1)], 2000);
    p.tick(2100);
    expect(p.lying()).toEqual([{ fiducial: 19, zone: { area: 'play', seat: 1 }, at: PLAY1 }]);
  });

  it('a card slid from a hand area to a play spot is lifted from the one and placed on the other', () => {
    const p = placements();
    p.observe([at(5, HAND1)], 0);
    expect(short(p.tick(100))).toEqual(['placed 5 hand1']);
    p.observe([at(5, [0.8, 0.5])], 200);
    p.observe([at(5, PLAY1)], 230);
    expect(p.tick(300)).toEqual([]);
    expect(short(p.tick(330))).toEqual(['lifted 5 hand1', 'placed 5 play1']);
  });

  it('a card passing over a zone, or lying in none, is not placed anywhere', () => {
    const p = placements();
    p.observe([at(7, NOWHERE)], 0);
    expect(p.tick(5000)).toEqual([]);
    // Across seat 0's spot in under settleMs, to seat 1's.
    p.observe([at(7, PLAY0)], 5000);
    p.observe([at(7, PLAY1)], 5050);
    expect(short(p.tick(5200))).toEqual(['placed 7 play1']);
    // Pushed off into no zone: lifted once it stays there.
    p.observe([at(7, NOWHERE)], 6000);
    expect(short(p.tick(6100))).toEqual(['lifted 7 play1']);
  });

  it('a flicker that comes back in another zone is a move', () => {
    const p = placements();
    p.observe([at(3, HAND0)], 0);
    p.tick(100);
    p.observe([], 200);
    p.observe([at(3, PLAY0)], 300);
    expect(short(p.tick(400))).toEqual(['lifted 3 hand0', 'placed 3 play0']);
  });
});

describe('what a placement means to the runtime', () => {
  const state = (game: Partial<NonNullable<TableState['game']>> | null, over: Partial<TableState> = {}): TableState =>
    ({
      protocol: 1,
      session: { id: 's', games: 5, played: game ? 1 : 0, victories: [0, 0], draws: 0, complete: false },
      robotSeat: 0,
      paused: false,
      game: game && { index: 0, deal: 'physical', dealer: 1, trumpCard: 'AS', status: 'complete', ...game },
      ...over,
    }) as TableState;
  const ev = (type: 'placed' | 'lifted', zone: PlacementEvent['zone']): PlacementEvent => ({
    type,
    fiducial: 9,
    zone,
    at: [0, 0],
  });

  it('the trump area starts the next game with the seat due as dealer, and only when no game is played', () => {
    expect(cardReport(ev('placed', { area: 'trump' }), state(null), 1)).toEqual({
      send: { event: 'game:control', body: { action: 'new-game', deal: { dealer: 1, trump: { fiducial: 9 } } } },
    });
    // After seat 1 dealt, seat 2.
    expect(cardReport(ev('placed', { area: 'trump' }), state({ dealer: 1 }), 1)).toMatchObject({
      send: { body: { deal: { dealer: 2 } } },
    });
    expect(cardReport(ev('placed', { area: 'trump' }), state({ dealer: 3 }), 1)).toMatchObject({
      send: { body: { deal: { dealer: 0 } } },
    });
    expect(cardReport(ev('placed', { area: 'trump' }), state({ status: 'playing' }), 1)).toEqual({
      ignore: 'a card in the trump area while game 1 is being played',
    });
    expect(cardReport(ev('lifted', { area: 'trump' }), state(null), 1)).toMatchObject({ ignore: expect.any(String) });
    // After the session's last game: the runtime says whether a next session starts.
    const over = state(
      { dealer: 2 },
      { session: { id: 's', games: 1, played: 1, victories: [1, 0], draws: 0, complete: true } },
    );
    expect(cardReport(ev('placed', { area: 'trump' }), over, 1)).toMatchObject({
      send: { body: { deal: { dealer: 3 } } },
    });
  });

  it("play spots both ways, the robot's hand area both ways, people's hand areas not at all", () => {
    const s = state({ status: 'playing' });
    expect(cardReport(ev('placed', { area: 'play', seat: 2 }), s, 1)).toEqual({
      send: { event: 'card:detected', body: { zone: { area: 'play', seat: 2 }, fiducial: 9 } },
    });
    expect(cardReport(ev('lifted', { area: 'play', seat: 0 }), s, 1)).toEqual({
      send: { event: 'card:removed', body: { zone: { area: 'play', seat: 0 }, fiducial: 9 } },
    });
    expect(cardReport(ev('placed', { area: 'hand', seat: 0 }), s, 1)).toEqual({
      send: { event: 'card:detected', body: { zone: { area: 'hand', seat: 0 }, fiducial: 9 } },
    });
    expect(cardReport(ev('lifted', { area: 'hand', seat: 0 }), s, 1)).toMatchObject({
      send: { event: 'card:removed' },
    });
    expect(cardReport(ev('placed', { area: 'hand', seat: 3 }), s, 1)).toEqual({
      ignore: "seat 3's hand area: people's hands are not tracked",
    });
    // Between games the robot's cards are not sent one by one: the adapter reads them when the game starts.
    expect(cardReport(ev('placed', { area: 'hand', seat: 0 }), state({ status: 'complete' }), 1)).toMatchObject({
      ignore: expect.stringContaining('no game yet'),
    });
    expect(cardReport(ev('placed', { area: 'hand', seat: 0 }), state(null), 1)).toMatchObject({
      ignore: expect.stringContaining('no game yet'),
    });
  });
});

describe('the geometry file', () => {
  const text = (zones: string) => `flickerMs: 200\nzones:\n${zones}`;
  const square = (x: number, y: number, d = 0.1) =>
    `[[${x}, ${y}], [${x + d}, ${y}], [${x + d}, ${y + d}], [${x}, ${y + d}]]`;
  const seats = (seat1Play = square(0.3, 0.1)) =>
    [0, 1, 2, 3]
      .map(
        (s) =>
          `    - seat: ${s}\n      play: ${s === 1 ? seat1Play : square(0.1 + s * 0.2, 0.1)}\n      hand: ${square(0.1 + s * 0.2, 0.5)}`,
      )
      .join('\n');

  it('loads the shipped file, with defaults for what it leaves out', () => {
    const s = parseTuioSettings('/lab/tuio.yaml', text(`  trump: ${square(0.8, 0.8)}\n  seats:\n${seats()}\n`));
    expect(s).toMatchObject({
      host: '127.0.0.1',
      port: 3333,
      settleMs: 100,
      firstDealer: 'after-robot',
      fiducialsFile: '/lab/fiducials.yaml',
    });
    expect(loadTuioSettings().geometry.seats[2].play).toHaveLength(4);
  });

  it('names the file and line of a zone that overlaps another, crosses itself or has a point off the image', () => {
    const overlapping = text(`  trump: ${square(0.8, 0.8)}\n  seats:\n${seats(square(0.15, 0.15))}\n`);
    expect(() => parseTuioSettings('t.yaml', overlapping)).toThrow(
      new ConfigError({
        file: 't.yaml',
        line: 9,
        key: 'zones.seats[1].play',
        reason: "seat 1's play spot overlaps seat 0's play spot",
      }),
    );
    const bowTie = text(`  trump: [[0.8, 0.8], [0.9, 0.9], [0.9, 0.8], [0.8, 0.9]]\n  seats:\n${seats()}\n`);
    expect(() => parseTuioSettings('t.yaml', bowTie)).toThrow(
      't.yaml:3: zones.trump: two edges cross: list the corners in order around the zone',
    );
    const off = text(`  trump: [[0.8, 0.8], [1.2, 0.8], [0.9, 0.9]]\n  seats:\n${seats()}\n`);
    expect(() => parseTuioSettings('t.yaml', off)).toThrow(/^t\.yaml:3: zones\.trump\[1\]\[0\]: expected at most 1/);
    expect(() => parseTuioSettings('t.yaml', 'zones:\n  trump: [[0, 0]]\n  seats: []\nbogus: 1\n')).toThrow(
      ConfigError,
    );
  });

  it('polygon checks', () => {
    expect(
      selfIntersects([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
      ]),
    ).toBe(true);
    expect(
      selfIntersects(
        aroundCentre([
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ]),
      ),
    ).toBe(false);
    expect(
      overlap(
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
        [
          [0.2, 0.2],
          [0.3, 0.2],
          [0.3, 0.3],
        ],
      ),
    ).toBe(true);
    expect(
      overlap(
        [
          [0, 0],
          [0.1, 0],
          [0.1, 0.1],
          [0, 0.1],
        ],
        [
          [0.2, 0.2],
          [0.3, 0.2],
          [0.3, 0.3],
        ],
      ),
    ).toBe(false);
  });
});

// The table fuzzer (the fault suite: malformed and hostile input must not crash the node): a real node
// (ParceiroNode, from dist/ as the replay tests load it, since its estimates run in compiled workers)
// on 127.0.0.1, an honest simulated table playing a whole session in seats 1-3, and beside it, at
// seeded moments of that session (the N-th play, not a timer), seeded faults: malformed messages,
// unknown events, events without an acknowledgement, cards at seats the table does not host or that
// cannot be played, duplicate and old seqs, pause and resume, faults of the honest table itself (out of
// turn, a marker not in the deck, a card played twice, a resent seq, a dropped connection, a lifted
// card), a flood from one connection, connection churn (hello-less connections, refused hellos,
// replaced ids) and events before hello. After each fault: every event it sent has its one answer (an
// acknowledgement, or `rejected` for one sent without), and the state the tables see is consistent.
// After the session: 40 plays a game, no card twice, 120 points, victories as the points say, every
// play the table saw and every event accepted in the recording, and the recording replays to itself.
//
// Figures: `npx vitest run test/fault/table-fuzz.test.ts` prints them and writes
// $TMPDIR/parceiro-fault-figures/table-fuzz.json. PARCEIRO_FAULT_SEED=n tries other inputs.

import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import type { GameEventMessage, TableEvent } from '../../robot/bus/index.js';
import type { Fault, TableState } from '../../table-bridge/index.js';
import { SimulatedTable, TABLE_NAMESPACE } from '../../table-bridge/index.js';
import { Gen, SUITE_SEED, Tally, checkSessionEvents, recording, replay, robot } from './fault-kit.js';

const TOKEN = 'fuzz-token-7c21e9a04b5d';
const GAMES = 2;
/** A safety net only: every wait below is on a message; this is how long one may take at worst. */
const ANSWER_MS = 45_000;
const FLOOD = 2000;

const dir = mkdtempSync(join(tmpdir(), 'parceiro-fuzz-'));
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { kind: 'ack'; ack: Record<string, unknown> } | { kind: 'closed' } | { kind: 'none' };

/** A bare socket.io client on /table: what the fuzzer sends, and every answer it gets. */
class Raw {
  readonly socket: Socket;
  readonly rejected: Record<string, unknown>[] = [];
  readonly states: TableState[] = [];
  closedByServer = false;
  #closed: Promise<void>;
  constructor(url: string) {
    this.socket = io(`${url}${TABLE_NAMESPACE}`, { transports: ['websocket'], forceNew: true, reconnection: false });
    closers.push(() => this.socket.disconnect());
    this.socket.on('rejected', (m: Record<string, unknown>) => this.rejected.push(m));
    this.socket.on('state', (s: TableState) => this.states.push(s));
    this.socket.on('robot:play', (_m: unknown, ack?: (a: unknown) => void) => ack?.({ ok: true }));
    this.socket.on('hand', (_m: unknown, ack?: (a: unknown) => void) => ack?.({ ok: true }));
    this.#closed = new Promise((resolve) =>
      this.socket.on('disconnect', (reason) => {
        if (reason === 'io server disconnect' || reason === 'transport close') this.closedByServer = true;
        resolve();
      }),
    );
  }
  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', (e) => reject(e));
    });
  }
  /** Emits with an acknowledgement; resolves with the answer, or `closed` if the server closed the connection first. */
  ask(event: string, payload: unknown): Promise<Answer> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (a: Answer): void => {
        if (!done) resolve(a);
        done = true;
      };
      void this.#closed.then(() => finish({ kind: 'closed' }));
      this.socket
        .timeout(ANSWER_MS)
        .emit(event, payload, (err: Error | null, ack: Record<string, unknown>) =>
          finish(err ? (this.socket.connected ? { kind: 'none' } : { kind: 'closed' }) : { kind: 'ack', ack }),
        );
    });
  }
  /** Emits without an acknowledgement; resolves with the `rejected` message it must bring. */
  async tell(event: string, payload: unknown): Promise<Record<string, unknown> | null> {
    const before = this.rejected.length;
    const told = new Promise<Record<string, unknown> | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), ANSWER_MS);
      const on = (): void => {
        clearTimeout(timer);
        this.socket.off('rejected', on);
        resolve(this.rejected[before] ?? null);
      };
      this.socket.on('rejected', on);
      void this.#closed.then(() => {
        clearTimeout(timer);
        resolve(null);
      });
    });
    this.socket.emit(event, payload);
    return told;
  }
  close(): void {
    this.socket.disconnect();
  }
}

const hello = (id: string, seats: number[] = [], over: Record<string, unknown> = {}): Record<string, unknown> => ({
  protocol: 1,
  token: TOKEN,
  table: { id, name: `fuzz ${id}`, kind: 'virtual' },
  seats,
  ...over,
});

const CARDS = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'].flatMap((r) =>
  ['S', 'H', 'D', 'C'].map((s) => `${r}${s}`),
);

/** Payloads no table may send: each must be refused (any code), never applied. */
function malformed(g: Gen, seq: number): { event: string; payload: unknown } {
  const zone = { area: 'play', seat: 1 };
  const shapes: (() => { event: string; payload: unknown })[] = [
    () => ({ event: 'card:detected', payload: g.pick([null, 42, 'AS', [], true, [1, 2]]) }),
    () => ({ event: 'card:detected', payload: { zone, card: 'AS' } }),
    () => ({
      event: 'card:detected',
      payload: { seq: g.pick(['1', -1, 0, 1.5, 2 ** 53, null, {}, [seq]]), zone, card: 'AS' },
    }),
    () => ({ event: 'card:detected', payload: { seq, card: 'AS' } }),
    () => ({
      event: 'card:detected',
      payload: { seq, zone: { area: g.pick(['floor', '', 7, null]), seat: 1 }, card: 'AS' },
    }),
    () => ({
      event: 'card:removed',
      payload: { seq, zone: { area: 'hand', seat: g.pick([4, -1, '1', 1.5, null]) }, card: 'AS' },
    }),
    () => ({ event: 'card:detected', payload: { seq, zone, card: 'AS', fiducial: 9 } }),
    () => ({ event: 'card:detected', payload: { seq, zone } }),
    () => ({
      event: 'card:detected',
      payload: { seq, zone, card: g.pick(['1S', '', 'ASS', 'XX', '10H', '🂡', 'A S'.repeat(50)]) },
    }),
    () => ({ event: 'card:detected', payload: { seq, zone, fiducial: g.pick([913, -1, 1e9, 40, 3.5, '9']) } }),
    () => ({ event: 'card:detected', payload: { seq, zone, card: 'x'.repeat(g.pick([2_000, 70_000])) } }),
    () => ({ event: 'game:control', payload: { seq, action: g.pick(['explode', '', 'NEW-GAME', null, 7]) } }),
    () => ({
      event: 'game:control',
      payload: { seq, action: 'new-game', deal: { dealer: g.pick([9, -1, '0']), trump: { card: 'AS' } } },
    }),
    () => ({ event: 'game:control', payload: { seq, action: 'new-game', deal: { dealer: 0, trump: { card: 'ZZ' } } } }),
    () => ({ event: 'card:detected', payload: { seq, zone, card: 'AS', __proto__: { ok: true }, constructor: 'x' } }),
  ];
  return g.pick(shapes)();
}

/** The state a table sees must hold together whatever was sent; a problem, or null. */
function inconsistency(s: TableState, previousVersion: number): string | null {
  if (s.version !== undefined && s.version < previousVersion)
    return `version went back from ${previousVersion} to ${s.version}`;
  const g = s.game;
  if (!g) return null;
  const cards = g.plays.map((p) => p.card);
  if (new Set(cards).size !== cards.length) return `game ${g.index + 1}: a card played twice in ${cards.join(' ')}`;
  if (cards.length > 40) return `game ${g.index + 1}: ${cards.length} plays`;
  const bySeat = [0, 1, 2, 3].map((seat) => g.plays.filter((p) => p.seat === seat).length);
  if (g.handSizes.some((n, seat) => n + bySeat[seat]! !== 10))
    return `game ${g.index + 1}: hand sizes ${g.handSizes.join(',')} with plays by seat ${bySeat.join(',')}`;
  const [a, b] = g.points;
  if (a! + b! > 120 || a! < 0 || b! < 0) return `game ${g.index + 1}: points ${a}-${b}`;
  if (g.status === 'complete' && a! + b! !== 120) return `game ${g.index + 1} complete with ${a}-${b}`;
  if (g.status === 'playing' && g.table.length !== cards.length % 4)
    return `game ${g.index + 1}: ${g.table.length} cards on the table after ${cards.length} plays`;
  return null;
}

/** What the fuzzed session left: the tally, the session's check and its replay. */
const tally = new Tally('table-fuzz');
let check: ReturnType<typeof checkSessionEvents> | null = null;
let replayed: Awaited<ReturnType<typeof replay.replayRecording>> | null = null;
let complete = false;
/** The failures of one kind of check. */
const failed = (...kinds: string[]): string[] =>
  tally.failures.filter((f) => kinds.some((k) => f.startsWith(`${k}: `)));

describe('the table fuzzer', () => {
  beforeAll(async () => {
    const gen = new Gen(SUITE_SEED, 0x7ab1e);
    const node = await robot.ParceiroNode.start({
      seed: SUITE_SEED,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      games: GAMES,
      sessionId: `fuzz-${SUITE_SEED}`,
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: SUITE_SEED }) },
      minThinkMs: 100,
      expectationBudgetMs: 20,
      speech: 'publish',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: null,
    });
    let closed = false;
    closers.push(async () => {
      if (!closed) await node.close();
    });
    const url = node.url;

    // The observer: a display-only table that joins first and keeps every state, to check after each fault.
    const watch = new Raw(url);
    await watch.connected();
    const watchHello = await watch.ask('hello', hello('watch'));
    expect(watchHello).toMatchObject({ kind: 'ack', ack: { ok: true } });
    let seenVersion = 0;
    let checked = 0;
    const latest = (): TableState | undefined => watch.states.at(-1);
    const consistent = (): string | null => {
      for (const s of watch.states.slice(checked)) {
        checked++;
        const p = inconsistency(s, seenVersion);
        if (p) return p;
        seenVersion = Math.max(seenVersion, s.version ?? 0);
      }
      return null;
    };
    const progress = (): number => {
      const s = latest();
      return s ? s.session.played * 40 + (s.game && s.game.status === 'playing' ? s.game.plays.length : 0) : 0;
    };
    const waitProgress = async (n: number): Promise<void> => {
      // The honest table's failure (a refusal of one of its plays) ends the wait too: `finished` rejects with it.
      while (progress() < n && !(latest()?.session.complete ?? false))
        await Promise.race([new Promise((r) => watch.socket.once('state', r)), finished]);
    };

    const honest = new SimulatedTable({
      url,
      token: TOKEN,
      seed: SUITE_SEED,
      id: 'honest',
      thinkMs: 40,
      ackTimeoutMs: ANSWER_MS,
    });
    closers.push(() => honest.close());
    await honest.start();
    const finished = honest.finished();

    // The fuzzer's own connection (display-only), its seqs, and what it had accepted.
    let fuzz = new Raw(url);
    const fuzzId = 'fuzz';
    await fuzz.connected();
    expect(await fuzz.ask('hello', hello(fuzzId))).toMatchObject({ kind: 'ack', ack: { ok: true } });
    let seq = 0;
    const accepted: { table: string; seq: number }[] = [];
    const sentOk: { seq: number; event: string; payload: unknown; ack: Record<string, unknown> }[] = [];
    /** Back on a fresh connection under the same id (after a fault closed it): the seqs go on above lastSeq. */
    const refuzz = async (): Promise<void> => {
      fuzz.close();
      fuzz = new Raw(url);
      await fuzz.connected();
      const a = await fuzz.ask('hello', hello(fuzzId));
      if (a.kind !== 'ack' || a.ack.ok !== true)
        throw new Error(`the fuzzer could not join again: ${JSON.stringify(a)}`);
      seq = Math.max(seq, Number(a.ack.lastSeq));
    };
    const answered = (a: Answer, expectOk: boolean | null): string | null => {
      if (a.kind === 'none') return 'no answer';
      if (a.kind === 'closed') return null;
      if (typeof a.ack.ok !== 'boolean') return `an answer without ok: ${JSON.stringify(a.ack)}`;
      if (a.ack.ok === false && (typeof a.ack.code !== 'string' || typeof a.ack.reason !== 'string'))
        return `a refusal without code and reason: ${JSON.stringify(a.ack)}`;
      if (expectOk !== null && a.ack.ok !== expectOk) return `answered ${JSON.stringify(a.ack)}`;
      return null;
    };

    const injected: Fault[] = [
      'out-of-turn',
      'unknown-fiducial',
      'already-played',
      'same-card-twice',
      'replay-seq',
      'disconnect',
      'lift-and-replace',
    ];
    const kinds = [
      'malformed',
      'unknown-event',
      'no-ack',
      'not-your-seat',
      'robot-hand',
      'duplicate-seq',
      'old-event',
      'pause-resume',
      'early-event',
      'bad-hello',
      'churn',
      'replace',
      'table-fault',
    ] as const;
    type Kind = (typeof kinds)[number] | 'flood';
    const rounds = 160;
    // The moments: the n-th play of the session (two games of 40), in order; the flood once, mid-game.
    const moments = Array.from({ length: rounds }, () => gen.int(0, GAMES * 40 - 8)).sort((x, y) => x - y);
    const floodAt = gen.int(1, rounds - 2);
    let tableFaults = 0;
    const floodFigures = { events: FLOOD, answered: 0, closed: false, helloDuringFloodMs: -1 };

    const run = async (kind: Kind, r: number): Promise<void> => {
      const note = (problem: string | null, detail = ''): void =>
        tally.note(kind, problem === null ? null : `round ${r}${detail ? ` (${detail})` : ''}: ${problem}`);
      switch (kind) {
        case 'malformed': {
          for (let i = gen.int(3, 12); i > 0; i--) {
            const m = malformed(gen, seq + 1);
            const a = await fuzz.ask(m.event, m.payload);
            note(answered(a, false), `${m.event} ${JSON.stringify(m.payload)?.slice(0, 120)}`);
            if (a.kind === 'closed') await refuzz();
          }
          return;
        }
        case 'unknown-event': {
          const name = gen.pick([
            'card:moved',
            'hello2',
            'constructor',
            '__proto__',
            'toString',
            'x'.repeat(300),
            'game:control ',
            'state',
            'robot:play',
            'CARD:DETECTED',
          ]);
          const a = await fuzz.ask(name, { seq: seq + 1 });
          note(
            answered(a, false) ??
              (a.kind === 'ack' && a.ack.code !== 'unknown-event' ? `answered ${JSON.stringify(a.ack)}` : null),
            name.slice(0, 40),
          );
          if (a.kind === 'closed') await refuzz();
          return;
        }
        case 'no-ack': {
          const event = gen.pick(['card:detected', 'game:control', 'nonsense']);
          const told = await fuzz.tell(event, {
            seq: ++seq,
            action: 'pause',
            zone: { area: 'hand', seat: 0 },
            card: 'AS',
          });
          note(told === null ? 'no rejected message for an event sent without an acknowledgement' : null, event);
          return;
        }
        case 'not-your-seat': {
          const seat = gen.int(0, 3);
          const a = await fuzz.ask(gen.pick(['card:detected', 'card:removed']), {
            seq: ++seq,
            zone: { area: 'play', seat },
            card: gen.pick(CARDS),
          });
          note(answered(a, null), `seat ${seat}`);
          tally.note(
            'display-only',
            a.kind === 'ack' && a.ack.ok === true
              ? `round ${r}: a card on seat ${seat}'s spot from a table with no seat answered ${JSON.stringify(a.ack)}`
              : null,
          );
          return;
        }
        case 'robot-hand': {
          // The robot's hand area, which any table may report (after a runtime deal: not tracked, accepted with a note).
          const payload = { seq: ++seq, zone: { area: 'hand', seat: 0 }, card: gen.pick(CARDS) };
          const event = gen.pick(['card:detected', 'card:removed']);
          const a = await fuzz.ask(event, payload);
          note(answered(a, null));
          if (a.kind === 'ack' && a.ack.ok === true) {
            accepted.push({ table: fuzzId, seq: payload.seq });
            sentOk.push({ seq: payload.seq, event, payload, ack: a.ack });
          }
          return;
        }
        case 'duplicate-seq': {
          // An accepted event sent again: the same answer, `duplicate`, not applied again; changed: seq-reused.
          const old = sentOk.at(-1);
          if (!old) return run('robot-hand', r);
          const again = await fuzz.ask(old.event, old.payload);
          note(
            again.kind === 'ack' && again.ack.ok === true && again.ack.duplicate === true
              ? null
              : `sent again: ${JSON.stringify(again)}`,
            `seq ${old.seq}`,
          );
          const other = await fuzz.ask(old.event, {
            ...(old.payload as object),
            card: (old.payload as { card: string }).card === 'AS' ? 'KS' : 'AS',
          });
          note(
            other.kind === 'ack' &&
              other.ack.ok === false &&
              ['seq-reused', 'stale-seq'].includes(String(other.ack.code))
              ? null
              : `changed and sent again: ${JSON.stringify(other)}`,
            `seq ${old.seq}`,
          );
          return;
        }
        case 'old-event': {
          // The honest table's first events sent again on its own connection: a duplicate or stale, never a second game.
          const before = latest()?.session.played ?? 0;
          // Only seqs it has had answered: a seq it has not used yet would be taken from under it.
          if (honest.lastAnswered < 1) return run('malformed', r);
          const a = await honest
            .send('game:control', { seq: gen.int(1, Math.min(3, honest.lastAnswered)), action: 'new-game' })
            .then(
              (ack) => ({ kind: 'ack', ack }) as Answer,
              () => ({ kind: 'none' }) as Answer,
            );
          const ok =
            a.kind === 'ack' && (a.ack.duplicate === true || ['stale-seq', 'seq-reused'].includes(String(a.ack.code)));
          note(ok ? null : `an old new-game answered ${JSON.stringify(a)}`);
          const after = latest()?.session.played ?? 0;
          if (after < before) note('the session went back');
          return;
        }
        case 'pause-resume': {
          const p = await fuzz.ask('game:control', { seq: ++seq, action: 'pause' });
          note(answered(p, null), 'pause');
          const q = await fuzz.ask('game:control', { seq: ++seq, action: 'resume' });
          note(answered(q, null), 'resume');
          // Whatever a display-only table may do, the session must not stay paused by it.
          if (p.kind === 'ack' && p.ack.ok === true && !(q.kind === 'ack' && q.ack.ok === true))
            note(`paused, and the resume answered ${JSON.stringify(q)}`);
          return;
        }
        case 'early-event': {
          const c = new Raw(url);
          await c.connected();
          const a = await c.ask('card:detected', { seq: 1, zone: { area: 'play', seat: 1 }, card: 'AS' });
          note(
            a.kind === 'ack' && a.ack.ok === false && a.ack.code === 'no-hello'
              ? null
              : `before hello: ${JSON.stringify(a)}`,
          );
          c.close();
          return;
        }
        case 'bad-hello': {
          const bad = gen.pick<[string, Record<string, unknown>]>([
            ['bad token', hello(`bad-${r}`, [], { token: 'nope' })],
            ['wrong version', hello(`bad-${r}`, [], { protocol: 2 })],
            ['seat taken', hello(`bad-${r}`, [gen.int(1, 3)])],
            ["the robot's seat", hello(`bad-${r}`, [0])],
            ['reserved id', hello('operator')],
            ['no seats field', { protocol: 1, token: TOKEN, table: { id: `bad-${r}`, name: 'x', kind: 'virtual' } }],
            ['bad id', hello('../../etc')],
            ['huge name', { ...hello(`bad-${r}`), table: { id: `bad-${r}`, name: 'n'.repeat(5000), kind: 'virtual' } }],
            ['not an object', 'hello' as unknown as Record<string, unknown>],
          ]);
          const c = new Raw(url);
          await c.connected();
          const a = await c.ask('hello', bad[1]);
          note(
            a.kind === 'ack' && a.ack.ok === false ? null : `a hello with ${bad[0]} answered ${JSON.stringify(a)}`,
            bad[0],
          );
          c.close();
          return;
        }
        case 'churn': {
          // Connections that come and go: hello and leave, leave without hello, leave while the hello is in flight.
          const n = gen.int(3, 10);
          const all: Promise<void>[] = [];
          for (let i = 0; i < n; i++) {
            const c = new Raw(url);
            const way = gen.int(0, 2);
            all.push(
              c.connected().then(async () => {
                if (way === 0) {
                  const a = await c.ask('hello', hello(`churn-${r}-${i}`));
                  note(
                    a.kind === 'ack' && a.ack.ok === true ? null : `hello answered ${JSON.stringify(a)}`,
                    'hello and leave',
                  );
                } else if (way === 1) c.socket.emit('hello', hello(`churn-${r}-${i}`), () => {});
                else note(null);
                c.close();
              }),
            );
          }
          await Promise.all(all);
          return;
        }
        case 'replace': {
          // A second connection with a table's id takes over; the first is told `replaced` and closed.
          const id = `twin-${r}`;
          const first = new Raw(url);
          await first.connected();
          await first.ask('hello', hello(id));
          const second = new Raw(url);
          await second.connected();
          const a = await second.ask('hello', hello(id));
          note(a.kind === 'ack' && a.ack.ok === true ? null : `the newer hello answered ${JSON.stringify(a)}`);
          const told =
            first.rejected.find((m) => m.code === 'replaced') ??
            (await new Promise<Record<string, unknown> | null>((resolve) => {
              const t = setTimeout(() => resolve(null), ANSWER_MS);
              first.socket.once('rejected', (m: Record<string, unknown>) => (clearTimeout(t), resolve(m)));
            }));
          note(told?.code === 'replaced' ? null : 'the replaced connection was not told');
          first.close();
          second.close();
          return;
        }
        case 'table-fault': {
          // A fault of the honest table itself, at its next turn where it can happen (never once its session is over).
          if (
            tableFaults >= injected.length ||
            ((latest()?.session.played ?? 0) >= GAMES - 1 && progress() > GAMES * 40 - 15)
          )
            return run('malformed', r);
          const fault = injected[tableFaults++]!;
          const report = await Promise.race([honest.inject(fault), finished.then(() => null)]);
          if (report === null) return;
          const problem =
            report.acks.length === 0
              ? 'no answers'
              : fault === 'out-of-turn' || fault === 'unknown-fiducial' || fault === 'already-played'
                ? report.acks[0]!.ok
                  ? `accepted: ${JSON.stringify(report.acks[0])}`
                  : null
                : fault === 'replay-seq' || fault === 'disconnect'
                  ? report.acks[1] && 'duplicate' in report.acks[1] && report.acks[1].duplicate
                    ? null
                    : `the resent event: ${JSON.stringify(report.acks)}`
                  : report.acks.every((x) => x.ok)
                    ? null
                    : `refused: ${JSON.stringify(report.acks)}`;
          note(problem, fault);
          return;
        }
        case 'flood': {
          // One connection sends valid-shaped events that are all refused, without waiting; meanwhile a new table says hello.
          const f = new Raw(url);
          await f.connected();
          await f.ask('hello', hello('flood'));
          const answers = Array.from({ length: FLOOD }, (_, i) =>
            f.ask('card:detected', { seq: i + 1, zone: { area: 'play', seat: 1 + (i % 3) }, card: CARDS[i % 40] }),
          );
          const t0 = performance.now();
          const probe = new Raw(url);
          await probe.connected();
          const ph = await probe.ask('hello', hello('probe'));
          floodFigures.helloDuringFloodMs = Math.round(performance.now() - t0);
          tally.note(
            'flood',
            ph.kind === 'ack' && ph.ack.ok === true ? null : `a hello during the flood: ${JSON.stringify(ph)}`,
          );
          probe.close();
          const all = await Promise.all(answers);
          for (const a of all) {
            if (a.kind === 'ack') floodFigures.answered++;
            tally.note('flood', a.kind === 'none' ? 'no answer' : null);
            if (a.kind === 'ack' && a.ack.ok === true)
              tally.note(
                'display-only',
                `the flood: a card on another seat's spot from a table with no seat answered ${JSON.stringify(a.ack)}`,
              );
          }
          floodFigures.closed = all.some((a) => a.kind === 'closed');
          f.close();
          return;
        }
      }
    };

    for (let r = 0; r < rounds; r++) {
      await waitProgress(moments[r]!);
      const drawn: Kind = r === floodAt ? 'flood' : r % 9 === 4 ? 'table-fault' : kinds[gen.int(0, kinds.length - 2)]!;
      // FUZZ_SKIP=kind,kind: those rounds send malformed messages instead (to tell which kind a failure needs).
      const kind: Kind = (process.env.FUZZ_SKIP ?? '').split(',').includes(drawn) ? 'malformed' : drawn;
      if (process.env.FUZZ_DEBUG)
        appendFileSync(
          process.env.FUZZ_DEBUG,
          `${new Date().toISOString()} round ${r} at ${progress()} (moment ${moments[r]}): ${kind}\n`,
        );
      await run(kind, r);
      tally.note('state-after-fault', consistent());
    }

    const last = await finished;
    await node.finished();
    await node.quiet();
    const summary = await node.close();
    closed = true;
    honest.close();
    tally.note('state-after-fault', consistent());

    // The recording: whole and consistent, holding every play the table saw and every event accepted.
    const rec = recording.readRecording(summary.recording!);
    complete = rec.complete;
    const events = rec.messages
      .filter((m) => m.topic.name === '/parceiro/game/events')
      .map((m) => m.message as GameEventMessage);
    check = checkSessionEvents(events, GAMES);
    tally.note('session', check.problems.length ? check.problems.join('; ') : null);
    tally.note(
      'session',
      JSON.stringify(last.session.victories) === JSON.stringify(check.victories)
        ? null
        : `the table's final state says victories ${last.session.victories.join('-')}, the recording ${check.victories.join('-')}`,
    );
    honest.results.forEach((g) => {
      const recorded = events.filter((e) => e.type === 'play' && e.game === g.index).map((e) => e.card);
      tally.note(
        'nothing-lost',
        JSON.stringify(recorded) === JSON.stringify(g.plays.map((p) => p.card))
          ? null
          : `game ${g.index + 1}: the table saw ${g.plays.length} plays, the recording holds ${recorded.length}`,
      );
    });
    const tableEvents = rec.messages
      .filter((m) => m.topic.name === '/parceiro/table/events')
      .map((m) => m.message as TableEvent);
    const missing = accepted.filter((a) => !tableEvents.some((e) => e.table_id === a.table && e.seq === a.seq));
    tally.note(
      'nothing-lost',
      missing.length ? `${missing.length} accepted events not in the recording, e.g. seq ${missing[0]!.seq}` : null,
    );

    // And it replays to itself.
    const report = await replay.replayRecording(rec);
    const d = report.firstDifference;
    tally.note(
      'replay',
      report.matches
        ? null
        : `the recording does not replay: ${d ? `${d.topic} #${d.index} (${d.context}): ${d.text.slice(0, 400)}` : JSON.stringify(report.groups).slice(0, 300)}`,
    );
    replayed = report;
    if (process.env.FUZZ_DEBUG)
      appendFileSync(
        process.env.FUZZ_DEBUG,
        `${JSON.stringify({ firstDifference: report.firstDifference, notes: report.notes, notReplayed: report.notReplayed, fed: report.fed, answerDifferences: report.answerDifferences.slice(0, 5) }, null, 1)}\n`,
      );
    tally.write({ games: GAMES, rounds, flood: floodFigures, recordingMessages: rec.messages.length });
  }, 240_000);

  it("every event got its one answer: malformed, unknown, early, without acknowledgement, refused hellos, churn, a flood, the table's own faults", () => {
    expect(
      failed(
        'malformed',
        'unknown-event',
        'no-ack',
        'robot-hand',
        'early-event',
        'bad-hello',
        'churn',
        'replace',
        'flood',
        'table-fault',
        'pause-resume',
      ),
    ).toEqual([]);
  });

  it("seqs: an accepted event sent again is a duplicate, changed it is refused; a table's old events are never applied again", () => {
    expect(failed('duplicate-seq', 'old-event')).toEqual([]);
  });

  it('the state every table saw stayed consistent after each fault (no card twice, hands and plays adding up, points at most 120, versions never back)', () => {
    expect(failed('state-after-fault')).toEqual([]);
  });

  it('the session is whole (40 plays a game, no card twice, 120 points, victories as the points say), and nothing the table saw or had accepted is missing from the recording', () => {
    expect(complete).toBe(true);
    expect(check?.problems).toEqual([]);
    expect(failed('session', 'nothing-lost')).toEqual([]);
  });

  // Found here: on a loaded machine about 1 run in 5 did not replay to itself. Two causes, both fixed:
  // the robot's card went down with whatever table event came first once its minimum time was up
  // (0f90a74), and two head commands due together (a gaze and an expression's posture) came out of
  // the live timers in the other order than the replay fired them (9668004: the scheduler goes by
  // the planned times, not the timers' order).
  it('the recording of the fuzzed session replays to itself', () => {
    expect(failed('replay')).toEqual([]);
    expect(replayed?.matches).toBe(true);
  });

  // A regression: before 356a5e1 a table that hosts no seat had cards on other seats' spots answered
  // ok with a note ("5C is already on seat 1's spot", "4C is not lying on seat 3's spot ...; nothing
  // changes"), where PROTOCOL.md says not-your-seat.
  it("a display-only table is refused not-your-seat on every seat's spot", () => {
    expect(failed('display-only')).toEqual([]);
  });
});

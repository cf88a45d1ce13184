// The two small parts that let one node serve session after session: the scoped bus (a session's
// subscriptions removed when it ends, the last session's latched messages not handed to the next) and
// the session switch (events to the session in force, versions that never go back, a new-game after
// the end starting the next session, events held while a switch is under way).

import { describe, expect, it } from 'vitest';
import { InProcessBus, TOPICS } from '../../robot/bus/index.js';
import type { GameStateMessage } from '../../robot/bus/index.js';
import { Epochs, ScopedBus, SessionSwitch } from '../../robot/live/node/index.js';
import type {
  CardEvent,
  ControlEvent,
  SessionSnapshot,
  TableHandler,
  TableInfo,
  Verdict,
} from '../../table-bridge/index.js';
import { accept, refuse } from '../../table-bridge/index.js';

const state = (id: string, status = 'playing'): GameStateMessage => ({
  session_id: id,
  game: 1,
  games: 1,
  status,
  robot_seat: 0,
  dealer: 0,
  trump_card: '',
  trick: 0,
  leader: 1,
  to_move: 1,
  table: [],
  points: [0, 0],
  victories: [0, 0],
  robot_hand: [],
});

describe('ScopedBus', () => {
  it('removes every subscription and tap of its session when closed, and the bus stays open', async () => {
    const bus = new InProcessBus();
    const scope = new ScopedBus(bus);
    const heard: string[] = [];
    scope.subscribe('gameEvents', (m) => heard.push(`scoped ${m.type}`));
    scope.tap((e) => heard.push(`tap ${e.topic.name}`));
    bus.subscribe('gameEvents', (m) => heard.push(`day ${m.type}`));
    const event = {
      type: 'deal',
      game: 0,
      seat: 0,
      card: '',
      trick: -1,
      leader: 1,
      cards: [],
      winner: -1,
      points: 0,
      final_points: [0, 0],
      winner_team: '',
      victories: [0, 0],
    };
    scope.publish('gameEvents', event);
    expect(scope.size).toBe(2);
    await scope.close();
    expect(scope.size).toBe(0);
    bus.publish('gameEvents', { ...event, type: 'play' });
    // After closing, subscribing through the scope does nothing.
    scope.subscribe('gameEvents', (m) => heard.push(`late ${m.type}`));
    bus.publish('gameEvents', { ...event, type: 'trick' });
    expect(heard).toEqual(['tap /parceiro/game/events', 'scoped deal', 'day deal', 'day play', 'day trick']);
  });

  it("does not hand a new session the last one's latched messages, but its own and other nodes' ones", () => {
    const bus = new InProcessBus();
    const epochs = new Epochs(bus);
    const first = new ScopedBus(bus, epochs);
    first.publish('gameState', state('one', 'session_over'));
    const second = new ScopedBus(bus, epochs);
    const heard: string[] = [];
    second.subscribe('gameState', (m) => heard.push(m.session_id));
    // A day-long subscriber still gets the latched message.
    const day: string[] = [];
    bus.subscribe('gameState', (m) => day.push(m.session_id));
    expect(heard).toEqual([]);
    expect(day).toEqual(['one']);
    second.publish('gameState', state('two'));
    expect(heard).toEqual(['two']);
    // A third scope subscribing later gets nothing older than itself; a message not published by
    // this process (say, another ROS 2 node's) is unknown and passed on.
    const third = new ScopedBus(bus, epochs);
    const late: string[] = [];
    third.subscribe('gameState', (m) => late.push(m.session_id));
    expect(late).toEqual([]);
    expect(epochs.before(TOPICS.gameState, state('x'), 3)).toBe(false);
    // Known by content, not by the object: a copy (as ROS 2 delivers one) is as old as the original.
    expect(epochs.before(TOPICS.gameState, structuredClone(state('one', 'session_over')), 3)).toBe(true);
    expect(epochs.before(TOPICS.gameState, structuredClone(state('two')), 2)).toBe(false);
  });
});

/** A stand-in session: answers every event with `verdict`, counts its versions. */
class FakeSession implements TableHandler {
  version = 0;
  complete = false;
  paused = false;
  readonly seen: string[] = [];
  constructor(readonly id: string) {}
  onHello(t: TableInfo): Verdict {
    this.seen.push(`hello ${t.id}`);
    this.version++;
    return accept();
  }
  onCardDetected(e: CardEvent): Verdict {
    this.seen.push(`card ${e.seq}`);
    this.version++;
    return accept();
  }
  onCardRemoved(): Verdict {
    return accept();
  }
  onControl(e: ControlEvent): Verdict {
    this.seen.push(`${e.action} ${e.seq}`);
    if (this.complete) return refuse('session-over', 'the session is over');
    this.version++;
    return accept();
  }
  snapshot(): SessionSnapshot {
    return {
      version: this.version,
      session: {
        id: this.id,
        games: 1,
        played: this.complete ? 1 : 0,
        victories: [0, 0],
        draws: 0,
        complete: this.complete,
      },
      robotSeat: 0,
      paused: this.paused,
      game: null,
    };
  }
}

const table: TableInfo = { id: 't', name: 't', kind: 'simulated', seats: [1, 2, 3] };
const newGame = (seq: number): ControlEvent => ({ table, seq, action: 'new-game', deal: null });

describe('SessionSwitch', () => {
  it("keeps the state's version going up across sessions, and leaves a lone session's alone", () => {
    const sw = new SessionSwitch();
    const one = new FakeSession('one');
    sw.use(one);
    one.version = 7;
    expect(sw.snapshot().version).toBe(7);
    const two = new FakeSession('two');
    sw.use(two);
    expect(sw.snapshot()).toMatchObject({ version: 8, session: { id: 'two' } });
    two.version = 3;
    expect(sw.snapshot().version).toBe(11);
    sw.use(new FakeSession('three'));
    expect(sw.snapshot().version).toBe(12);
  });

  it('sends a new-game after the end to the next session, once started; without a next session the finished one refuses it', async () => {
    const sw = new SessionSwitch();
    const one = new FakeSession('one');
    sw.use(one);
    one.complete = true;
    expect(await sw.onControl(newGame(5))).toMatchObject({ ok: false, code: 'session-over' });
    const two = new FakeSession('two');
    sw.next = async () => {
      sw.use(two);
    };
    // Paused at the end, a new game starts nothing until someone resumes.
    one.paused = true;
    expect(await sw.onControl(newGame(6))).toMatchObject({
      ok: false,
      code: 'paused',
      reason: expect.stringContaining('resume'),
    });
    expect(sw.snapshot().session.id).toBe('one');
    one.paused = false;
    expect(await sw.onControl(newGame(6))).toEqual({ ok: true });
    expect(two.seen).toEqual(['new-game 6']);
    // A failed start refuses the event as internal: the table may send it again.
    const sw2 = new SessionSwitch();
    sw2.use(one);
    sw2.next = () => Promise.reject(new Error('disk full'));
    expect(await sw2.onControl(newGame(7))).toMatchObject({
      ok: false,
      code: 'internal',
      reason: expect.stringMatching(/disk full/),
    });
  });

  it('holds card and control events while a switch is under way, and gives them to the new session', async () => {
    const sw = new SessionSwitch();
    const one = new FakeSession('one');
    sw.use(one);
    let go!: () => void;
    const switching = new Promise<void>((r) => (go = r));
    sw.hold(switching);
    const card: CardEvent = {
      table,
      seq: 9,
      zone: { area: 'play', seat: 1 },
      card: 0 as CardEvent['card'],
      fiducial: null,
    };
    const answer = sw.onCardDetected(card);
    expect(answer).toBeInstanceOf(Promise);
    const two = new FakeSession('two');
    sw.use(two);
    go();
    expect(await answer).toEqual({ ok: true });
    expect(one.seen).toEqual([]);
    expect(two.seen).toEqual(['card 9']);
    // Once settled, events go straight through again.
    await Promise.resolve();
    expect(sw.onCardDetected({ ...card, seq: 10 })).toEqual({ ok: true });
  });
});

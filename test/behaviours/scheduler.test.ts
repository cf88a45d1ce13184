// The scheduler on a simulated clock: commands published at their times on the ROS-style topics, one
// line at a time, toggles read when a command falls due and reported, failing speech degraded to the log.

import { describe, expect, it } from 'vitest';
import type { Seat } from '../../game/index.js';
import { createRng } from '../../game/index.js';
import type {
  BehaviourCommand,
  BehaviourLog,
  BehaviourPlan,
  PlannedUtterance,
  Publisher,
  Toggles,
} from '../../behaviours/index.js';
import {
  BehaviourScheduler,
  DegradingSpeech,
  LogSpeech,
  SimulatedClock,
  TOPICS,
  ToggleBoard,
  ToggleError,
  emotionPosture,
  gazeAt,
  initialBehaviourState,
  planBehaviour,
  restPosture,
} from '../../behaviours/index.js';
import { FakeSpeech, RecordingPublisher, sessionEvents, shippedSetup } from './helpers.js';

const setup = shippedSetup();
const { postures, table } = setup;

function rig(opts: { speechMs?: number; toggles?: Partial<Toggles> } = {}) {
  const clock = new SimulatedClock(0);
  const publisher = new RecordingPublisher(() => clock.now());
  const toggles = new ToggleBoard({ ...setup.settings.toggles, ...opts.toggles }, () => clock.now());
  const speech = new FakeSpeech(clock, opts.speechMs ?? 0);
  const scheduler = new BehaviourScheduler({ publisher, speech, clock, toggles, postures, table });
  return { clock, publisher, toggles, speech, scheduler };
}

const line = (
  id: string,
  estimatedMs: number,
  to: PlannedUtterance['to'] = 'all',
  addressee: Seat | null = null,
  until: number | null = null,
): PlannedUtterance => ({
  id,
  category: 'trick.end.ours',
  text: `line ${id}: ação!`,
  language: 'pt',
  to,
  addressee,
  estimatedMs,
  until,
  about: { event: 'trick', seat: null, moment: null, emotion: null },
});
/** A line about the card that brought the session to `moment`: stale once the next card is down. */
const cardLine = (id: string, estimatedMs: number, moment: number): PlannedUtterance => ({
  ...line(id, estimatedMs),
  category: 'playing.following',
  until: moment + 1,
});
const plan = (...commands: BehaviourCommand[]): BehaviourPlan => ({ event: 'turn', atMs: 0, moment: null, commands });
/** The plan of a card played, which brings the session to `moment`. */
const played = (moment: number, ...commands: BehaviourCommand[]): BehaviourPlan => ({
  event: 'play',
  atMs: 0,
  moment,
  commands,
});
const speech = (atMs: number, u: PlannedUtterance): BehaviourCommand => ({ kind: 'speech', atMs, utterance: u });
const look = (atMs: number, seat: Seat): BehaviourCommand => ({
  kind: 'gaze',
  atMs,
  gaze: gazeAt(table, postures.limits, 0, { kind: 'seat', seat }),
  durationMs: 300,
});
const face = (atMs: number): BehaviourCommand => ({
  kind: 'posture',
  atMs,
  posture: emotionPosture(postures, 'joy', 8),
  cause: 'joy',
});
const rest = (atMs: number): BehaviourCommand => ({
  kind: 'posture',
  atMs,
  posture: restPosture(postures, 0),
  cause: 'rest',
});

describe('publishing', () => {
  it('publishes a posture as joint targets (SI units) with a duration and as a ROS4HRI expression, at its time', async () => {
    const { clock, publisher, scheduler } = rig();
    scheduler.run(plan(face(500)));
    await clock.advance(499);
    expect(publisher.on(TOPICS.expression)).toEqual([]);
    await clock.advance(1);
    const [expr] = publisher.on(TOPICS.expression);
    expect(expr).toMatchObject({ expression: 'happy', confidence: 1, atMs: 500 });
    expect(expr!.valence).toBeCloseTo(postures.expressions.happy.valence * 0.8, 3);
    const [traj] = publisher.on(TOPICS.jointTrajectory);
    expect(traj!.jointNames).toContain('left_eyelid');
    expect(traj!.jointNames).not.toContain('head_yaw');
    expect(traj!.points).toHaveLength(1);
    expect(traj!.points[0]!.timeFromStartMs).toBe(postures.timing.moveMs);
    const i = traj!.jointNames.indexOf('neck_pitch');
    expect(traj!.points[0]!.positions[i]).toBeCloseTo(
      (emotionPosture(postures, 'joy', 8).joints.neckPitch! * Math.PI) / 180,
      9,
    );
    const p = traj!.jointNames.indexOf('left_eye_protrusion');
    expect(traj!.points[0]!.positions[p]).toBeCloseTo(
      emotionPosture(postures, 'joy', 8).joints.leftEyeProtrusion! / 1000,
      9,
    );
  });

  it('carries out commands that fall due together in the order of their planned times, however late each was set', async () => {
    // Live, a plan is handed over a moment after the instant it was planned for: its first look, meant
    // for 198, is set at 200 behind a face set earlier for 200. Timers would run the face first; a
    // replay, whose clock reads the planned instant, the look first. The plan's times decide.
    const order = async (lookAt: number) => {
      const { clock, publisher, scheduler } = rig();
      await clock.advance(200);
      scheduler.run(plan(face(200)));
      scheduler.run(plan(look(lookAt, 3)));
      await clock.advance(0);
      return publisher.log.map((m) => m.topic).filter((t) => t === TOPICS.lookAt || t === TOPICS.expression);
    };
    expect(await order(198)).toEqual([TOPICS.lookAt, TOPICS.expression]);
    // However long before: the plans' times decide, and a replay reads the same times.
    expect(await order(100)).toEqual([TOPICS.lookAt, TOPICS.expression]);
  });

  it('goes by the planned times, not by the order the timers fire in (a live machine fires some early, some late)', () => {
    // A clock whose timers the test fires by hand: the face's timer (due at 230) fires first, while
    // the look due at 220 and another due at 400 still wait. Whatever is due by the face's time goes
    // out, in the order of the times; the later look waits for its time.
    let t = 200;
    const timers = new Map<number, () => void>();
    let next = 0;
    const clock = {
      now: () => t,
      setTimeout: (cb: () => void) => (timers.set(++next, cb), next),
      clearTimeout: (id: number) => void timers.delete(id),
    };
    const publisher = new RecordingPublisher(() => t);
    const scheduler = new BehaviourScheduler({
      publisher,
      speech: new FakeSpeech(new SimulatedClock(0)),
      clock,
      toggles: new ToggleBoard(setup.settings.toggles, () => t),
      postures,
      table,
    });
    scheduler.run(plan(look(220, 3), look(400, 1)));
    scheduler.run(plan(face(230)));
    const heads = () => publisher.log.map((m) => m.topic).filter((x) => x === TOPICS.lookAt || x === TOPICS.expression);
    // Fired early (the event loop's stale time): at 210, the face's timer runs the look and the face.
    t = 210;
    timers.get(3)!();
    expect(heads()).toEqual([TOPICS.lookAt, TOPICS.expression]);
    // The first look's own timer is cleared; the later look still waits for its time.
    expect(timers.has(1)).toBe(false);
    expect(timers.has(2)).toBe(true);
    // Fired late, at 500: it goes then.
    t = 500;
    timers.get(2)!();
    expect(heads()).toEqual([TOPICS.lookAt, TOPICS.expression, TOPICS.lookAt]);
  });

  it('publishes a look as a look-at point and head yaw/pitch', async () => {
    const { clock, publisher, scheduler } = rig();
    scheduler.run(plan(look(100, 3)));
    await clock.advance(100);
    expect(publisher.on(TOPICS.lookAt)).toEqual([
      { frameId: 'emys_head', point: table.places.left, target: 'seat:3', atMs: 100 },
    ]);
    const [traj] = publisher.on(TOPICS.jointTrajectory);
    expect(traj!.jointNames).toEqual(['head_yaw', 'head_pitch']);
    expect(traj!.points[0]!.positions[0]).toBeGreaterThan(0.5); // left, in radians
  });

  it('works with any object that has publish(topic, message)', async () => {
    const seen: string[] = [];
    const plain = { publish: (topic: string, _message: unknown) => void seen.push(topic) };
    const publisher: Publisher = plain;
    const clock = new SimulatedClock();
    const scheduler = new BehaviourScheduler({
      publisher,
      speech: new FakeSpeech(clock),
      clock,
      toggles: new ToggleBoard(setup.settings.toggles, () => clock.now()),
      postures,
      table,
    });
    scheduler.run(plan(look(0, 1), speech(0, line('a', 100))));
    await clock.advance(200);
    expect(seen).toEqual([
      TOPICS.toggles,
      TOPICS.utterance,
      TOPICS.lookAt,
      TOPICS.jointTrajectory,
      TOPICS.utterance,
      TOPICS.utterance,
    ]);
  });
});

describe('speech', () => {
  it("speaks one line at a time, each holding the voice for its expected time or the backend's, whichever is longer", async () => {
    const { clock, publisher, speech: voice, scheduler } = rig({ speechMs: 2500 });
    scheduler.run(plan(speech(0, line('a', 1000)), speech(500, line('b', 3000)), speech(600, line('c', 500))));
    await clock.advance(20_000);
    expect(voice.said.map((s) => [s.request.id, s.atMs])).toEqual([
      ['a', 0],
      ['b', 2500],
      ['c', 5500],
    ]);
    const all = publisher.on(TOPICS.utterance);
    // Each line is announced when planned, with how long until its planned time.
    expect(all.filter((m) => m.phase === 'queued').map((m) => `${m.id}@${m.atMs}+${m.dueInMs}`)).toEqual([
      'a@0+0',
      'b@0+500',
      'c@0+600',
    ]);
    const msgs = all.filter((m) => m.phase !== 'queued');
    expect(msgs.map((m) => `${m.phase}:${m.id}@${m.atMs}`)).toEqual([
      'start:a@0',
      'end:a@2500',
      'start:b@2500',
      'end:b@5500',
      'start:c@5500',
      'end:c@8000',
    ]);
    expect(msgs[0]).toMatchObject({ text: 'line a: ação!', language: 'pt', backend: 'fake' });
    expect(scheduler.status().speaking).toBeNull();
  });

  it('drops a line the game has moved past before it could start, and says so', async () => {
    const { clock, publisher, speech: voice, scheduler } = rig();
    // Card 1's line holds the voice for 3 s; card 2's line waits; card 3 is down at 1 s: card 2's line is stale.
    scheduler.run(played(1, speech(0, cardLine('a', 3000, 1))));
    await clock.advance(100);
    scheduler.run(played(2, speech(100, cardLine('b', 500, 2))));
    await clock.advance(900);
    expect(scheduler.status().queued).toBe(1);
    scheduler.run(played(3));
    expect(scheduler.status().queued).toBe(0);
    await clock.advance(10_000);
    expect(voice.said.map((s) => s.request.id)).toEqual(['a']);
    const msgs = publisher.on(TOPICS.utterance).filter((m) => m.phase !== 'queued');
    expect(msgs.map((m) => `${m.phase}:${m.id}@${m.atMs}`)).toEqual(['start:a@0', 'dropped:b@1000', 'end:a@3000']);
    expect(msgs[1]).toMatchObject({ reason: 'stale' });
  });

  it('drops a stale line still waiting for its planned time, as one already waiting for its turn, in the order planned', async () => {
    const { clock, publisher, scheduler } = rig();
    scheduler.run(
      played(
        1,
        speech(0, cardLine('a', 3000, 1)),
        speech(200, cardLine('b', 500, 1)),
        speech(5000, cardLine('c', 500, 1)),
      ),
    );
    await clock.advance(1000);
    // b fell due and waits its turn; c waits for its time: both go when card 2 is down, b first.
    scheduler.run(played(2));
    expect(
      publisher
        .on(TOPICS.utterance)
        .filter((m) => m.phase === 'dropped')
        .map((m) => m.id),
    ).toEqual(['b', 'c']);
    expect(scheduler.status().pending).toBe(0);
  });

  it('a line already being said is not cut short when the game moves past it: the voice is free once it ends', async () => {
    const { clock, publisher, scheduler } = rig();
    scheduler.run(played(40, speech(0, cardLine('last card', 2000, 40))));
    await clock.advance(500);
    scheduler.reach(41);
    expect(publisher.on(TOPICS.utterance).map((m) => `${m.phase}:${m.id}`)).toEqual([
      'queued:last card',
      'start:last card',
    ]);
    expect(scheduler.voiceFree()).toBe(false);
    await clock.advance(1500);
    expect(scheduler.voiceFree()).toBe(true);
  });

  it('a line not yet started is dropped by reach, and the voice is free at once', async () => {
    const { clock, publisher, scheduler } = rig();
    scheduler.run(played(40, speech(800, cardLine('forced card', 2000, 40))));
    await clock.advance(100);
    expect(scheduler.voiceFree()).toBe(false);
    scheduler.reach(41);
    expect(publisher.on(TOPICS.utterance).map((m) => `${m.phase}:${m.id}:${m.reason ?? ''}`)).toEqual([
      'queued:forced card:',
      'dropped:forced card:stale',
    ]);
    expect(scheduler.voiceFree()).toBe(true);
  });

  it('keeps a line whose moment has not passed, and lines that never go stale, however long they wait', async () => {
    const { clock, speech: voice, scheduler } = rig();
    scheduler.run(
      played(41, speech(0, line('result', 20_000, 'all', null, 64 + 1)), speech(0, line('farewell', 1000))),
    );
    await clock.advance(5000);
    // The next game's deal does not make the last game's result stale; its first card would.
    scheduler.run(played(64));
    await clock.advance(30_000);
    expect(voice.said.map((s) => s.request.id)).toEqual(['result', 'farewell']);
  });

  it('a table faster than the voice never piles up lines: stale ones are dropped as the cards come', async () => {
    const { clock, publisher, speech: voice, scheduler } = rig({ speechMs: 0 });
    // One long line holds the voice for a minute while a card, and a line about it, come every 100 ms.
    scheduler.run(played(1, speech(0, line('long', 60_000))));
    await clock.advance(1);
    let most = 0;
    for (let i = 2; i < 500; i++) {
      scheduler.run(played(i, speech(clock.now(), cardLine(`q${i}`, 500, i))));
      await clock.advance(100);
      most = Math.max(most, scheduler.status().queued);
    }
    // Only the newest card's line ever waits; the others were dropped as stale, each said so.
    expect(most).toBeLessThanOrEqual(1);
    const dropped = publisher.on(TOPICS.utterance).filter((m) => m.phase === 'dropped');
    expect(dropped).toHaveLength(497);
    expect(dropped.every((m) => m.reason === 'stale')).toBe(true);
    expect(voice.said.map((s) => s.request.id)).toEqual(['long']);
  });

  it('a failing backend falls back to the log with one warning, and the session goes on', async () => {
    const clock = new SimulatedClock();
    const publisher = new RecordingPublisher(() => clock.now());
    const warnings: string[] = [];
    const infos: string[] = [];
    const log: BehaviourLog = { warn: (m) => void warnings.push(m), info: (m) => void infos.push(m) };
    const broken = new FakeSpeech(clock);
    broken.failWith = new Error('espeak-ng is not installed (not found on PATH)');
    const voice = new DegradingSpeech(broken, new LogSpeech(log), log);
    const scheduler = new BehaviourScheduler({
      publisher,
      speech: voice,
      clock,
      toggles: new ToggleBoard(setup.settings.toggles, () => clock.now()),
      postures,
      table,
    });
    scheduler.run(plan(speech(0, line('a', 100)), speech(0, line('b', 100)), speech(0, line('c', 100))));
    await clock.advance(5000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the fake backend does not work \(espeak-ng is not installed.*\); from now on .* log/);
    expect(infos).toEqual(['says (pt): line a: ação!', 'says (pt): line b: ação!', 'says (pt): line c: ação!']);
    expect(broken.said).toHaveLength(1);
    expect(
      publisher
        .on(TOPICS.utterance)
        .filter((m) => m.phase === 'end')
        .map((m) => m.backend),
    ).toEqual(['log', 'log', 'log']);
  });
});

describe('toggles at run time', () => {
  it('reports the state at start and every change, with what changed and who asked', async () => {
    const { clock, publisher, toggles } = rig();
    await clock.advance(1000);
    toggles.set({ gaze: false, expressiveness: 0.5 }, 'dashboard');
    expect(toggles.set({ gaze: false })).toBeNull();
    const msgs = publisher.on(TOPICS.toggles);
    expect(msgs).toHaveLength(2);
    expect(msgs[0]).toMatchObject({ changed: [], by: 'start', toggles: setup.settings.toggles, atMs: 0 });
    expect(msgs[1]).toMatchObject({ changed: ['gaze', 'expressiveness'], by: 'dashboard', atMs: 1000 });
    expect(msgs[1]!.toggles).toMatchObject({ gaze: false, expressiveness: 0.5, speech: true });
  });

  it('rejects wrong values and unknown toggles without changing anything', () => {
    const { toggles } = rig();
    const before = toggles.get();
    expect(() => toggles.set({ expressiveness: 2 })).toThrow(ToggleError);
    expect(() => toggles.set({ expressiveness: 2 })).toThrow('expressiveness: expected a number from 0 to 1');
    expect(() => toggles.set({ speech: 'yes' })).toThrow('speech: expected true or false');
    expect(() => toggles.set({ sound: false })).toThrow(/sound: unknown toggle/);
    expect(() => toggles.set(null)).toThrow(/expected an object/);
    expect(toggles.get()).toBe(before);
  });

  it('a change takes effect at the next behaviour: looks already planned are skipped once gaze is off', async () => {
    const { clock, publisher, toggles, scheduler } = rig();
    scheduler.run(plan(look(1000, 1), look(2000, 2), look(3000, 3)));
    await clock.advance(1500);
    toggles.set({ gaze: false });
    await clock.advance(5000);
    const targets = publisher.on(TOPICS.lookAt).map((m) => m.target);
    // The first look, then the rest look when gaze was switched off, and nothing after.
    expect(targets).toEqual(['seat:1', 'rest']);
  });

  it('postures off: the pending expression is dropped and the face goes to neutral at once', async () => {
    const { clock, publisher, toggles, scheduler } = rig();
    scheduler.run(plan(face(1000), rest(4000)));
    await clock.advance(500);
    toggles.set({ postures: false });
    await clock.advance(10_000);
    expect(publisher.on(TOPICS.expression).map((m) => [m.expression, m.atMs])).toEqual([['neutral', 500]]);
  });

  it('speech off stops the line and drops the queue; partner speech off drops lines to the partner', async () => {
    const { clock, publisher, toggles, speech: voice, scheduler } = rig({ speechMs: 1000 });
    scheduler.run(
      plan(
        speech(0, line('a', 1000)),
        speech(0, line('b', 1000, 'partner', 2)),
        speech(0, line('c', 1000, 'opponent', 1)),
      ),
    );
    await clock.advance(100);
    toggles.set({ partnerSpeech: false });
    expect(
      publisher
        .on(TOPICS.utterance)
        .filter((m) => m.phase === 'dropped')
        .map((m) => [m.id, m.reason]),
    ).toEqual([['b', 'partner speech off']]);
    toggles.set({ speech: false });
    expect(voice.stops).toBe(1);
    await clock.advance(10_000);
    expect(voice.said.map((s) => s.request.id)).toEqual(['a']);
    expect(
      publisher
        .on(TOPICS.utterance)
        .filter((m) => m.phase === 'dropped')
        .map((m) => [m.id, m.reason]),
    ).toEqual([
      ['b', 'partner speech off'],
      ['c', 'speech off'],
    ]);
  });

  it('a new plan carries out first the postures and looks already due by its time whose timers are late', () => {
    // A replay's timers fire on time, before the next event; live, a loaded machine can bring the
    // next event before a due timer. What was due by the new plan's time still goes out, in order.
    let t = 100;
    const timers = new Map<number, () => void>();
    let next = 0;
    const clock = {
      now: () => t,
      setTimeout: (cb: () => void) => (timers.set(++next, cb), next),
      clearTimeout: (id: number) => void timers.delete(id),
    };
    const publisher = new RecordingPublisher(() => t);
    const scheduler = new BehaviourScheduler({
      publisher,
      speech: new FakeSpeech(new SimulatedClock(0)),
      clock,
      toggles: new ToggleBoard(setup.settings.toggles, () => t),
      postures,
      table,
    });
    scheduler.run(plan(face(120), look(130, 1), look(400, 3)));
    t = 300; // no timer has fired
    scheduler.run({ event: 'play', atMs: 300, moment: null, commands: [rest(300)] });
    expect(publisher.log.map((m) => m.topic).filter((x) => x === TOPICS.lookAt || x === TOPICS.expression)).toEqual([
      TOPICS.expression,
      TOPICS.lookAt,
    ]);
    expect(publisher.on(TOPICS.expression).map((m) => m.expression)).toEqual(['happy']);
    // The look due at 400 is not due yet: it still waits, the new plan having no look.
    t = 400;
    for (const fire of [...timers.values()]) fire();
    expect(publisher.on(TOPICS.lookAt).map((m) => m.target)).toEqual(['seat:1', 'seat:3']);
  });

  it('a new plan replaces the postures and looks still waiting, not the lines', async () => {
    const { clock, publisher, speech: voice, scheduler } = rig();
    scheduler.run(plan(look(1000, 1), face(1000), rest(5000), speech(2000, line('a', 500))));
    await clock.advance(500);
    scheduler.run(plan(look(1000, 3)));
    await clock.advance(10_000);
    expect(publisher.on(TOPICS.lookAt).map((m) => m.target)).toEqual(['seat:3']);
    expect(publisher.on(TOPICS.expression).map((m) => m.expression)).toEqual(['happy', 'neutral']);
    expect(voice.said.map((s) => s.request.id)).toEqual(['a']);
  });
});

describe('a whole session through planner and scheduler', () => {
  it('never speaks two lines at once and keeps every published joint within its limits', async () => {
    const { clock, publisher, toggles, scheduler } = rig({ speechMs: 700 });
    const rng = createRng(12);
    let state = initialBehaviourState(0);
    for (const event of sessionEvents(12)) {
      const emotions = rng.next() < 0.5 ? [{ type: 'joy' as const, intensity: rng.next() * 10 }] : [];
      const r = planBehaviour(setup, {
        event,
        emotions: { emotions, mood: 3 },
        toggles: toggles.get(),
        state,
        rng,
        nowMs: clock.now(),
      });
      state = r.state;
      scheduler.run(r.plan);
      await clock.advance(900);
    }
    await clock.advance(30_000);
    let speaking = 0;
    let maxSpeaking = 0;
    for (const m of publisher.on(TOPICS.utterance)) {
      if (m.phase === 'start') speaking++;
      if (m.phase === 'end') speaking--;
      maxSpeaking = Math.max(maxSpeaking, speaking);
    }
    expect(maxSpeaking).toBe(1);
    expect(speaking).toBe(0);
    for (const t of publisher.on(TOPICS.jointTrajectory)) {
      t.jointNames.forEach((name, i) => {
        const joint = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof typeof postures.limits;
        const unit = joint.endsWith('Protrusion') ? 1000 : 180 / Math.PI;
        const v = t.points[0]!.positions[i]! * unit;
        expect(v).toBeGreaterThanOrEqual(postures.limits[joint].min - 1e-9);
        expect(v).toBeLessThanOrEqual(postures.limits[joint].max + 1e-9);
      });
    }
    expect(clock.pending).toBe(0);
    scheduler.dispose();
  });
});

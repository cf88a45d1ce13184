// The scheduler carries plans out: at each command's time it publishes joint targets, expressions and
// looks, and speaks one line at a time through the speech output. It reads the toggles when a command
// falls due, so a change takes effect at the next behaviour, and it reports every change.
// A new plan replaces the postures and looks still waiting from older plans (the newest event is what
// the head should show); lines already planned keep their turn, and speech never overlaps.
// Each line is announced (queued) when planned, so what waits to be said can be shown.
// Each plan of a game event says where the session now is (moment.ts); a line that has not started by
// the time the session passes its useful moment is dropped, never said late. No decision here reads
// the clock, so a replay that feeds the same events and ends lines at the same points drops the same.

import type { Clock, TimerId } from './clock.js';
import type { Moment } from './moment.js';
import type { BehaviourCommand, BehaviourPlan, PlannedUtterance } from './commands.js';
import { describeGazeTarget, gazeAt } from './gaze.js';
import type { Gaze } from './gaze.js';
import { rosJointName, toSi } from './joints.js';
import type { JointName } from './joints.js';
import type { BehaviourLog } from './log.js';
import { silentLog } from './log.js';
import type { PostureLibrary } from './posture-config.js';
import { restPosture } from './postures.js';
import type { Posture } from './postures.js';
import type { SpeechOutput } from './speech/speech-output.js';
import type { TableGeometry } from './table-geometry.js';
import type { ToggleBoard, ToggleChange, Toggles } from './toggles.js';
import { TOPICS } from './topics.js';
import type { Publisher, UtteranceMessage } from './topics.js';

interface SchedulerOptions {
  publisher: Publisher;
  speech: SpeechOutput;
  clock: Clock;
  toggles: ToggleBoard;
  /** For the rest face when postures are switched off. */
  postures: PostureLibrary;
  /** For the rest look when gaze is switched off. */
  table: TableGeometry;
  /** The frame of look-at points (default `emys_head`). */
  frameId?: string;
  log?: BehaviourLog;
}

interface SchedulerStatus {
  toggles: Toggles;
  /** The line being spoken, if any. */
  speaking: PlannedUtterance | null;
  /** Lines waiting for the current one to end. */
  queued: number;
  /** Commands waiting for their time. */
  pending: number;
  /** The speech backend in use (after any fallback). */
  backend: string;
}

/** A line waiting for its time or its turn; `seq` orders lines planned for the same time. */
interface Line {
  utterance: PlannedUtterance;
  atMs: number;
  seq: number;
}

export class BehaviourScheduler {
  private readonly pending = new Map<TimerId, { cmd: BehaviourCommand; line: Line | null; order: number }>();
  private readonly queue: Line[] = [];
  private moment: Moment = -1;
  private lines = 0;
  /** Commands in the order they were planned, to break ties between equal times. */
  private commands = 0;
  private readonly waits = new Set<TimerId>();
  private current: PlannedUtterance | null = null;
  private disposed = false;
  private readonly unsubscribe: () => void;
  private readonly log: BehaviourLog;

  constructor(private readonly o: SchedulerOptions) {
    this.log = o.log ?? silentLog;
    this.unsubscribe = o.toggles.subscribe((c) => this.onToggles(c));
    // The state at start, so whoever listens (the dashboard) knows it before any change.
    this.publishToggles({
      toggles: o.toggles.get(),
      previous: o.toggles.get(),
      changed: [],
      atMs: o.clock.now(),
      by: 'start',
    });
  }

  /** Schedules a plan's commands at their times. */
  run(plan: BehaviourPlan): void {
    if (this.disposed) return;
    if (plan.moment !== null) this.reach(plan.moment);
    // Postures and looks of older plans due by this plan's time go out first, even if their timers
    // have not fired (late, on a loaded machine): a replay's timers fire on time, before the event
    // that made this plan, so a late timer must not let the new plan replace what was already due.
    const overdue = [...this.pending]
      .filter(([, e]) => e.cmd.kind !== 'speech' && e.cmd.atMs <= plan.atMs)
      .sort(([, a], [, b]) => a.cmd.atMs - b.cmd.atMs || a.order - b.order);
    for (const [id] of overdue) this.cancel(id);
    for (const [, e] of overdue) this.execute(e.cmd, e.line);
    const kinds = new Set(plan.commands.map((c) => c.kind));
    for (const [id, { cmd }] of this.pending) {
      if (cmd.kind !== 'speech' && kinds.has(cmd.kind)) this.cancel(id);
    }
    const now = this.o.clock.now();
    for (const cmd of plan.commands) {
      const line = cmd.kind === 'speech' ? { utterance: cmd.utterance, atMs: cmd.atMs, seq: this.lines++ } : null;
      const id = this.o.clock.setTimeout(() => this.due(id), Math.max(0, cmd.atMs - now));
      this.pending.set(id, { cmd, line, order: this.commands++ });
      // Announced as it joins the queue, so the operator sees what the robot is about to say; every
      // queued line later starts or is dropped (with its reason), unless the scheduler is disposed.
      if (cmd.kind === 'speech') this.publishUtterance('queued', cmd.utterance, undefined, Math.max(0, cmd.atMs - now));
    }
  }

  /**
   * A command's timer fired: every command due by then (its own time, or the clock's if later) is
   * carried out, in the order of the plans' times (ties in the order planned). Live, timers do not
   * fire in the order of their times: a timer set after a long stretch of work counts from the
   * event loop's older idea of now and fires early, and one of a loaded machine fires late, after
   * others; a replay fires them exactly at their times. Going by the times, not the timers, the robot
   * moves the same way live and in a replay of it (a look and a face due together once went out in
   * the other order live).
   */
  private due(id: TimerId): void {
    const fired = this.pending.get(id);
    if (!fired) return;
    const until = Math.max(fired.cmd.atMs, this.o.clock.now());
    const ready = [...this.pending]
      .filter(([, e]) => e.cmd.atMs <= until)
      .sort(([, a], [, b]) => a.cmd.atMs - b.cmd.atMs || a.order - b.order);
    for (const [readyId] of ready) this.cancel(readyId);
    for (const [, e] of ready) this.execute(e.cmd, e.line);
  }

  /**
   * The session has reached `moment` (moment.ts): the lines it has moved past are dropped now. A plan
   * does this itself; a caller may do it first, to know whether the voice is free before planning.
   */
  reach(moment: Moment): void {
    if (this.disposed || moment <= this.moment) return;
    this.moment = moment;
    this.dropStale();
  }

  /**
   * The game is paused: nobody is hesitating over a card, so the nudges waiting for their time or
   * their turn are dropped now, with `reason`, in the order they were planned for. One already being
   * said goes on. (A nudge is the only line planned for a turn: planner.ts.)
   */
  dropNudges(reason: string): void {
    if (!this.disposed) this.dropWhere((u) => u.about.event === 'turn', reason);
  }

  /**
   * No line is being said or waits to be: the lines the planner counted on may have been dropped as
   * stale, so the voice is free now whatever the planner's memory says.
   */
  voiceFree(): boolean {
    if (this.current || this.queue.length > 0) return false;
    for (const { cmd } of this.pending.values()) if (cmd.kind === 'speech') return false;
    return true;
  }

  status(): SchedulerStatus {
    return {
      toggles: this.o.toggles.get(),
      speaking: this.current,
      queued: this.queue.length,
      pending: this.pending.size,
      backend: this.o.speech.name,
    };
  }

  /** Cancels everything waiting and stops listening; the current line is cut short if the backend can. */
  dispose(): void {
    this.disposed = true;
    for (const id of [...this.pending.keys()]) this.cancel(id);
    for (const id of this.waits) this.o.clock.clearTimeout(id);
    this.waits.clear();
    this.queue.length = 0;
    this.unsubscribe();
    this.o.speech.stop?.();
  }

  private cancel(id: TimerId): void {
    this.o.clock.clearTimeout(id);
    this.pending.delete(id);
  }

  private execute(cmd: BehaviourCommand, line: Line | null): void {
    const t = this.o.toggles.get();
    switch (cmd.kind) {
      case 'posture':
        // Going back to rest is always allowed: a switched-off face should not stay frozen mid-expression.
        if (t.postures || cmd.cause === 'rest') this.publishPosture(cmd.posture);
        return;
      case 'gaze':
        if (t.gaze) this.publishGaze(cmd.gaze, cmd.durationMs);
        return;
      case 'speech':
        this.queue.push(line!);
        this.pump();
        return;
    }
  }

  /** Starts the next line when none is being spoken. */
  private pump(): void {
    while (!this.current && !this.disposed && this.queue.length > 0) {
      const { utterance } = this.queue.shift()!;
      const reason = this.dropReason(utterance);
      if (reason) {
        this.publishUtterance('dropped', utterance, reason);
        continue;
      }
      this.speak(utterance);
    }
  }

  private stale(u: PlannedUtterance): boolean {
    return u.until !== null && this.moment >= u.until;
  }

  /**
   * The lines, waiting for their time or their turn, that the session has moved past: dropped at
   * once (a table that plays faster than the robot talks piles nothing up), in the order they were
   * planned for, which is the same whichever of them had fallen due.
   */
  private dropStale(): void {
    this.dropWhere((u) => this.stale(u), 'stale');
  }

  /** Drops the lines waiting for their time or their turn that `gone` picks, with `reason`, in the order planned for. */
  private dropWhere(gone: (u: PlannedUtterance) => boolean, reason: string): void {
    const lines: Line[] = [];
    for (const [id, { line }] of this.pending) {
      if (line && gone(line.utterance)) {
        this.cancel(id);
        lines.push(line);
      }
    }
    const kept = this.queue.filter((q) => !gone(q.utterance) || !lines.push(q));
    this.queue.splice(0, this.queue.length, ...kept);
    lines.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
    for (const q of lines) this.publishUtterance('dropped', q.utterance, reason);
  }

  private dropReason(u: PlannedUtterance): string | null {
    const t = this.o.toggles.get();
    if (!t.speech) return 'speech off';
    if (u.to === 'partner' && !t.partnerSpeech) return 'partner speech off';
    if (u.to === 'opponent' && !t.opponentSpeech) return 'opponent speech off';
    if (this.stale(u)) return 'stale';
    return null;
  }

  private speak(u: PlannedUtterance): void {
    this.current = u;
    this.publishUtterance('start', u);
    // The line holds the voice for as long as the planner expected, or longer if the backend is slower.
    const said = this.o.speech.say({ id: u.id, text: u.text, language: u.language }).catch((e: unknown) => {
      this.log.warn(`speech: ${(e as Error).message}`);
    });
    const expected = new Promise<void>((resolve) => {
      const id = this.o.clock.setTimeout(() => {
        this.waits.delete(id);
        resolve();
      }, u.estimatedMs);
      this.waits.add(id);
    });
    void Promise.all([said, expected]).then(() => {
      if (this.disposed) return;
      this.publishUtterance('end', u);
      this.current = null;
      this.pump();
    });
  }

  private onToggles(change: ToggleChange): void {
    this.publishToggles(change);
    const t = change.toggles;
    const off = (k: keyof Toggles): boolean => change.changed.includes(k as never) && t[k] === false;
    if (off('postures')) {
      for (const [id, { cmd }] of this.pending) if (cmd.kind === 'posture') this.cancel(id);
      this.publishPosture(restPosture(this.o.postures, 0));
    }
    if (off('gaze')) {
      for (const [id, { cmd }] of this.pending) if (cmd.kind === 'gaze') this.cancel(id);
      this.publishGaze(
        gazeAt(this.o.table, this.o.postures.limits, 0, { kind: 'rest' }),
        this.o.postures.timing.neutralMoveMs,
      );
    }
    if (off('speech')) this.o.speech.stop?.();
    if (off('speech') || off('partnerSpeech') || off('opponentSpeech')) {
      // Queued lines are checked again when their turn comes; drop the ones now ruled out at once.
      const keep = this.queue.filter(({ utterance }) => {
        const reason = this.dropReason(utterance);
        if (reason) this.publishUtterance('dropped', utterance, reason);
        return !reason;
      });
      this.queue.splice(0, this.queue.length, ...keep);
    }
  }

  private publishPosture(p: Posture): void {
    const joints = Object.keys(p.joints) as JointName[];
    this.o.publisher.publish(TOPICS.jointTrajectory, {
      jointNames: joints.map(rosJointName),
      points: [{ positions: joints.map((j) => toSi(j, p.joints[j]!)), timeFromStartMs: p.durationMs }],
    });
    this.o.publisher.publish(TOPICS.expression, {
      expression: p.expression,
      valence: p.valence,
      arousal: p.arousal,
      confidence: 1,
    });
  }

  private publishGaze(g: Gaze, durationMs: number): void {
    this.o.publisher.publish(TOPICS.lookAt, {
      frameId: this.o.frameId ?? 'emys_head',
      point: { ...g.point },
      target: describeGazeTarget(g.target),
    });
    this.o.publisher.publish(TOPICS.jointTrajectory, {
      jointNames: [rosJointName('headYaw'), rosJointName('headPitch')],
      points: [{ positions: [toSi('headYaw', g.yaw), toSi('headPitch', g.pitch)], timeFromStartMs: durationMs }],
    });
  }

  private publishUtterance(
    phase: UtteranceMessage['phase'],
    u: PlannedUtterance,
    reason?: string,
    dueInMs?: number,
  ): void {
    const message: UtteranceMessage = {
      phase,
      id: u.id,
      category: u.category,
      text: u.text,
      language: u.language,
      to: u.to,
      addressee: u.addressee,
      ...(u.audience ? { audience: u.audience } : {}),
      backend: this.o.speech.name,
      ...(reason ? { reason } : {}),
      about: u.about,
      ...(dueInMs === undefined ? {} : { dueInMs }),
    };
    this.o.publisher.publish(TOPICS.utterance, message);
  }

  private publishToggles(change: ToggleChange): void {
    this.o.publisher.publish(TOPICS.toggles, {
      toggles: { ...change.toggles },
      changed: [...change.changed],
      by: change.by,
      atMs: change.atMs,
    });
  }
}

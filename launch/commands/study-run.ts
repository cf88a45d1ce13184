// parceiro study run <dir>: one session of a study, from the pre-questionnaires to the post ones. It
// takes the study's next planned session (its condition and seats, robot/study/), starts the node
// with the condition's settings and the participants' codes (never names) in the recording, serves
// each participant's questionnaires (robot/study/questionnaires/) on the dashboard's server, holds
// the games until every pre-questionnaire is in (or the operator starts them from the dashboard),
// asks for the post-questionnaires when the games end, and marks the session ended. A crash (or a
// stop) leaves it crashed; `--resume` goes on with the same participants, condition and recording.
// `--simulated`: simulated players sit in the participants' seats and a script answers for them.

import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Seat } from '../../game/index.js';
import { createRng, deriveSeed } from '../../game/index.js';
import type { NodeLogger, ParceiroNode } from '../../robot/index.js';
import { ParceiroNode as Node, createLogger } from '../../robot/index.js';
import { resumeSession } from '../../robot/offline/index.js';
import type { DeskParticipant, DeskView, Questionnaire } from '../../robot/study/questionnaires/index.js';
import { QuestionnaireDesk, loadQuestionnaire } from '../../robot/study/questionnaires/index.js';
import type { Condition, Seats, StudySession } from '../../robot/study/index.js';
import {
  StudyError,
  appendNote,
  listNotes,
  listSessions,
  markSession,
  partnerKind,
  pausedSeconds,
  planNextSession,
  readStudy,
  seatCodes,
  sessionsDir,
} from '../../robot/study/index.js';
import type { ControlAck, StudyPanel } from '../../robot/web/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import type { Command } from 'commander';
import { UsageError, startError, tokenOption } from '../errors.js';
import {
  botThinkOption,
  dashboardPortOption,
  dashboardTokenOption,
  hostOption,
  portOption,
  sessionOption,
  speechOption,
} from '../options.js';
import { StopSignals } from '../signals.js';
import { reachable } from './play.js';
import { speechKind } from './simulate.js';

export interface StudyRunOptions {
  /** Simulated players in the participants' seats, and a script answering their questionnaires. */
  simulated?: boolean;
  /** Who answers the questionnaires: people (on their pages) or a script (default: a script when simulated). */
  answers?: string;
  /**
   * The participants play at the virtual table: each one's link opens their questionnaires, then
   * their seat at the virtual table when the games start (and the table links back to the
   * questionnaires for the post ones).
   */
  virtualTable?: boolean;
  /** Go on with the session that crashed (or was stopped), from its recording. */
  resume?: boolean;
  /** The participants at the table (codes, in the order of the draw); default the next waiting. */
  participants?: string;
  /** A pause before each simulated player's card (ms). */
  botThink: number;
  host?: string;
  port: number;
  dashboardPort: number;
  dashboardToken?: string;
  speech?: string;
  /** The recording's encoding: json (the default) or ros2 (the rosbag2 MCAP profile). */
  recordingFormat?: 'json' | 'ros2';
}

/** The node's session id for a study session: the study's id and the session's (names the recording). */
const nodeSessionId = (studyId: string, session: StudySession): string => `${studyId}-${session.id}`;

/** The participants at the table, by code, with their seat and who partners them. */
function participantsOf(seats: Seats): DeskParticipant[] {
  return Object.entries(seats)
    .filter(([, holder]) => holder !== 'robot' && holder !== 'bot' && holder !== 'deleted')
    .map(([seat, code]) => ({
      code,
      seat: Number(seat),
      partner: partnerKind(seats, code) === 'robot' ? ('robot' as const) : ('human' as const),
    }));
}

/** The condition's settings as the node takes them. */
function nodeSettings(c: Condition): Record<string, unknown> {
  const { robotSeat, speech, ...rest } = c.settings as Record<string, unknown>;
  return {
    ...rest,
    ...(robotSeat === undefined ? {} : { robotSeat }),
    ...(speech === undefined ? {} : { speech: speechKind(String(speech)) }),
  };
}

/** A scripted participant's answer to one question: a value it takes, drawn from `rng`. */
function scriptedAnswer(q: Questionnaire, name: string, next: () => number): string | number {
  const item = q.items.find((i) => i.name === name)!;
  if (item.values && item.values.length > 0) return item.values[Math.floor(next() * item.values.length)]!;
  if (name === 'age') return 18 + Math.floor(next() * 40);
  return 'scripted';
}

/**
 * Answers every open questionnaire of `code` over the pages' own API (the server checks each answer
 * as it would a person's), one answer at a time, then completes it.
 */
async function answerByScript(
  base: string,
  desk: QuestionnaireDesk,
  code: string,
  phase: 'pre' | 'post',
  seed: number,
): Promise<void> {
  const joined = desk.join(code);
  if (!joined) return;
  const rng = createRng(seed, phase === 'pre' ? 1 : 2);
  const call = async (what: string, body: object): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}/questionnaire/api/${what}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: joined.token, ...body }),
    });
    const data = (await r.json()) as Record<string, unknown>;
    if (!r.ok) throw new Error(`the scripted participant ${code}: ${what}: ${String(data['error'])}`);
    return data;
  };
  const state = (await call('state', {})) as { questionnaires: { id: string; phase: string; complete: boolean }[] };
  for (const t of state.questionnaires) {
    if (t.complete || t.phase !== phase) continue;
    const q = desk.questionnaire(t.id);
    for (const item of q.items)
      await call('answer', {
        questionnaire: q.id,
        phase,
        name: item.name,
        value: scriptedAnswer(q, item.name, () => rng.next()),
      });
    await call('complete', { questionnaire: q.id, phase });
  }
}

/** Resolves once `ready()` holds, checked at every change the desk or the operator makes. */
class Gate {
  #waiters: (() => void)[] = [];
  constructor(private readonly ready: () => boolean) {}
  check(): void {
    if (!this.ready()) return;
    for (const w of this.#waiters.splice(0)) w();
  }
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.check();
    });
  }
}

export async function studyRunCommand(
  dir: string,
  o: StudyRunOptions,
  write: (line: string) => void,
  signals: StopSignals = new StopSignals(),
  logger: NodeLogger = createLogger({ level: 'warn' }),
): Promise<void> {
  const study = readStudy(dir);
  const answersBy = o.answers ?? (o.simulated ? 'script' : 'people');
  if (answersBy !== 'script' && answersBy !== 'people')
    throw new UsageError(`--answers expects script or people, got "${o.answers}"`);
  const dashboardToken = tokenOption('--dashboard-token', o.dashboardToken);
  if (o.virtualTable && o.simulated)
    throw new UsageError(
      '--virtual-table seats the participants at the virtual table; --simulated seats simulated players there: choose one',
    );
  // Every questionnaire is read before a session is planned: a bad definition (the study's own or a
  // shipped one) stops here with its file, line and key (ConfigError, exit 2).
  for (const id of [...study.questionnaires.pre, ...study.questionnaires.post])
    loadQuestionnaire(id, { studyDir: dir });

  // The session: the one to go on with, or the next planned (a new one for the people waiting).
  let session: StudySession;
  if (o.resume) {
    const open = listSessions(dir).filter(
      (s) => s.state === 'running' || s.state === 'paused' || s.state === 'crashed',
    );
    if (open.length === 0) throw new StudyError('no session of this study is running or crashed: nothing to resume');
    session = open.at(-1)!;
    // Stopped while the operator had the games paused: that pause ended when the recording did (its
    // last write), not when the session is taken up again.
    const last = [session.recording, ...(session.parts ?? [])].filter((f) => f !== undefined).at(-1);
    const file = last === undefined ? null : join(sessionsDir(dir), last);
    if (session.state === 'paused' && file && existsSync(file)) {
      // (No earlier than the pause itself: a recorder may hold its last messages before writing them.)
      const began = Date.parse(session.pauses?.at(-1)?.at ?? '') || 0;
      const stopped = new Date(Math.max(statSync(file).mtimeMs, began));
      session = markSession(dir, session.id, 'crashed', { now: () => stopped });
    }
  } else {
    const codes = o.participants
      ?.split(',')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    session = planNextSession(dir, codes === undefined ? {} : { participants: codes });
  }
  const condition = study.conditions.find((c) => c.id === session.condition);
  if (!condition)
    throw new StudyError(`session ${session.id}'s condition "${session.condition}" is not in the study file`);
  const participants = participantsOf(session.seats);
  const robotSeat = Number(Object.entries(session.seats).find(([, h]) => h === 'robot')?.[0] ?? 0) as Seat;
  const botSeats = Object.entries(session.seats)
    .filter(([, h]) => h === 'bot' || h === 'deleted')
    .map(([s]) => Number(s) as Seat);
  const language = condition.settings['language'] === 'en' ? 'en' : 'pt';

  let panelOut: ((panel: StudyPanel) => void) | null = null;
  const events = { changed: (): void => {} };
  // Loads every questionnaire now: a bad definition stops here (ConfigError: file, line, key; exit 2).
  const desk = new QuestionnaireDesk({
    studyDir: dir,
    participants,
    pre: study.questionnaires.pre,
    post: study.questionnaires.post,
    language,
    onChange: () => events.changed(),
  });
  const notes = (): StudyPanel['notes'] =>
    listNotes(dir)
      .filter((n) => n.session === session.id)
      .map((n) => ({ at: n.at, text: n.text }));
  const settingsText = Object.entries(condition.settings).map(([k, v]) => `${k}=${String(v)}`);
  // The session's file as last marked: its pauses for the panel.
  let marked = session;
  const openPause = (): string | null =>
    marked.state === 'paused'
      ? marked.pauses?.at(-1)?.until === undefined
        ? (marked.pauses?.at(-1)?.at ?? null)
        : null
      : null;
  const panel = (v: DeskView = desk.view()): StudyPanel => ({
    study: study.id,
    session: session.id,
    condition: condition.id,
    settings: settingsText,
    stage: v.stage,
    participants: v.participants,
    preDone: v.preDone,
    postDone: v.postDone,
    notes: notes(),
    pausedSince: openPause(),
    // The seconds of the pauses over: the panel is sent at each change, not each second.
    pauses: {
      count: marked.pauses?.length ?? 0,
      seconds: pausedSeconds(marked, new Date(openPause() ?? Date.now())),
    },
  });

  // The operator's study controls (the dashboard's study panel).
  let override: 'start' | 'end' | null = null;
  const preGate = new Gate(() => override === 'start' || desk.view().preDone);
  const postGate = new Gate(() => override === 'end' || desk.view().postDone);
  let endGames: (() => void) | null = null;
  const control = (
    c: { type: 'study-start' } | { type: 'study-end' } | { type: 'study-note'; text: string },
  ): ControlAck => {
    if (c.type === 'study-note') {
      appendNote(dir, { text: c.text, session: session.id });
      events.changed();
      return { ok: true };
    }
    if (c.type === 'study-start') {
      if (desk.stage !== 'pre') return { ok: false, reason: 'the games have started already' };
      override = 'start';
      preGate.check();
      return { ok: true };
    }
    if (desk.stage === 'pre') return { ok: false, reason: 'the games have not started: start them first' };
    if (desk.stage === 'games') {
      endGames?.();
      return { ok: true };
    }
    if (desk.stage === 'post') {
      override = 'end';
      postGate.check();
      return { ok: true };
    }
    return { ok: false, reason: 'the session is over' };
  };
  events.changed = () => {
    panelOut?.(panel());
    preGate.check();
    postGate.check();
  };

  // The node: the condition's settings, the session's seed and seats, the participants' codes.
  const token = randomBytes(12).toString('hex');
  const sessionId = nodeSessionId(study.id, session);
  const recordingsDir = sessionsDir(dir);
  let node: ParceiroNode;
  let closeNode: () => Promise<unknown> = () => node.close();
  let resumedPlayed = 0;
  let resumedOver = false;
  let resumedInGame = false;
  try {
    if (o.resume && session.recording !== undefined) {
      const resumed = await resumeSession({
        sessionId,
        token,
        recordingsDir,
        ...(o.host === undefined ? {} : { host: o.host }),
        port: o.port,
        logger,
        node: {
          dashboard: {
            port: o.dashboardPort,
            ...(o.host === undefined ? {} : { host: o.host }),
            ...(dashboardToken === undefined ? {} : { token: dashboardToken }),
          },
        },
      });
      node = resumed.node;
      closeNode = resumed.close;
      resumedPlayed = resumed.resume.restored.played;
      // A game under way counts as started: the pre-questionnaires are not asked again.
      resumedInGame = resumed.resume.restored.game > 0;
      resumedOver = resumed.resume.over;
      write(
        `Resuming session ${session.id} of ${study.id} (${resumedPlayed} game${resumedPlayed === 1 ? '' : 's'} over): the same participants and condition.`,
      );
    } else {
      node = await Node.start({
        seed: session.seed ?? deriveSeed(Date.now() & 0x7fffffff, 1),
        sessionId,
        table: { host: o.host ?? '127.0.0.1', port: o.port, token },
        games: session.games,
        robotSeat,
        greet: 'people',
        ...nodeSettings(condition),
        participants: seatCodes(session.seats),
        ...(o.speech === undefined ? {} : { speech: speechKind(o.speech) }),
        ...(o.recordingFormat === undefined ? {} : { recordingFormat: o.recordingFormat }),
        recordingsDir,
        dashboard: {
          port: o.dashboardPort,
          ...(o.host === undefined ? {} : { host: o.host }),
          ...(dashboardToken === undefined ? {} : { token: dashboardToken }),
        },
        logger,
      } as Parameters<typeof Node.start>[0]);
    }
  } catch (e) {
    throw startError(e, {
      host: { value: o.host ?? '127.0.0.1', from: '--host' },
      port: { value: o.port, from: '--port' },
      dashboardPort: { value: o.dashboardPort, from: '--dashboard-port' },
    });
  }
  const dashboard = node.dashboard!;
  // Nobody deals before the pre-questionnaires are in: the session waits paused.
  const startedGames = resumedPlayed > 0 || resumedInGame || resumedOver;
  if (!startedGames) node.bus.publish('sessionControl', { action: 'pause', by: 'study' });
  if (Object.keys(condition.toggles).length > 0 && !o.resume) node.toggles.set(condition.toggles, 'study');
  dashboard.attachStudy({
    handle: (req: IncomingMessage, res: ServerResponse) => desk.handle(req, res),
    join: (code) => desk.join(code),
    control,
  });
  panelOut = (p) => dashboard.setStudy(p);
  marked = markSession(dir, session.id, 'running', node.recording ? { recording: basename(node.recording) } : {});
  events.changed();
  // The operator's Pause and Resume (the dashboard's, or a ROS 2 client's) mark the study's session
  // paused and running again, with the time; the study's own holds (before and after the games) do not.
  const offPauses = node.bus.subscribe('sessionControl', (m) => {
    if (m.by === 'study' || desk.stage !== 'games') return;
    if (m.action === 'pause' && marked.state === 'running') marked = markSession(dir, session.id, 'paused');
    else if (m.action === 'resume' && marked.state === 'paused') marked = markSession(dir, session.id, 'running');
    else return;
    events.changed();
  });
  /** Leaves the operator's pause when the games are over (the session goes on, to its questionnaires). */
  const endPause = (): void => {
    if (marked.state === 'paused') marked = markSession(dir, session.id, 'running');
  };
  const base = reachable(dashboard.url);
  write(`Study ${study.id}, session ${session.id}: condition ${condition.id}; the robot in seat ${robotSeat}.`);
  /** A participant's link: their questionnaires, and with --virtual-table their seat after them. */
  const linkOf = (p: DeskParticipant): string => {
    const questionnaires = dashboard.participantLink(p.code, base);
    if (!o.virtualTable) return questionnaires;
    // The seat's pass is traded when the games start: good for as long as the session runs.
    const pass = new URLSearchParams(
      new URL(dashboard.tableLink(p.seat, base, { untilClosed: true })).hash.slice(1),
    ).get('pass')!;
    return `${questionnaires}&${new URLSearchParams({ table: pass, seat: String(p.seat) }).toString()}`;
  };
  for (const p of participants)
    write(
      `  ${p.code} in seat ${p.seat} (partner: ${p.partner}): ${answersBy === 'people' ? linkOf(p) : 'answered by a script'}`,
    );
  if (!o.simulated && !o.virtualTable)
    write(`Table server for the touch table: ${reachable(node.url)} (token ${token}).`);
  write(`Operator dashboard: ${dashboard.link(base)}`);

  const stop = signals.stopped();
  let table: SimulatedTable | null = null;
  const seed = session.seed ?? 1;
  const finish = async (state: 'ended' | 'crashed', why: string): Promise<void> => {
    desk.setStage('ended');
    offPauses();
    table?.close();
    const summary = await closeNode();
    marked = markSession(dir, session.id, state);
    const s = (summary as { score?: { games: number; victories: number[] } }).score;
    write(
      `Session ${session.id} ${state} (${why})${s ? `: ${s.games} game${s.games === 1 ? '' : 's'}, victories A ${s.victories[0]} - B ${s.victories[1]}` : ''}.`,
    );
  };
  try {
    // Before the games: the pre-questionnaires (or the operator's start).
    if (!startedGames) {
      desk.setStage('pre');
      if (answersBy === 'script')
        for (const p of participants)
          await answerByScript(dashboard.url, desk, p.code, 'pre', deriveSeed(seed, p.seat));
      write(
        study.questionnaires.pre.length > 0
          ? 'Waiting for the pre-questionnaires (or the operator starts the games from the dashboard).'
          : 'No pre-questionnaires.',
      );
      const why = await Promise.race([preGate.wait().then(() => 'ready'), stop]);
      if (why !== 'ready') return await finish('crashed', `stopped: ${why}; resume with --resume`);
      write(
        override === 'start' ? 'The operator started the games.' : 'Every pre-questionnaire is in: the games start.',
      );
    }
    // The games: simulated players in the seats nobody takes (and, simulated, in the participants').
    desk.setStage(resumedOver ? 'post' : 'games');
    if (!resumedOver) {
      node.bus.publish('sessionControl', { action: 'resume', by: 'study' });
      const seats = [...botSeats, ...(o.simulated ? participants.map((p) => p.seat as Seat) : [])];
      if (seats.length > 0) {
        table = new SimulatedTable({
          url: node.url,
          token,
          seed: deriveSeed(seed, 0x7ab1e),
          id: 'study-simulated-players',
          name: 'simulated players',
          seats,
          thinkMs: o.botThink,
          logger,
        });
        await table.start();
      }
      const gamesOver = new Promise<string>((resolve) => {
        endGames = () => resolve('the operator ended the games');
      });
      const why = await Promise.race([
        node.finished().then(() => 'over'),
        ...(table ? [table.finished().then(() => 'over')] : []),
        gamesOver,
        stop,
      ]);
      if (why !== 'over' && why !== 'the operator ended the games')
        return await finish('crashed', `stopped: ${why}; resume with --resume`);
      if (why !== 'over') {
        node.bus.publish('sessionControl', { action: 'pause', by: 'study' });
        appendNote(dir, { text: 'the operator ended the games before their end', session: session.id });
      }
      write(why === 'over' ? 'The games are over: the post-questionnaires.' : `${why}: the post-questionnaires.`);
    }
    endPause();
    // After the games: the post-questionnaires (or the operator ends the session).
    desk.setStage('post');
    if (answersBy === 'script')
      for (const p of participants) await answerByScript(dashboard.url, desk, p.code, 'post', deriveSeed(seed, p.seat));
    const why = await Promise.race([postGate.wait().then(() => 'ready'), stop]);
    if (why !== 'ready') return await finish('crashed', `stopped during the post-questionnaires: ${why}`);
    const v = desk.view();
    const incomplete = v.participants.flatMap((p) =>
      p.progress.filter((g) => !g.complete).map((g) => `${p.code} ${g.questionnaire}.${g.phase}`),
    );
    for (const line of incomplete) write(`  not complete: ${line}`);
    await finish('ended', incomplete.length > 0 ? 'the operator ended it' : 'every questionnaire is in');
  } catch (e) {
    await finish('crashed', e instanceof Error ? e.message : String(e)).catch(() => {});
    throw e;
  }
}

/** `parceiro study run`, added to `parceiro study` (launch/commands/study.ts). */
export function addStudyRunCommand(study: Command, log: (line: string) => void = (line) => console.log(line)): void {
  study
    .command('run')
    .description(
      "run the study's next session: its condition's settings, the pre-questionnaires on each participant's device, the games, the post-questionnaires (docs/studies.md)",
    )
    .argument('<dir>', "the study's folder")
    .option('--participants <codes>', 'who is at the table, comma separated (default: the next waiting with consent)')
    .option(
      '--resume',
      'go on with the session that crashed or was stopped: same participants, condition and recording',
    )
    .option('--simulated', "simulated players in the participants' seats, a script answering their questionnaires")
    .option(
      '--virtual-table',
      'the participants play at the virtual table: each link opens their questionnaires, then their seat when the games start',
    )
    .option(
      '--answers <who>',
      'who answers the questionnaires: people (on their pages) or script (default: script when simulated)',
    )
    .addOption(botThinkOption("a pause before each simulated player's card"))
    .addOption(speechOption())
    .addOption(sessionOption('recordingFormat'))
    .addOption(hostOption())
    .addOption(portOption('the table server port (0: a free one)', { default: 0 }))
    .addOption(dashboardPortOption('the dashboard, questionnaires and virtual table port (0: a free one)', 0))
    .addOption(dashboardTokenOption())
    .action(async (dir: string, o: StudyRunOptions) => {
      await studyRunCommand(dir, o, log);
    });
}

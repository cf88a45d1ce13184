// A session's settings, described once (robot/live/session/session-settings.ts): the recording keeps
// them written and read back through one schema, the strings exactly those recordings have always
// held, a value that does not fit named by its key (a replay refuses a recording whose seat or seed it
// cannot run again, in one line); and a chosen setting's one line makes its node option, its config
// default, its flag and what a replay runs with.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { FITTED_MODEL } from '../../game/index.js';
import { recordSession, recording, replay, robot } from './replay-harness.js';
import { runCli } from '../launch/run-cli.js';
import type * as Bus from '../../robot/bus/index.js';
import type * as Options from '../../launch/options.js';

const bus = (await import(new URL('../../dist/robot/bus/index.js', import.meta.url).href)) as typeof Bus;
const options = (await import(new URL('../../dist/launch/options.js', import.meta.url).href)) as typeof Options;

const dir = mkdtempSync(join(tmpdir(), 'parceiro-metadata-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = {
  id: 'lab-7',
  seed: 42,
  games: 5,
  robotSeat: 2,
  firstDealer: 1,
  player: 'timed',
  budgetMs: 2000,
  inference: 50,
  character: 'competitive',
  level: 'full',
  language: 'en',
  speech: 'log',
  expectationBudgetMs: 300,
  handModel: { searchWeight: 0.25, fittedOn: FITTED_MODEL.fittedOn },
  inferenceModel: null,
  prediction: { model: 'tom1', top: 3 },
  minThinkMs: 1500,
  liftGraceMs: 800,
  greet: 'people',
  advice: true,
  recordingFormat: 'json',
  versionBase: 12,
  tableSeqs: { tables: [] },
  participants: { '1': 'P-7KQ3', '3': 'P-M2XD' },
} as const;

describe("a session's recorded settings", () => {
  it('reads back exactly what was written, every key of the schema', () => {
    const info = robot.writeSessionMetadata(settings as never);
    const { settings: back, unreadable } = robot.readSessionMetadata(info);
    expect(unreadable).toEqual([]);
    expect(back).toEqual(settings);
    // Every key the schema knows is exercised here but a restart's own (part, previous, resumed, damaged).
    const own = ['part', 'previous', 'resumed', 'damaged', 'levelSettings'];
    expect(Object.keys(robot.SESSION_FIELDS).filter((k) => !own.includes(k) && !(k in settings))).toEqual([]);
  });

  it('writes the strings recordings have always held', () => {
    const info = robot.writeSessionMetadata(settings as never);
    expect(info).toMatchObject({
      seed: '42',
      robotSeat: '2',
      handModel: `{"searchWeight":0.25,"fittedOn":${JSON.stringify(FITTED_MODEL.fittedOn)}}`,
      inferenceModel: 'rule',
      prediction: '{"model":"tom1","top":3}',
      advice: 'true',
      tableSeqs: '{"tables":[]}',
    });
    expect(robot.writeSessionMetadata({ handModel: null, prediction: null })).toEqual({
      handModel: 'off',
      prediction: 'off',
    });
  });

  it('names each value that does not fit, by key, and keeps the others', () => {
    const { settings: back, unreadable } = robot.readSessionMetadata({
      seed: '7',
      robotSeat: '9',
      games: 'five',
      handModel: '{"searchWeight":3}',
      previous: '../../outside.mcap',
      advice: 'maybe',
    });
    expect(back).toEqual({ seed: 7 });
    expect(unreadable.map((u) => u.key).sort()).toEqual(['advice', 'games', 'handModel', 'previous', 'robotSeat']);
    expect(unreadable.find((u) => u.key === 'robotSeat')?.expected).toMatch(/seat/);
  });

  it('a replay refuses a recording whose seat it cannot run again, in one line naming the key', () => {
    const rec = { path: 'recordings/x.mcap', session: { seed: '3', robotSeat: '9' } };
    expect(() => replay.replaySettings(rec, [], { spoken: undefined, estimates: 0 })).toThrow(recording.RecordingError);
    expect(() => replay.replaySettings(rec, [], { spoken: undefined, estimates: 0 })).toThrow(
      /robotSeat is "9", not a seat, 0 to 3: it cannot be replayed/,
    );
  });

  it('a replay notes a setting it cannot read and runs with the default', () => {
    const notes: string[] = [];
    const s = replay.replaySettings(
      { path: 'x.mcap', session: { seed: '3', robotSeat: '1', firstDealer: '0', games: '2', minThinkMs: 'soon' } },
      notes,
      { spoken: undefined, estimates: 0 },
    );
    expect(s).toMatchObject({ seed: 3, robotSeat: 1, choices: { games: 2 } });
    expect(s.choices.minThinkMs).toBeUndefined();
    expect(notes.join('\n')).toMatch(/minThinkMs is unreadable \(soon; expected a whole number/);
  });

  it('a replay and a restart open no file a recording names: a character file comes from --character', async () => {
    const made = await recordSession(dir, 'named-files');
    const folder = join(dir, 'named');
    mkdirSync(folder, { recursive: true });
    for (const [i, character] of ['/etc/passwd', '/dev/zero', '../../config/appraisal/warm.yaml'].entries()) {
      const id = `named-${i}`;
      const file = join(folder, `${id}.mcap`);
      await rewriteSession(made, file, (s) => ({ ...s, id, character }));
      for (const args of [
        ['replay', file],
        ['simulate', '--resume', id, '--recordings', folder],
      ]) {
        const r = await runCli(args, dir);
        expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
        const lines = r.err.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          /names its character by a file .*which a recording does not open: give the file with --character/,
        );
        expect(r.err).not.toMatch(/root:/);
      }
    }
    // Given by the operator, the file is read.
    const r = await runCli(['replay', join(folder, 'named-2.mcap'), '--character', 'warm'], dir);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/Replaying/);
  });

  it('a replay follows `previous` only to a file beside the recording, never a path the file names', async () => {
    const made = await recordSession(dir, 'outside');
    // A real part outside the recordings folder, which a path in the metadata could reach.
    const inner = join(dir, 'a', 'b');
    mkdirSync(inner, { recursive: true });
    copyFileSync(made, join(dir, 'outside.mcap'));
    // A copy whose metadata names the part it continues by a path.
    const part = join(inner, 'outside.2.mcap');
    await rewriteSession(made, part, (s) => ({ ...s, previous: '../../outside.mcap' }));
    const report = await replay.replayRecording(recording.readRecording(part));
    const notes = report.notes.join('\n');
    expect(notes).not.toMatch(/restored from/);
    expect(notes).toMatch(/named "\.\.\/\.\.\/outside\.mcap", not a recording file beside it/);
  });
});

describe("a chosen setting's one line", () => {
  const flagged = robot.CHOICE_KEYS.filter((k) => robot.choiceOf(k).flag);
  /** A command with every session flag, as live, play and simulate build theirs. */
  const command = (): Command => {
    const c = new Command().exitOverride().configureOutput({ writeErr: () => {} });
    for (const k of flagged) c.addOption(options.sessionOption(k));
    return c;
  };

  it('makes a flag, parsed by the codec: a value that does not fit is one line naming the flag', () => {
    expect(flagged).toEqual(
      expect.arrayContaining(['games', 'budgetMs', 'minThinkMs', 'liftGraceMs', 'inference', 'advice']),
    );
    for (const [flag, bad, says] of [
      ['--min-think', '-5', /^--min-think expects a whole number from 0 to 60000, got "-5"$/],
      ['--lift-grace', 'soon', /^--lift-grace expects a whole number from 0 to 600000, got "soon"$/],
      ['--inference', '101', /^--inference expects a whole number from 0 to 100, got "101"$/],
      ['--budget', '0', /^--budget expects a whole number from 1 to 600000, got "0"$/],
    ] as const) {
      let said = '';
      try {
        command().parse([flag, bad], { from: 'user' });
      } catch (e) {
        said = (e as Error).message;
      }
      expect(said).toMatch(says);
    }
  });

  it('turns the parsed flags into the node options, and back into the same flags', () => {
    const argv = ['--games', '3', '--budget', '250', '--inference', '30', '--lift-grace', '2500', '--advice'];
    const parsed = command().parse(argv, { from: 'user' }).opts();
    const choices = options.choicesOf(parsed);
    expect(choices).toEqual({ games: 3, budgetMs: 250, inference: 30, liftGraceMs: 2500, advice: true });
    expect(robot.choiceFlags(choices)).toEqual(argv);
  });

  it("takes its default from config/session.yaml's key or config/node.yaml's path, each present and valid", () => {
    const node = robot.loadNodeSettings();
    const session = robot.loadSessionSettings();
    const resolved = robot.resolveChoices({}, node, session);
    for (const k of robot.CHOICE_KEYS) {
      const c = robot.choiceOf(k).config;
      if (!c) continue;
      // A path that names nothing in config/node.yaml would leave the setting to nobody.
      expect(resolved[k], k).toBeDefined();
      // And it fits the setting's codec: the node can record it.
      expect(robot.readSessionMetadata(robot.writeSessionMetadata({ [k]: resolved[k] })).unreadable, k).toEqual([]);
    }
    expect(robot.resolveChoices({ minThinkMs: 40 }, node, session).minThinkMs).toBe(40);
    // config/session.yaml's keys are the chosen settings kept there, checked by their codec's value side.
    const file = join(dir, 'session.yaml');
    writeFileSync(file, 'minThinkMs: 100\nliftGraceMs: -3\n');
    expect(() => robot.loadSessionSettings(file)).toThrow(
      /session\.yaml:2:\d+: liftGraceMs: a whole number from 0 to 600000/,
    );
    writeFileSync(file, 'minThinkMs: 100\n');
    expect(robot.loadSessionSettings(file)).toEqual({ minThinkMs: 100, liftGraceMs: 3000 });
  });

  it('is recorded as the session ran with it, and a replay runs with the recorded value', async () => {
    const node = await robot.ParceiroNode.configure({
      seed: 5,
      sessionId: 'chosen',
      table: { host: '127.0.0.1', port: 0, token: 'chosen-settings-test' },
      liftGraceMs: 2500,
      inference: 30,
      games: 2,
      greet: 'people',
      expectationBudgetMs: 0,
      speech: 'log',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: null,
    });
    const file = (await node.close()).recording!;
    const info = recording.readRecording(file).session!;
    expect(info).toMatchObject({
      liftGraceMs: '2500',
      inference: '30',
      games: '2',
      minThinkMs: '1500',
      greet: 'people',
    });
    const s = replay.replaySettings({ path: file, session: info }, [], { spoken: undefined, estimates: 0 });
    expect(s.choices).toMatchObject({ liftGraceMs: 2500, games: 2, minThinkMs: 1500, greet: 'people' });
    // A recording made before the setting greeted as the session opened: its replay does too.
    const { greet: _greet, ...before } = info;
    const old = replay.replaySettings({ path: file, session: before }, [], { spoken: undefined, estimates: 0 });
    expect(old.choices).not.toHaveProperty('greet');
    // The budget and the inference shape the robot's search, which a replay does not run: not restored.
    expect(s.choices).not.toHaveProperty('inference');
  });
});

/** A copy of a recording with its session metadata passed through `edit`. */
async function rewriteSession(
  from: string,
  to: string,
  edit: (s: Record<string, string>) => Record<string, string>,
): Promise<void> {
  const rec = recording.readRecording(from);
  let now = 0;
  const r = await recording.Recorder.start({
    path: to,
    bus: new bus.InProcessBus(),
    clock: () => now,
    session: edit(rec.session!),
  });
  rec.messages.forEach((m) => {
    now = m.time;
    r.record(m.topic, m.message);
  });
  await r.close();
}

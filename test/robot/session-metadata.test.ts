// A session's settings as its recording keeps them: written and read back through one schema, the
// strings exactly those recordings have always held, and a value that does not fit named by its key
// (a replay refuses a recording whose seat or seed it cannot run again, in one line).

import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FITTED_MODEL } from '../../game/index.js';
import { recordSession, recording, replay, robot } from './replay-harness.js';
import type * as Bus from '../../robot/bus/index.js';

const bus = (await import(new URL('../../dist/robot/bus/index.js', import.meta.url).href)) as typeof Bus;

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
  advice: true,
  versionBase: 12,
  tableSeqs: { tables: [] },
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
    expect(s).toMatchObject({ seed: 3, robotSeat: 1, games: 2 });
    expect(s.minThinkMs).toBeUndefined();
    expect(notes.join('\n')).toMatch(/minThinkMs is unreadable \(soon; expected a whole number/);
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

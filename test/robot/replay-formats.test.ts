// A recording in the rosbag2 profile (CDR) replays to itself exactly as a JSON one does, and holds
// the same session: the same messages, the float32 fields rounded as CDR keeps them.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { playToEnd, recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-replay-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The harness's one-game session (seed 21, table seed 8), recorded in `format`. */
async function record(format: 'json' | 'ros2'): Promise<string> {
  const node = await robot.ParceiroNode.start({
    seed: 21,
    table: { host: '127.0.0.1', port: 0, token: 'formats-test' },
    games: 1,
    sessionId: `formats-${format}`,
    sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 21 }) },
    minThinkMs: 50,
    expectationBudgetMs: 0,
    speech: 'publish',
    recordingsDir: dir,
    recordingFormat: format,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
    dashboard: null,
  });
  await playToEnd(node, 'formats-test');
  return (await node.close()).recording!;
}

describe('a recording in the rosbag2 profile', () => {
  it('replays to itself, and holds what the JSON recording of the same session holds', async () => {
    // The two sessions at once (each its own node on free ports and session id): each mostly waits.
    const [cdr, json] = await Promise.all([record('ros2'), record('json')]);
    const a = recording.readRecording(cdr);
    const b = recording.readRecording(json);
    expect(a.format).toBe('ros2');
    expect(b.format).toBe('json');
    expect(a.problems).toEqual([]);
    // The session id and the format differ (one per recording); everything else is the same.
    expect({ ...a.session, id: '', recordingFormat: '' }).toEqual({ ...b.session, id: '', recordingFormat: '' });
    const timeless = (m: (typeof a.messages)[number]) => [m.topic.name, m.message];
    const asCdr = b.messages.map((m) => [m.topic.name, recording.asRecorded('ros2', m.topic, m.message)]);
    // Times and stamps differ between two live runs; the plays, words and feelings do not.
    const plays = (x: unknown[][]) => x.filter(([t]) => t === '/parceiro/game/events' || t === '/parceiro/decision');
    expect(plays(a.messages.map(timeless))).toEqual(plays(asCdr));

    const r = await replay.replayRecording(new recording.RecordingStream(cdr));
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.compared['/parceiro/emotions']).toBeGreaterThan(0);
    expect(r.compared['/robot_face/expression']).toBeGreaterThan(0);
  }, 120_000);
});

// Replay and resume of a large recording (a flood of refused table events, 120 000
// messages, ~30 MB) in a program whose heap is capped at 64 MB, so anything that holds the whole
// recording in memory (reading the file at once, the messages in an array, the replay's outputs kept
// for a comparison at the end) fails. Before the fix, both ended in "JavaScript heap out of memory".

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { floodRecording } from './flood-recording.js';

const EVENTS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let file = '';

// The three programs are independent (the resume works on its own copy, the surplus on its own
// recording): they run at once, and the resume's session, paced by the robot's lines, waits beside them.
describe.concurrent('a large recording', () => {
  beforeAll(async () => {
    file = await floodRecording(join(dir, 'flood'), 'flood', EVENTS);
  }, 120_000);

  it('replays in a 64 MB heap, streamed and compared as it goes, to exactly itself', async () => {
    const r = await runCli(['replay', file, '--json'], dir, undefined, ['--max-old-space-size=64']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as {
      matches: boolean;
      complete: boolean;
      fed: { tableEvents: number };
      compared: Record<string, number>;
    };
    expect(report.complete).toBe(true);
    expect(report.matches).toBe(true);
    // The hello and every refused event were fed; every refusal was compared.
    expect(report.fed.tableEvents).toBe(EVENTS + 1);
    expect(report.compared['/parceiro/table/output']).toBeGreaterThanOrEqual(EVENTS);
  }, 180_000);

  it('names the first message the replay never produces, without holding the ones after it (64 MB heap)', async () => {
    // Before the fix the recorded predictions piled up, waiting for a counterpart: out of memory.
    const surplus = await floodRecording(join(dir, 'surplus'), 'surplus', EVENTS, true);
    const r = await runCli(['replay', surplus, '--json'], dir, undefined, ['--max-old-space-size=64']);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as {
      matches: boolean;
      firstDifference: { topic: string; index: number; actual: unknown } | null;
      compared: Record<string, number>;
    };
    expect(report.matches).toBe(false);
    expect(report.firstDifference).toMatchObject({ topic: '/parceiro/prediction', index: 0, actual: null });
    expect(report.compared['/parceiro/prediction']).toBe(EVENTS);
  }, 240_000);

  it('resumes in a 64 MB heap: the flood is restored, and the session is played to its end', async () => {
    const folder = join(dir, 'resume');
    cpSync(join(dir, 'flood'), folder, { recursive: true });
    const r = await runCli(
      ['simulate', '--resume', 'flood', '--recordings', folder, '--bot-think', '0', '--json'],
      dir,
      undefined,
      ['--max-old-space-size=64'],
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out) as {
      games: number;
      points: unknown[];
      resumed: { restored: { tableEvents: number } };
    };
    expect(summary.resumed.restored.tableEvents).toBe(EVENTS + 1);
    expect(summary.games).toBe(1);
    expect(summary.points).toHaveLength(1);
  }, 180_000);
});

// parceiro replay, run as a user runs it: the built program in a child process, on a session
// recorded by the node here. Its readable report, its JSON, and its exit codes: 0 when the replay
// matches, 1 when it differs, 2 for a file that is not a recording.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordSession, recording, rewrite } from '../robot/replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(args, dir);

let path = '';
beforeAll(async () => {
  path = await recordSession(dir, 'cli-replay');
}, 60_000);

describe('parceiro replay', () => {
  it('says that a recorded session replays to itself, and how it was replayed (exit 0)', async () => {
    const { code, out, err } = await run(['replay', path]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain(`Replaying ${path}`);
    expect(out).toMatch(
      /session cli-replay: seed 21, 1 game, the robot in seat 0, speech publish; as fast as possible\./,
    );
    expect(out).toMatch(
      /note: the robot's \d+ searched decisions and \d+ quick estimates are time-bound, so they are not recomputed/,
    );
    expect(out).toMatch(/^the robot's plays \(.*\): match \(\d+ messages\)$/m);
    expect(out).toMatch(/^its emotions \(.*\): match \(\d+ messages\)$/m);
    expect(out).toMatch(/^its behaviours \(.*\): match \(\d+ messages\)$/m);
    expect(out).toMatch(/^The replay matches the recording: \d+ messages on \d+ topics\.$/m);
    expect(out).toContain('The recording is complete.');
  });

  it('prints the report as JSON with --json, at recorded speed with --realtime refused alongside --fast', async () => {
    const { code, out } = await run(['replay', path, '--json', '--fast']);
    expect(code).toBe(0);
    const r = JSON.parse(out) as {
      matches: boolean;
      mode: string;
      complete: boolean;
      groups: Record<string, { matches: boolean }>;
    };
    expect(r).toMatchObject({ matches: true, mode: 'fast', complete: true });
    expect(Object.keys(r.groups)).toEqual(['plays', 'emotions', 'behaviours']);
    const both = await run(['replay', path, '--fast', '--realtime']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/cannot be used with option/);
  });

  it('names the first difference of an altered recording, readably (exit 1)', async () => {
    const altered = join(dir, 'altered.mcap');
    let n = -1;
    await rewrite(path, altered, (m) => {
      if (m.topic.name !== '/parceiro/table/output') return m.message;
      n++;
      return n === 2 ? { ...(m.message as object), text: 'a different prompt' } : m.message;
    });
    const { code, out } = await run(['replay', altered]);
    expect(code).toBe(1);
    expect(out).toMatch(
      /^the robot's plays \(.*\): DIFFER, first at \/parceiro\/table\/output message 3, [\d.]+ s in \(game 1, trick 1\): text: expected "a different prompt", got "/m,
    );
    expect(out).toMatch(
      /^The replay differs from the recording; the first difference: \/parceiro\/table\/output message 3/m,
    );
  });

  it('replays a recording cut short as far as it goes and says what was not replayed', async () => {
    const cut = join(dir, 'cut.mcap');
    await rewrite(path, cut, (m) => m.message);
    const { truncateSync, statSync } = await import('node:fs');
    truncateSync(cut, Math.floor(statSync(cut).size * 0.4));
    expect(recording.readRecording(cut).complete).toBe(false);
    const { code, out } = await run(['replay', cut]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /The recording is incomplete; replayed as far as it goes:\n {2}- cut short after \d+ messages .*\n {2}- the recording stops [\d.]+ s in \(.*\): the rest of the session was not recorded, so it was not replayed or compared/,
    );
  });

  it('refuses a missing file or one that is not a recording with one line and exit code 2', async () => {
    const missing = await run(['replay', join(dir, 'missing.mcap')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`parceiro: error: ${join(dir, 'missing.mcap')}: cannot read the file (ENOENT)\n`);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a recording');
    const wrong = await run(['replay', text]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toBe(`parceiro: error: ${text}: not an MCAP recording (no MCAP header)\n`);
    expect(wrong.out).toBe('');
  });
});

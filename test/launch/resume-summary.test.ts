// A resumed session's summary is the whole session's (the games before the
// restart come from the recording), in --json and in text; and a resume from a damaged recording is
// refused in one line (exit 2) naming the file, where it is damaged and what could be restored,
// unless the damage is accepted (--accept-damage), which --json then carries. A part cut short by a
// crash is not damage: it resumes. The kill waits on the recording's contents, never on a timer.

import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEventMessage } from '../../robot/bus/index.js';
import { readRecording } from '../../robot/recording/index.js';
import { CLI, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-resume-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FAST = ['--budget', '50', '--min-think', '0', '--bot-think', '0'];

const ends = (file: string): GameEventMessage[] =>
  existsSync(file)
    ? readRecording(file)
        .messages.map((m) => m.message as GameEventMessage)
        .filter((m) => m.type === 'end' && 'final_points' in m)
    : [];

interface Summary {
  games: number;
  victories: { A: number; B: number };
  points: { A: number; B: number }[];
  resumed: { damage: string | null; restored: { played: number } };
}

// Every case runs its programs in a folder of its own, and mostly waits on them (the robot's last
// lines): the cases, and the two groups, run at once.
describe.concurrent('the summary of a resumed session', () => {
  it('killed after game 1 of 2: the resumed --json lists both games, game 1 from the recording', async () => {
    const folder = join(dir, 'killed');
    const file = join(folder, 'killed.mcap');
    const child = spawn(
      process.execPath,
      [CLI, 'simulate', '--games', '2', '--seed', '5', ...FAST, '--recordings', folder, '--session', 'killed'],
      { cwd: dir },
    );
    const closed = new Promise<string | null>((resolve) => child.on('close', (_c, signal) => resolve(signal)));
    // Checked each time the program writes: game 1's end in the recording (flushed within a second).
    while (!ends(file).length) {
      if (child.exitCode !== null) throw new Error('the session ended before it could be killed');
      await new Promise((r) => child.stdout.once('data', r));
    }
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    const first = ends(file)[0]!;

    const r = await runCli(
      ['simulate', '--resume', 'killed', '--recordings', folder, '--bot-think', '0', '--json'],
      dir,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as Summary;
    expect(s.games).toBe(2);
    expect(s.points).toHaveLength(2);
    expect(s.points[0]).toEqual({ A: first.final_points[0], B: first.final_points[1] });
    expect(s.resumed.restored.played).toBeGreaterThanOrEqual(1);
    expect(s.resumed.damage).toBeNull();
  }, 180_000);

  it('resumed after its last game: the text summary lists the games played before', async () => {
    const folder = join(dir, 'over');
    const done = await runCli(
      ['simulate', '--games', '1', '--seed', '6', ...FAST, '--recordings', folder, '--session', 'over'],
      dir,
    );
    expect(done.code).toBe(0);
    const [end] = ends(join(folder, 'over.mcap'));
    const r = await runCli(['simulate', '--resume', 'over', '--recordings', folder], dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/the session was already over/);
    expect(r.out).toMatch(/^Session over after 1 game: victories A \d+ - B \d+/m);
    expect(r.out).toContain(`Points by game (A-B): ${end!.final_points[0]}-${end!.final_points[1]}\n`);
  }, 180_000);
});

describe.concurrent('resuming a damaged recording', () => {
  let good = '';
  beforeAll(async () => {
    const folder = join(dir, 'good');
    const r = await runCli(
      ['simulate', '--games', '1', '--seed', '8', ...FAST, '--recordings', folder, '--session', 'dmg'],
      dir,
    );
    expect(r.code).toBe(0);
    good = join(folder, 'dmg.mcap');
  }, 180_000);

  /** A copy of the recording, damaged by `harm`, in a folder of its own. */
  const damaged = (name: string, harm: (file: string) => void): string => {
    const folder = join(dir, name);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'dmg.mcap');
    copyFileSync(good, file);
    harm(file);
    return folder;
  };
  /** Flips a byte of the message data at about `share` of the file (inside a chunk: its CRC no longer holds). */
  const flip = (share: number) => (file: string) => {
    const b = readFileSync(file);
    const at = b.indexOf('"kind"', Math.floor(b.length * share));
    b[at + 1] = 'x'.charCodeAt(0);
    writeFileSync(file, b);
  };
  const oneLine = (err: string): void => {
    expect(err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(err).not.toMatch(/\n\s+at /);
  };

  it('damaged in its header: refused in one line, exit 2', async () => {
    const folder = damaged('header', (f) => {
      const b = readFileSync(f);
      b[3] = 0;
      writeFileSync(f, b);
    });
    const r = await runCli(['simulate', '--resume', 'dmg', '--recordings', folder, '--json'], dir);
    expect(r.code).toBe(2);
    oneLine(r.err);
    expect(r.err).toMatch(/dmg\.mcap: not an MCAP recording/);
    expect(r.out).toBe('');
  }, 60_000);

  it('damaged in its first records (before the session metadata): refused in one line, exit 2', async () => {
    const folder = damaged('first', (f) => {
      const b = readFileSync(f);
      b[40] = b[40]! ^ 0xff;
      writeFileSync(f, b);
    });
    const r = await runCli(['simulate', '--resume', 'dmg', '--recordings', folder, '--json'], dir);
    expect(r.code).toBe(2);
    oneLine(r.err);
    expect(r.err).toMatch(/dmg\.mcap: .*(damaged|no session metadata)/);
    expect(r.out).toBe('');
  }, 60_000);

  for (const [name, share] of [
    ['near its start', 0.1],
    ['in the middle', 0.5],
  ] as const) {
    it(`damaged ${name}: refused in one line naming where and what could be restored; accepted, --json says so`, async () => {
      const folder = damaged(`mid-${share}`, flip(share));
      const r = await runCli(['simulate', '--resume', 'dmg', '--recordings', folder, '--json'], dir);
      expect(r.code).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(
        /dmg\.mcap: cannot be resumed as recorded: .*dmg\.mcap is damaged at byte \d+ .*what could be read restores \d+ messages, \d+ games? over.*--accept-damage/,
      );
      expect(r.out).toBe('');
      // Nothing was started: no new part.
      expect(existsSync(join(folder, 'dmg.2.mcap'))).toBe(false);

      const accepted = await runCli(
        ['simulate', '--resume', 'dmg', '--recordings', folder, '--bot-think', '0', '--json', '--accept-damage'],
        dir,
      );
      expect(accepted.code).toBe(0);
      expect(accepted.err).toMatch(/warning: resumed from a damaged recording/);
      const s = JSON.parse(accepted.out) as Summary;
      expect(s.resumed.damage).toMatch(/damaged at byte \d+/);
      // The new part says what it continues from.
      expect(readRecording(join(folder, 'dmg.2.mcap')).session?.damaged).toMatch(/damaged at byte/);
    }, 180_000);
  }

  it('cut short (a crash): resumes with no word of damage', async () => {
    const folder = damaged('tail', (f) => truncateSync(f, Math.floor(readFileSync(f).length * 0.7)));
    const r = await runCli(['simulate', '--resume', 'dmg', '--recordings', folder, '--bot-think', '0', '--json'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as Summary;
    expect(s.resumed.damage).toBeNull();
    expect(s.games).toBe(1);
  }, 180_000);
});

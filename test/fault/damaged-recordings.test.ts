// Damaged recordings (the fault suite: malformed and hostile input must not crash the node): a whole
// recording and one cut short by a SIGKILL, both made here by `parceiro simulate`, then truncated, with
// bytes flipped, zeroed, cut out or garbage appended at seeded offsets. `parceiro replay` on each
// answers with its report (exit 0 or 1) or one line `parceiro: error: ...` (exit 2); `parceiro simulate
// --resume` on each finishes the session (a truncated tail is what a crash leaves) or refuses in one
// line; never a stack trace, never a hang (a safety net kills a program after two minutes and counts it
// as hung). A resume that goes on says what it could not read, in text and in --json, and the parts it
// leaves make one session, not a new one passed off as the old.
//
// Figures: `npx vitest run test/fault/damaged-recordings.test.ts` prints them and writes
// $TMPDIR/parceiro-fault-figures/damaged-recordings.json. PARCEIRO_FAULT_SEED=n tries other offsets.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEventMessage } from '../../robot/bus/index.js';
import {
  CLI,
  Gen,
  SUITE_SEED,
  Tally,
  checkSessionEvents,
  firstLines,
  oneLineError,
  recording,
  runWatched,
} from './fault-kit.js';
import type { WatchedRun } from './fault-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Only a safety net: no run should come near it. */
const HANG_MS = 120_000;

type Ran = WatchedRun;

/** prlimit, where there is one, caps a program's memory for the inputs that could take it all. */
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p));

function cli(args: string[], cwd: string, until?: (out: string) => boolean, capMemory = false): Promise<Ran> {
  const [cmd, ...rest] =
    capMemory && PRLIMIT
      ? [PRLIMIT, '--as=3000000000', process.execPath, CLI, ...args]
      : [process.execPath, CLI, ...args];
  return runWatched(cmd!, rest, cwd, HANG_MS, until);
}

type Mutation = { name: string; apply: (b: Buffer) => Buffer };

function mutation(g: Gen, size: number, headHeavy: boolean): Mutation {
  // Offsets near the start (the header, the schemas, the session's metadata and first deal) as often as anywhere.
  const at = (): number => (headHeavy && g.chance(0.5) ? g.int(0, Math.min(size - 1, 2_000)) : g.int(0, size - 1));
  const kind = g.pick(['truncate', 'truncate', 'flip', 'flip', 'zero', 'cut', 'garbage']);
  const o = at();
  switch (kind) {
    case 'truncate':
      return { name: `truncated at ${o} of ${size}`, apply: (b) => b.subarray(0, o) };
    case 'flip': {
      const bit = g.int(0, 7);
      return { name: `bit ${bit} of byte ${o} flipped`, apply: (b) => ((b = Buffer.from(b)), (b[o]! ^= 1 << bit), b) };
    }
    case 'zero': {
      const n = g.int(1, 512);
      return { name: `${n} bytes zeroed at ${o}`, apply: (b) => ((b = Buffer.from(b)), b.fill(0, o, o + n), b) };
    }
    case 'cut': {
      const n = g.int(1, 4_096);
      return { name: `${n} bytes cut out at ${o}`, apply: (b) => Buffer.concat([b.subarray(0, o), b.subarray(o + n)]) };
    }
    default: {
      const n = g.int(1, 4_096);
      const junk = Buffer.from(Array.from({ length: n }, () => g.int(0, 255)));
      return { name: `${n} bytes of garbage appended`, apply: (b) => Buffer.concat([b, junk]) };
    }
  }
}

const tally = new Tally('damaged-recordings');

/** Runs `work` on each item, `n` at a time (the programs run side by side, each in its own files). */
async function fewAtATime<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: n }, worker));
}

const whole = join(dir, 'whole', 'recordings', 'whole.mcap');
const cut = join(dir, 'cut', 'recordings', 'cut.mcap');
const gameEvents = (file: string): GameEventMessage[] =>
  recording
    .readRecording(file)
    .messages.filter((m) => m.topic.name === '/parceiro/game/events')
    .map((m) => m.message as GameEventMessage);

/** A JSON summary without its file paths (this suite's folders are named parceiro-damaged-...). */
function withoutPaths(out: string): string {
  try {
    return JSON.stringify(JSON.parse(out), (k, v: unknown) =>
      k === 'recording' || k === 'recordings' ? undefined : v,
    );
  } catch {
    return out.replaceAll(dir, '');
  }
}

/** The answer of `parceiro replay` to a recording: its report (0 or 1), or one line (2). */
function replayProblem(r: Ran): string | null {
  if (r.hung) return `no answer within ${HANG_MS / 1000} s`;
  if (r.code === 2) return oneLineError(r);
  if (r.signal) return `ended by ${r.signal}`;
  if (/\n\s+at .+:\d+:\d+/.test(`\n${r.out}\n${r.err}`)) return `a stack trace: ${firstLines(r.err || r.out)}`;
  if (r.code !== 0 && r.code !== 1) return `exit ${r.code}: ${firstLines(r.err || r.out)}`;
  if (!/The replay (matches|differs)|replay/i.test(r.out))
    return `exit ${r.code} without a report: ${firstLines(r.out)}`;
  // A match of what could be read is not a match of the session: only a whole recording exits 0.
  if (r.code === 0 && /complete but damaged|recording is damaged|could not be read/.test(r.out))
    return `exit 0 for a damaged recording: ${firstLines(r.out)}`;
  return null;
}

describe('damaged recordings', () => {
  beforeAll(async () => {
    for (const d of ['whole', 'cut']) mkdirSync(join(dir, d), { recursive: true });
    const common = ['--budget', '30', '--min-think', '40', '--bot-think', '0', '--speech', 'log'];
    // Both at once, each in its own folder; the second cut short by a crash three tricks into the game.
    const [w] = await Promise.all([
      cli(
        ['simulate', '--games', '1', '--seed', String(SUITE_SEED), '--session', 'whole', ...common],
        join(dir, 'whole'),
      ),
      cli(
        ['simulate', '--games', '1', '--seed', String(SUITE_SEED + 1), '--session', 'cut', ...common],
        join(dir, 'cut'),
        (out) => (out.match(/\) takes \d+/g) ?? []).length >= 3,
      ),
    ]);
    expect(w.code).toBe(0);
    expect(existsSync(cut)).toBe(true);
  }, 240_000);

  it('parceiro replay answers every damaged recording with its report or one line, never a stack trace, never a hang', async () => {
    const g = new Gen(SUITE_SEED, 0xda7a);
    // The damaged files first, in the generator's order; then the replays, a few at a time.
    const damaged = Array.from({ length: 16 }, (_, i) => {
      const from = i < 12 ? whole : cut;
      const bytes = readFileSync(from);
      const m = mutation(g, bytes.length, i % 2 === 0);
      const file = join(dir, `replay-${i}.mcap`);
      writeFileSync(file, m.apply(bytes));
      return { from, m, file };
    });
    await fewAtATime(damaged, 3, async ({ from, m, file }) => {
      const r = await cli(['replay', file], dir);
      tally.note(
        'replay',
        replayProblem(r) === null ? null : `${from.split('/').at(-1)} ${m.name}: ${replayProblem(r)}`,
      );
    });
    // Not a recording at all: empty, text, a folder, a file that is not there.
    writeFileSync(join(dir, 'empty.mcap'), '');
    writeFileSync(join(dir, 'text.mcap'), 'not a recording\n'.repeat(100));
    for (const [name, file] of [
      ['empty', 'empty.mcap'],
      ['text', 'text.mcap'],
      ['a folder', '.'],
      ['missing', 'nothing-here.mcap'],
    ] as const) {
      const r = await cli(['replay', file], dir);
      tally.note('replay', oneLineError(r) === null ? null : `${name}: ${oneLineError(r)}`);
    }
    expect(tally.failures.filter((f) => f.startsWith('replay: '))).toEqual([]);
  }, 600_000);

  // A regression: before its fix `parceiro replay /dev/zero` read without limit (1.5 GB in 5.6 s).
  it('parceiro replay /dev/zero refuses in one line', async () => {
    // Its memory capped at 3 GB where prlimit exists: a build from before the fix would take the machine's.
    const r = await cli(['replay', '/dev/zero'], dir, undefined, true);
    tally.note('replay', oneLineError(r) && `/dev/zero: ${oneLineError(r)}`);
    expect(oneLineError(r)).toBeNull();
  });

  it('simulate --resume on a damaged recording finishes the session or refuses in one line; going on, it says what it could not read and leaves one session', async () => {
    const g = new Gen(SUITE_SEED, 0x5e5);
    const original = readFileSync(cut);
    // Two near its start (the case that once made the session silently start over), one near
    // its end that a resume always goes on from (so a resume in --json that goes on is always tried,
    // wherever the seeded ones land: they depend on the recording's size), then seeded ones.
    const fixed: Partial<Record<number, Mutation>> = {
      0: { name: 'truncated at 1500', apply: (b) => b.subarray(0, 1500) },
      1: { name: 'bit 0 of byte 700 flipped', apply: (b) => ((b = Buffer.from(b)), (b[700]! ^= 1), b) },
      3: { name: 'its last 200 bytes cut off', apply: (b) => b.subarray(0, b.length - 200) },
    };
    // The mutations in the generator's order; then the resumes, each in its own folder, a few at a
    // time (each mostly waits for the robot's last lines).
    const cases = Array.from({ length: 8 }, (_, i) => ({ i, m: fixed[i] ?? mutation(g, original.length, i % 4 < 2) }));
    await fewAtATime(cases, 4, async ({ i, m }) => {
      const json = i % 2 === 1;
      const cwd = join(dir, `resume-${i}`);
      mkdirSync(join(cwd, 'recordings'), { recursive: true });
      const file = join(cwd, 'recordings', 'cut.mcap');
      writeFileSync(file, m.apply(original));
      const r = await cli(['simulate', '--resume', 'cut', '--bot-think', '0', ...(json ? ['--json'] : [])], cwd);
      const what = `cut.mcap ${m.name}${json ? ', --json' : ''}`;
      if (r.hung || r.code !== 0) {
        tally.note(
          'resume-answers',
          r.code === 2
            ? oneLineError(r) && `${what}: ${oneLineError(r)}`
            : `${what}: ${r.hung ? 'no answer' : `exit ${r.code ?? r.signal}`}: ${firstLines(r.err || r.out)}`,
        );
        return;
      }
      tally.note(
        'resume-answers',
        /\n\s+at .+:\d+:\d+/.test(`\n${r.out}\n${r.err}`) ? `${what}: a stack trace: ${firstLines(r.err)}` : null,
      );
      // It went on: it says the recording was cut short or damaged (it always is: the crash cut it), in either mode.
      if (process.env.DAMAGED_DEBUG)
        writeFileSync(join(process.env.DAMAGED_DEBUG, `resume-${i}.txt`), `${what}\n${r.out}\n${r.err}`);
      const said = json
        ? /cut short|damaged|could not|unreadable|notes?"/i.test(withoutPaths(r.out))
        : /note: /.test(r.out);
      tally.note(
        json ? 'resume-says-json' : 'resume-says-text',
        said ? null : `${what}: exit 0 and no word of the damage: ${firstLines(r.out, 2)}`,
      );
      // And the parts make one session: the damaged part as the reader keeps it, then the new one.
      const parts = [file];
      for (let p = 2; existsSync(join(cwd, 'recordings', `cut.${p}.mcap`)); p++)
        parts.push(join(cwd, 'recordings', `cut.${p}.mcap`));
      let problems: string[];
      try {
        problems = checkSessionEvents(parts.flatMap(gameEvents), 1).problems;
      } catch (e) {
        problems = [`the parts cannot be read: ${e instanceof Error ? e.message : String(e)}`];
      }
      tally.note('resume-one-session', problems.length ? `${what}: ${problems.join('; ')}` : null);
    });
    // No recording to resume from, and an id that would leave the recordings folder (a path is not a session id).
    const none = await cli(['simulate', '--resume', 'nothing-here'], dir);
    tally.note('resume-answers', oneLineError(none) && `no recording: ${oneLineError(none)}`);
    const outside = await cli(['simulate', '--resume', '../../../outside'], join(dir, 'cut'));
    tally.note('resume-answers', oneLineError(outside) && `--resume ../../../outside: ${oneLineError(outside)}`);
    expect(tally.failures.filter((f) => f.startsWith('resume-answers: '))).toEqual([]);
    expect(tally.failures.filter((f) => f.startsWith('resume-says-text: '))).toEqual([]);
  }, 600_000);

  // A regression: before its fix a resume in --json said nothing of the damage.
  it('a resume in --json says what it could not read', () => {
    expect(tally.kinds.get('resume-says-json')?.tried).toBeGreaterThan(0);
    expect(tally.failures.filter((f) => f.startsWith('resume-says-json: '))).toEqual([]);
  });

  it('a resume that goes on leaves one session: the damaged part and the new one, each game dealt once, 40 plays', () => {
    expect(tally.failures.filter((f) => f.startsWith('resume-one-session: '))).toEqual([]);
  });

  afterAll(() => tally.write());
});

// parceiro simulate, run as a user runs it: the built program in a child process, a whole one-game
// session over the real socket.io table bridge, narrated. It takes the robot's think time (config),
// so the test waits for the program's end rather than timing anything.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(args, dir);

// The cases are independent (each its own session id, ports and folder) and mostly wait for the
// robot's pace and last lines: they run at once. The timeout is only a backstop.
describe('parceiro simulate', { concurrent: true, timeout: 300_000 }, () => {
  it('plays and narrates a one-game session through the robot node, and records it', async () => {
    const { code, out, err } = await run([
      'simulate',
      '--games',
      '1',
      '--seed',
      '3',
      '--budget',
      '50',
      '--bot-think',
      '200',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('Game 1:');
    expect(out.match(/^ {2}trick +\d+:/gm)).toHaveLength(10);
    expect(out).toMatch(/robot [2-7QJKA][SHDC] \((forced|\d+\.\d\d s)/);
    expect(out).toMatch(/\[feels [a-z-]+ \d+\.\d/);
    expect(out).toMatch(/\[face: (happy|sad|angry|surprised|scared|disgusted)\]/);
    expect(out).toMatch(/robot says.*: "/);
    expect(out).toMatch(/Session over after 1 game: victories A \d+ - B \d+/);
    expect(out).toMatch(/The robot's decisions: \d+ searched, p50 \d+\.\d\d s, max \d+\.\d\d s/);
    // The default recordings folder is under the working directory.
    expect(out).toMatch(
      new RegExp(
        `Recording: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/recordings/sim-3-.*\\.mcap \\(\\d+ messages\\)`,
      ),
    );
  });

  it('--physical-deal: the table deals real cards, the robot reads its hand and its cards are put down for it', async () => {
    const { code, out, err } = await run([
      'simulate',
      '--games',
      '1',
      '--seed',
      '5',
      '--budget',
      '50',
      '--min-think',
      '50',
      '--bot-think',
      '0',
      '--physical-deal',
      '--no-record',
      '--json',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const summary = JSON.parse(out) as {
      games: number;
      points: { A: number; B: number }[];
      decisions: { searched: number; forced: number };
    };
    expect(summary.games).toBe(1);
    expect(summary.decisions.searched + summary.decisions.forced).toBe(10);
    expect(summary.points[0]!.A + summary.points[0]!.B).toBe(120);
  });

  it('refuses an unknown speech backend with one line and exit code 2', async () => {
    const { code, err } = await run(['simulate', '--speech', 'shout', '--no-record']);
    expect(code).toBe(2);
    expect(err).toBe('parceiro: error: --speech expects log, espeak-ng, say or publish, got "shout"\n');
  });
});

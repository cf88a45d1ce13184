// `parceiro study run` as a lab runs it, from the built program: a whole simulated session (simulated
// players in the participants' seats, their questionnaires answered by the script through the pages'
// API), its answers scored as the questionnaires define; then a session killed mid-way and resumed
// with `--resume`, which keeps its participants, condition and recording.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '../../robot/recording/index.js';
import { readRecording } from '../../robot/recording/index.js';
import type { AnswerFile } from '../../robot/study/questionnaires/index.js';
import { loadQuestionnaire, scoreAnswers } from '../../robot/study/questionnaires/index.js';
import { runCli } from '../launch/run-cli.js';
import { readCsv } from './study-fixture.js';

const CLI = join(import.meta.dirname, '../../dist/launch/cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'parceiro-study-run-'));
const study = join(tmp, 'quick');

const STUDY = `id: quick
title: A quick simulated study
sessions: 2
participantsPerSession: 3
games: 1
assignment: { scheme: draw, seed: 7 }
conditions:
  - id: fast
    settings: { robotSeat: 0, language: en, minThinkMs: 0, budgetMs: 50, speech: log }
questionnaires:
  pre: [demographics, trust14]
  post: [trust14, godspeed]
consent: { version: v1 }
`;

/** `parceiro ...args`: asynchronous, not to block vitest's worker (test/launch/run-cli.ts says why). */
async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const r = await runCli(args, tmp);
  return { status: r.code, stdout: r.out, stderr: r.err };
}
const sessionFile = (id: string) =>
  JSON.parse(readFileSync(join(study, 'sessions', `${id}.json`), 'utf8')) as Record<string, unknown>;
const answerFile = (code: string, q: string, phase: string) =>
  JSON.parse(readFileSync(join(study, 'answers', code, `${q}.${phase}.json`), 'utf8')) as AnswerFile;

const codes: string[] = [];

const gameEvents = (r: Recording) =>
  r.messages.filter((m) => m.topic.name === '/parceiro/game/events') as { time: number; message: { type: string } }[];
/** Cards played so far in a recording being written. */
const plays = (file: string): number => gameEvents(readRecording(file)).filter((e) => e.message.type === 'play').length;
/** A part's game time: from its first game event to the session's end, or its last message. */
function gameSpan(r: Recording): { from: number; to: number; ms: number } | null {
  const events = gameEvents(r);
  const first = events.find((e) => e.message.type !== 'session_end');
  if (!first) return null;
  const to = events.find((e) => e.message.type === 'session_end')?.time ?? r.messages.at(-1)!.time;
  return { from: first.time, to, ms: to - first.time };
}

beforeAll(async () => {
  expect(existsSync(CLI)).toBe(true);
  writeFileSync(join(tmp, 'quick.yaml'), STUDY);
  writeFileSync(join(tmp, 'consent.txt'), 'I agree to take part.\n');
  expect((await cli('study', 'create', join(tmp, 'quick.yaml'), '--dir', study)).status).toBe(0);
  for (let i = 0; i < 6; i++) {
    const r = await cli('study', 'add-participant', study, '--consent-text', join(tmp, 'consent.txt'));
    expect(r.status).toBe(0);
    codes.push(r.stdout.trim());
  }
  // Seven runs of the program: seconds each on a loaded machine.
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parceiro study run --simulated', () => {
  it('plays a whole session: pre-questionnaires, the games, post-questionnaires, the session ended', async () => {
    const r = await cli('study', 'run', study, '--simulated', '--bot-think', '0');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/^Study quick, session S01: condition fast; the robot in seat 0\./m);
    expect(out).toContain('Every pre-questionnaire is in: the games start.');
    expect(out).toContain('The games are over: the post-questionnaires.');
    expect(out).toMatch(/Session S01 ended \(every questionnaire is in\): 1 game, victories/);
    const s = sessionFile('S01');
    expect(s['state']).toBe('ended');
    expect(s['recording']).toBe('quick-S01.mcap');
    const seated = Object.values(s['seats'] as Record<string, string>).filter((h) => h !== 'robot');
    expect(seated.sort()).toEqual(codes.slice(0, 3).sort());
    // The recording carries the participants' codes (its session metadata), nothing else of them.
    const recording = readFileSync(join(study, 'sessions', 'quick-S01.mcap'));
    for (const code of seated) expect(recording.includes(code)).toBe(true);
    // Every questionnaire of every participant, complete, as the contract with the export says.
    for (const code of seated)
      for (const [q, phase] of [
        ['demographics', 'pre'],
        ['trust14', 'pre'],
        ['trust14', 'post'],
        ['godspeed', 'post'],
      ] as const) {
        const f = answerFile(code, q, phase);
        expect(f).toMatchObject({ code, questionnaire: q, version: '1', phase, language: 'en', complete: true });
        expect(Object.keys(f.answers)).toHaveLength(loadQuestionnaire(q).items.length);
        expect(Date.parse(f.updatedAt)).toBeGreaterThanOrEqual(Date.parse(f.startedAt));
      }
  });

  it("scores each participant's answers as the questionnaire defines (worked out here from the file)", () => {
    const seated = Object.values(sessionFile('S01')['seats'] as Record<string, string>).filter((h) => h !== 'robot');
    for (const code of seated) {
      const trust = answerFile(code, 'trust14', 'post').answers as Record<string, number>;
      const reverse = new Set(['have_errors', 'unresponsive', 'malfunction']);
      const byHand = Object.entries(trust).reduce((sum, [k, v]) => sum + (reverse.has(k) ? 100 - v : v), 0) / 14;
      expect(scoreAnswers('trust14', trust)['trust']).toBeCloseTo(byHand, 10);
      const godspeed = answerFile(code, 'godspeed', 'post').answers as Record<string, number>;
      const safety =
        (godspeed['safe_anxious_relaxed']! + godspeed['safe_agitated_calm']! + godspeed['safe_quiescent_surprised']!) /
        3;
      expect(scoreAnswers('godspeed', godspeed)['safety']).toBeCloseTo(safety, 10);
    }
  });

  it('a session killed mid-way is resumed with --resume: the same participants, condition and recording', async () => {
    // Slow players, so that the games are still on when the run is killed.
    const child = spawn('node', [CLI, 'study', 'run', study, '--simulated', '--bot-think', '400'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('the games start.')) resolve();
      });
      child.on('exit', () => reject(new Error(`the run ended first:\n${out}`)));
    });
    // A recording with a little of the game in it (cards played): waited for, not timed (a loaded
    // machine is slow).
    const recording = join(study, 'sessions', 'quick-S02.mcap');
    for (let i = 0; !(existsSync(recording) && statSync(recording).size > 0 && plays(recording) >= 2); i++) {
      if (i > 1200) throw new Error(`no cards played in ${recording}:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const before = sessionFile('S02');
    expect(before['state']).toBe('running');
    const r = await cli('study', 'run', study, '--resume', '--simulated', '--bot-think', '0');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Resuming session S02 of quick/m);
    expect(r.stdout).toMatch(/Session S02 ended/);
    const after = sessionFile('S02');
    expect(after['state']).toBe('ended');
    expect(after['seats']).toEqual(before['seats']);
    expect(after['condition']).toBe(before['condition']);
    expect(after['recording']).toBe('quick-S02.mcap');
    // The restart's part is the session's too.
    expect((after['parts'] as string[] | undefined)?.length ?? 0).toBeGreaterThanOrEqual(1);
    for (const part of after['parts'] as string[]) expect(readdirSync(join(study, 'sessions'))).toContain(part);
    // The participants' pre answers were kept, the post ones given after the restart.
    const seated = Object.values(after['seats'] as Record<string, string>).filter((h) => h !== 'robot');
    expect(seated.sort()).toEqual(codes.slice(3).sort());
    for (const code of seated) {
      expect(answerFile(code, 'trust14', 'pre').complete).toBe(true);
      expect(answerFile(code, 'trust14', 'post').complete).toBe(true);
    }

    // The session's duration is the games' time in both parts: the sum of each part's, from its first
    // game event to its end, not the gap between them (worked out here from the recordings).
    const parts = [after['recording'] as string, ...(after['parts'] as string[])].map((f) =>
      readRecording(join(study, 'sessions', f)),
    );
    const played = parts.filter((p) => gameSpan(p) !== null);
    expect(played).toHaveLength(2);
    const byHand = played.reduce((sum, p) => sum + gameSpan(p)!.ms, 0) / 1000;
    const wall = (gameSpan(played[1]!)!.to - gameSpan(played[0]!)!.from) / 1000;
    expect((await cli('study', 'export', study, '--out', join(tmp, 'export'))).status).toBe(0);
    const row = readCsv(readFileSync(join(tmp, 'export', 'sessions.csv'), 'utf8')).find((r) => r.session === 'S02')!;
    expect(row.parts).toBe('2');
    expect(row.duration_s).not.toBe('NA');
    expect(Number(row.duration_s)).toBeCloseTo(byHand, 2);
    expect(Number(row.duration_s)).toBeLessThan(wall);
    expect(Number(row.paused_s)).toBeGreaterThanOrEqual(0);
    // The game the kill cut, finished after the restart: its time in both parts, not NA.
    const game = readCsv(readFileSync(join(tmp, 'export', 'games.csv'), 'utf8')).find((g) => g.session === 'S02')!;
    expect(game.result).not.toBe('unfinished');
    expect(Number(game.duration_s)).toBeGreaterThan(0);
    expect(Number(game.duration_s)).toBeLessThan(wall);
    const codebook = readFileSync(join(tmp, 'export', 'codebook.json'), 'utf8');
    expect(codebook).toContain('not the gap between the parts');
  });
});

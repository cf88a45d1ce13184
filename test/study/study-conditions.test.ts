// A study's conditions take effect, and a study recorded in the rosbag2 profile is exported and
// reported, all from the built program. Two conditions, a silent robot (`toggles: { speech: false }`)
// and a competitive one speaking English, each run by `parceiro study run --simulated`: the
// recordings (read through the public reader) show the condition, and so does the export. Then a
// study whose session is recorded with `--recording-format ros2`: `study export` and `study report`
// read it as they read the JSON profile.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '../../robot/recording/index.js';
import { readRecording } from '../../robot/recording/index.js';
import { CLI, runCli } from '../launch/run-cli.js';
import { readCsv } from './study-fixture.js';

const tmp = mkdtempSync(join(tmpdir(), 'parceiro-study-conditions-'));

const FAST = 'robotSeat: 0, minThinkMs: 0, budgetMs: 50, speech: log';
const TWO = `id: two
title: A silent robot and a competitive one in English
sessions: 2
participantsPerSession: 3
games: 1
assignment: { scheme: draw, seed: 11 }
conditions:
  - id: silent
    settings: { ${FAST}, language: pt }
    toggles: { speech: false }
  - id: competitive-en
    settings: { ${FAST}, character: competitive, language: en }
questionnaires:
  pre: [trust14]
  post: [trust14]
consent: { version: v1 }
`;

/** `parceiro ...args`, which must succeed: its output. (Asynchronous: test/launch/run-cli.ts says why.) */
async function ok(...args: string[]): Promise<string> {
  const r = await runCli(args, tmp);
  if (r.code !== 0) throw new Error(`parceiro ${args.join(' ')} (${r.code}): ${r.err}\n${r.out}`);
  return r.out;
}

/** A study made as a lab makes one: created, `people` participants with consent. */
async function makeStudy(name: string, yaml: string, people: number): Promise<string> {
  const dir = join(tmp, name);
  writeFileSync(join(tmp, `${name}.yaml`), yaml);
  await await ok('study', 'create', join(tmp, `${name}.yaml`), '--dir', dir);
  for (let i = 0; i < people; i++)
    await await ok('study', 'add-participant', dir, '--consent-text', join(tmp, 'consent.txt'));
  return dir;
}

interface SessionFile {
  condition: string;
  recording: string;
  state: string;
}
const sessionOf = (dir: string, id: string): SessionFile =>
  JSON.parse(readFileSync(join(dir, 'sessions', `${id}.json`), 'utf8')) as SessionFile;

/** The robot's lines of a recording by phase (start: spoken). */
const lines = (r: Recording, phase: string) =>
  r.messages
    .filter((m) => m.topic.name === '/parceiro/behaviours/utterance')
    .map((m) => m.message as { phase: string; language: string; text: string })
    .filter((u) => u.phase === phase);

beforeAll(() => {
  expect(existsSync(CLI)).toBe(true);
  writeFileSync(join(tmp, 'consent.txt'), 'I agree to take part.\n');
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("a study's conditions", () => {
  it("set the robot's settings and toggles: the recordings and the export show each session's condition", async () => {
    const dir = await makeStudy('two', TWO, 6);
    for (const id of ['S01', 'S02']) {
      const out = await ok('study', 'run', dir, '--simulated', '--bot-think', '0');
      expect(out).toMatch(new RegExp(`Session ${id} ended`));
    }
    const sessions = ['S01', 'S02'].map((id) => ({ id, ...sessionOf(dir, id) }));
    // The draw's balanced block: each condition once in two sessions.
    expect(sessions.map((s) => s.condition).sort()).toEqual(['competitive-en', 'silent']);
    const silent = sessions.find((s) => s.condition === 'silent')!;
    const competitive = sessions.find((s) => s.condition === 'competitive-en')!;
    const quiet = readRecording(join(dir, 'sessions', silent.recording));
    const loud = readRecording(join(dir, 'sessions', competitive.recording));

    // The competitive robot in English: its character and language in the recording, its lines in
    // English. (Which of them are spoken rather than dropped as stale depends on the pace of the
    // simulated players: the lines it queued are the condition's, whatever the machine's load.)
    expect(loud.session).toMatchObject({ character: 'competitive', language: 'en' });
    const queued = lines(loud, 'queued');
    expect(queued.length).toBeGreaterThan(0);
    for (const l of [...queued, ...lines(loud, 'start')]) expect(l.language).toBe('en');
    const spoken = lines(loud, 'start');

    // The silent robot: the toggle set by the study before the first deal, and in force to the end.
    const firstDeal = quiet.messages.find(
      (m) => m.topic.name === '/parceiro/game/events' && (m.message as { type: string }).type === 'deal',
    )!;
    const toggles = quiet.messages
      .filter((m) => m.topic.name === '/parceiro/behaviours/toggles')
      .map((m) => ({ time: m.time, ...(m.message as { speech: boolean; by: string }) }));
    const inForce = toggles.filter((t) => t.time <= firstDeal.time).at(-1);
    expect(inForce).toMatchObject({ speech: false, by: 'study' });
    expect(toggles.filter((t) => t.time > firstDeal.time).every((t) => !t.speech)).toBe(true);
    expect(quiet.session?.character).not.toBe('competitive');
    expect(lines(quiet, 'start')).toEqual([]);
    expect(lines(quiet, 'queued')).toEqual([]);

    // The export joins each line to its session's condition: none spoken in the silent one.
    await ok('study', 'export', dir, '--out', join(tmp, 'two-export'));
    const decisions = readCsv(readFileSync(join(tmp, 'two-export', 'decisions.csv'), 'utf8'));
    const spokenBy = (condition: string) =>
      decisions.filter((d) => d.kind === 'line' && d.condition === condition && d.line_outcome === 'spoken');
    expect(spokenBy('silent')).toEqual([]);
    expect(spokenBy('competitive-en').length).toBe(spoken.length);
    expect(decisions.filter((d) => d.condition === 'silent' && d.kind === 'decision').length).toBeGreaterThan(0);
  }, 300_000);
});

describe('a study recorded in the rosbag2 profile (--recording-format ros2)', () => {
  it('is exported and reported as the JSON profile is', async () => {
    const yaml = TWO.replace('id: two', 'id: bag').replace('sessions: 2', 'sessions: 1');
    const dir = await makeStudy('bag', yaml, 3);
    await ok('study', 'run', dir, '--simulated', '--bot-think', '0', '--recording-format', 'ros2');
    const session = sessionOf(dir, 'S01');
    expect(session.state).toBe('ended');
    const recording = readRecording(join(dir, 'sessions', session.recording));
    expect(recording.format).toBe('ros2');
    expect(recording.problems).toEqual([]);

    const exported = await ok('study', 'export', dir, '--out', join(tmp, 'bag-export'));
    expect(exported).toMatch(/sessions\.csv \(1 rows?\), games\.csv \(1 rows?\)/);
    const codebook = JSON.parse(readFileSync(join(tmp, 'bag-export', 'codebook.json'), 'utf8')) as { notes: string[] };
    expect(codebook.notes).toEqual([]);
    const [row] = readCsv(readFileSync(join(tmp, 'bag-export', 'sessions.csv'), 'utf8'));
    expect(row).toMatchObject({ session: 'S01', games_played: '1', recording_complete: 'TRUE', parts: '1' });
    expect(Number(row!.duration_s)).toBeGreaterThan(0);
    expect(['won', 'lost', 'drawn']).toContain(row!.robot_team_result);
    const games = readCsv(readFileSync(join(tmp, 'bag-export', 'games.csv'), 'utf8'));
    expect(games).toHaveLength(1);
    expect(Number(games[0]!.points_robot_team) + Number(games[0]!.points_other_team)).toBe(120);
    // Every decision the robot recorded is a row, with its card and win probability as recorded.
    const decided = recording.messages.filter((m) => m.topic.name === '/parceiro/decision');
    const decisions = readCsv(readFileSync(join(tmp, 'bag-export', 'decisions.csv'), 'utf8')).filter(
      (d) => d.kind === 'decision',
    );
    expect(decisions.length).toBe(decided.length);
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.map((d) => d.card)).toEqual(decided.map((m) => (m.message as { card: string }).card));

    const page = join(tmp, 'bag-report.html');
    const reported = await ok('study', 'report', dir, '--out', page);
    expect(reported).toMatch(/sessions won by the robot's team: [01] of 1/);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('bag');
    // The robot's behaviour read from the CDR messages as from JSON: its reactions, its character.
    expect(html).toContain('1 sessions, 1 games');
    expect(html).toMatch(/Mood: median -?[\d.]+ over [1-9]\d* reactions/);
    expect(html).toContain('character competitive');
    expect(html).not.toMatch(/could not be read|not a recording/i);
  }, 300_000);
});

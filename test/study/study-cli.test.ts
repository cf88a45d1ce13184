// parceiro study, as a lab runs it: the built program in a child process, on study files written here
// (bad ones must name their file and line, exit 2), a study folder filled through the commands, and a
// participant deleted from everywhere the study keeps them.

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../launch/run-cli.js';
import { packageRoot } from '../../config/index.js';
import { loadStudy } from '../../robot/study/index.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-study-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => runCli(args, dir);
const SUECA = join(packageRoot(), 'config', 'studies', 'sueca-trust.yaml');

const GOOD = `id: small
title: A small study
sessions: 4
participantsPerSession: 2
games: 1
assignment:
  scheme: counterbalanced
  seed: 7
conditions:
  - id: warm
    settings: { character: warm }
  - id: quiet
    settings: { character: neutral, speech: log }
    toggles: { speech: false }
questionnaires:
  pre: [trust14]
  post: [trust14, godspeed]
consent:
  version: v2
`;

/** A study file with one line changed, written under the test folder. */
function studyFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('a bad study file', () => {
  const cases: [string, string, RegExp][] = [
    [
      'unknown scheme',
      GOOD.replace('scheme: counterbalanced', 'scheme: alternate'),
      /:7:\d+: assignment\.scheme: .*draw.*counterbalanced/,
    ],
    [
      'unknown setting',
      GOOD.replace('character: warm', 'charakter: warm'),
      /:11:\d+: conditions\[0\]\.settings\.charakter: not a setting/,
    ],
    [
      'bad setting value',
      GOOD.replace('speech: log', 'speech: loud'),
      /:13:\d+: conditions\[1\]\.settings\.speech: expected one of log/,
    ],
    [
      'bad seat',
      GOOD.replace('character: warm', 'robotSeat: 5'),
      /:11:\d+: conditions\[0\]\.settings\.robotSeat: expected a seat/,
    ],
    ['bad toggle', GOOD.replace('speech: false', 'speech: maybe'), /:14:\d+: conditions\[1\]\.toggles\.speech: /],
    [
      'condition twice',
      GOOD.replace('id: quiet', 'id: warm'),
      /:12:\d+: conditions\[1\]\.id: the condition "warm" is named twice/,
    ],
    ['missing games', GOOD.replace('games: 1\n', ''), /\.yaml:\d+(:\d+)?: games: missing/],
    [
      'too many per session',
      GOOD.replace('participantsPerSession: 2', 'participantsPerSession: 4'),
      /:4:\d+: participantsPerSession: expected a number at most 3/,
    ],
    [
      'too many participants',
      GOOD.replace('sessions: 4', 'sessions: 4\nparticipants: 9'),
      /:4:\d+: participants: 9 participants do not fit in 4 sessions of 2/,
    ],
    ['not YAML', GOOD.replace('games: 1', 'games: [1'), /\.yaml:\d+:\d+: not valid YAML/],
  ];
  // Each through the room's reader (fast); the first two also through the program (one line, exit 2).
  cases.forEach(([what, text, message], i) =>
    it(`${what}: the file, line and key${i < 2 ? ', one line and exit 2 from the program' : ''}`, async () => {
      const file = studyFile(`bad-${i}.yaml`, text);
      expect(() => loadStudy(file)).toThrow(message);
      if (i >= 2) return;
      const r = await run('study', 'check', file);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }),
  );

  it('create refuses a bad file and makes no folder', async () => {
    const r = await run(
      'study',
      'create',
      studyFile('small.yaml', GOOD.replace('games: 1', 'games: 0')),
      '--dir',
      'bad',
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/small\.yaml:5:1: games: expected a number at least 1/);
    expect(existsSync(join(dir, 'bad'))).toBe(false);
  });
});

describe('the shipped study', () => {
  it('is the paper: 20 sessions of 3, 5 games, a draw, trust before and after', async () => {
    const r = await run('study', 'check', SUECA);
    expect(r.err).toBe('');
    expect(r.out).toMatch(
      /ok, 20 sessions of 3 participant\(s\) and the robot, 5 game\(s\) each, 1 condition\(s\) \(robot\), assignment draw/,
    );
  });
});

describe('a study run through the commands', () => {
  const study = join(dir, 'studies', 'small');
  const codes: string[] = [];

  it('creates the folder with the study file', async () => {
    const r = await run('study', 'create', studyFile('small.yaml', GOOD));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/created study small in .*studies\/small: 4 sessions of 2/);
    expect(readFileSync(join(study, 'study.yaml'), 'utf8')).toBe(GOOD);
    const again = await run('study', 'create', studyFile('small.yaml', GOOD));
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/holds a study already/);
  });

  it('adds participants with consent and prints only their code', async () => {
    writeFileSync(join(dir, 'consent.txt'), 'I agree to take part.\n');
    const first = await run('study', 'add-participant', study, '--consent-text', 'consent.txt');
    expect(first.code).toBe(0);
    expect(first.out.trim()).toMatch(/^P-[2-9A-Z]{4}$/);
    codes.push(first.out.trim());
    for (let i = 0; i < 3; i++) codes.push((await run('study', 'add-participant', study)).out.trim());
    expect(new Set(codes).size).toBe(4);
    const p = JSON.parse(readFileSync(join(study, 'participants', `${codes[0]}.json`), 'utf8'));
    expect(p.code).toBe(codes[0]);
    expect(p.consent.version).toBe('v2');
    expect(p.consent.textSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(study, 'consent', 'v2.txt'), 'utf8')).toBe('I agree to take part.\n');
  });

  it('refuses a duplicate code in one line, exit 2, and a name as a code', async () => {
    const r = await run('study', 'add-participant', study, '--code', codes[0]!);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`parceiro: error: the code ${codes[0]} is already a participant of this study\n`);
    const name = await run('study', 'add-participant', study, '--code', 'Maria Silva');
    expect(name.code).toBe(2);
    expect(name.err).toMatch(/is not a participant code/);
    expect(readdirSync(join(study, 'participants'))).toHaveLength(4);
  });

  it('refuses a changed consent text under the same version', async () => {
    writeFileSync(join(dir, 'consent-changed.txt'), 'I agree, changed.\n');
    const r = await run('study', 'add-participant', study, '--consent-text', 'consent-changed.txt');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/differs from consent version v2/);
  });

  it('plans sessions by the counterbalanced schedule', async () => {
    const s1 = await run('study', 'next', study);
    expect(s1.out).toMatch(/^S01 condition warm, seats 0=robot 1=P-\S+ 2=P-\S+ 3=bot, 1 games/);
    // Asked again before it runs: the same session.
    expect((await run('study', 'next', study)).out).toBe(s1.out);
    const file = JSON.parse(readFileSync(join(study, 'sessions', 'S01.json'), 'utf8'));
    // Slot 0 (the first named) partners the robot in the first session.
    expect(file.seats).toEqual({ '0': 'robot', '1': codes[1], '2': codes[0], '3': 'bot' });
    expect(file.state).toBe('planned');
  });

  it('shows the status: sessions, consent, who answered what', async () => {
    mkdirSync(join(study, 'answers', codes[0]!), { recursive: true });
    const answer = (complete: boolean) => ({
      code: codes[0],
      questionnaire: 'trust14',
      version: '1',
      phase: 'pre',
      language: 'pt',
      startedAt: '2026-01-01T10:00:00.000Z',
      updatedAt: '2026-01-01T10:05:00.000Z',
      complete,
      answers: { q1: 60 },
    });
    writeFileSync(join(study, 'answers', codes[0]!, 'trust14.pre.json'), JSON.stringify(answer(true)));
    writeFileSync(
      join(study, 'answers', codes[0]!, 'trust14.post.json'),
      JSON.stringify({ ...answer(false), phase: 'post' }),
    );
    const r = await run('study', 'status', study);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/sessions: 0 ended of 4 planned \(0 running, 0 paused, 0 crashed, 1 planned next\)/);
    expect(r.out).toMatch(/participants: 4, 4 with consent, 0 withdrawn/);
    expect(r.out).toMatch(/answers \(x complete, ~ started, - none\): trust14\.pre, trust14\.post, godspeed\.post/);
    expect(r.out).toMatch(new RegExp(`${codes[0]} +consent v2 +S01 +partner robot +x ~ -`));
    expect(r.out).toMatch(new RegExp(`${codes[1]} +consent v2 +S01 +partner bot +- - -`));
    expect(r.out).toMatch(new RegExp(`${codes[2]} +consent v2 +- +- - -`));
    const json = JSON.parse((await run('study', 'status', study, '--json')).out);
    expect(json.sessions.byState.planned).toBe(1);
  });

  it('deletes a participant everywhere and says what it removed', async () => {
    const code = codes[0]!;
    await run('study', 'note', study, `${code} asked to stop`, '--session', 'S01');
    const r = await run('study', 'delete-participant', study, code);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`deleted participant ${code}:`);
    expect(r.out).toContain(`removed studies/small/participants/${code}.json`);
    expect(r.out).toContain(`removed studies/small/answers/${code}/trust14.pre.json`);
    expect(r.out).toContain(`removed studies/small/answers/${code}/trust14.post.json`);
    expect(r.out).toContain('seat set to "deleted" in session(s) S01');
    expect(r.out).toContain('1 operator note(s) redacted');
    expect(existsSync(join(study, 'participants', `${code}.json`))).toBe(false);
    expect(existsSync(join(study, 'answers', code))).toBe(false);
    // Nothing of the study's folder names the code any more.
    const all = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? all(join(d, e.name)) : [join(d, e.name)],
      );
    for (const f of all(study)) expect(readFileSync(f, 'utf8'), f).not.toContain(code);
    const again = await run('study', 'delete-participant', study, code);
    expect(again.code).toBe(2);
    expect(again.err).toBe(`parceiro: error: no participant ${code} in this study\n`);
  });

  it('lists the studies', async () => {
    const r = await run('study', 'list');
    expect(r.out).toMatch(/^small {2}studies\/small {2}0\/4 sessions ended, 3 participants {2}A small study/);
  });

  it('says a folder without a study is not one', async () => {
    const r = await run('study', 'status', dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not a study's folder/);
  });
});

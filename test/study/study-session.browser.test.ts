// A study session as a lab runs it, with people answering in a real browser (Debian's chromium,
// playwright-core): `parceiro study run --simulated --answers people` prints a link per participant;
// one answers everything on their own device, one leaves the demographics halfway, one never opens
// theirs. The operator's study panel shows who answered what; the operator starts the games anyway
// (the override), the simulated table plays them, the page that waited opens the post-questionnaire,
// the operator notes something and ends the session. Screenshots in test/.artifacts/.

import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerFile } from '../../robot/study/questionnaires/index.js';
import { requirePrograms } from '../system-programs.js';
import { VIEWPORTS, launchChromium, screenshot } from '../robot/screenshots.js';
import { TRUST_ITEMS } from './study-fixture.js';

const { chromium: CHROMIUM } = requirePrograms('chromium');
const CLI = join(import.meta.dirname, '../../dist/launch/cli.js');
const WAIT = 30_000;
const tmp = mkdtempSync(join(tmpdir(), 'parceiro-study-session-'));
const study = join(tmp, 'lab');

const STUDY = `id: lab
title: The study as a lab runs it
sessions: 1
participantsPerSession: 3
games: 1
assignment: { scheme: draw, seed: 36 }
conditions:
  - id: robot
    settings: { robotSeat: 0, language: pt, minThinkMs: 0, budgetMs: 50, speech: log }
questionnaires:
  pre: [demographics, trust14]
  post: [trust14]
consent: { version: v1 }
`;

let browser: Browser;
let run: ChildProcess | null = null;
let out = '';
let exited: Promise<number | null>;

const cli = (...args: string[]) => spawnSync('node', [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
const answerFile = (code: string, q: string, phase: string): AnswerFile | null => {
  const f = join(study, 'answers', code, `${q}.${phase}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as AnswerFile) : null;
};
/** Resolves when the run has printed `text`. */
const printed = async (text: string | RegExp): Promise<void> => {
  await expect
    .poll(() => (typeof text === 'string' ? out.includes(text) : text.test(out)), { timeout: WAIT })
    .toBe(true);
};

beforeAll(async () => {
  if (!CHROMIUM) return;
  expect(existsSync(CLI)).toBe(true);
  writeFileSync(join(tmp, 'lab.yaml'), STUDY);
  writeFileSync(join(tmp, 'consent.txt'), 'Aceito participar.\n');
  expect(cli('study', 'create', join(tmp, 'lab.yaml'), '--dir', study).status).toBe(0);
  for (let i = 0; i < 3; i++)
    expect(cli('study', 'add-participant', study, '--consent-text', join(tmp, 'consent.txt')).status).toBe(0);
  browser = await launchChromium(CHROMIUM);
}, 120_000);

afterAll(async () => {
  run?.kill('SIGKILL');
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

// The trust questionnaire's items, as the shared fixture lists them.
const TRUST = TRUST_ITEMS;

async function answerTrust(page: Page, value: number): Promise<void> {
  await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
  for (const name of TRUST) await page.locator(`[data-name="${name}"] label:has(input[value="${value}"])`).click();
  await page.locator('.sd-navigation__complete-btn').click();
}

describe.skipIf(!CHROMIUM)('parceiro study run with people answering in the browser', () => {
  it('waits for the pre-questionnaires, the operator starts the games, the post ones follow, the operator ends it', async () => {
    run = spawn('node', [CLI, 'study', 'run', study, '--simulated', '--answers', 'people', '--bot-think', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    run.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    run.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    exited = new Promise((resolve) => run!.once('exit', (code) => resolve(code)));
    await printed('Waiting for the pre-questionnaires');
    const links = [...out.matchAll(/^ {2}(\S+) in seat (\d) \(partner: (\w+)\): (\S+)$/gm)].map((m) => ({
      code: m[1]!,
      seat: Number(m[2]),
      partner: m[3]!,
      link: m[4]!,
    }));
    expect(links).toHaveLength(3);
    const dashboardLink = /^Operator dashboard: (\S+)$/m.exec(out)![1]!;

    // The operator's panel: the session, its condition, three participants by code.
    const operator = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await operator.goto(dashboardLink);
    await operator.waitForSelector('#study-panel:not([hidden])', { timeout: WAIT });
    await expect.poll(() => operator.locator('#study-people tr[data-code]').count(), { timeout: WAIT }).toBe(3);
    expect(await operator.textContent('#study')).toContain('robot');
    expect(await operator.isEnabled('#study-start')).toBe(true);

    // The first answers everything before the games on their phone.
    const [first, second] = links;
    const one = await browser.newPage({ viewport: VIEWPORTS.phone });
    await one.goto(first!.link);
    await one.waitForSelector('[data-name="age"] input', { timeout: WAIT });
    await one.fill('[data-name="age"] input', '31');
    await one.locator('[data-name="gender"] label:has(input[value="female"])').click();
    await one.locator('[data-name="sueca_experience"] label:has(input[value="often"])').click();
    await one.locator('[data-name="robot_experience"] label:has(input[value="never"])').click();
    await one.locator('.sd-navigation__complete-btn').click();
    await answerTrust(one, 60);
    await expect.poll(() => one.getAttribute('#message', 'data-key'), { timeout: WAIT }).toBe('preDone');

    // The second starts the demographics and leaves; the third never opens the link.
    const two = await browser.newPage({ viewport: VIEWPORTS.phone });
    await two.goto(second!.link);
    await two.waitForSelector('[data-name="age"] input', { timeout: WAIT });
    await two.locator('[data-name="gender"] label:has(input[value="male"])').click();
    await expect
      .poll(() => answerFile(second!.code, 'demographics', 'pre')?.answers['gender'], { timeout: WAIT })
      .toBe('male');
    await two.close();

    // The panel shows who answered what; the games wait.
    const row = (code: string) => operator.locator(`#study-people tr[data-code="${code}"]`);
    await expect.poll(() => row(first!.code).locator('[data-complete="true"]').count(), { timeout: WAIT }).toBe(2);
    await expect.poll(() => row(second!.code).textContent(), { timeout: WAIT }).toContain('demographics (pre): 1 of 4');
    expect(out).not.toContain('the games start');
    await screenshot(operator, 'study-panel.png', { docs: true });

    // The operator starts the games without the others' answers; the simulated table plays them.
    await operator.click('#study-start');
    await printed('The operator started the games.');
    await printed('The games are over: the post-questionnaires.');

    // The first participant's page, left open, asks the post-questionnaire by itself.
    await expect.poll(() => one.getAttribute('#survey', 'data-phase'), { timeout: WAIT }).toBe('post');
    await answerTrust(one, 80);
    await expect.poll(() => answerFile(first!.code, 'trust14', 'post')?.complete, { timeout: WAIT }).toBe(true);

    // A note, then the end of the session with two participants' questionnaires not in.
    await operator.fill('#study-note-text', 'P3 arrived late and did not answer.');
    await operator.click('#study-note');
    await expect.poll(() => operator.locator('#study-notes li').count(), { timeout: WAIT }).toBe(1);
    await expect.poll(() => operator.textContent('#study-end'), { timeout: WAIT }).toBe('End the session');
    await screenshot(operator, 'study-panel-post.png');
    await operator.click('#study-end');
    expect(await exited).toBe(0);
    expect(out).toMatch(/Session S01 ended \(the operator ended it\)/);
    expect(out).toContain(`not complete: ${second!.code} demographics.pre`);

    // What the study keeps: the abandoned questionnaire incomplete with what was given; the note.
    expect(answerFile(second!.code, 'demographics', 'pre')).toMatchObject({
      complete: false,
      answers: { gender: 'male' },
    });
    expect(answerFile(first!.code, 'trust14', 'pre')).toMatchObject({ complete: true, language: 'pt' });
    const session = JSON.parse(readFileSync(join(study, 'sessions/S01.json'), 'utf8')) as { state: string };
    expect(session.state).toBe('ended');
    const notes = readFileSync(join(study, 'notes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as object);
    expect(notes).toContainEqual(
      expect.objectContaining({ session: 'S01', text: 'P3 arrived late and did not answer.' }),
    );
    run = null;
    // A whole session with three browsers: about 25 s alone, more on a loaded machine.
  }, 120_000);
});

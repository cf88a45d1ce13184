// A study session at the virtual table, in Debian's chromium (playwright-core): `parceiro study run
// --virtual-table` prints a participant's link that opens their questionnaires and, when the games
// start, their seat at the virtual table; the table's page links back to the questionnaires for the
// post one, after the operator ends the games. Screenshot in test/.artifacts/.

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
const tmp = mkdtempSync(join(tmpdir(), 'parceiro-study-vt-'));
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

describe.skipIf(!CHROMIUM)('parceiro study run --virtual-table', () => {
  it('sends a participant from their questionnaires to their seat at the virtual table, and back after the games', async () => {
    const dir = join(tmp, 'vt');
    writeFileSync(
      join(tmp, 'vt.yaml'),
      STUDY.replace('id: lab', 'id: vt')
        .replace('participantsPerSession: 3', 'participantsPerSession: 1')
        .replace('pre: [demographics, trust14]', 'pre: [demographics]'),
    );
    expect(cli('study', 'create', join(tmp, 'vt.yaml'), '--dir', dir).status).toBe(0);
    expect(cli('study', 'add-participant', dir, '--consent-text', join(tmp, 'consent.txt')).status).toBe(0);
    out = '';
    run = spawn('node', [CLI, 'study', 'run', dir, '--virtual-table', '--bot-think', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    run.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    run.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    exited = new Promise((resolve) => run!.once('exit', (code) => resolve(code)));
    await printed('Waiting for the pre-questionnaires');
    const [, code, seat, link] = /^ {2}(\S+) in seat (\d) \(partner: \w+\): (\S+)$/m.exec(out)!;
    expect(link).toMatch(/\/questionnaire#pass=[^&]+&table=[^&]+&seat=\d$/);

    const page = await browser.newPage({ viewport: VIEWPORTS.tablet });
    await page.goto(link!);
    await page.waitForSelector('[data-name="age"] input', { timeout: WAIT });
    await page.fill('[data-name="age"] input', '40');
    await page.locator('[data-name="gender"] label:has(input[value="undisclosed"])').click();
    await page.locator('[data-name="sueca_experience"] label:has(input[value="little"])').click();
    await page.locator('[data-name="robot_experience"] label:has(input[value="few"])').click();
    await page.locator('.sd-navigation__complete-btn').click();
    // Every pre-questionnaire in: the games start and the page takes the participant to their seat.
    await printed('Every pre-questionnaire is in: the games start.');
    await page.waitForURL(/\/table$/, { timeout: WAIT });
    await expect.poll(() => page.getAttribute('#label-bottom', 'data-seat'), { timeout: WAIT }).toBe(seat);
    await expect.poll(() => page.isVisible('#questionnaire-link'), { timeout: WAIT }).toBe(true);
    await screenshot(page, 'study-virtual-table.png');

    // The operator ends the games; the table's link leads back to the questionnaires, the post one now.
    const operator = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await operator.goto(/^Operator dashboard: (\S+)$/m.exec(out)![1]!);
    await operator.waitForSelector('#study-panel:not([hidden])', { timeout: WAIT });
    await expect.poll(() => operator.isEnabled('#study-end'), { timeout: WAIT }).toBe(true);
    await operator.click('#study-end');
    await printed('the operator ended the games: the post-questionnaires.');
    await page.click('#questionnaire-link');
    await page.waitForURL(/\/questionnaire$/, { timeout: WAIT });
    await answerTrust(page, 90);
    expect(await exited).toBe(0);
    expect(out).toMatch(/Session S01 ended \(every questionnaire is in\)/);
    const post = JSON.parse(readFileSync(join(dir, 'answers', code!, 'trust14.post.json'), 'utf8')) as AnswerFile;
    expect(post.complete).toBe(true);
    run = null;
  }, 120_000);
});

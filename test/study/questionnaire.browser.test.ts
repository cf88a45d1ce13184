// A participant's questionnaires in Debian's chromium (playwright-core), served by the dashboard's
// server with a study session's desk: a scripted participant opens their one-time link on a phone,
// answers part of the trust questionnaire, reloads the page (the answers given are still there, on
// the page and in their file), finishes it and the demographics, and is told to wait; another leaves
// halfway, and their file stays incomplete with what they gave. Screenshots in test/.artifacts/.
// Waits are generous; nothing measures time.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../robot/bus/index.js';
import { QuestionnaireDesk, answerPath } from '../../robot/study/questionnaires/index.js';
import type { AnswerFile } from '../../robot/study/questionnaires/index.js';
import { DashboardServer, defaultWebRoot } from '../../robot/web/index.js';
import { VIEWPORTS, launchChromium, screenshot } from '../robot/screenshots.js';
import { CHROMIUM, WAIT } from './study-browser.js';
import { TRUST_ITEMS } from './study-fixture.js';
const dir = mkdtempSync(join(tmpdir(), 'parceiro-questionnaire-browser-'));

let browser: Browser;
let dashboard: DashboardServer;
let desk: QuestionnaireDesk;
const bus = new InProcessBus();

beforeAll(async () => {
  if (!CHROMIUM) return;
  if (!existsSync(join(defaultWebRoot(), 'questionnaire.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(import.meta.dirname, '../../robot/web/pages/vite.config.mjs') });
  }
  desk = new QuestionnaireDesk({
    studyDir: dir,
    participants: [
      { code: 'P-AAAA', seat: 2, partner: 'robot' },
      { code: 'P-BBBB', seat: 1, partner: 'human' },
    ],
    pre: ['trust14', 'demographics'],
    post: ['trust14'],
    language: 'pt',
  });
  dashboard = new DashboardServer({ bus, port: 0, utterances: new Map() });
  await dashboard.listen();
  dashboard.attachStudy({
    handle: (req, res) => desk.handle(req, res),
    join: (code) => desk.join(code),
    control: () => ({ ok: true }),
  });
  browser = await launchChromium(CHROMIUM);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fileOf = (code: string, q: string, phase: 'pre' | 'post'): AnswerFile | null => {
  const path = answerPath(dir, code, q, phase);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AnswerFile) : null;
};
const answered = (code: string, q: string): number => Object.keys(fileOf(code, q, 'pre')?.answers ?? {}).length;

/** Picks `value` of the rating question `name` as a person does: a tap on its button. */
async function rate(page: Page, name: string, value: number): Promise<void> {
  await page.locator(`[data-name="${name}"] label:has(input[value="${value}"])`).click();
}

// The trust questionnaire's items, as the shared fixture lists them.
const TRUST = TRUST_ITEMS;

describe.skipIf(!CHROMIUM)('a participant at their own device', () => {
  it('answers as they go; a reload keeps what was given; finishing moves on; pt and en', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    await page.goto(dashboard.participantLink('P-AAAA'));
    await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
    // The pass left the address at once; the trust questionnaire speaks of the robot, in Portuguese.
    expect(page.url()).not.toContain('pass=');
    await expect.poll(() => page.textContent('#survey')).toContain('este robô');
    for (const [i, name] of TRUST.slice(0, 6).entries()) await rate(page, name, (i + 3) * 10);
    await expect.poll(() => answered('P-AAAA', 'trust14'), { timeout: WAIT }).toBe(6);
    await screenshot(page, 'study-questionnaire-phone.png', { docs: true });

    await page.reload();
    await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
    // The six answers are on the page again, each where it was put.
    for (const [i, name] of TRUST.slice(0, 6).entries())
      await expect
        .poll(() => page.locator(`[data-name="${name}"] input[value="${(i + 3) * 10}"]`).isChecked(), {
          timeout: WAIT,
        })
        .toBe(true);
    expect(fileOf('P-AAAA', 'trust14', 'pre')!.complete).toBe(false);

    // In English now: the same questions, the answers kept.
    await page.click('[data-language="en"]');
    await expect.poll(() => page.textContent('#survey')).toContain('this robot');
    for (const name of TRUST.slice(6)) await rate(page, name, 50);
    await page.locator('.sd-navigation__complete-btn').click();
    await expect.poll(() => fileOf('P-AAAA', 'trust14', 'pre')?.complete, { timeout: WAIT }).toBe(true);
    const trust = fileOf('P-AAAA', 'trust14', 'pre')!;
    expect(trust.answers['reliable']).toBe(50);
    expect(trust.answers['provide_feedback']).toBe(50);
    expect(Object.keys(trust.answers)).toHaveLength(14);
    expect(trust.language).toBe('en');

    // The demographics follow: age, a gender in the participant's own words, Sueca, robots.
    await page.waitForSelector('[data-name="age"] input', { timeout: WAIT });
    await page.fill('[data-name="age"] input', '24');
    await page.locator('[data-name="gender"] label:has(input[value="other"])').click();
    await page.fill('[data-name="gender"] textarea', 'agender');
    await page.locator('[data-name="sueca_experience"] label:has(input[value="medium"])').click();
    await page.locator('[data-name="robot_experience"] label:has(input[value="seen"])').click();
    await page.locator('.sd-navigation__complete-btn').click();
    await expect.poll(() => fileOf('P-AAAA', 'demographics', 'pre')?.complete, { timeout: WAIT }).toBe(true);
    const about = fileOf('P-AAAA', 'demographics', 'pre')!;
    expect(about.answers).toMatchObject({ age: 24, gender: 'other', 'gender-Comment': 'agender' });
    await expect.poll(() => page.getAttribute('#message', 'data-key'), { timeout: WAIT }).toBe('preDone');
    await screenshot(page, 'study-questionnaire-done.png');
    await page.close();
  });

  it('leaving halfway keeps what was given, not complete; the page follows the session to the games', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.tablet });
    await page.goto(dashboard.participantLink('P-BBBB'));
    await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
    // The partner of this participant is a person: the questions speak of them.
    await expect.poll(() => page.textContent('#survey')).toContain('o seu parceiro');
    for (const name of TRUST.slice(0, 3)) await rate(page, name, 70);
    await expect.poll(() => answered('P-BBBB', 'trust14'), { timeout: WAIT }).toBe(3);
    await screenshot(page, 'study-questionnaire-tablet.png');
    const left = fileOf('P-BBBB', 'trust14', 'pre')!;
    expect(left.complete).toBe(false);
    expect(left.answers).toEqual({ function_successfully: 70, act_consistently: 70, reliable: 70 });
    const view = desk.view();
    expect(view.preDone).toBe(false);
    expect(view.participants.find((p) => p.code === 'P-BBBB')!.progress[0]).toMatchObject({
      questionnaire: 'trust14',
      phase: 'pre',
      answered: 3,
      items: 14,
      complete: false,
    });
    // Finishing is refused while a question is open: the file stays incomplete.
    const r = desk.complete('P-BBBB', 'trust14', 'pre');
    expect(r.ok).toBe(false);
    // The operator starts the games: the page says so; answering the pre-questionnaire is closed.
    desk.setStage('games');
    await expect.poll(() => page.getAttribute('#message', 'data-key'), { timeout: WAIT }).toBe('games');
    expect(desk.answer('P-BBBB', 'trust14', 'pre', 'predictable', 50)).toMatchObject({ ok: false });
    expect(fileOf('P-BBBB', 'trust14', 'pre')!.complete).toBe(false);
    // After the games, the post-questionnaire opens by itself on the same page.
    desk.setStage('post');
    await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
    expect(await page.getAttribute('#survey', 'data-phase')).toBe('post');
    await page.close();
  });

  it('a spent or unknown pass opens nothing', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    const link = dashboard.participantLink('P-AAAA');
    await page.goto(link);
    await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
    const other = await browser.newPage({ viewport: VIEWPORTS.phone });
    await other.goto(link);
    await expect.poll(() => other.textContent('#message'), { timeout: WAIT }).toMatch(/usada|used/);
    expect(await other.locator('[data-name]').count()).toBe(0);
    await page.close();
    await other.close();
  });
});

// A study session at the virtual table, in Debian's chromium (playwright-core): `parceiro study run
// --virtual-table` prints a participant's link that opens their questionnaires and, when the games
// start, their seat at the virtual table; the table's page links back to the questionnaires for the
// post one, after the operator ends the games. Screenshot in test/.artifacts/.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerFile } from '../../robot/study/questionnaires/index.js';
import { VIEWPORTS, launchChromium, screenshot } from '../robot/screenshots.js';
import { CHROMIUM, LAB_STUDY, StudyRun, WAIT, answerTrust, makeStudy } from './study-browser.js';

const tmp = mkdtempSync(join(tmpdir(), 'parceiro-study-vt-'));

let browser: Browser;
let run: StudyRun | null = null;

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await launchChromium(CHROMIUM);
}, 120_000);

afterAll(async () => {
  run?.kill();
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!CHROMIUM)('parceiro study run --virtual-table', () => {
  it('sends a participant from their questionnaires to their seat at the virtual table, and back after the games', async () => {
    const dir = await makeStudy(
      tmp,
      'vt',
      LAB_STUDY.replace('id: lab', 'id: vt')
        .replace('participantsPerSession: 3', 'participantsPerSession: 1')
        .replace('pre: [demographics, trust14]', 'pre: [demographics]'),
      1,
    );
    run = new StudyRun([dir, '--virtual-table', '--bot-think', '0']);
    const printed = (text: string | RegExp) => run!.printed(text);
    await printed('Waiting for the pre-questionnaires');
    const [, code, seat, link] = /^ {2}(\S+) in seat (\d) \(partner: \w+\): (\S+)$/m.exec(run.out)!;
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
    await operator.goto(run.dashboardLink());
    await operator.waitForSelector('#study-panel:not([hidden])', { timeout: WAIT });
    await expect.poll(() => operator.isEnabled('#study-end'), { timeout: WAIT }).toBe(true);
    await operator.click('#study-end');
    await printed('the operator ended the games: the post-questionnaires.');
    await page.click('#questionnaire-link');
    await page.waitForURL(/\/questionnaire$/, { timeout: WAIT });
    await answerTrust(page, 90);
    expect(await run.exited).toBe(0);
    expect(run.out).toMatch(/Session S01 ended \(every questionnaire is in\)/);
    const post = JSON.parse(readFileSync(join(dir, 'answers', code!, 'trust14.post.json'), 'utf8')) as AnswerFile;
    expect(post.complete).toBe(true);
    run = null;
  }, 120_000);
});

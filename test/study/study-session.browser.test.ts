// A study session as a lab runs it, with people answering in a real browser (Debian's chromium,
// playwright-core): `parceiro study run --simulated --answers people` prints a link per participant;
// one answers everything on their own device, one leaves the demographics halfway, one never opens
// theirs. The operator's study panel shows who answered what; the operator starts the games anyway
// (the override), the simulated table plays them, the page that waited opens the post-questionnaire,
// the operator notes something and ends the session. Screenshots in test/.artifacts/.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIEWPORTS, screenshot } from '../robot/screenshots.js';
import { CHROMIUM, StudyRun, WAIT, answerFile as fileIn, answerTrust, labStudyInBrowser } from './study-browser.js';

let run: StudyRun | null = null;
const lab = labStudyInBrowser('parceiro-study-session-', () => run);

const answerFile = (code: string, q: string, phase: string) => fileIn(lab.study, code, q, phase);

describe.skipIf(!CHROMIUM)('parceiro study run with people answering in the browser', () => {
  it('waits for the pre-questionnaires, the operator starts the games, the post ones follow, the operator ends it', async () => {
    const { study, browser } = lab;
    run = new StudyRun([study, '--simulated', '--answers', 'people', '--bot-think', '0']);
    const printed = (text: string | RegExp) => run!.printed(text);
    await printed('Waiting for the pre-questionnaires');
    const links = run.links();
    expect(links).toHaveLength(3);
    const dashboardLink = run.dashboardLink();

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
    expect(run.out).not.toContain('the games start');
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
    expect(await run.exited).toBe(0);
    expect(run.out).toMatch(/Session S01 ended \(the operator ended it\)/);
    expect(run.out).toContain(`not complete: ${second!.code} demographics.pre`);

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

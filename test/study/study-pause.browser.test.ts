// The operator pauses and resumes the games of a study session from the dashboard (Debian's chromium,
// the dashboard's real socket.io): the study's folder marks the session paused, then running, with the
// times (`study status` says so), the study panel shows the pause, and the export says how long the
// games were paused. The pause waits for cards on the table (read from the recording), never a timer.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecording } from '../../robot/recording/index.js';
import { VIEWPORTS, screenshot } from '../robot/screenshots.js';
import { CHROMIUM, LAB_STUDY, StudyRun, WAIT, cli, labStudyInBrowser, makeStudy } from './study-browser.js';
import { readCsv } from './study-fixture.js';

let run: StudyRun | null = null;
const lab = labStudyInBrowser('parceiro-study-pause-', () => run);

interface SessionFile {
  state: string;
  pauses?: { at: string; until?: string }[];
}
const sessionFile = (): SessionFile =>
  JSON.parse(readFileSync(join(lab.study, 'sessions', 'S01.json'), 'utf8')) as SessionFile;
/** Cards played so far in the recording being written. */
const plays = (file: string): number =>
  existsSync(file)
    ? readRecording(file).messages.filter(
        (m) => m.topic.name === '/parceiro/game/events' && (m.message as { type: string }).type === 'play',
      ).length
    : 0;

describe.skipIf(!CHROMIUM)("the operator's pause in a study session", () => {
  it('marks the session paused and running again with the times; the panel, status and export show it', async () => {
    const { study, browser, tmp } = lab;
    // Simulated players that take their time, so that the games are still on when the operator pauses.
    run = new StudyRun([study, '--simulated', '--bot-think', '250']);
    await run.printed('the games start.');
    const recording = join(study, 'sessions', 'lab-S01.mcap');
    await expect.poll(() => plays(recording), { timeout: WAIT }).toBeGreaterThanOrEqual(2);

    const operator = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await operator.goto(run.dashboardLink());
    await operator.waitForSelector('#study-panel:not([hidden])', { timeout: WAIT });
    await expect.poll(() => operator.isEnabled('#study-pause'), { timeout: WAIT }).toBe(true);
    expect(await operator.isEnabled('#study-resume')).toBe(false);

    // Pause: the study's folder says paused, since when; the panel says so; status too.
    await operator.click('#study-pause');
    await expect.poll(() => sessionFile().state, { timeout: WAIT }).toBe('paused');
    const paused = sessionFile().pauses!;
    expect(paused).toHaveLength(1);
    expect(paused[0]!.until).toBeUndefined();
    await expect.poll(() => operator.getAttribute('#study-panel', 'data-paused'), { timeout: WAIT }).toBe('true');
    expect(await operator.textContent('#study')).toMatch(/paused since \d\d:\d\d:\d\d/);
    expect(await operator.isEnabled('#study-resume')).toBe(true);
    expect(await operator.isEnabled('#study-pause')).toBe(false);
    await screenshot(operator, 'study-panel-paused.png');
    const status = await cli('study', 'status', study);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/\(0 running, 1 paused, 0 crashed/);
    expect(status.stdout).toMatch(new RegExp(`S01 paused .*paused since ${paused[0]!.at.replace(/\./g, '\\.')}`));

    // Resume: running again, the pause closed with its time.
    await operator.click('#study-resume');
    await expect.poll(() => sessionFile().state, { timeout: WAIT }).toBe('running');
    const pause = sessionFile().pauses![0]!;
    expect(pause.until).toBeDefined();
    expect(Date.parse(pause.until!)).toBeGreaterThanOrEqual(Date.parse(pause.at));
    await expect.poll(() => operator.getAttribute('#study-panel', 'data-paused'), { timeout: WAIT }).toBe('false');
    expect(await operator.textContent('#study')).toMatch(/Pauses\s*1 \(\d+ s\)/);
    const json = JSON.parse((await cli('study', 'status', study, '--json')).stdout) as {
      sessions: { list: { id: string; state: string; pauses: unknown[] }[] };
    };
    expect(json.sessions.list[0]).toMatchObject({ id: 'S01', state: 'running', pauses: [pause] });

    // The games go on to their end; the script answers the post-questionnaires; the session ends.
    expect(await run.exited).toBe(0);
    expect(run.out).toMatch(/Session S01 ended/);
    const ended = (await cli('study', 'status', study)).stdout;
    expect(ended).toMatch(/S01 ended .*paused 1 pause, [\d.]+ s/);

    // The export: the time paused, read from the recording's game state, within the games' time.
    expect((await cli('study', 'export', study, '--out', join(tmp, 'export'))).status).toBe(0);
    const [session] = readCsv(readFileSync(join(tmp, 'export', 'sessions.csv'), 'utf8'));
    expect(Number(session!.paused_s)).toBeGreaterThan(0);
    expect(Number(session!.paused_s)).toBeLessThan(Number(session!.duration_s));
    const [game] = readCsv(readFileSync(join(tmp, 'export', 'games.csv'), 'utf8'));
    expect(Number(game!.paused_s)).toBeGreaterThan(0);
    expect(Number(game!.paused_s)).toBeLessThanOrEqual(Number(session!.paused_s));
    const codebook = JSON.parse(readFileSync(join(tmp, 'export', 'codebook.json'), 'utf8')) as {
      files: Record<string, { columns: { name: string }[] }>;
    };
    expect(codebook.files['sessions.csv']!.columns.map((c) => c.name)).toContain('paused_s');
    run = null;
  }, 180_000);
  it('a run stopped while paused: resumed, the pause ends when the recording did, not at the resume', async () => {
    const { browser, tmp } = lab;
    const dir = await makeStudy(tmp, 'crash', LAB_STUDY.replace('id: lab', 'id: crash'), 3);
    run = new StudyRun([dir, '--simulated', '--bot-think', '250']);
    await run.printed('the games start.');
    const recording = join(dir, 'sessions', 'crash-S01.mcap');
    await expect.poll(() => plays(recording), { timeout: WAIT }).toBeGreaterThanOrEqual(2);
    const operator = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await operator.goto(run.dashboardLink());
    await expect.poll(() => operator.isEnabled('#study-pause'), { timeout: WAIT }).toBe(true);
    await operator.click('#study-pause');
    const file = () => JSON.parse(readFileSync(join(dir, 'sessions', 'S01.json'), 'utf8')) as SessionFile;
    await expect.poll(() => file().state, { timeout: WAIT }).toBe('paused');
    await operator.close();
    run.kill();
    await run.exited;
    expect(file().state).toBe('paused');

    const before = Date.now();
    const resumed = await cli('study', 'run', dir, '--resume', '--simulated', '--bot-think', '0');
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/Session S01 ended/);
    const [pause] = file().pauses!;
    expect(pause!.until).toBeDefined();
    expect(Date.parse(pause!.until!)).toBeGreaterThanOrEqual(Date.parse(pause!.at));
    expect(Date.parse(pause!.until!)).toBeLessThanOrEqual(before);
    expect(file().state).toBe('ended');
    run = null;
  }, 180_000);
});

// parceiro study report on a simulated study (study-fixture.ts), opened in Debian's chromium
// (playwright-core): every chart is drawn, nothing is fetched (the page works offline), and the numbers
// beneath the charts are the ones worked out here from the answers given. Screenshot in test/.artifacts/.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../launch/run-cli.js';
import { launchChromium, screenshot } from '../robot/screenshots.js';
import type { SimulatedStudy } from './study-fixture.js';
import { CODES, REVERSED, TRUST_ITEMS, simulatedStudy } from './study-fixture.js';
import { CHROMIUM } from './study-browser.js';

const root = mkdtempSync(join(tmpdir(), 'parceiro-study-report-'));
const page = join(root, 'report.html');
let browser: Browser;
let study: SimulatedStudy;
let printed = '';

beforeAll(async () => {
  if (!CHROMIUM) return;
  study = await simulatedStudy(root);
  const r = await runCli(['study', 'report', study.dir, '--out', page], root);
  expect(r.err).toBe('');
  printed = r.out;
  browser = await launchChromium(CHROMIUM);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

/** trust14's score of a participant who answered every item `v`. */
const trust = (v: number): number => TRUST_ITEMS.reduce((a, i) => a + (REVERSED.includes(i) ? 100 - v : v), 0) / 14;

describe('the study report', () => {
  it('says what it found', () => {
    expect(printed).toMatch(/report of .*studies\/lab: .*report\.html/);
    expect(printed).toMatch(/sessions won by the robot's team: \d of 2; mean victory margin/);
    expect(printed).toMatch(/trust, partner robot: before [\d.]+ \(n 2\), after [\d.]+ \(n 2\)/);
    expect(printed).toMatch(/trust, partner human: before [\d.]+ \(n 4\), after [\d.]+ \(n 3\)/);
  });

  it('draws every chart in the browser, fetches nothing, and shows the figures worked out from the answers', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    p.on('request', (r) => requests.push(r.url()));
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await p.goto(pathToFileURL(page).href);
    await p.waitForSelector('body[data-charts]');
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith('file:'))).toBe(true);
    const charts = Number(await p.getAttribute('body', 'data-charts'));
    // trust by partner and by condition, the margins, the emotions and the faces.
    expect(charts).toBe(5);
    expect(await p.locator('canvas').count()).toBe(charts);
    // Each canvas has something drawn on it (not one colour throughout).
    type Canvas = {
      width: number;
      height: number;
      getContext(k: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } };
    };
    const drawn = await p.$$eval('canvas', (cs) =>
      cs.map((el) => {
        const c = el as unknown as Canvas;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const colours = new Set<number>();
        for (let i = 0; i < d.length; i += 4 * 97) colours.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
        return colours.size;
      }),
    );
    for (const n of drawn) expect(n).toBeGreaterThan(3);
    // The robot's partners' trust before, as the table beneath the chart gives it.
    const partners = study.sessions.map((s) => s.seats['2']!);
    const expected = partners.map((c) => trust(study.answers[c]!.pre)).reduce((a, b) => a + b, 0) / partners.length;
    const row = p
      .locator('section.scale[data-scale="trust"] table')
      .first()
      .locator('tr', { hasText: 'robot as partner' });
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toBe('2');
    expect(Number(cells[1])).toBeCloseTo(expected, 1);
    // The participant who left the post questionnaire halfway has no score after.
    const human = await p
      .locator('section.scale[data-scale="trust"] table')
      .first()
      .locator('tr', { hasText: 'a person as partner' })
      .locator('td')
      .allTextContents();
    expect(human[0]).toBe('4');
    expect(human[4]).toBe(String(CODES.length - partners.length - 1));
    expect(await p.locator('#results .headline').textContent()).toContain("Sessions won by the robot's team:");
    expect(await p.locator('#behaviour h2').textContent()).toContain('2 sessions, 2 games');
    await screenshot(p, 'study-report.png', { fullPage: true, docs: true });
    await context.close();
  });
});

// The dashboard and the virtual table in Debian's chromium (playwright-core): an operator logs in with
// the token and flips each toggle (the bus shows each change); a page without the token is refused;
// a person plays a whole game at the virtual table against the robot (rule player) and two simulated
// players. Screenshots go to test/.artifacts/. Waits are generous; nothing measures time.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '../../robot/bus/index.js';
import type { BehaviourTogglesMessage } from '../../robot/bus/index.js';
import { defaultWebRoot } from '../../robot/dashboard/index.js';
import type { Composed } from './dashboard-harness.js';
import { OPERATOR_TOKEN, TABLE_TOKEN, botTable, compose } from './dashboard-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '../.artifacts');
const WAIT = 30_000;

let browser: Browser;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  if (!existsSync(join(defaultWebRoot(), 'index.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(import.meta.dirname, '../../robot/dashboard/web/vite.config.mjs') });
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  // playwright gives every launch a fresh, temporary user-data-dir of its own (it refuses the flag).
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function session(): Promise<Composed> {
  const c = await compose({ seed: 5 });
  closers.push(() => c.close());
  return c;
}

async function page(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  closers.push(() => context.close());
  const p = await context.newPage();
  p.setDefaultTimeout(WAIT);
  return p;
}

const togglesOnBus = (c: Composed): BehaviourTogglesMessage[] => c.entries.filter((e) => e.topic.name === TOPICS.toggles.name).map((e) => e.message as BehaviourTogglesMessage);

describe('in the browser', () => {
  it('an operator logs in with the token and flips each toggle; the bus shows each change', async () => {
    const c = await session();
    const p = await page();
    await p.goto(c.dashboardUrl);
    await p.fill('#token', OPERATOR_TOKEN);
    await p.click('#login button');
    await p.waitForSelector('#main:not([hidden])');
    await p.waitForSelector('#toggle-speech:checked');
    for (const key of ['speech', 'postures', 'gaze', 'partner_speech', 'opponent_speech'] as const) {
      await p.click(`#toggle-${key}`);
      await expect.poll(() => togglesOnBus(c).at(-1), { timeout: WAIT }).toMatchObject({ [key]: false, changed: [key], by: 'operator' });
      await p.waitForSelector(`#toggle-${key}:not(:checked)`);
    }
    await p.fill('#expressiveness', '0.5');
    await p.dispatchEvent('#expressiveness', 'change');
    await expect.poll(() => togglesOnBus(c).at(-1), { timeout: WAIT }).toMatchObject({ expressiveness: 0.5, changed: ['expressiveness'] });
    await p.selectOption('#language', 'en');
    await expect.poll(() => c.dashboard.snapshot().language, { timeout: WAIT }).toBe('en');
    await p.selectOption('#expr', 'happy');
    await p.click('#show-expr');
    await p.waitForSelector('#ack:text("expression: sent")');
    expect(togglesOnBus(c).at(-1)).toMatchObject({ speech: false, postures: false, gaze: false, partner_speech: false, opponent_speech: false });
  });

  it('a page without the right token is refused and shows no data', async () => {
    const c = await session();
    const p = await page();
    await p.goto(c.dashboardUrl);
    await p.fill('#token', 'wrong-token-123');
    await p.click('#login button');
    await p.waitForSelector('#login-error:text("Refused: the operator token does not match")');
    expect(await p.isHidden('#main')).toBe(true);
    expect(await p.textContent('#game')).toBe('');
    await p.screenshot({ path: join(ARTIFACTS, 'dashboard-refused.png') });
  });

  it('a person plays a whole game at the virtual table against the robot and two bots', async () => {
    const c = await session();
    // The two bots: seats 1 and 3 (the opponents); the person takes seat 2, the robot's partner.
    // (SimulatedTable hosts exactly three seats, so the two bots are botTable's.)
    const bots = await botTable(c.tableUrl, [1, 3]);
    closers.push(() => bots.close());
    const operator = await page();
    await operator.goto(`${c.dashboardUrl}/#token=${OPERATOR_TOKEN}`);
    await operator.waitForSelector('#main:not([hidden])');
    const person = await page();
    await person.goto(`${c.dashboardUrl}/table#server=${encodeURIComponent(c.tableUrl)}&token=${TABLE_TOKEN}&seat=2`);
    await person.waitForSelector('#play:not([hidden])');
    await person.click('#new-game');
    let plays = 0;
    for (;;) {
      await person.waitForSelector('body[data-status="my-turn"], body[data-status="over"]').catch(async (e: unknown) => {
        await person.screenshot({ path: join(ARTIFACTS, 'virtual-table-stuck.png') });
        throw new Error(`${String(e)}; status ${await person.getAttribute('body', 'data-status')}, prompt: ${await person.textContent('#prompt')}`);
      });
      if ((await person.getAttribute('body', 'data-status')) === 'over') break;
      // The page offers only legal cards: play the first.
      const before = await person.$$eval('#my-hand button', (bs) => bs.length);
      await person.click('#my-hand button:not([disabled])');
      await expect.poll(() => person.locator('#my-hand button').count(), { timeout: WAIT, interval: 20 }).toBeLessThan(before);
      plays++;
      if (plays === 4) {
        await operator.waitForSelector('#moves tr, #explanation:text("Played")');
        await person.screenshot({ path: join(ARTIFACTS, 'virtual-table.png') });
      }
    }
    expect(plays, JSON.stringify(c.dashboard.snapshot().events.slice(-4)) + (await person.textContent('#prompt'))).toBe(10);
    await person.waitForSelector('body[data-complete="true"]');
    const snap = c.dashboard.snapshot();
    expect(snap.game).toMatchObject({ status: 'session_over' });
    expect(snap.events.filter((e) => e.type === 'play')).toHaveLength(40);
    expect(snap.events.filter((e) => e.type === 'play' && e.seat === 2)).toHaveLength(10);
    expect(snap.connections.filter((x) => x.component === 'table' && x.connected).map((x) => x.kind).sort()).toEqual(['simulated', 'virtual']);
    await operator.waitForSelector('dd[data-field="status"]:text("session_over")');
    await operator.waitForSelector('#explanation:text("Played")');
    await operator.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    await person.screenshot({ path: join(ARTIFACTS, 'virtual-table-end.png') });
  });
});

// The dashboard and the virtual table in Debian's chromium (playwright-core): an operator logs in with
// the token and flips each toggle (the bus shows each change); a page without the token is refused;
// a person plays a whole game at the virtual table against the robot (rule player) and two simulated
// players; three people in three pages take the three free seats and play a whole game; and one
// person plays through `parceiro play` (its own startPlay: the node, with simulated players in the
// two other seats) while the operator has the robot say a line of its library. Screenshots go to
// test/.artifacts/. Waits are generous; nothing measures time.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '../../robot/bus/index.js';
import type { BehaviourTogglesMessage, WizardSayMessage } from '../../robot/bus/index.js';
import { defaultWebRoot } from '../../robot/dashboard/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import type * as Play from '../../launch/commands/play.js';
import type { Composed } from './dashboard-harness.js';
import { OPERATOR_TOKEN, TABLE_TOKEN, compose } from './dashboard-harness.js';
import { requirePrograms } from '../system-programs.js';

// The command's own code, built (the node's search runs in worker threads from dist/).
const play = (await import(new URL('../../dist/launch/commands/play.js', import.meta.url).href)) as typeof Play;

// Debian's chromium, found on PATH: without it these tests are skipped (under CI they fail).
const { chromium: CHROMIUM } = requirePrograms('chromium');
const ARTIFACTS = join(import.meta.dirname, '../.artifacts');
const WAIT = 30_000;

let browser: Browser;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
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
    const bots = new SimulatedTable({ url: c.tableUrl, token: TABLE_TOKEN, seed: 2, id: 'bots', seats: [1, 3], autoNewGame: false });
    closers.push(() => bots.close());
    await bots.start();
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

/** Plays the page's first legal card when it is its turn; resolves once the card has left its hand. */
async function playOne(p: Page): Promise<void> {
  const before = await p.locator('#my-hand button').count();
  await p.click('#my-hand button:not([disabled])');
  await expect.poll(() => p.locator('#my-hand button').count(), { timeout: WAIT, interval: 20 }).toBeLessThan(before);
}

/** Plays whichever page's turn it is until every page shows the game over; returns each page's plays. */
async function playGame(pages: Page[], deadlineMs = 120_000): Promise<number[]> {
  const plays = pages.map(() => 0);
  const until = Date.now() + deadlineMs;
  for (;;) {
    const status = await Promise.all(pages.map((p) => p.getAttribute('body', 'data-status')));
    if (status.every((x) => x === 'over')) return plays;
    const i = status.indexOf('my-turn');
    if (i >= 0) {
      await playOne(pages[i]!);
      plays[i]!++;
    } else await new Promise((r) => setTimeout(r, 25));
    if (Date.now() > until) throw new Error(`the game did not end in time; pages: ${status.join(', ')}; prompts: ${(await Promise.all(pages.map((p) => p.textContent('#prompt')))).join(' | ')}`);
  }
}

describe('people at the virtual table', () => {
  it('three people in three pages see which seats are free, take them, and play a whole game with the robot', async () => {
    const c = await session();
    const link = `${c.dashboardUrl}/table#server=${encodeURIComponent(c.tableUrl)}&token=${TABLE_TOKEN}`;
    const people = [await page(), await page(), await page()];
    for (const p of people) {
      await p.goto(link);
      await p.waitForSelector('body[data-status="watching"]');
    }
    // Each takes the seat the one before left free; the others see it taken at once.
    for (const [i, p] of people.entries()) {
      const seat = i + 1;
      await p.waitForSelector(`#seat-list button[data-take="${seat}"]:not([disabled])`);
      await p.click(`#seat-list button[data-take="${seat}"]`);
      await p.waitForSelector(`body[data-status="no-game"] >> #link:text("seat ${seat}")`);
      for (const other of people.slice(i + 1)) await other.waitForSelector(`#seat-list button[data-take="${seat}"][disabled]:text("Seat ${seat}: taken by virtual table, seat ${seat}")`);
      if (i === 0) await people[1]!.screenshot({ path: join(ARTIFACTS, 'virtual-table-seats.png') });
    }
    // Seat 1's view: its partner, seat 3, across the table; the robot, an opponent, to its left.
    expect(await people[0]!.textContent('.seat-label.top')).toBe('seat 3: virtual table, seat 3 (your partner)');
    expect(await people[0]!.textContent('.seat-label.left')).toBe('seat 0: the robot (opponent)');
    await people[1]!.click('#new-game');
    const plays = await playGame(people);
    expect(plays).toEqual([10, 10, 10]);
    await people[2]!.screenshot({ path: join(ARTIFACTS, 'virtual-table-three.png') });
    const snap = c.dashboard.snapshot();
    expect(snap.game).toMatchObject({ status: 'session_over' });
    expect(snap.events.filter((e) => e.type === 'play')).toHaveLength(40);
    // The pages that only looked while choosing a seat are gone from the list, not shown as gone.
    expect(snap.connections.filter((x) => x.component === 'table').map((x) => `${x.name}: ${x.connected}`).sort()).toEqual([
      'virtual table, seat 1: true',
      'virtual table, seat 2: true',
      'virtual table, seat 3: true',
    ]);
  });

  it('one person plays a whole game through parceiro play, and the operator has the robot say a line of its library', async () => {
    const run = await play.startPlay({ seat: 'opponent', bots: 'rule', botThink: 0, games: 1, seed: 4, budget: 150, minThink: 0, speech: 'publish', record: false, port: 0, dashboardPort: 0 });
    closers.push(() => run.close());
    expect(run.seat).toBe(1);
    expect(run.botSeats).toEqual([2, 3]);
    const said: WizardSayMessage[] = [];
    run.node.bus.subscribe('wizardSay', (m) => said.push(m));

    const person = await page();
    await person.goto(run.tableLink);
    await person.waitForSelector('body[data-status="no-game"] >> #link:text("seat 1")');
    expect(await person.textContent('.seat-label.right')).toContain('seat 2: simulated players');
    expect(await person.textContent('.seat-label.top')).toContain('seat 3: simulated players (your partner)');
    const operator = await page();
    await operator.goto(run.dashboardLink);
    await operator.waitForSelector('#main:not([hidden])');

    await person.click('#new-game');
    const [plays] = await playGame([person]);
    expect(plays).toBe(10);
    await person.waitForSelector('body[data-complete="true"]');
    await person.screenshot({ path: join(ARTIFACTS, 'virtual-table-play.png') });

    // The wizard: a category, a line, the preview with the session's words, then Say.
    await operator.selectOption('#say-category', 'session.end.win');
    await operator.selectOption('#say-line', 'session.end.win#1');
    await operator.waitForSelector('#say-preview:text("session.end.win#1, to all")');
    const preview = await operator.textContent('#say-preview');
    await operator.click('#say');
    await operator.waitForSelector('#ack:text("say: sent")');
    await expect.poll(() => said.length, { timeout: WAIT }).toBe(1);
    expect(said[0]).toMatchObject({ utterance_id: 'session.end.win#1', target: 'all', language: 'pt', by: 'operator' });
    expect(preview).toContain(said[0]!.text);
    expect(said[0]!.text).toMatch(/^Acabou! Ganhámos a partida, \d+ a \d+\.$/);
    await operator.waitForSelector(`#events li:text("say \\"${said[0]!.text}\\" (session.end.win#1)")`);
    // The robot says it (the publish backend: start, then end) and every dashboard lists it.
    await operator.waitForSelector(`#utterances li:text("start: \\"${said[0]!.text}\\" to all [operator")`);
    await operator.screenshot({ path: join(ARTIFACTS, 'dashboard-wizard.png'), fullPage: true });
    const summary = await run.close();
    expect(summary.score.games).toBe(1);
  });
});

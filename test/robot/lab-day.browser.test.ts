// The dashboard's "Sessions today" panel in Debian's chromium (playwright-core), on a node serving
// session after session: a table plays a session and starts the next with its new-game; the panel
// lists both, the second marked current; once it is over the operator starts a third with the
// panel's button, which is offered only then. A person at the virtual table sees the session-over
// text and may press "New game" to start the next one. Screenshot in test/.artifacts/. Waits are
// generous; nothing measures time.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { defaultWebRoot } from '../../robot/web/index.js';
import type { SessionOptions } from '../../robot/index.js';
import { requirePrograms } from '../system-programs.js';
import { launchChromium } from './screenshots.js';
import { DayTable } from './day-table.js';
import { robot } from './replay-harness.js';

const { chromium: CHROMIUM } = requirePrograms('chromium');
const ARTIFACTS = join(import.meta.dirname, '../.artifacts');
const WAIT = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-lab-day-browser-'));

let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) return;
  if (!existsSync(join(defaultWebRoot(), 'index.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(import.meta.dirname, '../../robot/web/pages/vite.config.mjs') });
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium(CHROMIUM);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const session = (seed: number): SessionOptions => ({
  seed,
  games: 1,
  sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed }) },
  minThinkMs: 50,
  expectationBudgetMs: 0,
  speech: 'log',
  recordingsDir: dir,
});

describe('in the browser', () => {
  it("the operator sees the day's sessions, the current one marked, and starts the next one once the session is over", async () => {
    const operatorToken = 'lab-day-operator-browser';
    const token = 'lab-day-table-browser';
    const node = await robot.ParceiroNode.start({
      ...session(500),
      table: { host: '127.0.0.1', port: 0, token },
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: { port: 0, token: operatorToken },
    });
    // Each session finished as soon as it is over: the questions after a session have their own test (lab-day.test.ts).
    const day = new robot.LabDay(node, { answerForMs: 0, session: (k) => session(500 + k - 1) });
    const table = new DayTable({ url: node.url, token, nextSessions: 1 });
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    try {
      const p = await context.newPage();
      p.setDefaultTimeout(WAIT);
      await p.goto(`${node.dashboard!.url}/#token=${operatorToken}`);
      await p.waitForSelector('#sessions tr[data-session][data-status="running"]');
      expect(await p.isDisabled('#next-session')).toBe(true);
      await table.start();
      // Session 1 played, session 2 started by the table's new-game and played.
      await expect.poll(() => p.locator('#sessions tr[data-status="finished"]').count(), { timeout: WAIT * 3 }).toBe(2);
      const rows = await p.$$eval('#sessions tr[data-session]', (trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute('data-session'),
          current: tr.classList.contains('current'),
          text: tr.textContent,
        })),
      );
      expect(rows.map((r) => r.id)).toEqual(node.sessions().map((r) => r.id));
      expect(rows.map((r) => r.current)).toEqual([false, true]);
      expect(rows[1]!.text).toMatch(/now.*1 of 1.*A \d - B \d.*finished.*\.mcap/);
      // The session is over: the button starts the next one.
      await p.waitForSelector('#next-session:not([disabled])');
      await p.locator('#sessions-panel').scrollIntoViewIfNeeded();
      await p.screenshot({ path: join(ARTIFACTS, 'dashboard-sessions.png') });
      await p.locator('#sessions-panel').screenshot({ path: join(ARTIFACTS, 'dashboard-sessions-panel.png') });
      await p.click('#next-session');
      await p.waitForSelector('#ack:text("next-session: sent")');
      await expect.poll(() => p.locator('#sessions tr[data-session]').count(), { timeout: WAIT }).toBe(3);
      await p.waitForSelector(
        '#sessions tr.current[data-status="running"], #sessions tr.current[data-status="finished"]',
      );
      expect(day.count).toBe(3);

      // A person at the virtual table, once the third session is over: the text says a new game starts
      // the next session, and "New game" does.
      await p.waitForSelector('#sessions tr.current[data-status="finished"]');
      const person = await context.newPage();
      person.setDefaultTimeout(WAIT);
      table.close();
      await p.waitForSelector('[data-connection="table:day-table"].off');
      await person.goto(`${node.dashboard!.url}/table#server=${encodeURIComponent(node.url)}&token=${token}&seat=2`);
      await person.waitForSelector('body[data-complete="true"]');
      await person.waitForSelector('#new-game:not([disabled])');
      await person.click('#new-game');
      await expect.poll(() => p.locator('#sessions tr[data-session]').count(), { timeout: WAIT }).toBe(4);
      await person.waitForSelector('body[data-complete="false"]');
      expect(day.count).toBe(4);
    } finally {
      table.close();
      await context.close();
      await day.stop();
    }
  }, 300_000);
});

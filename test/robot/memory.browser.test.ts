// The dashboard's Memory panel in Debian's chromium (playwright-core): a one-game session of the node
// at level beginner (its own player on the worker pool, a simulated table in the three other seats);
// the operator's panel shows the 40 cards by suit with the played cards the robot forgot at its last
// decision highlighted, and lists them in words, as the last /parceiro/memory message says. The robot's
// cards depend on its search's time budget, so the panel is checked against the bus, not fixed cards.
// Nothing waits on the clock: the session is waited on to its end, the page on its selectors.

import { describe, expect, it } from 'vitest';
import type { MemoryMessage } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { requirePrograms } from '../system-programs.js';
import { robot } from './replay-harness.js';
import { chromiumForFile, openPage, RAW_CARD_OR_SEAT, screenshot, VIEWPORTS } from './screenshots.js';

declare const document: { getElementById(id: string): { scrollIntoView(): void } | null };

const { chromium: CHROMIUM } = requirePrograms('chromium');

const { browser } = chromiumForFile(CHROMIUM);

describe.skipIf(!CHROMIUM)('the Memory panel', () => {
  it('shows the cards the robot forgot at level beginner, highlighted in the grid and named in words', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 12,
      table: { host: '127.0.0.1', port: 0, token: 'memory-browser' },
      games: 1,
      sessionId: 'memory-browser',
      level: 'beginner',
      budgetMs: 150,
      minThinkMs: 0,
      speech: 'publish',
      recordingsDir: null,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: { port: 0 },
    });
    const memory: MemoryMessage[] = [];
    node.bus.subscribe('memory', (m) => memory.push(m));
    const table = new SimulatedTable({ url: node.url, token: 'memory-browser', seed: 8 });
    try {
      await table.start();
      await node.finished();
    } finally {
      table.close();
    }
    try {
      const last = memory.at(-1)!;
      expect(last.forgotten.length).toBeGreaterThan(0);
      const page = await openPage(browser(), VIEWPORTS.desktop);
      await page.goto(`${node.dashboard!.url}/#token=${node.dashboard!.token}`);
      await page.waitForSelector('#main:not([hidden])');
      await page.waitForSelector('#memory[data-level="beginner"] .memory-grid');
      // Forty cards; the forgotten ones are exactly the last recall's.
      expect(await page.locator('#memory .memory-card').count()).toBe(40);
      const forgotten = await page
        .locator('#memory .memory-grid .memory-card.forgotten')
        .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { card: string } }).dataset.card));
      expect([...forgotten].sort()).toEqual([...last.forgotten].sort());
      const remembered = await page.locator('#memory .memory-grid .memory-card.remembered').count();
      expect(remembered).toBe(last.recalled.filter(Boolean).length);
      expect(await page.textContent('#memory .memory-summary')).toBe(
        `Level beginner, at its decision in trick ${last.trick + 1}: it recalled ${last.played.length - last.forgotten.length} of the ${last.played.length} cards played before that trick and forgot ${last.forgotten.length}.`,
      );
      // The forgotten in words: which card, who played it, in which trick.
      const items = await page.locator('#memory .memory-forgotten li').allInnerTexts();
      expect(items).toHaveLength(last.forgotten.length);
      for (const item of items)
        expect(item).toMatch(
          / the (two|three|four|five|six|queen|jack|king|seven|ace) of (spades|hearts|diamonds|clubs), played by (the robot|the partner|the opponent on the (left|right)) in trick \d+$/,
        );
      expect(await page.innerText('#memory-panel')).not.toMatch(RAW_CARD_OR_SEAT);
      await page.evaluate(() => document.getElementById('memory-panel')!.scrollIntoView());
      await screenshot(page, 'dashboard-memory.png', { docs: true });
      await page.context().close();
    } finally {
      await node.close();
    }
  }, 120_000);
});

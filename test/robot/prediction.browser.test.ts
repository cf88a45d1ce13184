// The dashboard's Prediction panel in Debian's chromium (playwright-core): a one-game session of the
// node with its predictions of the other seats' cards; once the session is over the panel shows the
// last prediction as the bus said it: the seat's likely cards in words with bars, the card it played,
// the chance the robot gave it and the surprise. The cards depend on the robot's search's time
// budget, so the panel is checked against the bus, not fixed cards. Nothing waits on the clock.

import { describe, expect, it } from 'vitest';
import type { PredictionMessage } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { requirePrograms } from '../system-programs.js';
import { robot } from './replay-harness.js';
import { chromiumForFile, openPage, RAW_CARD_OR_SEAT, screenshot, VIEWPORTS } from './screenshots.js';

declare const document: { getElementById(id: string): { scrollIntoView(): void } | null };

const { chromium: CHROMIUM } = requirePrograms('chromium');

const { browser } = chromiumForFile(CHROMIUM);

describe.skipIf(!CHROMIUM)('the Prediction panel', () => {
  it("shows the last prediction of another seat's card: the likely cards with bars, the card played and the surprise", async () => {
    const node = await robot.ParceiroNode.start({
      seed: 31,
      table: { host: '127.0.0.1', port: 0, token: 'prediction-browser' },
      games: 1,
      sessionId: 'prediction-browser',
      budgetMs: 150,
      minThinkMs: 0,
      speech: 'publish',
      recordingsDir: null,
      prediction: { model: 'expert', top: 5 },
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: { port: 0 },
    });
    const predictions: PredictionMessage[] = [];
    node.bus.subscribe('prediction', (m) => predictions.push(m));
    const table = new SimulatedTable({ url: node.url, token: 'prediction-browser', seed: 9 });
    try {
      await table.start();
      await node.finished();
    } finally {
      table.close();
    }
    try {
      const last = predictions.at(-1)!;
      expect(last.phase).toBe('played');
      const page = await openPage(browser(), VIEWPORTS.desktop);
      await page.goto(`${node.dashboard!.url}/#token=${node.dashboard!.token}`);
      await page.waitForSelector('#main:not([hidden])');
      await page.waitForSelector('#prediction[data-phase="played"] .prediction-table');
      expect(await page.getAttribute('#prediction', 'data-seat')).toBe(String(last.seat));
      expect(Number(await page.getAttribute('#prediction', 'data-surprise'))).toBe(last.surprise);
      // The likely cards, most likely first, each with a bar (the card played beneath them when it was not one).
      const shown = await page
        .locator('#prediction .prediction-table tr')
        .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { card: string } }).dataset.card));
      expect(shown).toEqual(last.cards.includes(last.played) ? last.cards : [...last.cards, last.played]);
      expect(await page.locator('#prediction .prediction-table .bar').count()).toBe(shown.length);
      expect(await page.locator('#prediction tr.played').getAttribute('data-card')).toBe(last.played);
      const text = await page.innerText('#prediction-panel');
      expect(text).toMatch(
        /^Prediction\s+The (partner|opponent on the (left|right)) played the (two|three|four|five|six|queen|jack|king|seven|ace) of (spades|hearts|diamonds|clubs)/i,
      );
      expect(text).toContain(`surprise ${last.surprise.toFixed(2)}`);
      expect(text).toMatch(/\b(As expected|A little surprised|Surprised): surprise /);
      expect(text).toContain(`Game 1, trick ${last.trick + 1}; model: a good player's choices;`);
      expect(text).not.toMatch(RAW_CARD_OR_SEAT);
      // A surprising card of the session, put on the bus again: the panel shows it as it came.
      const surprising = predictions
        .filter((m) => m.phase === 'played' && m.possible >= 3)
        .sort((x, y) => y.surprise - x.surprise)[0]!;
      expect(surprising.surprise).toBeGreaterThan(0.5);
      node.bus.publish('prediction', surprising);
      await page.waitForSelector(
        `#prediction[data-phase="played"][data-surprise="${surprising.surprise}"][data-seat="${surprising.seat}"]`,
      );
      expect(await page.locator('#prediction tr.played').getAttribute('data-card')).toBe(surprising.played);
      expect(await page.innerText('#prediction-panel')).toMatch(/(A little surprised|Surprised): surprise /);
      await page.evaluate(() => document.getElementById('prediction-panel')!.scrollIntoView());
      await screenshot(page, 'dashboard-prediction.png', { docs: true });
      await page.context().close();
    } finally {
      await node.close();
    }
  }, 120_000);
});

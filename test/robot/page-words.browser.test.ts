// One moment, as the two pages say it (playthrough 3's problems 3, 5 and 6), in Debian's chromium: the
// bus carries the robot's emotions, face and lines as the node publishes them (the behaviours are not
// running: nothing else speaks or changes the face), the virtual table gets them through the node's
// own forwarding, and the operator's dashboard from the bus. Checked: the same feeling named on both
// pages, and the first of the dashboard's list; a line to one opponent named as that opponent, one
// to both as "the opponents"; the review asked at the table not credited to the operator; no raw ids,
// no overflow. Waits are generous; nothing measures time.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBehaviourSetup } from '../../behaviours/index.js';
import type { EmotionalStateMessage, UtteranceMessage } from '../../robot/bus/index.js';
import { defaultWebRoot } from '../../robot/web/index.js';
import { forwardBehaviour } from '../../robot/live/node/table-behaviour.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { OPERATOR_TOKEN, TABLE_TOKEN, compose } from './dashboard-harness.js';
import { launchChromium, screenshot, VIEWPORTS } from './screenshots.js';
import { requirePrograms } from '../system-programs.js';

const { chromium: CHROMIUM } = requirePrograms('chromium');
const WAIT = 30_000;
/** Ids as the bus and the library write them: snake_case, or dotted (asked.review); and line ids (review#1). */
const RAW_ID = /\b[a-z]+_[a-z_]+\b|\b[a-z]+(\.[a-z-]+)+\b|#\d/;

let browser: Browser;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  if (!CHROMIUM) return;
  if (!existsSync(join(defaultWebRoot(), 'index.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(import.meta.dirname, '../../robot/web/pages/vite.config.mjs') });
  }
  browser = await launchChromium(CHROMIUM);
}, 120_000);
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
afterAll(async () => {
  await browser?.close();
});

async function page(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  closers.push(() => context.close());
  const p = await context.newPage();
  p.setDefaultTimeout(WAIT);
  return p;
}

const line = (o: Partial<UtteranceMessage> & { id: string; text: string }): UtteranceMessage => ({
  phase: 'start',
  category: 'play.good',
  language: 'en',
  target: 'opponent',
  addressee: 3,
  audience: '',
  backend: 'log',
  reason: '',
  event: 'trick',
  about_seat: -1,
  moment: 10,
  emotion: '',
  due_in_ms: -1,
  ...o,
});

const noOverflow = async (p: Page): Promise<void> =>
  expect(await p.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);

describe.skipIf(!CHROMIUM)('one moment on the virtual table and the dashboard', () => {
  it('the same feeling named on both pages, each line to whom it means, the review asked at the table as such', async () => {
    const c = await compose({ seed: 5 });
    closers.push(() => c.close());
    // The node's forwarding of the robot's behaviour to the tables (the robot in seat 0).
    const geometry = loadBehaviourSetup().table;
    closers.push(forwardBehaviour(c.bus, c.tables, { robotSeat: 0, geometry, now: () => Date.now() }));
    const bots = new SimulatedTable({
      url: c.tableUrl,
      token: TABLE_TOKEN,
      seed: 2,
      id: 'bots',
      seats: [1, 3],
      autoNewGame: false,
    });
    closers.push(() => bots.close());
    await bots.start();
    const operator = await page(VIEWPORTS.desktop);
    await operator.goto(`${c.dashboardUrl}/#token=${OPERATOR_TOKEN}`);
    await operator.waitForSelector('#main:not([hidden])');
    // The person is the robot's partner (seat 2), on a phone: seat 3 is on their right, the robot's left.
    const person = await page(VIEWPORTS.phone);
    await person.goto(`${c.dashboardUrl}/table#server=${encodeURIComponent(c.tableUrl)}&token=${TABLE_TOKEN}&seat=2`);
    await person.waitForSelector('#play:not([hidden])');
    await person.click('#new-game');
    await person.waitForSelector('body[data-status="my-turn"], body[data-status="waiting"]');
    await operator.waitForSelector('dd[data-field="status"][data-value="playing"]');
    c.bus.publish('language', { language: 'en', by: 'test' });

    // S2 04:39:55: a surprised face; distress and resentment the strongest (the dashboard said "feels
    // admiration", its mood line "strongest felt: distress"; the table, "is surprised").
    const emotions: EmotionalStateMessage = {
      emotions: [
        { type: 'resentment', intensity: 6.1, target: 1, target_team: '' },
        { type: 'distress', intensity: 6.1, target: -1, target_team: '' },
        { type: 'satisfaction', intensity: 5.1, target: -1, target_team: '' },
        { type: 'joy', intensity: 3.9, target: -1, target_team: '' },
        { type: 'gratitude', intensity: 3.1, target: 2, target_team: '' },
        { type: 'admiration', intensity: 3.1, target: 2, target_team: '' },
        { type: 'pride', intensity: 2, target: 0, target_team: '' },
      ],
      mood: 3.5,
      strongest: 'resentment',
      at_ms: Date.now(),
    };
    c.bus.publish('emotions', emotions);
    const stamp = { sec: Math.floor(Date.now() / 1000), nanosec: 0 };
    c.bus.publish('expression', {
      header: { stamp, frame_id: '' },
      expression: 'surprised',
      valence: 0.3,
      arousal: 0.8,
      confidence: 1,
    });
    await person.waitForSelector('#robot[data-expression="surprised"] #feeling[data-panel="mixed"]');
    await operator.waitForSelector('#feels[data-panel="mixed"]');
    expect(await person.innerText('#feeling')).toMatch(/^is surprised; most of all feels distress · in a good mood/);
    expect(await operator.textContent('#feels')).toBe('The robot is surprised; most of all feels distress.');
    expect(await operator.textContent('#mood')).toContain('strongest felt: distress.');
    expect(await operator.getAttribute('#emotions .emotion', 'data-emotion')).toBe('distress');
    expect(await person.getAttribute('#feeling', 'data-emotion')).toBe('distress');

    // Playthrough 4, the pause: every feeling under the panel's minimum, the face at rest. "The robot is
    // calm." stood above "strongest felt: distress" (1.4): the mood line names no feeling then.
    c.bus.publish('expression', {
      header: { stamp, frame_id: '' },
      expression: 'neutral',
      valence: 0,
      arousal: 0,
      confidence: 1,
    });
    c.bus.publish('emotions', {
      ...emotions,
      emotions: [{ type: 'distress', intensity: 1.4, target: -1, target_team: '' }],
      strongest: 'distress',
      at_ms: Date.now(),
    });
    await operator.waitForSelector('#feels[data-panel="calm"]');
    expect(await operator.textContent('#feels')).toBe('The robot is calm.');
    expect(await operator.textContent('#mood')).not.toContain('strongest felt');

    // A line to one opponent, named as each page names seats; a line to both, "the opponents".
    const say = async (m: UtteranceMessage, table: string, dashboard: string): Promise<void> => {
      c.bus.publish('utterance', m);
      await person.waitForSelector(`#bubble[data-id="${m.id}"]`);
      expect(await person.textContent('#bubble-to'), m.text).toBe(table);
      const said = operator.locator(`#utterances li[data-line="${m.id}"] .what`);
      await said.waitFor();
      expect(await said.textContent(), m.text).toContain(`"${m.text}" to ${dashboard}`);
      c.bus.publish('utterance', { ...m, phase: 'end' });
    };
    await say(
      line({ id: 'trick.end.theirs#3', text: "You're on fire today.", audience: 'one' }),
      'to the opponent on your right:',
      'the opponent on the left',
    );
    await screenshot(person, 'page-words-table-one.png');
    await say(
      line({ id: 'session.start#4', text: 'Get ready: no chance for you today!', audience: 'both' }),
      'to the opponents:',
      'the opponents',
    );
    // The review asked at the partner's table: the partner asked, not the operator.
    const review = line({
      id: 'review#1',
      category: 'asked.review',
      text: 'With the cards face up we were worth 70; we made 77.',
      target: 'all',
      addressee: -1,
      event: 'operator',
      about_seat: 2,
      moment: -1,
    });
    await say(review, '', 'everyone');
    const tag = await operator.textContent('#utterances li[data-line="review#1"] .tagline');
    expect(tag).toBe("The game's review, asked at the table by the partner");
    expect(await operator.innerText('#speech-panel')).not.toContain("operator's words");

    for (const [p, areas] of [
      [person, ['#robot']],
      [operator, ['#speech-panel', '#emotion-panel']],
    ] as const) {
      for (const area of areas) {
        const text = await p.innerText(area);
        expect(text.match(RAW_ID)?.[0], `${area}: ${text}`).toBeUndefined();
      }
      await noOverflow(p);
    }
    await screenshot(person, 'page-words-table.png');
    await screenshot(operator, 'page-words-dashboard.png', { fullPage: true });
  }, 120_000);
});

// The end-of-game review in Debian's chromium (playwright-core): a person plays a whole game at the
// virtual table through `parceiro play` (the real node: its review on a worker thread at the game's
// end, on /parceiro/review), presses "Como correu o jogo?" and the robot's bubble tells the review;
// the operator's dashboard shows the review panel (what the game was worth with all cards in view and
// how it ended, each moment in words, the chart of the value along the game) and "Say the review"
// has the robot say it (its line on the bus). At desktop, tablet and phone sizes the page does not
// scroll sideways. The robot's cards depend on its search's time budget, so the review is read from
// the bus and the pages are checked against it, not against fixed words. Nothing waits on the clock.

import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBehaviourSetup, reviewText } from '../../behaviours/index.js';
import type { Seat } from '../../game/index.js';
import type { GameReviewMessage, UtteranceMessage } from '../../robot/bus/index.js';
import { reviewWords } from '../../robot/web/index.js';
import { reviewOfMessage } from '../../robot/live/session/index.js';
import type * as Play from '../../launch/commands/play.js';
import { requirePrograms } from '../system-programs.js';
import { launchChromium, RAW_CARD_OR_SEAT, screenshot, VIEWPORTS } from './screenshots.js';

// The command's own code, built (the node's search and review run in worker threads from dist/).
const play = (await import(new URL('../../dist/launch/commands/play.js', import.meta.url).href)) as typeof Play;

// The page's globals as the functions passed to the browser use them (this file compiles without the DOM library).
declare const document: {
  documentElement: { scrollWidth: number };
  getElementById(
    id: string,
  ): { textContent: string | null; getBoundingClientRect(): { right: number }; scrollIntoView(): void } | null;
};
declare const innerWidth: number;
declare function scrollBy(x: number, y: number): void;

const { chromium: CHROMIUM } = requirePrograms('chromium');
const WAIT = 30_000;

let browser: Browser;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await launchChromium(CHROMIUM);
}, 120_000);

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

afterAll(async () => {
  await browser?.close();
});

/** No voice here: the page's speechSynthesis is a silent stand-in. */
const NO_VOICE = (): void => {
  Object.defineProperty(globalThis, 'speechSynthesis', {
    configurable: true,
    value: { speak: () => {}, cancel: () => {}, getVoices: () => [], speaking: false, pending: false },
  });
};

async function open(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'pt-PT' });
  closers.push(() => context.close());
  await context.addInitScript(NO_VOICE);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  return page;
}

/** Plays the page's game to its end, the first legal card each turn; returns the cards played. */
async function playGame(p: Page): Promise<number> {
  let plays = 0;
  for (;;) {
    await p.waitForSelector('body[data-status="my-turn"], body[data-status="over"]');
    if ((await p.getAttribute('body', 'data-status')) === 'over') return plays;
    const before = await p.locator('#my-hand button').count();
    await p.click('#my-hand button:not([disabled])');
    await expect.poll(() => p.locator('#my-hand button').count(), { timeout: WAIT, interval: 20 }).toBeLessThan(before);
    plays++;
  }
}

describe.skipIf(!CHROMIUM)('the end-of-game review', () => {
  it('a person asks "Como correu o jogo?" at the end; the operator reads the review panel and has the robot say it', async () => {
    const run = await play.startPlay({
      seat: 'partner',
      bots: 'rule',
      botThink: 0,
      games: 2,
      seed: 11,
      budget: 80,
      minThink: 0,
      speech: 'publish',
      record: false,
      port: 0,
      dashboardPort: 0,
    });
    closers.push(() => run.close());
    const reviews: GameReviewMessage[] = [];
    run.node.bus.subscribe('review', (m) => reviews.push(m));
    const lines: UtteranceMessage[] = [];
    run.node.bus.subscribe('utterance', (m) => lines.push(m));
    let robotSeat = -1;
    run.node.bus.subscribe('gameState', (m) => void (robotSeat = m.robot_seat));
    // The person's table hosts one seat: the robot tells the review to that person.
    let personSeat: Seat | null = null;
    run.node.bus.subscribe('tableEvents', (m) => {
      if (m.kind === 'hello' && m.seats.length === 1) personSeat = m.seats[0] as Seat;
    });

    const person = await open(VIEWPORTS.desktop);
    await person.goto(run.tableLink);
    await person.waitForSelector('body[data-status="no-game"]');
    const operator = await open(VIEWPORTS.desktop);
    await operator.goto(run.dashboardLink);
    await operator.waitForSelector('#main:not([hidden])');
    await operator.waitForSelector('#review[data-status="none"]');
    expect(await operator.isDisabled('#say-review')).toBe(true);

    await person.click('#new-game');
    await person.waitForSelector('body[data-status="my-turn"], body[data-status="waiting"]');
    // Before any game of the session has ended there is nothing to look back on.
    expect(await person.textContent('#ask-review')).toBe('Como correu o jogo?');
    expect(await person.isDisabled('#ask-review')).toBe(true);
    expect(await playGame(person)).toBe(10);
    await person.waitForSelector('#result:not([hidden])');
    await person.waitForSelector('#ask-review:not([disabled])');

    // The node looks back on the game on a worker thread; the review goes out on the bus.
    await expect.poll(() => reviews.length, { timeout: WAIT }).toBe(1);
    const review = reviews[0]!;
    expect(review).toMatchObject({ game: 0, status: 'reviewed' });
    expect(review.values).toHaveLength(41);
    const pt = reviewText(
      loadBehaviourSetup({ language: 'pt' }).utterances,
      reviewOfMessage(review)!,
      robotSeat as Seat,
      personSeat,
    )!;
    expect(personSeat).not.toBeNull();
    expect(pt).toMatch(/^Com as cartas à vista/);

    // The person asks; the robot tells it in its bubble (game:control review, answered as a line).
    await person.click('#ask-review');
    await person.waitForFunction((text) => document.getElementById('bubble')!.textContent === text, pt);
    await screenshot(person, 'virtual-table-review.png', { docs: true });
    await expect
      .poll(() => lines.filter((l) => l.id.startsWith('review#') && l.phase === 'start').map((l) => l.text), {
        timeout: WAIT,
      })
      .toEqual([pt]);

    // The operator's panel: the game's worth and end for the robot's team, the moments in words, the chart.
    const words = reviewWords(review, robotSeat);
    await operator.waitForSelector('#review[data-status="reviewed"][data-game="0"]');
    const rows = await operator.locator('#review .review-rows dd').allTextContents();
    expect(rows).toEqual(words.rows.map(([, v]) => v));
    expect(rows[0]).toMatch(/^\d+ points: (won, \d victor(y|ies)|a draw|lost, \d victor(y|ies) to the opponents)$/);
    expect(await operator.textContent('#review .verdict')).toBe(words.verdict);
    const moments = await operator.locator('#review .review-moments li').allTextContents();
    expect(moments).toEqual(words.moments.map((m) => `${m.text}${m.turned ? 'changed the result' : ''}`));
    for (const m of moments)
      expect(m).toMatch(
        /^Trick \d+: (the robot|the partner|the opponent on the (left|right)) played the \w+ of \w+; the \w+ of \w+ would have kept \d+ points? for (the robot's team|the opponents)\./,
      );
    expect(await operator.locator('#review .review-moments li[data-turned="true"] .tag').count()).toBe(
      words.moments.filter((m) => m.turned).length,
    );
    if (!moments.length) expect(await operator.textContent('#review')).toContain(words.noMoments);
    expect(await operator.innerText('#review-panel')).not.toMatch(RAW_CARD_OR_SEAT);
    // The chart: the value for the robot's team along the 40 cards, the 60-point line, one mark per moment.
    expect(await operator.locator('#review svg.review-chart polyline.value').getAttribute('points')).toMatch(
      /^(\S+,\S+ ){40}\S+,\S+$/,
    );
    expect(await operator.locator('#review svg.review-chart .grid.sixty').count()).toBe(1);
    expect(await operator.locator('#review svg.review-chart g.moment').count()).toBe(review.moments.length);

    // "Say the review": the server builds the words in the session's language; the robot says them.
    await operator.click('#say-review');
    await operator.waitForSelector('#review-ack:text("sent: the robot says it")');
    // It waits its turn behind the review the table asked for, a long line, and the next game's lines:
    // a backstop of its own, not a measure of speed (in one full-suite run it took over 30 s).
    await expect
      .poll(() => lines.filter((l) => l.id === 'operator-review#1').map((l) => l.phase), { timeout: 3 * WAIT })
      .toContain('start');
    // The operator's is said to the whole table, from the robot's side ("o meu parceiro").
    const toAll = reviewText(
      loadBehaviourSetup({ language: 'pt' }).utterances,
      reviewOfMessage(review)!,
      robotSeat as Seat,
    )!;
    expect(lines.find((l) => l.id === 'operator-review#1' && l.phase === 'start')).toMatchObject({
      category: 'operator',
      text: toAll,
      target: 'all',
      language: 'pt',
    });
    await operator.waitForSelector('#utterances li[data-line="operator-review#1"]');

    // It fits: no sideways scrolling and the panel within the page, at each size; pictures at desktop and phone.
    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await operator.setViewportSize(size);
      await operator.waitForFunction((w) => innerWidth === w, size.width);
      const fit = await operator.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        right: document.getElementById('review-panel')!.getBoundingClientRect().right,
        width: innerWidth,
      }));
      expect(fit.scroll, `${name}: horizontal overflow`).toBeLessThanOrEqual(fit.width);
      expect(fit.right, `${name}: the review panel past the right edge`).toBeLessThanOrEqual(fit.width + 0.5);
      if (name === 'tablet') continue;
      await operator.evaluate(() => {
        document.getElementById('review-panel')!.scrollIntoView();
        scrollBy(0, -12);
      });
      await screenshot(operator, name === 'desktop' ? 'dashboard-review.png' : 'dashboard-review-phone.png', {
        docs: true,
      });
    }
  }, 180_000);
});

// The dashboard and the virtual table in Debian's chromium (playwright-core): an operator logs in with
// the token and flips each toggle (the bus shows each change); a page without the token is refused;
// a person plays a whole game at the virtual table against the robot (rule player) and two simulated
// players; three people in three pages take the three free seats and play a whole game; and one
// person plays through `parceiro play` (its own startPlay: the node, with simulated players in the
// two other seats) while the operator has the robot say a line of its library. The operator's view
// (it must work on a phone or tablet too): mid-session at phone, tablet and desktop sizes, no
// horizontal overflow and no empty grid column, the speech queue (a line waiting, one dropped with its
// reason), no raw ids, the same fixed emotion colours on every page; closed table pages do not pile up;
// a physical deal's hand reading as progress; the favicon. Screenshots go to test/.artifacts/ (and
// docs/screenshots/ with PARCEIRO_SCREENSHOTS=docs). Waits are generous; nothing measures time.

import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect as vitestExpect, it as vitestIt } from 'vitest';
import type { ExpectStatic } from 'vitest';
import { TOPICS } from '../../robot/bus/index.js';
import type {
  BehaviourTogglesMessage,
  GameStateMessage,
  UtteranceMessage,
  WizardSayMessage,
} from '../../robot/bus/index.js';
import { defaultWebRoot } from '../../robot/web/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import type * as Play from '../../launch/commands/play.js';
import type { Composed } from './dashboard-harness.js';
import { OPERATOR_TOKEN, TABLE_TOKEN, compose } from './dashboard-harness.js';
import { emotionColour } from '../../robot/web/pages/words.js';
import { launchChromium, screenshot, VIEWPORTS } from './screenshots.js';
import { requirePrograms } from '../system-programs.js';

// The command's own code, built (the node's search runs in worker threads from dist/).
const play = (await import(new URL('../../dist/launch/commands/play.js', import.meta.url).href)) as typeof Play;

// Debian's chromium, found on PATH: without it these tests are skipped (under CI they fail).
const { chromium: CHROMIUM } = requirePrograms('chromium');
const WAIT = 30_000;
/** A test's backstop (the tests run at once on a loaded machine): nothing measures time. */
const BACKSTOP_MS = 180_000;

let browser: Browser;
/**
 * The tests run at once (each its own session, ports and browser context, and mostly waiting on the
 * pages' pace: a trick is held on the table for two seconds): what a test opened is closed when it
 * ends, from its own list (kept with the test's async context).
 */
const opened = new AsyncLocalStorage<{ closers: (() => unknown)[]; expect: ExpectStatic }>();
const closers = { push: (c: () => unknown): void => void opened.getStore()!.closers.push(c) };
/** The running test's own `expect` (expect.poll needs it when tests run at once), vitest's outside a test. */
const expect = new Proxy(vitestExpect, {
  apply: (_, self, args) => Reflect.apply(opened.getStore()?.expect ?? vitestExpect, self, args) as unknown,
  get: (_, key) => Reflect.get(opened.getStore()?.expect ?? vitestExpect, key) as unknown,
});
/** vitest's `it`, closing what the test opened (last first) when it ends, passed or failed. */
const it = (name: string, fn: () => Promise<void>, timeout?: number): void =>
  vitestIt(
    name,
    async (context) => {
      const mine: (() => unknown)[] = [];
      try {
        await opened.run({ closers: mine, expect: context.expect }, fn);
      } finally {
        for (const c of mine.reverse()) await c();
      }
    },
    timeout,
  );

beforeAll(async () => {
  if (!CHROMIUM) return;
  if (!existsSync(join(defaultWebRoot(), 'index.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(import.meta.dirname, '../../robot/web/pages/vite.config.mjs') });
  }
  browser = await launchChromium(CHROMIUM);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function session(): Promise<Composed> {
  const c = await compose({ seed: 5 });
  closers.push(() => c.close());
  return c;
}

/** `inspect`: the test evaluates its own scripts in the page, which the page's CSP (no eval) would refuse. */
async function page(
  viewport: { width: number; height: number } = { width: 1400, height: 1000 },
  o: { inspect?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport, bypassCSP: o.inspect ?? false });
  closers.push(() => context.close());
  const p = await context.newPage();
  p.setDefaultTimeout(WAIT);
  return p;
}

const togglesOnBus = (c: Composed): BehaviourTogglesMessage[] =>
  c.entries.filter((e) => e.topic.name === TOPICS.toggles.name).map((e) => e.message as BehaviourTogglesMessage);

describe('in the browser', { concurrent: true, timeout: BACKSTOP_MS }, () => {
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
      await expect
        .poll(() => togglesOnBus(c).at(-1), { timeout: WAIT })
        .toMatchObject({ [key]: false, changed: [key], by: 'operator' });
      await p.waitForSelector(`#toggle-${key}:not(:checked)`);
    }
    await p.fill('#expressiveness', '0.5');
    await p.dispatchEvent('#expressiveness', 'change');
    await expect
      .poll(() => togglesOnBus(c).at(-1), { timeout: WAIT })
      .toMatchObject({ expressiveness: 0.5, changed: ['expressiveness'] });
    await p.selectOption('#language', 'en');
    await expect.poll(() => c.dashboard.snapshot().language, { timeout: WAIT }).toBe('en');
    await p.selectOption('#expr', 'happy');
    await p.click('#show-expr');
    await p.waitForSelector('#ack:text("expression: sent")');
    expect(togglesOnBus(c).at(-1)).toMatchObject({
      speech: false,
      postures: false,
      gaze: false,
      partner_speech: false,
      opponent_speech: false,
    });
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
    await screenshot(p, 'dashboard-refused.png');
  });

  it('a person plays a whole game at the virtual table against the robot and two bots', async () => {
    const c = await session();
    // The two bots: seats 1 and 3 (the opponents); the person takes seat 2, the robot's partner.
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
    const operator = await page();
    await operator.goto(`${c.dashboardUrl}/#token=${OPERATOR_TOKEN}`);
    await operator.waitForSelector('#main:not([hidden])');
    const person = await page();
    await person.goto(`${c.dashboardUrl}/table#server=${encodeURIComponent(c.tableUrl)}&token=${TABLE_TOKEN}&seat=2`);
    await person.waitForSelector('#play:not([hidden])');
    await person.click('#new-game');
    let plays = 0;
    for (;;) {
      await person
        .waitForSelector('body[data-status="my-turn"], body[data-status="over"]')
        .catch(async (e: unknown) => {
          await screenshot(person, 'virtual-table-stuck.png');
          throw new Error(
            `${String(e)}; status ${await person.getAttribute('body', 'data-status')}, prompt: ${await person.textContent('#prompt')}`,
          );
        });
      if ((await person.getAttribute('body', 'data-status')) === 'over') break;
      // The page offers only legal cards: play the first.
      const before = await person.$$eval('#my-hand button', (bs) => bs.length);
      await person.click('#my-hand button:not([disabled])');
      await expect
        .poll(() => person.locator('#my-hand button').count(), { timeout: WAIT, interval: 20 })
        .toBeLessThan(before);
      plays++;
      if (plays === 4) {
        await operator.waitForSelector('#moves tr, #explanation:text("Played")');
        await screenshot(person, 'virtual-table.png');
      }
    }
    expect(plays, JSON.stringify(c.dashboard.snapshot().events.slice(-4)) + (await person.textContent('#prompt'))).toBe(
      10,
    );
    await person.waitForSelector('body[data-complete="true"]');
    const snap = c.dashboard.snapshot();
    expect(snap.game).toMatchObject({ status: 'session_over' });
    expect(snap.events.filter((e) => e.type === 'play')).toHaveLength(40);
    expect(snap.events.filter((e) => e.type === 'play' && e.seat === 2)).toHaveLength(10);
    expect(
      snap.connections
        .filter((x) => x.component === 'table' && x.connected)
        .map((x) => x.kind)
        .sort(),
    ).toEqual(['simulated', 'virtual']);
    await operator.waitForSelector('dd[data-field="status"][data-value="session_over"]:text("session over")');
    await operator.waitForSelector('#explanation:text("Played")');
    await screenshot(operator, 'dashboard.png', { fullPage: true });
    await screenshot(person, 'virtual-table-end.png');
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
    if (Date.now() > until)
      throw new Error(
        `the game did not end in time; pages: ${status.join(', ')}; prompts: ${(await Promise.all(pages.map((p) => p.textContent('#prompt')))).join(' | ')}`,
      );
  }
}

describe('people at the virtual table', { concurrent: true, timeout: BACKSTOP_MS }, () => {
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
      await p.waitForSelector('body[data-status="no-game"]');
      for (const other of people.slice(i + 1))
        await other.waitForSelector(`#seat-list button[data-take="${seat}"][disabled]`);
      if (i === 0) await screenshot(people[1]!, 'virtual-table-seats.png');
    }
    // The table's own words are virtual-table.browser.test.ts's to check.
    await people[1]!.click('#new-game');
    const plays = await playGame(people);
    expect(plays).toEqual([10, 10, 10]);
    await screenshot(people[2]!, 'virtual-table-three.png');
    const snap = c.dashboard.snapshot();
    expect(snap.game).toMatchObject({ status: 'session_over' });
    expect(snap.events.filter((e) => e.type === 'play')).toHaveLength(40);
    // The pages that only looked while choosing a seat are gone from the list, not shown as gone.
    expect(
      snap.connections
        .filter((x) => x.component === 'table')
        .map((x) => `${x.name}: ${x.connected}`)
        .sort(),
    ).toEqual(['virtual table, seat 1: true', 'virtual table, seat 2: true', 'virtual table, seat 3: true']);
  });

  it('one person plays a whole game through parceiro play, and the operator has the robot say a line of its library', async () => {
    const run = await play.startPlay({
      seat: 'opponent',
      bots: 'rule',
      botThink: 0,
      games: 1,
      seed: 4,
      budget: 150,
      minThink: 0,
      speech: 'publish',
      record: false,
      port: 0,
      dashboardPort: 0,
    });
    closers.push(() => run.close());
    expect(run.seat).toBe(1);
    expect(run.botSeats).toEqual([2, 3]);
    const said: WizardSayMessage[] = [];
    run.node.bus.subscribe('wizardSay', (m) => said.push(m));
    const lines: UtteranceMessage[] = [];
    run.node.bus.subscribe('utterance', (m) => lines.push(m));

    const person = await page();
    await person.goto(run.tableLink);
    await person.waitForSelector('body[data-status="no-game"]');
    const operator = await page();
    await operator.goto(run.dashboardLink);
    await operator.waitForSelector('#main:not([hidden])');

    await person.click('#new-game');
    const [plays] = await playGame([person]);
    expect(plays).toBe(10);
    await person.waitForSelector('body[data-complete="true"]');
    await screenshot(person, 'virtual-table-play.png');

    // The wizard: a category, a line, the preview with the session's words, then Say.
    await operator.selectOption('#say-category', 'session.end.win');
    await operator.selectOption('#say-line', 'session.end.win#1');
    // The category and the preview in words; the ids stay in values and tooltips.
    expect(await operator.locator('#say-category option:checked').textContent()).toBe('End of the session: won');
    await operator.waitForSelector('#say-preview[data-line="session.end.win#1"]:text("To everyone:")');
    const preview = await operator.textContent('#say-preview');
    await operator.click('#say');
    // The answer follows the line: sent, then said (the robot's voice took it).
    await operator.waitForSelector('#ack[data-outcome="start"]:text("say: said")');
    await expect.poll(() => said.length, { timeout: WAIT }).toBe(1);
    expect(said[0]).toMatchObject({ utterance_id: 'session.end.win#1', target: 'all', language: 'pt', by: 'operator' });
    expect(preview).toContain(said[0]!.text);
    expect(said[0]!.text).toMatch(/^Acabou! Ganhámos a partida, \d+ a \d+\.$/);
    await operator.waitForSelector(
      `#events li[title="session.end.win#1"]:has-text("say \\"${said[0]!.text}\\" to everyone")`,
    );
    // The robot queues it, says it (the publish backend: start, then end) and every dashboard lists it.
    await operator.waitForSelector(`#utterances li[data-phase="start"]:has-text("\\"${said[0]!.text}\\" to everyone")`);
    // The operator's line only: with one game, the robot's own session-end line can be the same words.
    const phases = (): string[] =>
      lines.filter((l) => l.category === 'operator' && l.text === said[0]!.text).map((l) => l.phase);
    await expect.poll(() => phases().slice(0, 2), { timeout: WAIT }).toEqual(['queued', 'start']);
    await screenshot(operator, 'dashboard-wizard.png', { fullPage: true });
    // With speech switched off, a line the operator sends is not said, and the answer says why.
    await operator.click('#toggle-speech');
    await expect.poll(() => run.node.toggles.get().speech, { timeout: WAIT }).toBe(false);
    await operator.selectOption('#say-category', '');
    await operator.fill('#say-text', 'Ninguém me ouve?');
    await operator.click('#say');
    await operator.waitForSelector('#ack[data-outcome="dropped"]');
    expect(await operator.textContent('#ack')).toBe('say: not said: speech is switched off');
    // The ace of trumps turned up at a deal is named for what it is, not as a card played.
    expect(await operator.locator('#say-category option[value="trump.ace.partner"]').textContent()).toBe(
      'Ace of trumps turned up by the partner',
    );
    const summary = await run.close();
    expect(summary.score.games).toBe(1);
  });
});

interface Layout {
  scrollWidth: number;
  innerWidth: number;
  columns: number;
  /** Grid columns no panel covers. */
  empty: number[];
  /** Panels past the right edge. */
  wide: string[];
}
/** How the page lays out at its current size (run in the page: a string, as this project's node types have no DOM). */
const LAYOUT = `(() => {
  const main = document.getElementById('main');
  const cs = getComputedStyle(main);
  const tracks = cs.gridTemplateColumns.split(' ').map(parseFloat);
  const gap = parseFloat(cs.columnGap) || 0;
  let x = main.getBoundingClientRect().left + parseFloat(cs.paddingLeft);
  const columns = tracks.map((w) => { const c = [x, x + w]; x += w + gap; return c; });
  const panels = [...main.children].map((e) => ({ id: e.id, box: e.getBoundingClientRect() })).filter((p) => p.box.width > 0);
  const empty = columns.flatMap(([a, b], i) => (panels.some((p) => p.box.left < b - 1 && p.box.right > a + 1) ? [] : [i]));
  const wide = panels.filter((p) => p.box.right > innerWidth + 0.5).map((p) => p.id);
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth, columns: tracks.length, empty, wide };
})()`;
/** Each emotion shown (bars and the chart's legend) with its colour, sorted. */
const COLOURS = `[...document.querySelectorAll('#emotions .emotion[data-emotion], .legend .key[data-emotion]:not(.mood)')]
  .map((e) => [e.dataset.emotion, getComputedStyle(e.querySelector('.bar, i')).backgroundColor]).sort()`;

/** `#rrggbb` as the browser reports a computed colour. */
const rgb = (hex: string): string => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
/** Ids as the bus and the library write them: snake_case, or dotted (game.end.win.quadruple). */
const RAW_ID = /\b[a-z]+_[a-z_]+\b|\b[a-z]+(\.[a-z-]+)+\b/;

const LONG_LINE =
  'Muito bem, pessoal, vamos fazer uma pequena pausa antes de continuar. Enquanto descansamos, lembro as regras: ' +
  'quem tem o naipe da primeira carta tem de o jogar, o trunfo ganha a vaza, e a equipa que fizer mais de sessenta ' +
  'pontos ganha o jogo. Quem fizer os cento e vinte pontos todos ganha quatro vitórias de uma vez. Aproveitem para ' +
  'beber um pouco de água, respirar fundo e pensar nas cartas que já saíram. Eu cá estou pronto para a próxima vaza!';

describe('the dashboard as an operator reads it', { concurrent: true, timeout: BACKSTOP_MS }, () => {
  it('mid-session at phone, tablet and desktop sizes: no overflow, no empty column, the speech queue, words not ids, fixed colours', async () => {
    const run = await play.startPlay({
      seat: 'partner',
      bots: 'rule',
      botThink: 100,
      games: 2,
      seed: 7,
      budget: 800,
      minThink: 0,
      speech: 'publish',
      record: false,
      port: 0,
      dashboardPort: 0,
    });
    closers.push(() => run.close());
    // The person's seat played by a simulated table (the virtual table has tests of its own).
    const person = new SimulatedTable({
      url: run.node.url,
      token: run.tableToken,
      seed: 3,
      id: 'person',
      name: 'person (simulated)',
      seats: [run.seat],
      thinkMs: 100,
    });
    closers.push(() => person.close());
    const p = await page(VIEWPORTS.desktop, { inspect: true });
    const failed: string[] = [];
    p.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
    await p.goto(run.dashboardLink);
    await p.waitForSelector('#main:not([hidden])');
    await person.start();

    // Once the robot has decided, felt and spoken, the operator pauses the game: the page holds still.
    await p.waitForFunction(
      "document.querySelector('#explanation').textContent.startsWith('Played') && document.querySelector('#emotions .emotion') && document.querySelector('#utterances li[data-phase]')",
      null,
      { timeout: WAIT * 2 },
    );
    await p.click('#pause');
    await p.waitForSelector('dd[data-field="status"][data-value="paused"]:text("paused")');

    // The speech queue: two long lines hold the voice (about 50 s: on a loaded CI machine one was over
    // before the toggle), a line to the partner and another wait; speech to the partner switched off
    // drops the partner's line at once, with the reason.
    for (const [text, target] of [
      [LONG_LINE, 'all'],
      [LONG_LINE, 'all'],
      ['Parceiro, esta é para ti.', 'partner'],
      ['Vamos a isso!', 'all'],
    ] as const) {
      await p.selectOption('#say-target', target);
      await p.fill('#say-text', text);
      await p.click('#say');
      await p.waitForSelector(
        `#speaking.now:has-text(${JSON.stringify(text.slice(0, 30))}), #waiting li[data-phase="queued"]:has-text(${JSON.stringify(text.slice(0, 30))})`,
      );
    }
    await p.waitForSelector('#waiting li[data-phase="queued"]:has-text("Parceiro, esta é para ti.")');
    await p.click('#toggle-partner_speech');
    await p.waitForSelector('#utterances li[data-phase="dropped"]:has-text("Parceiro, esta é para ti.")');
    expect(await p.textContent('#utterances li[data-phase="dropped"]:has-text("Parceiro, esta é para ti.")')).toContain(
      '(speech to the partner is switched off)',
    );
    expect(await p.textContent('#waiting')).toContain('will say "Vamos a isso!" to everyone');
    expect(await p.textContent('#speaking')).not.toBe('Silent.');

    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await p.setViewportSize(size);
      await p.waitForFunction(`innerWidth === ${size.width}`);
      const l = (await p.evaluate(LAYOUT)) as Layout;
      expect(l.scrollWidth, `${name}: horizontal overflow`).toBeLessThanOrEqual(l.innerWidth);
      expect(l.wide, `${name}: panels past the right edge`).toEqual([]);
      expect(l.empty, `${name}: grid columns with no panel`).toEqual([]);
      expect(l.columns, name).toBe({ phone: 1, tablet: 2, desktop: 4 }[name]);
      await screenshot(p, `dashboard-${name}.png`, { docs: true, fullPage: true });
    }

    // People's words, not the bus's or the library's ids, in the log, speech, emotion and game areas.
    for (const area of [
      '#events',
      '#speech-panel',
      '#emotion-panel',
      '#timeline-panel',
      '#game',
      '#decision-panel',
      '#conns',
    ]) {
      const text = await p.innerText(area);
      expect(text.match(RAW_ID)?.[0], `${area}: ${text}`).toBeUndefined();
    }
    expect(await p.innerText('#emotions')).not.toMatch(/toward seat \d/);
    // The wizard: categories in words, the id kept as the value.
    await p.selectOption('#say-category', 'game.end.win.quadruple');
    expect(await p.locator('#say-category option:checked').textContent()).toBe('End of game: won with 4 victories');
    expect((await p.innerText('#say-category')).match(RAW_ID)).toBeNull();
    expect((await p.innerText('#say-preview')).match(RAW_ID)).toBeNull();

    // Fixed colours: the bars and the legend use words.ts's colours, and a second page shows the same.
    const colours = async (q: Page) => (await q.evaluate(COLOURS)) as [string, string][];
    const first = await colours(p);
    expect(first.length).toBeGreaterThan(1);
    for (const [type, colour] of first) expect(colour, type).toBe(rgb(emotionColour(type)));
    const other = await page(VIEWPORTS.desktop, { inspect: true });
    // A printed link opens once: a second operator's page gets a link of its own.
    await other.goto(run.node.dashboard!.link());
    await other.waitForSelector('#emotions .emotion[data-emotion]');
    expect(await colours(other)).toEqual(first);
    expect(failed).toEqual([]);
  });

  it('serves the favicon, as /favicon.svg and /favicon.ico', async () => {
    const c = await session();
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const r = await fetch(`${c.dashboardUrl}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/svg+xml');
      expect(await r.text()).toContain('<svg');
    }
    expect(await (await fetch(`${c.dashboardUrl}/`)).text()).toMatch(/<link rel="icon" href="\.\/favicon\.svg" ?\/?>/);
  });

  it('three table pages closed one after another leave one pill, not a pile of gone pills; the log keeps each', async () => {
    const c = await session();
    const operator = await page(VIEWPORTS.desktop);
    await operator.goto(`${c.dashboardUrl}/#token=${OPERATOR_TOKEN}`);
    await operator.waitForSelector('#main:not([hidden])');
    const tables = [];
    for (const seat of [1, 2, 3]) {
      const t = await page();
      await t.goto(
        `${c.dashboardUrl}/table#server=${encodeURIComponent(c.tableUrl)}&token=${TABLE_TOKEN}&seat=${seat}`,
      );
      tables.push(t);
    }
    const connected = () =>
      c.dashboard.snapshot().connections.filter((x) => x.component === 'table' && x.connected).length;
    await expect.poll(connected, { timeout: WAIT }).toBe(3);
    await expect
      .poll(() => operator.locator('#conns .pill.on[data-connection^="table:"]').count(), { timeout: WAIT })
      .toBe(3);
    for (const t of tables) await t.close();
    await expect.poll(connected, { timeout: WAIT }).toBe(0);
    // One pill for the three, red while their seats are empty, each named in its tooltip.
    await operator.waitForSelector('#conns .pill[data-left="3"].off:text("3 tables left")');
    expect(await operator.locator('#conns .pill:text("gone")').count()).toBe(0);
    expect(await operator.locator('#conns .pill').count()).toBe(3); // the bus, the robot and the one for the tables that left
    expect((await operator.getAttribute('#conns .pill[data-left]', 'title'))!.split('\n')).toHaveLength(3);
    await expect.poll(() => operator.locator('#events li[data-kind="disconnect"]').count(), { timeout: WAIT }).toBe(3);
    // A table that takes the empty seats: the pill goes muted (nothing is missing any more).
    const bots = new SimulatedTable({
      url: c.tableUrl,
      token: TABLE_TOKEN,
      seed: 2,
      id: 'bots',
      seats: [1, 2, 3],
      autoNewGame: false,
    });
    closers.push(() => bots.close());
    await bots.start();
    await operator.waitForSelector('#conns .pill[data-left="3"].muted');
    await screenshot(operator, 'dashboard-tables-left.png');
  });

  it("shows a physical deal's reading of the robot's hand as progress", async () => {
    const c = await session();
    const p = await page(VIEWPORTS.phone);
    await p.goto(`${c.dashboardUrl}/#token=${OPERATOR_TOKEN}`);
    await p.waitForSelector('#main:not([hidden])');
    await p.waitForSelector('dd[data-field="status"][data-value="waiting"]');
    // Before any game: every panel says what it waits for (an artifact to look at).
    expect(await p.textContent('#explanation')).toBe('No decision yet: the robot has not played a card.');
    await screenshot(p, 'dashboard-empty-phone.png', { fullPage: true });
    const base = c.dashboard.snapshot().game!;
    const reading = (cards: string[]): GameStateMessage => ({ ...base, game: 1, status: 'dealing', robot_hand: cards });
    c.bus.publish('gameState', reading(['AS', '7H', 'QD', '2C']));
    await p.waitForSelector(
      '#hand-progress:not([hidden])[data-read="4"]:has-text("Reading the robot\'s hand: 4 of 10 cards")',
    );
    c.bus.publish('gameState', reading(['AS', '7H', 'QD', '2C', '3C', '4C', '5C', '6C', 'QC', 'JC']));
    await p.waitForSelector('#hand-progress[data-read="10"]:has-text("10 of 10 cards")');
    c.bus.publish('gameState', {
      ...reading(['AS', '7H', 'QD', '2C', '3C', '4C', '5C', '6C', 'QC', 'JC']),
      status: 'playing',
    });
    await p.waitForSelector('#hand-progress[hidden]', { state: 'attached' });
    expect(await p.locator('#hand .card').count()).toBe(10);
  });
});

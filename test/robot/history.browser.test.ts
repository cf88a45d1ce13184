// Tokens out of the browser's history: on a shared lab computer the address bar offers every address
// the browser opened to the next person. The links `parceiro play` prints, and the dashboard's link to
// the virtual table, carry one-time passes: chromium's own History (its SQLite file, read after the
// browser closed) holds no token, and the passes it holds open nothing any more.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Play from '../../launch/commands/play.js';
import { requirePrograms } from '../system-programs.js';

const play = (await import(new URL('../../dist/launch/commands/play.js', import.meta.url).href)) as typeof Play;
const { chromium: CHROMIUM } = requirePrograms('chromium');
const WAIT = 30_000;
const profile = mkdtempSync(join(tmpdir(), 'parceiro-history-'));
afterAll(() => rmSync(profile, { recursive: true, force: true }));

/** Every address chromium's History keeps (python3's sqlite3 reads it; the browser is closed). */
function historyUrls(): string[] {
  const script =
    'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print("\\n".join(r[0] for r in c.execute("select url from urls")))';
  return execFileSync('python3', ['-c', script, join(profile, 'Default', 'History')], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe.skipIf(!CHROMIUM)("the browser's history", () => {
  it("holds no token after the printed links and the dashboard's table link were opened, and its passes are spent", async () => {
    const run = await play.startPlay({
      seat: 'partner',
      bots: 'rule',
      botThink: 0,
      games: 1,
      seed: 5,
      budget: 50,
      minThink: 0,
      speech: 'log',
      record: false,
      port: 0,
      dashboardPort: 0,
    });
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM!,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
      });
      try {
        const person = await context.newPage();
        await person.goto(run.tableLink);
        await person.waitForSelector('#play:not([hidden])', { timeout: WAIT });
        const operator = await context.newPage();
        await operator.goto(run.dashboardLink);
        await operator.waitForSelector('#main:not([hidden])', { timeout: WAIT });
        // The operator opens the virtual table from the dashboard: a new tab, with its own pass.
        const [opened] = await Promise.all([context.waitForEvent('page'), operator.click('#virtual-link a')]);
        await opened.waitForSelector('body[data-status="watching"]', { timeout: WAIT });
        // A reload of a page opened by a pass keeps its place: the operator's token is in the tab's session.
        await operator.reload();
        await operator.waitForSelector('#main:not([hidden])', { timeout: WAIT });
      } finally {
        await context.close();
      }
      const urls = historyUrls();
      expect(urls.some((u) => u.includes('/table'))).toBe(true);
      for (const secret of [run.node.dashboard!.token, 'token=']) {
        expect(urls.filter((u) => u.includes(secret))).toEqual([]);
      }
      // What the history does hold opens nothing: each pass was traded once.
      const passes = urls.flatMap((u) => [...u.matchAll(/pass=([\w-]+)/g)].map((m) => m[1]!));
      expect(passes.length).toBeGreaterThanOrEqual(3);
      for (const pass of passes) {
        const r = await fetch(`${run.node.dashboard!.url}/pass`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pass }),
        });
        expect(r.status).toBe(403);
      }
    } finally {
      await run.close();
    }
  }, 180_000);
});

// A pool is destroyed only once its workers have loaded their module (robot/live/search/workers-loaded.ts):
// a worker terminated mid-load aborts Node 20. The pools run compiled workers, so this test uses the
// built package (npm test builds).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import type * as Loaded from '../../robot/live/search/workers-loaded.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const { workersLoaded } = (await import(
  new URL('../../dist/robot/live/search/workers-loaded.js', import.meta.url).href
)) as typeof Loaded;

const dir = mkdtempSync(join(tmpdir(), 'parceiro-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('workersLoaded', () => {
  it('resolves once every worker of a pool has loaded its module', async () => {
    const file = join(dir, 'double.mjs');
    writeFileSync(file, 'export default (n) => 2 * n;\n');
    const pool = new Piscina<number, number>({ filename: pathToFileURL(file).href, minThreads: 2, maxThreads: 2 });
    const loaded = workersLoaded(pool);
    expect(pool.threads).toHaveLength(2);
    await loaded;
    expect(await pool.run(21)).toBe(42);
    await pool.destroy();
  });

  it('resolves for a worker that fails to load, too', async () => {
    const file = join(dir, 'broken.mjs');
    writeFileSync(file, 'throw new Error("cannot load");\n');
    const pool = new Piscina({ filename: pathToFileURL(file).href, minThreads: 1, maxThreads: 1 });
    pool.on('error', () => {});
    await workersLoaded(pool);
    await pool.destroy();
  });

  it("lets the robot's search pool be closed the moment it is made, again and again", async () => {
    for (let i = 0; i < 5; i++) {
      const player = new robot.PoolSearchPlayer({ seat: 0, seed: i, threads: 2 });
      await player.close();
    }
  });
});

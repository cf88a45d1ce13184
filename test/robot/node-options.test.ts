// The node's options in their groups: one given where the node does not read it (a source at the top
// level, a misspelt key in a group) stops the node at start, named, instead of being silently left out.

import { describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;

describe("the node's options", () => {
  it.each([
    [{ estimator: null }, /does not take estimator$/],
    [{ token: 'a-token-of-enough-length' }, /does not take token$/],
    [{ table: { token: 'a-token-of-enough-length', tokn: 'x' } }, /does not take table\.tokn$/],
    [{ sources: { playr: null } }, /does not take sources\.playr$/],
    [{ dashboard: { prt: 1 } }, /does not take dashboard\.prt$/],
  ])('refuses %j, naming it', async (extra, named) => {
    const options = { seed: 1, table: { token: 'a-token-of-enough-length' }, dashboard: null, ...extra };
    await expect(robot.ParceiroNode.start(options as never)).rejects.toThrow(named);
  });
});

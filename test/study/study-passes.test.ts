// A study session's links last as long as the session: a participant's questionnaires and their seat
// at the virtual table (traded when the games start, however long the questionnaires before them
// took), on the dashboard's real server over HTTP, with its clock moved on (the dashboard's `now`)
// rather than waited for. Every other link keeps its 30 minutes, and every pass still opens once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../robot/bus/index.js';
import { DashboardServer } from '../../robot/web/index.js';

const HOUR = 60 * 60_000;
let clock = Date.parse('2026-12-06T10:00:00Z');
const dashboard = new DashboardServer({
  bus: new InProcessBus(),
  port: 0,
  utterances: new Map(),
  now: () => clock,
  virtualTable: { url: 'http://127.0.0.1:1', token: 'table-token-for-the-test' },
});

beforeAll(async () => {
  await dashboard.listen();
  dashboard.attachStudy({
    handle: () => false,
    join: (code) => (code === 'P-AAAA' ? { token: 'participant-token', code } : null),
    control: () => ({ ok: true }),
  });
});
afterAll(() => dashboard.close());

/** The pass in a printed link. */
const passOf = (link: string): string =>
  new URLSearchParams(new URL(link).hash.slice(1)).get('pass') ?? new URL(link).hash.split('pass=')[1]!;

/** Trades a pass at POST /pass as a page does. */
async function redeem(pass: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${dashboard.url}/pass`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pass }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe("a study session's links", () => {
  it('open after hours (the session still open); other links after 30 minutes do not; each opens once', async () => {
    const questionnaires = passOf(dashboard.participantLink('P-AAAA'));
    const seat = passOf(dashboard.tableLink(2, dashboard.url, { untilClosed: true }));
    const ordinary = passOf(dashboard.tableLink(2));
    const soon = passOf(dashboard.tableLink(1));

    clock += 29 * 60_000;
    expect((await redeem(soon)).status).toBe(200);

    // Five games and the questionnaires: well over the half hour of an ordinary pass.
    clock += 2 * HOUR;
    expect(await redeem(ordinary)).toEqual({
      status: 403,
      body: { error: 'this link was used or is too old: ask for a new one' },
    });
    expect(await redeem(questionnaires)).toEqual({
      status: 200,
      body: { participant: { token: 'participant-token', code: 'P-AAAA' } },
    });
    expect(await redeem(seat)).toMatchObject({ status: 200, body: { seat: 2, token: 'table-token-for-the-test' } });

    // Still one opening each: a browser's history holds nothing that opens the session again.
    expect((await redeem(questionnaires)).status).toBe(403);
    expect((await redeem(seat)).status).toBe(403);
  });
});

// A pause is nobody hesitating. The robot plans a nudge ("Vá, não temos a noite toda!") for a person
// who takes long over a card; when the operator pauses the game before it is due, the nudge is
// dropped at once, with its reason, and not said during the pause however long it lasts. At the
// resume the person is thinking again: a new nudge is planned from then. The session replays to
// exactly itself. The node's clock is simulated and moved on by the test; the three other seats are
// people (a simulated table) who take a day over each card.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { SimulatedClock } from '../../behaviours/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import type { UtteranceMessage } from '../../robot/bus/index.js';
import { recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-pause-nudge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'pause-nudge-test';
const DAY_MS = 86_400_000;

describe('a nudge and a pause', () => {
  it('is dropped when the game is paused, never said during it, and planned again at the resume', async () => {
    const clock = new SimulatedClock(1_800_000_000_000);
    const node = await robot.ParceiroNode.start({
      seed: 6,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      games: 1,
      sessionId: 'pause-nudge',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 6 }) },
      minThinkMs: 0,
      expectationBudgetMs: 0,
      speech: 'publish',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: null,
      clock,
    });
    const lines: (UtteranceMessage & { atMs: number })[] = [];
    node.bus.subscribe('utterance', (m) => void lines.push({ ...m, atMs: clock.now() }));
    const nudges = (phase: string) => lines.filter((l) => l.event === 'turn' && l.phase === phase);
    const people = new SimulatedTable({ url: node.url, token: TOKEN, seed: 2, seats: [1, 2, 3], thinkMs: DAY_MS });
    let file: string;
    try {
      await people.start();
      // Past the greeting and the deal's lines, until a person's turn has its nudge planned.
      for (let i = 0; i < 20 && nudges('queued').length === 0; i++) {
        await clock.advance(1_000);
        await node.reactions.idle();
      }
      const [planned] = nudges('queued');
      expect(planned, 'a nudge planned for the first person to play').toBeDefined();
      expect(planned!.due_in_ms).toBeGreaterThanOrEqual(10_000);

      node.bus.publish('sessionControl', { action: 'pause', by: 'test' });
      await expect.poll(() => node.runtime.status).toBe('paused');
      await node.reactions.idle();
      expect(nudges('dropped').map((l) => [l.id, l.reason])).toEqual([[planned!.id, 'paused']]);
      // A long pause: still nothing said to the person.
      await clock.advance(10 * 60_000);
      expect(nudges('start')).toEqual([]);

      const resumedAt = clock.now();
      node.bus.publish('sessionControl', { action: 'resume', by: 'test' });
      await expect.poll(() => node.runtime.status).not.toBe('paused');
      await node.reactions.idle();
      const again = nudges('queued').filter((l) => l.atMs >= resumedAt);
      expect(again, 'a nudge planned again at the resume').toHaveLength(1);
      expect(again[0]!.about_seat).toBe(planned!.about_seat);
      await clock.advance(again[0]!.due_in_ms! + 1_000);
      expect(nudges('start').map((l) => l.text)).toEqual([again[0]!.text]);
    } finally {
      people.close();
      file = (await node.close()).recording!;
    }
    const r = await replay.replayRecording(recording.readRecording(file));
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
  }, 120_000);
});

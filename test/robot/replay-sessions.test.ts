// Every kind of recording the project makes replays to exactly itself: `parceiro simulate` (what
// `npm start` runs) on several seeds and table paces, a physical deal, and a live table that drops
// its connection and comes back mid-game. The pace is chosen so that lines overlap, wait and are
// overtaken by the game: where a replay could part from the recording (a clock read it does not
// give back, a line dropped in one and not the other), it would show here. Nothing is timed: each
// session is waited on to its end, and the replay runs on its own clock.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { runCli } from '../launch/run-cli.js';
import { recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-replays-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The replay's verdict, with the first difference spelled out when there is one. */
async function replayed(
  path: string,
): Promise<{ matches: boolean; first: string | null; spoken: number; dropped: number }> {
  const rec = recording.readRecording(path);
  const r = await replay.replayRecording(rec);
  const lines = rec.messages
    .filter((m) => m.topic.name === '/parceiro/behaviours/utterance')
    .map((m) => m.message as { phase: string });
  const d = r.firstDifference;
  return {
    matches: r.matches,
    first: d ? `${d.topic} message ${d.index} (${d.context}): ${d.text}` : null,
    spoken: lines.filter((l) => l.phase === 'start').length,
    dropped: lines.filter((l) => l.phase === 'dropped').length,
  };
}

// The two cases are independent and mostly wait on the tables' paces: they run at once.
describe.concurrent('recordings replay to exactly themselves', () => {
  it('parceiro simulate, on three seeds at three table paces, and with a physical deal', async () => {
    const runs = [
      ['--seed', '1', '--bot-think', '300'],
      ['--seed', '2', '--bot-think', '700'],
      ['--seed', '3', '--bot-think', '1000'],
      ['--seed', '4', '--bot-think', '500', '--physical-deal'],
    ];
    const results = await Promise.all(
      runs.map(async (args, i) => {
        const folder = join(dir, `simulate-${i}`);
        const r = await runCli(
          ['simulate', '--games', '1', '--budget', '100', '--min-think', '300', '--recordings', folder, ...args],
          dir,
        );
        expect(r.err, args.join(' ')).toBe('');
        expect(r.code, args.join(' ')).toBe(0);
        const [file] = readdirSync(folder);
        return { args: args.join(' '), ...(await replayed(join(folder, file!))) };
      }),
    );
    for (const r of results) expect(r.first, r.args).toBeNull();
    expect(results.every((r) => r.matches)).toBe(true);
    // The robot spoke, and the game overtook some of its lines: the replay had to agree on both.
    expect(results.reduce((n, r) => n + r.spoken, 0)).toBeGreaterThan(4);
    expect(results.reduce((n, r) => n + r.dropped, 0)).toBeGreaterThan(0);
  }, 300_000);

  it('a live table that loses its connection twice mid-game and comes back', async () => {
    const folder = join(dir, 'live');
    const node = await robot.ParceiroNode.start({
      seed: 31,
      table: { host: '127.0.0.1', port: 0, token: 'replays' },
      games: 1,
      sessionId: 'reconnections',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 31 }) },
      minThinkMs: 200,
      expectationBudgetMs: 20,
      speech: 'publish',
      recordingsDir: folder,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: null,
    });
    const table = new SimulatedTable({ url: node.url, token: 'replays', seed: 32, thinkMs: 700 });
    try {
      await table.start();
      for (const trick of [3, 6]) {
        await table.waitFor((s) => (s.game?.trick ?? 0) >= trick);
        await table.reconnect();
      }
      await node.finished();
      await node.quiet();
    } finally {
      table.close();
    }
    const path = (await node.close()).recording!;
    const hellos = recording
      .readRecording(path)
      .messages.filter(
        (m) => m.topic.name === '/parceiro/table/events' && (m.message as { kind: string }).kind === 'hello',
      );
    expect(hellos.length).toBe(3);
    const r = await replayed(path);
    expect(r.first).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.spoken).toBeGreaterThan(0);
  }, 180_000);
});

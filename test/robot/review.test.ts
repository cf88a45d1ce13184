// The end-of-game review at the table: at the end of each game the robot looks back
// on it with all cards in view and publishes the review; a table asks "como correu o jogo?"
// (game:control review) and the robot tells it aloud in the session's language. Before any game has
// ended it says so. The reviews are on the record, and the session replays to exactly itself, answers
// included, whether an answer came before the review was ready or after. Nothing here measures time.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBehaviourSetup, reviewText } from '../../behaviours/index.js';
import type * as Robot from '../../robot/index.js';
import type { GameEventMessage, GameReviewMessage, UtteranceMessage } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const replay = (await import(
  new URL('../../dist/robot/offline/replay/index.js', import.meta.url).href
)) as typeof import('../../robot/offline/replay/index.js');
const { reviewOfMessage } = (await import(
  new URL('../../dist/robot/live/node/review.js', import.meta.url).href
)) as typeof import('../../robot/live/node/review.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-review-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'review-token-1';

describe('the end-of-game review', () => {
  it('is published at the end of each game and told when a table asks, in the session language; the session replays to itself', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 41,
      games: 2,
      sessionId: 'review-1',
      language: 'pt',
      budgetMs: 150,
      recordingsDir: dir,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      minThinkMs: 0,
      expectationBudgetMs: 0,
      speech: 'publish',
      dashboard: null,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
    });
    const said: UtteranceMessage[] = [];
    const reviews: GameReviewMessage[] = [];
    const ends: GameEventMessage[] = [];
    node.bus.subscribe('utterance', (m) => void (m.id.startsWith('review#') && m.phase === 'start' && said.push(m)));
    node.bus.subscribe('gameEvents', (m) => void (m.type === 'end' && ends.push(m)));

    // A table that only watches asks: before any game ended, as the first game ends (the review may
    // not be ready yet: either answer is right, and the replay must give the same), and once the
    // session is over.
    const watcher = io(`${node.url}/table`, { transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      watcher.on('connect', () =>
        watcher.emit(
          'hello',
          { protocol: 1, token: TOKEN, table: { id: 'asker', name: 'asker', kind: 'virtual' }, seats: [] },
          (r: { ok: boolean }) => (r.ok ? resolve() : reject(new Error(JSON.stringify(r)))),
        ),
      );
      watcher.on('connect_error', reject);
    });
    let seq = 0;
    const answers: unknown[] = [];
    const asked: Promise<void>[] = [];
    const ask = (): void =>
      void asked.push(
        new Promise((resolve) =>
          watcher.emit('game:control', { seq: ++seq, action: 'review' }, (a: unknown) => resolve(void answers.push(a))),
        ),
      );
    ask();
    await Promise.all(asked);
    node.bus.subscribe('gameEvents', (m) => void (m.type === 'end' && m.game === 0 && ask()));
    node.bus.subscribe('review', (m) => void reviews.push(m));
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 8 }));
    // The session is over once the last game's review is out: asked now, the robot tells it.
    ask();
    await Promise.all(asked);
    await node.quiet();
    watcher.close();
    const path = (await node.close()).recording!;

    expect(answers).toEqual([1, 2, 3].map((s) => ({ ok: true, seq: s })));
    const pt = loadBehaviourSetup({ language: 'pt' }).utterances;
    // Both games reviewed, the last one too (the session ends once its review is out).
    expect(reviews.map((r) => [r.game, r.status])).toEqual([
      [0, 'reviewed'],
      [1, 'reviewed'],
    ]);
    reviews.forEach((r, i) => {
      expect(r.final_points).toBe(ends[i]!.final_points[0]);
      expect(r.values).toHaveLength(41);
      expect(r.moments.length).toBeLessThanOrEqual(3);
    });
    expect(said.map((m) => m.id)).toEqual(['review#1', 'review#2', 'review#3']);
    expect(said[0]).toMatchObject({ text: pt.review!.noGame, language: 'pt', target: 'all' });
    // Asked at a table, not the operator's words; a table hosting no seat: nobody in particular asked.
    for (const m of said) expect(m).toMatchObject({ category: 'asked.review', event: 'operator', about_seat: -1 });
    const told = reviews.map((r) => reviewText(pt, reviewOfMessage(r)!, 0)!);
    expect(told[0]).toMatch(/^Com as cartas à vista, valia-nos \d+ pontos; fizemos \d+\./);
    expect([pt.review!.pending, told[0]]).toContain(said[1]!.text);
    expect(said[2]!.text).toBe(told[1]);

    // The replay feeds the recorded reviews where they came: the same answers, in the same order.
    const r = await replay.replayRecording(recording.readRecording(path));
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
  });
});

// "Porquê?" (issue 21): a table asks why the robot played its last card and the robot says the reason
// its decision carried, aloud, in the session's language; before its first card it says it has not
// played one. A watching table may ask. The question is on the record, so the session replays to
// exactly itself, answer included. Nothing here measures time.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBehaviourSetup, reasonText } from '../../behaviours/index.js';
import type * as Robot from '../../robot/index.js';
import type { DecisionMessage, UtteranceMessage } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(new URL('../../dist/robot/recording/index.js', import.meta.url).href)) as typeof import('../../robot/recording/index.js');
const replay = (await import(new URL('../../dist/robot/replay/index.js', import.meta.url).href)) as typeof import('../../robot/replay/index.js');
const { reasonOf } = (await import(new URL('../../dist/robot/node/why.js', import.meta.url).href)) as typeof import('../../robot/node/why.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-why-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'why-token-1';

describe('asking the robot why', () => {
  it('answers with the reason of its last card, in the session language, and replays the same', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 23,
      token: TOKEN,
      games: 1,
      port: 0,
      host: '127.0.0.1',
      sessionId: 'why-1',
      language: 'en',
      budgetMs: 150,
      minThinkMs: 0,
      expectationBudgetMs: 0,
      speech: 'publish',
      recordingsDir: dir,
      dashboard: null,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
    });
    const said: UtteranceMessage[] = [];
    const decisions: DecisionMessage[] = [];
    node.bus.subscribe('utterance', (m) => void (m.id.startsWith('why#') && m.phase === 'start' && said.push(m)));
    // A table that only watches asks: once before the robot has played, once after its first card.
    const watcher = io(`${node.url}/table`, { transports: ['websocket'], forceNew: true, reconnection: false });
    const answers: unknown[] = [];
    let seq = 0;
    const ask = (): Promise<void> => new Promise((resolve) => watcher.emit('game:control', { seq: ++seq, action: 'why' }, (a: unknown) => resolve(void answers.push(a))));
    await new Promise<void>((resolve, reject) => {
      watcher.on('connect', () => watcher.emit('hello', { protocol: 1, token: TOKEN, table: { id: 'asker', name: 'asker', kind: 'virtual' }, seats: [] }, (r: { ok: boolean }) => (r.ok ? resolve() : reject(new Error(JSON.stringify(r))))));
      watcher.on('connect_error', reject);
    });
    await ask();
    let asked: Promise<void> | null = null;
    // Asked after the first card the robot chose among several (a forced card is said as forced).
    node.bus.subscribe('decision', (m) => {
      if (m.moves.length < 2 || decisions.length > 0) return;
      decisions.push(m);
      asked = ask();
    });
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 4 }));
    await asked;
    await node.quiet();
    watcher.close();
    const path = (await node.close()).recording!;

    expect(answers).toEqual([{ ok: true, seq: 1 }, { ok: true, seq: 2 }]);
    expect(said.map((m) => m.id)).toEqual(['why#1', 'why#2']);
    expect(said[0]!).toMatchObject({ text: 'I have not played a card in this game yet.', language: 'en', target: 'all' });
    const en = loadBehaviourSetup({ language: 'en' }).utterances;
    // The robot's search explains every card it chose among several.
    const reason = reasonOf(decisions[0]!);
    expect(reason, JSON.stringify(decisions[0])).not.toBeNull();
    expect(said[1]!.text).toBe(reasonText(en, reason!));
    expect(said[1]!.text).toMatch(/^I (played|led|kept) |^The trick was lost|^With /);

    const r = await replay.replayRecording(recording.readRecording(path));
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
  });
});

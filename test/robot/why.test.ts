// "Porquê?": a table asks why the robot played its last card and the robot says the reason
// its decision carried, aloud, in the session's language; before its first card it says it has not
// played one. A watching table may ask. The question is on the record, so the session replays to
// exactly itself, answer included. And over a whole session in which it is asked after every card,
// nothing the robot says names a card still in its hand. Nothing here measures time.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { cardPhrase, decidingEdge, loadBehaviourSetup, reasonText } from '../../behaviours/index.js';
import { DECK, formatCard } from '../../game/index.js';
import type * as Robot from '../../robot/index.js';
import type { DecisionMessage, UtteranceMessage } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { reasonOpenings } from './reason-openings.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const replay = (await import(
  new URL('../../dist/robot/offline/replay/index.js', import.meta.url).href
)) as typeof import('../../robot/offline/replay/index.js');
const { movePairOfMessage, reasonOfMessage } = (await import(
  new URL('../../dist/robot/live/session/bus-messages.js', import.meta.url).href
)) as typeof import('../../robot/live/session/bus-messages.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-why-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'why-token-1';

/** A node on a free port with no estimates and no dashboard, speech published (not timed by a voice). */
const startNode = (o: {
  seed: number;
  games: number;
  sessionId: string;
  language: string;
  budgetMs: number;
  recordingsDir: string | null;
}) =>
  robot.ParceiroNode.start({
    ...o,
    table: { host: '127.0.0.1', port: 0, token: TOKEN },
    minThinkMs: 0,
    expectationBudgetMs: 0,
    speech: 'publish',
    dashboard: null,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
  });

/** A table that only watches (it hosts no seat), connected and said hello. */
async function watcherOf(node: Robot.ParceiroNode): Promise<ReturnType<typeof io>> {
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
  return watcher;
}

// The cases are independent (each its own session id, ports and folder) and mostly wait for the
// robot's pace and last lines: they run at once. The timeout is only a backstop.
describe('asking the robot why', { concurrent: true, timeout: 300_000 }, () => {
  it('answers with the reason of its last card, in the session language, and replays the same', async () => {
    const node = await startNode({
      seed: 23,
      games: 1,
      sessionId: 'why-1',
      language: 'en',
      budgetMs: 400,
      recordingsDir: dir,
    });
    const said: UtteranceMessage[] = [];
    const decisions: DecisionMessage[] = [];
    node.bus.subscribe('utterance', (m) => void (m.id.startsWith('why#') && m.phase === 'start' && said.push(m)));
    // A table that only watches asks: once before the robot has played, once after its first card.
    const watcher = await watcherOf(node);
    const answers: unknown[] = [];
    let seq = 0;
    const ask = (): Promise<void> =>
      new Promise((resolve) =>
        watcher.emit('game:control', { seq: ++seq, action: 'why' }, (a: unknown) => resolve(void answers.push(a))),
      );
    await ask();
    let asked: Promise<void> | null = null;
    // Asked after the first card the robot chose among several by searching (a forced card is said as
    // forced; one the search had no time for, on a loaded machine, as not known).
    node.bus.subscribe('decision', (m) => {
      if (m.moves.length < 2 || m.worlds === 0 || m.fallback !== '' || decisions.length > 0) return;
      decisions.push(m);
      asked = ask();
    });
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 4 }));
    await asked;
    await node.quiet();
    watcher.close();
    const path = (await node.close()).recording!;

    expect(answers).toEqual([
      { ok: true, seq: 1 },
      { ok: true, seq: 2 },
    ]);
    expect(said.map((m) => m.id)).toEqual(['why#1', 'why#2']);
    for (const m of said) expect(m).toMatchObject({ category: 'asked.why', about_seat: -1 });
    expect(said[0]!).toMatchObject({
      text: 'I have not played a card in this game yet.',
      language: 'en',
      target: 'all',
    });
    const en = loadBehaviourSetup({ language: 'en' }).utterances;
    // The robot's search explains every card it chose among several.
    const reason = reasonOfMessage(decisions[0]!);
    expect(reason, JSON.stringify(decisions[0])).not.toBeNull();
    // During the game, only what the others can see.
    // ...with what decided in its own search, in numbers, when the search's values tell the cards apart.
    const pair = movePairOfMessage(decisions[0]!);
    expect(pair).not.toBeNull();
    expect(said[1]!.text).toBe(reasonText(en, reason!, true, decidingEdge(pair!.chosen, pair!.other)));
    expect(said[1]!.text).toMatch(reasonOpenings('en'));

    const r = await replay.replayRecording(recording.readRecording(path));
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
  });

  it('never names a card still in its hand, over a whole session asked why after every card', async () => {
    const node = await startNode({
      seed: 31,
      games: 2,
      sessionId: 'why-2',
      language: 'pt',
      budgetMs: 120,
      recordingsDir: null,
    });
    const pt = loadBehaviourSetup({ language: 'pt' }).utterances;
    // Every card as the robot says it ("o ás de copas"), longest first so "o dois" never hides "o dois de".
    const phrases = DECK.map((c) => ({ card: formatCard(c), words: cardPhrase(pt, c).toLowerCase() }));
    let hand: string[] = [];
    let trumpCard = '';
    let trumpPlayed = true;
    const lines: { text: string; hand: string[]; trump: string }[] = [];
    node.bus.subscribe('gameState', (m) => {
      hand = m.robot_hand;
      trumpCard = m.trump_card;
    });
    node.bus.subscribe('gameEvents', (m) => {
      if (m.type === 'deal') trumpPlayed = false;
      if (m.type === 'play' && m.card === trumpCard) trumpPlayed = true;
    });
    node.bus.subscribe('utterance', (m) => {
      // The turned-up card is public while the dealer holds it.
      // When it is planned (queued), with the hand then, and when it is said: an answer the game
      // overtook before it could be said is checked too.
      if (m.phase === 'queued' || m.phase === 'start')
        lines.push({ text: m.text.toLowerCase(), hand: [...hand], trump: trumpPlayed ? '' : trumpCard });
    });
    const watcher = await watcherOf(node);
    let seq = 0;
    let asked = 0;
    node.bus.subscribe('decision', () => {
      asked++;
      watcher.emit('game:control', { seq: ++seq, action: 'why' }, () => {});
    });
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 6 }));
    await node.quiet();
    watcher.close();
    await node.close();

    expect(asked).toBe(20);
    const answers = lines.filter((l) => reasonOpenings('pt').test(l.text));
    expect(answers.length).toBeGreaterThanOrEqual(20);
    const leaks = lines.flatMap((l) =>
      phrases
        .filter((p) => l.hand.includes(p.card) && p.card !== l.trump && l.text.includes(p.words))
        .map((p) => `"${l.text}" names ${p.card}, in hand ${l.hand.join(' ')}`),
    );
    expect(leaks).toEqual([]);
  });
});

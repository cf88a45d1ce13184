// The training mode: with advice on, when the robot's partner, a person (a virtual table
// holds the seat), is to play and the choice matters, the robot suggests a card aloud to the partner:
// a card of the partner's that was legal then, in the session's language. The suggestion is a request
// on the bus, so the recording replays to exactly itself without searching. Off (the default), and
// for a partner that is a program, it says nothing of the kind. Nothing here measures time.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cardPhrase, loadBehaviourSetup } from '../../behaviours/index.js';
import { DECK } from '../../game/index.js';
import type * as Robot from '../../robot/index.js';
import type { GameStateMessage, UtteranceMessage, WizardSayMessage } from '../../robot/bus/index.js';
import type { TableKind } from '../../table-bridge/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const replay = (await import(
  new URL('../../dist/robot/offline/replay/index.js', import.meta.url).href
)) as typeof import('../../robot/offline/replay/index.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-advice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'advice-token-1';
const en = loadBehaviourSetup({ language: 'en' }).utterances;

async function session(id: string, advice: boolean, partnerKind: TableKind, thinkMs = 0) {
  const node = await robot.ParceiroNode.start({
    seed: 41,
    table: { host: '127.0.0.1', port: 0, token: TOKEN },
    games: 1,
    sessionId: id,
    language: 'en',
    budgetMs: 100,
    minThinkMs: 0,
    expectationBudgetMs: 0,
    speech: 'publish',
    recordingsDir: dir,
    dashboard: null,
    advice,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
  });
  const requests: WizardSayMessage[] = [];
  const said: UtteranceMessage[] = [];
  /** Who was to move when each suggestion went out. */
  const at: { toMove: number }[] = [];
  let state: GameStateMessage | null = null;
  node.bus.subscribe('gameState', (m) => void (state = m));
  node.bus.subscribe('wizardSay', (m) => {
    requests.push(m);
    at.push({ toMove: (state as GameStateMessage | null)?.to_move ?? -1 });
  });
  node.bus.subscribe('utterance', (m) => void (m.id.startsWith('advice#') && m.phase === 'start' && said.push(m)));
  // The partner (seat 2) is "a person" at a table of its own; the opponents a simulated table. The
  // partner takes its time, as people do (3 s in the test below: more than seven times the advice's
  // 400 ms search, so that on a loaded machine the search still ends, and a suggestion comes, during
  // its turn; at 1.2 s, three times, a load of 7 left whole games without one).
  const opponents = new SimulatedTable({ url: node.url, token: TOKEN, seed: 5, id: 'opponents', seats: [1, 3] });
  const person = new SimulatedTable({
    url: node.url,
    token: TOKEN,
    seed: 6,
    id: 'person',
    kind: partnerKind,
    seats: [2],
    thinkMs,
    autoNewGame: false,
  });
  await person.start();
  await robot.playToTheEnd(node, opponents);
  person.close();
  const path = (await node.close()).recording!;
  return { requests, said, at, path };
}

// The cases are independent (each its own session id, ports and folder) and mostly wait for the
// robot's pace and last lines: they run at once. The timeout is only a backstop.
describe('the training mode', { concurrent: true, timeout: 300_000 }, () => {
  it("suggests a card of the partner's, aloud, to the partner; the session replays to itself", async () => {
    const r = await session('advice-on', true, 'virtual', 3000);
    const phrases = DECK.map((c) => cardPhrase(en, c));
    for (const [i, m] of r.requests.entries())
      expect(m).toMatchObject({ by: 'advice', target: 'partner', language: 'en', utterance_id: `advice#${i + 1}` });
    // At the deal, how the robot's own hand looks, in fuzzy words (after Yano and Onisawa's poker partner).
    expect(r.requests[0]!.text).toMatch(/^My hand looks (very weak|weak|average|strong|very strong)\.$/);
    const cards = r.requests.filter((m) => m.text.startsWith('I would play'));
    expect(cards.length).toBeGreaterThan(0);
    for (const [i, m] of r.requests.entries()) {
      if (i === 0) continue;
      expect(m.text).toMatch(
        /^I would play the .+, not the .+: we win more often, (for sure|probably|maybe)\.$|^Careful with your seven of trumps: the ace of (spades|hearts|diamonds|clubs) is still on their side\.$|^They have no trumps left: nobody can ruff your aces and sevens now\.$/,
      );
      // Said while the partner was to play, of the partner's cards.
      expect(r.at[i]!.toMove).toBe(2);
      if (m.text.startsWith('I would play'))
        expect(phrases.filter((p) => m.text.includes(p)).length).toBeGreaterThanOrEqual(2);
    }
    // Said to the partner, in seat 2.
    expect(r.said.length).toBeGreaterThan(0);
    for (const u of r.said) expect(u).toMatchObject({ target: 'partner', addressee: 2, language: 'en' });
    const again = await replay.replayRecording(recording.readRecording(r.path));
    expect(again.firstDifference).toBeNull();
  });

  it('says nothing of the kind when off, or when the partner is a program', async () => {
    expect((await session('advice-off', false, 'virtual')).requests).toEqual([]);
    expect((await session('advice-program', true, 'simulated')).requests).toEqual([]);
  });
});

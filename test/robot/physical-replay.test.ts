// A physical-deal session recorded through the node replays to exactly itself: the robot's hand read
// from its hand area, its cards put on its spot, and a renounce found later are all table events on
// the bus, fed back through the same runtime. The node is loaded from dist/ (replay-harness.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RulePlayer, formatCard } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { tableDeal } from '../../table-bridge/table-deal.js';
import { recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-physical-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The two cases are independent (each its own node on free ports, token and session id) and mostly
// wait on the table and the robot's lines: they run at once.
describe.concurrent('a recorded physical-deal session', () => {
  it('replays and matches, a renounce found later included', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 33,
      table: { host: '127.0.0.1', port: 0, token: 'physical-replay' },
      games: 2,
      sessionId: 'physical-1',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 33 }) },
      minThinkMs: 30,
      expectationBudgetMs: 20,
      speech: 'publish',
      recordingsDir: dir,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      dashboard: null,
    });
    const table = new SimulatedTable({ url: node.url, token: 'physical-replay', seed: 31, physicalDeal: true });
    const renounce = table.inject('renounce');
    try {
      await table.start();
      const r = await renounce;
      expect(r.acks.map((a) => a.ok)).toEqual([true, true]);
      await node.finished();
      await node.quiet();
    } finally {
      table.close();
    }
    expect(table.results.map((g) => [g.deal, g.status])).toEqual([
      ['physical', 'renounce'],
      ['physical', 'complete'],
    ]);
    expect(table.results[0]!.renounce!.discovered).toBeDefined();
    const path = (await node.close()).recording!;

    const rec = recording.readRecording(path);
    expect(rec.problems).toEqual([]);
    const events = rec.messages
      .filter((m) => m.topic.name === '/parceiro/table/events')
      .map(
        (m) =>
          m.message as { kind: string; zone: string; seat: number; action: string; dealer: number; trump_card: string },
      );
    // The deals, the robot's hands and its placed cards are in the recording as table events.
    expect(events.filter((e) => e.kind === 'control' && e.action === 'new_game').map((e) => e.dealer)).toEqual([0, 1]);
    expect(events.filter((e) => e.kind === 'control').every((e) => e.trump_card !== '')).toBe(true);
    expect(events.filter((e) => e.kind === 'card_detected' && e.zone === 'hand' && e.seat === 0)).toHaveLength(20);

    const r = await replay.replayRecording(rec);
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.groups.plays.matches && r.groups.emotions.matches && r.groups.behaviours.matches).toBe(true);
    expect(r.answerDifferences).toEqual([]);
    expect(r.fed.tableEvents).toBe(events.length);
    expect(r.compared['/parceiro/game/events']).toBe(
      rec.messages.filter((m) => m.topic.name === '/parceiro/game/events').length,
    );
    const types = rec.messages
      .filter((m) => m.topic.name === '/parceiro/game/events')
      .map((m) => (m.message as { type: string }).type);
    expect(types).toContain('renounce');
    expect(r.complete).toBe(true);
  });

  it('stopped while the robot waits for its card to be put down, a restart asks for the same card and the session goes on', async () => {
    const start = {
      seed: 9,
      table: { host: '127.0.0.1', port: 0, token: 'physical-restart' },
      games: 1,
      recordingsDir: dir,
      dashboard: null,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
    };
    const node = await robot.ParceiroNode.start({
      ...start,
      sessionId: 'physical-2',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 9 }) },
      minThinkMs: 30,
      expectationBudgetMs: 0,
      speech: 'publish',
    });
    // Seat 3 deals, so the robot leads; the test reads its hand in and leaves its card on the table's side.
    const first = new SimulatedTable({
      url: node.url,
      token: start.table.token,
      seed: 5,
      physicalDeal: true,
      firstDealer: 3,
      autoPlay: false,
    });
    const lines: { id: string; phase: string; text: string }[] = [];
    node.bus.subscribe('utterance', (m) => lines.push(m));
    let announced = '';
    try {
      await first.start();
      await first.waitFor((st) => st.game !== null);
      for (const c of tableDeal(5, 0, 3).hands[0]!)
        expect(
          await first.send('card:detected', {
            seq: first.nextSeq(),
            zone: { area: 'hand', seat: 0 },
            card: formatCard(c),
          }),
        ).toMatchObject({ ok: true });
      announced = (await first.waitFor((st) => st.game!.awaiting !== null)).game!.awaiting!.card;
      // The robot says its card while it waits for someone to put it down: that is how they know which.
      await vi.waitFor(() => expect(lines.find((l) => l.id === 'card#robot' && l.phase === 'start')).toBeDefined(), {
        timeout: 10_000,
        interval: 10,
      });
      expect(first.state!.game!.plays).toEqual([]);
    } finally {
      first.close();
    }
    await node.close();

    const resumed = await replay.resumeSession({
      sessionId: 'physical-2',
      token: start.table.token,
      host: '127.0.0.1',
      port: 0,
      recordingsDir: dir,
      logger: start.logger,
      node: { dashboard: null },
    });
    // The announced card's decision comes from the recording, though no play followed it.
    expect(resumed.resume.restored).toMatchObject({ game: 1, trick: 1, played: 0, decisions: 1 });
    expect(resumed.resume.problems.filter((p) => p.includes('decision'))).toEqual([]);
    const table = new SimulatedTable({
      url: resumed.node.url,
      token: start.table.token,
      seed: 5,
      physicalDeal: true,
      firstDealer: 3,
    });
    try {
      const hello = await table.start();
      expect(hello.state.game).toMatchObject({
        deal: 'physical',
        robotCards: 10,
        awaiting: { seat: 0, card: announced },
        plays: [],
      });
      const end = await table.finished();
      expect(end.session.complete).toBe(true);
      expect(table.results[0]!.plays[0]).toEqual({ seat: 0, card: announced });
      expect(table.results[0]!.plays).toHaveLength(40);
    } finally {
      table.close();
      await resumed.close();
    }
  });
});

// A crash between a table event and what it caused: the recording holds the card put down but not its
// play. Restarting feeds the card in again, silently; what it causes that the recording lost must go
// on record in the new part, or the session's parts together miss a play (a resume check of the
// damaged-recordings suite found a game of 9 tricks whose end said otherwise). Nothing waits on time.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameEventMessage, TableEvent } from '../../robot/bus/index.js';
import { InProcessBus } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { recordSession, recording, replay, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-lost-events-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const events = (file: string): GameEventMessage[] =>
  recording
    .readRecording(file)
    .messages.filter((m) => m.topic.name === '/parceiro/game/events')
    .map((m) => m.message as GameEventMessage);

describe('a restart after a crash between a card and its play', () => {
  it('records the play the recording lost, so the parts hold every play and trick once', async () => {
    const whole = await recordSession(dir, 'lost');
    // Cut right after the 14th card put down on the table: its play, and all after, are lost.
    const messages = recording.readRecording(whole).messages;
    const cards = messages
      .map((m, i) => ({ m, i }))
      .filter(
        ({ m }) => m.topic.name === '/parceiro/table/events' && (m.message as TableEvent).kind === 'card_detected',
      );
    const cutAt = cards[13]!.i;
    const crashed = join(dir, 'crashed', 'recordings');
    mkdirSync(crashed, { recursive: true });
    const first = join(crashed, 'lost.mcap');
    const rec = recording.readRecording(whole);
    let now = 0;
    const r = await recording.Recorder.start({
      path: first,
      bus: new InProcessBus(),
      clock: () => now,
      session: rec.session!,
    });
    for (const m of rec.messages.slice(0, cutAt + 1)) {
      now = m.time;
      r.record(m.topic, m.message);
    }
    await r.close();
    // The card put down is on record; its play is not (the robot's own plays need no table event).
    const lostCard = (cards[13]!.m.message as TableEvent).card;
    expect(events(first).some((e) => e.type === 'play' && e.card === lostCard)).toBe(false);

    const resumed = await replay.resumeSession({
      sessionId: 'lost',
      recordingsDir: crashed,
      token: 'lost-token',
      host: '127.0.0.1',
      port: 0,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
      node: { dashboard: null },
    });
    const table = new SimulatedTable({ url: resumed.node.url, token: 'lost-token', seed: 8 });
    try {
      await table.start();
      await resumed.node.finished();
      await resumed.node.quiet();
    } finally {
      table.close();
    }
    const second = (await resumed.close()).recording!;
    const all = [...events(first), ...events(second)];
    const plays = all.filter((e) => e.type === 'play');
    expect(plays).toHaveLength(40);
    expect(new Set(plays.map((e) => e.card)).size).toBe(40);
    expect(all.filter((e) => e.type === 'trick')).toHaveLength(10);
    expect(all.filter((e) => e.type === 'deal')).toHaveLength(1);
    // The lost play is the first thing of the game the new part records.
    expect(events(second)[0]).toMatchObject({ type: 'play', card: lostCard });
    // And the new part replays to exactly itself, restored from the crashed one.
    const again = await replay.replayRecording(recording.readRecording(second));
    expect(again.firstDifference).toBeNull();
  });
});

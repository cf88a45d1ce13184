// A table that sends one refused event again and again (a flood of valid-shaped but refused
// events put one 470-byte record per copy in the recording): while nothing changes, the copies are
// refused like the first by the table bridge, never reach the session machine, and are recorded in
// batches, each carrying how many copies and their seqs.

import { describe, expect, it } from 'vitest';
import type { EventAck, HelloAck } from '../../table-bridge/index.js';
import type { TableEvent, TableOutput } from '../../robot/bus/index.js';
import { helloMessage, rawClient } from '../table-bridge/harness.js';
import { startSession } from './session-harness.js';

describe('the same refused event, again and again', () => {
  it('is refused alike, reaches the machine once, and is recorded in batches that count every copy', async () => {
    const started = await startSession({ seed: 5, games: 1 });
    const socket = rawClient(started.url);
    const joined = (await socket.emitWithAck('hello', helloMessage())) as HelloAck;
    expect(joined.ok).toBe(true);
    expect(await socket.emitWithAck('game:control', { seq: 1, action: 'new-game' })).toMatchObject({ ok: true });
    const toMove = started.runtime.view().current!.game.toMove;
    // A person's seat whose turn it is not.
    const seat = ([1, 2, 3] as const).find((s) => s !== toMove)!;
    const copy = (seq: number) => ({ seq, card: 'AS', zone: { area: 'play', seat } });
    const acks = (await Promise.all(
      Array.from({ length: 30 }, (_, i) => socket.emitWithAck('card:detected', copy(i + 2))),
    )) as EventAck[];
    const first = acks[0]!;
    expect(first).toMatchObject({ ok: false, code: 'out-of-turn', seq: 2 });
    acks.forEach((a, i) => expect(a).toEqual({ ...first, seq: i + 2 }));

    const events = (started.on('tableEvents') as TableEvent[]).filter((e) => e.table_id === 'raw');
    const heard = events.filter((e) => e.kind === 'card_detected');
    expect(heard.map((e) => e.seq)).toEqual([2]);
    const batches = events.filter((e) => e.kind === 'refused_again');
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.length).toBeLessThan(29);
    expect(batches.reduce((n, b) => n + b.repeats, 0)).toBe(29);
    // One after another, every seq from 3 to 31, each batch its first and last.
    let next = 3;
    for (const b of batches) {
      expect(b).toMatchObject({
        event: 'card:detected',
        code: 'out-of-turn',
        reason: first.ok ? '' : first.reason,
        card: 'AS',
        seat,
        zone: 'play',
        first_seq: next,
      });
      expect(b.seq - b.first_seq + 1).toBe(b.repeats);
      next = b.seq + 1;
    }
    expect(next).toBe(32);
    // The operator hears of the refusal once.
    expect((started.on('tableOutput') as TableOutput[]).filter((o) => o.kind === 'rejected').length).toBe(1);

    // A copy sent again under its own seq is a duplicate with the same answer.
    expect(await socket.emitWithAck('card:detected', copy(17))).toEqual({ ...first, seq: 17 });
    // Once something changes, the same card is judged again by the machine.
    expect(await socket.emitWithAck('game:control', { seq: 40, action: 'pause' })).toMatchObject({ ok: true });
    expect(await socket.emitWithAck('card:detected', copy(41))).toMatchObject({ ok: false, code: 'paused' });
    expect(await socket.emitWithAck('card:detected', copy(42))).toMatchObject({ ok: false, code: 'paused' });
    const after = (started.on('tableEvents') as TableEvent[]).filter((e) => e.table_id === 'raw' && e.seq >= 41);
    expect(after.map((e) => [e.kind, e.seq])).toEqual([
      ['card_detected', 41],
      ['refused_again', 42],
    ]);
  });
});

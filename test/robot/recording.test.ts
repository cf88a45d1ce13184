import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../robot/bus/index.js';
import { Recorder, RecordingError, readRecording } from '../../robot/recording/index.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});
const tmp = (name: string): string => {
  dir ||= mkdtempSync(join(tmpdir(), 'parceiro-rec-'));
  return join(dir, name);
};

const utter = (text: string) => ({ text, language: 'pt', id: 'u1' });

async function recordSome(path: string, n: number): Promise<void> {
  const bus = new InProcessBus();
  let now = 1_700_000_000_000;
  const rec = await Recorder.start({ path, bus, clock: () => now, session: { sessionId: 's1', seed: '42' } });
  for (let i = 0; i < n; i++) {
    now += 10;
    bus.publish('say', utter(`Boa jogada, parceiro! (${i}) «ás» "sete"`));
    bus.publish('tableEvents', {
      table_id: 't',
      seq: i,
      kind: 'card_detected',
      zone: 'play',
      seat: 1,
      fiducial: 7,
      card: 'AS',
      action: '',
      dealer: -1,
      trump_card: '',
      seats: [],
      table_name: '',
      table_kind: '',
      reason: '',
      event: '',
      code: '',
      repeats: 0,
      first_seq: 0,
    });
  }
  await rec.close();
}

describe('recordings', () => {
  it('round-trips every message with its topic, time and text (accents included), and the session metadata', async () => {
    const path = tmp('s1.mcap');
    await recordSome(path, 5);
    const r = readRecording(path);
    expect(r.problems).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.session).toEqual({ sessionId: 's1', seed: '42' });
    expect(r.messages.length).toBe(10);
    expect(r.messages[0]!.topic.name).toBe('/tts/say');
    expect(r.messages[0]!.time).toBe(1_700_000_000_010);
    expect((r.messages[8]!.message as { text: string }).text).toBe('Boa jogada, parceiro! (4) «ás» "sete"');
    expect(r.messages[9]!.message).toMatchObject({ kind: 'card_detected', card: 'AS', seq: 4 });
  });

  it('is a valid MCAP file with a JSON schema per channel', async () => {
    const path = tmp('s2.mcap');
    await recordSome(path, 1);
    const reader = new McapStreamReader();
    reader.append(readFileSync(path));
    const schemas: string[] = [];
    for (let rec = reader.nextRecord(); rec; rec = reader.nextRecord()) {
      if (rec.type === 'Schema') {
        expect(rec.encoding).toBe('jsonschema');
        schemas.push(rec.name);
      }
      if (rec.type === 'Channel') expect(rec.messageEncoding).toBe('json');
    }
    expect(reader.done()).toBe(true);
    expect(schemas).toContain('parceiro_msgs/msg/Utterance');
    expect(schemas).toContain('hri_msgs/msg/Expression');
  });

  it('reads a file cut short up to its last whole message and says so', async () => {
    const path = tmp('s3.mcap');
    await recordSome(path, 300);
    const full = readRecording(path).messages.length;
    truncateSync(path, Math.floor(readFileSync(path).length * 0.6));
    const r = readRecording(path);
    expect(r.complete).toBe(false);
    expect(r.messages.length).toBeGreaterThan(0);
    expect(r.messages.length).toBeLessThan(full);
    expect(r.problems.at(-1)).toMatch(/^cut short after \d+ messages .*not closed/);
  });

  it('keeps what precedes damage, and accounts for the damage', async () => {
    const path = tmp('s4.mcap');
    await recordSome(path, 300);
    const bytes = readFileSync(path);
    // Overwrite a stretch in the middle with a record opcode and a huge length.
    const mid = Math.floor(bytes.length / 2);
    bytes.fill(0xff, mid, mid + 64);
    writeFileSync(path, bytes);
    const r = readRecording(path);
    expect(r.messages.length).toBeGreaterThan(0);
    expect(r.messages.length).toBeLessThan(600);
    expect(r.problems.length).toBeGreaterThan(0);
    expect(r.problems.join('\n')).toMatch(/damaged after \d+ messages|cut short|skipped/);
  });

  it('skips a message that is not what its topic carries, and names it', async () => {
    const path = tmp('s5.mcap');
    const bus = new InProcessBus();
    const rec = await Recorder.start({ path, bus, clock: () => 5, session: {} });
    bus.publish('say', utter('ok'));
    rec.record(
      {
        name: '/tts/say',
        message: { type: 'parceiro_msgs/msg/Say', description: '', fields: {} },
        qos: { reliability: 'reliable', durability: 'volatile', depth: 1 },
        description: '',
      },
      { text: 42 },
    );
    bus.publish('say', utter('still here'));
    await rec.close();
    const r = readRecording(path);
    expect(r.messages.map((m) => (m.message as { text: string }).text)).toEqual(['ok', 'still here']);
    expect(r.problems).toEqual([
      'message 2 (/tts/say, t=5 ms): parceiro_msgs/msg/Say.text: expected a string; skipped',
    ]);
  });

  it('refuses a file that is not a recording, with its path', () => {
    const path = tmp('not.mcap');
    writeFileSync(path, 'hello, this is not mcap');
    expect(() => readRecording(path)).toThrow(RecordingError);
    expect(() => readRecording(tmp('missing.mcap'))).toThrow(/missing\.mcap: cannot read the file \(ENOENT\)/);
  });
});

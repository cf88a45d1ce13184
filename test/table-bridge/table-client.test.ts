// The clients' core on its own: the hello message, sequence numbers (in memory and in a store of the
// caller's, as the virtual table keeps them), what an event's answer calls for, and the newer state.
// The clients over real sockets are in simulated-seats, server, tuio-adapter and the browser test.

import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, TABLE_NAMESPACE } from '../../table-bridge/index.js';
import {
  SeqNumbers,
  answerCall,
  helloMessage,
  olderState,
  tableSocketOptions,
} from '../../table-bridge/table-client.js';

describe('the hello message', () => {
  it('names the protocol, token, table and seats, and asks for the behaviour only when told', () => {
    const seats = [1, 3] as const;
    const hello = helloMessage({ token: 't', table: { id: 'a', name: 'A', kind: 'simulated' }, seats });
    expect(hello).toEqual({
      protocol: PROTOCOL_VERSION,
      token: 't',
      table: { id: 'a', name: 'A', kind: 'simulated' },
      seats: [1, 3],
    });
    expect('behaviour' in hello).toBe(false);
    expect(hello.seats).not.toBe(seats);
    const page = helloMessage({
      protocol: 7,
      token: 't',
      table: { id: 'v', name: 'V', kind: 'virtual' },
      seats: [],
      behaviour: true,
    });
    expect(page).toMatchObject({ protocol: 7, seats: [], behaviour: true });
  });

  it('connects to the /table namespace over WebSocket, a new connection each time', () => {
    expect(TABLE_NAMESPACE).toBe('/table');
    expect(tableSocketOptions({ reconnectionDelayMax: 2000 })).toEqual({
      forceNew: true,
      transports: ['websocket'],
      reconnectionDelayMax: 2000,
    });
  });
});

describe('sequence numbers', () => {
  it('count up from 1 and continue above the hello answer, never going back', () => {
    const seqs = new SeqNumbers();
    expect([seqs.next(), seqs.next()]).toEqual([1, 2]);
    seqs.continueAbove(10);
    expect(seqs.next()).toBe(11);
    seqs.continueAbove(3);
    expect(seqs.next()).toBe(12);
  });

  it("live in the caller's store when given one (the virtual table's localStorage)", () => {
    const stored = new Map<string, string>([['seq', '41']]);
    const store = {
      read: () => Number(stored.get('seq') ?? '0'),
      write: (n: number) => void stored.set('seq', String(n)),
    };
    expect(new SeqNumbers(store).next()).toBe(42);
    // A reload: a new counter over the same store continues.
    const again = new SeqNumbers(store);
    again.continueAbove(40);
    expect(stored.get('seq')).toBe('42');
    expect(again.next()).toBe(43);
  });
});

describe("what an event's answer calls for", () => {
  it('tells an answer from no answer, a lost hello and a rate limit', () => {
    expect(answerCall(null)).toEqual({ kind: 'unanswered' });
    const ok = { ok: true as const, seq: 3 };
    expect(answerCall(ok)).toEqual({ kind: 'answered', ack: ok });
    const refused = { ok: false as const, code: 'out-of-turn', reason: 'not yours' };
    expect(answerCall(refused)).toEqual({ kind: 'answered', ack: refused });
    expect(answerCall({ ok: false, code: 'no-hello', reason: '' })).toEqual({ kind: 'hello-lost' });
    expect(answerCall({ ok: false, code: 'rate-limited', reason: '', retryAfterMs: 250 })).toEqual({
      kind: 'rate-limited',
      waitMs: 250,
    });
    expect(answerCall({ ok: false, code: 'rate-limited', reason: '' })).toEqual({ kind: 'rate-limited', waitMs: 100 });
  });
});

describe('the newer state', () => {
  it('is older only when both are numbered and the new one is below', () => {
    expect(olderState({ version: 5 }, { version: 4 })).toBe(true);
    expect(olderState({ version: 5 }, { version: 5 })).toBe(false);
    expect(olderState({ version: 5 }, { version: 6 })).toBe(false);
    expect(olderState({ version: 5 }, {})).toBe(false);
    expect(olderState({}, { version: 1 })).toBe(false);
    expect(olderState(null, { version: 1 })).toBe(false);
  });
});

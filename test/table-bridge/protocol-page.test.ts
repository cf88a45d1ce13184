// PROTOCOL.md is the page a table developer writes a client from: its examples must be true. Every
// message on it fits its schema, its state example is a consistent game, its tables list every
// refusal code, prompt kind and game status the runtime has, its fiducial examples are the shipped
// mapping's, and its transcripts, run against a real runtime, get exactly the answers and messages
// the page shows, in its order.

import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { DECK, formatCard, parseCard } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import {
  GAME_STATUSES,
  PROMPT_KINDS,
  REJECT_CODES,
  eventAckSchema,
  handSchema,
  loadFiducials,
  promptSchema,
  rejectedSchema,
  robotBehaviourSchema,
  robotPlaySchema,
  tableStateSchema,
  validateInbound,
  validateOutbound,
} from '../../table-bridge/index.js';
import type { InboundEvent } from '../../table-bridge/index.js';
import { codeBlocks, contains, readPage, runTranscript, transcriptLines } from './protocol-page.js';

const page = readPage();
const blocks = codeBlocks(page);
const transcripts = blocks.filter((b) => b.info[0] === 'transcript');
const OUTBOUND: Record<string, ZodType<unknown>> = {
  hand: handSchema,
  prompt: promptSchema,
  'robot:play': robotPlaySchema,
  rejected: rejectedSchema,
};

describe('PROTOCOL.md', () => {
  it('has its examples: answers, a state and two transcripts', () => {
    expect(blocks.filter((b) => b.info[0] === 'event-ack')).toHaveLength(1);
    expect(blocks.filter((b) => b.info[0] === 'state')).toHaveLength(1);
    expect(transcripts).toHaveLength(2);
  });

  it('every robot:behaviour example fits the schema, one of each kind', () => {
    const lines = blocks.find((b) => b.info[0] === 'robot-behaviour')!.text.split('\n');
    for (const line of lines)
      expect(validateOutbound(robotBehaviourSchema, 'robot:behaviour', JSON.parse(line)), line).toMatchObject({
        ok: true,
      });
    const kinds = new Set(lines.map((l) => (JSON.parse(l) as { kind: string }).kind));
    for (const kind of robotBehaviourSchema.options.map((o) => o.shape.kind.value)) expect(kinds, kind).toContain(kind);
  });

  it('every event answer example fits the schema', () => {
    for (const line of blocks.find((b) => b.info[0] === 'event-ack')!.text.split('\n')) {
      expect(validateOutbound(eventAckSchema, 'answer', JSON.parse(line)), line).toMatchObject({ ok: true });
    }
  });

  it('the state example fits the schema and is one consistent game', () => {
    const raw = JSON.parse(blocks.find((b) => b.info[0] === 'state')!.text) as unknown;
    const v = validateOutbound(tableStateSchema, 'state', raw);
    expect(v).toMatchObject({ ok: true });
    const g = v.ok ? v.value.game! : null!;
    const held = g.hands.flatMap((h) => h.cards);
    const played = g.plays.map((p) => p.card);
    expect(new Set([...held, ...played]).size).toBe(held.length + played.length);
    for (const h of g.hands) expect(h.cards).toHaveLength(g.handSizes[h.seat]!);
    expect(g.handSizes.reduce((a, b) => a + b, 0) + played.length).toBe(40);
    // The turned-up card is in the dealer's hand until played.
    if (!g.trumpCardPlayed)
      expect(g.hands.find((h) => h.seat === g.dealer)?.cards ?? [g.trumpCard]).toContain(g.trumpCard);
    // The last trick is the plays' and was won by the leader of the trick in progress.
    expect(g.lastTrick!.cards).toEqual(played.slice((g.trick - 1) * 4, g.trick * 4));
    expect(g.leader).toBe(g.lastTrick!.winner);
    expect(g.table.map((p) => p.card)).toEqual(played.slice(g.trick * 4));
  });

  it('lists every refusal code, prompt kind and game status', () => {
    for (const code of REJECT_CODES) expect(page, code).toContain(`\`${code}\``);
    for (const kind of PROMPT_KINDS) expect(page, kind).toMatch(new RegExp(`^\\| \`${kind}\` \\|`, 'm'));
    for (const status of GAME_STATUSES) expect(page, status).toContain(`\`${status}\``);
  });

  it("states the shipped fiducial mapping's rule and its examples rightly", () => {
    const map = loadFiducials();
    const examples = [...page.matchAll(/(\d+) is (\d?[2-7QJKA][SHDC])\b/g)].map((m) => [Number(m[1]), m[2]!] as const);
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const [id, card] of examples) expect(formatCard(map.cardOf(id)!), `fiducial ${id}`).toBe(card);
    // fiducial = 10 x suit + rank, suits S H D C, ranks 2 3 4 5 6 Q J K 7 A.
    const ranks = '2 3 4 5 6 Q J K 7 A'.split(' ');
    for (const c of DECK) {
      const name = formatCard(c);
      expect(map.idOf(c)).toBe(10 * 'SHDC'.indexOf(name.at(-1)!) + ranks.indexOf(name.slice(0, -1)));
    }
    expect(parseCard('6H')).toBe(map.cardOf(14));
  });

  it("every transcript line fits its message's schema", () => {
    for (const block of transcripts) {
      for (const l of transcriptLines(block)) {
        if (l.dir === '>')
          expect(validateInbound(l.name as InboundEvent, l.payload), l.text).toMatchObject({ ok: true });
        else if (l.name in OUTBOUND)
          expect(validateOutbound(OUTBOUND[l.name]!, l.name, l.payload), l.text).toMatchObject({ ok: true });
        else if (l.name === 'ack' && !('state' in (l.payload as object)))
          expect(validateOutbound(eventAckSchema, 'ack', l.payload), l.text).toMatchObject({ ok: true });
        else expect(['ack', 'state'], l.text).toContain(l.name);
      }
    }
  });

  for (const [i, block] of transcripts.entries()) {
    it(`transcript ${i + 1} (line ${block.line}) is what a real runtime does`, async () => {
      const opt = Object.fromEntries(block.info.slice(1).map((w) => w.split('=') as [string, string]));
      const lines = transcriptLines(block);
      const run = await runTranscript(lines, { seed: Number(opt.seed), robot: Number(opt.robot) as Seat });
      try {
        // The page's runtime messages, in its order, among what the table received (states in part).
        let at = 0;
        for (const l of lines.filter((x) => x.dir === '<')) {
          const found = run.received.findIndex(
            (r, k) => k >= at && r.name === l.name && contains(r.payload, l.payload),
          );
          const near = run.received
            .slice(at, at + 6)
            .map((r) => `${r.name} ${JSON.stringify(r.payload).slice(0, 200)}`);
          expect(found, `PROTOCOL.md:${l.line}: ${l.text}\nreceived next:\n${near.join('\n')}`).toBeGreaterThanOrEqual(
            0,
          );
          at = found + 1;
        }
        // Every state the table received fits the schema.
        for (const r of run.received.filter((x) => x.name === 'state'))
          expect(validateOutbound(tableStateSchema, 'state', r.payload)).toMatchObject({ ok: true });
      } finally {
        await run.close();
      }
    });
  }
});

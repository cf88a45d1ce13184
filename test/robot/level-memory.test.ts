// The robot at a level of play in a live session (docs/levels.md): at `beginner` its player
// on the worker pool searches the worlds of what it remembers (at most the level's 3 worlds a
// decision), it publishes what it recalled at each decision on /parceiro/memory, with forgotten
// cards, the recording names the level and its settings, and the session replays to exactly itself,
// memory messages included. At full nothing is published. node.yaml's level is validated. The robot's
// cards depend on its search's time budget, so the messages are checked for what they must be, not
// against fixed cards; nothing waits on the clock (the session is waited on to its end).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEVELS, Game, SeatView, createRng, dealCards, parseCard } from '../../game/index.js';
import type { DecisionMessage, MemoryMessage } from '../../robot/bus/index.js';
import { playToEnd, recording, replay, robot } from './replay-harness.js';

const dist = (p: string): string => new URL(`../../dist/${p}`, import.meta.url).href;
const settingsModule = (await import(
  dist('robot/live/node/node-settings.js')
)) as typeof import('../../robot/live/node/node-settings.js');
const levelMemory = (await import(
  dist('robot/live/node/level-memory.js')
)) as typeof import('../../robot/live/node/level-memory.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-level-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A two-game session of the node with its own player (the pool), at `level`, recorded; its memory and decision messages. */
async function session(
  id: string,
  level: 'beginner' | 'full',
): Promise<{ path: string; memory: MemoryMessage[]; decisions: DecisionMessage[] }> {
  const node = await robot.ParceiroNode.start({
    seed: 12,
    table: { host: '127.0.0.1', port: 0, token: 'level-test' },
    games: 2,
    sessionId: id,
    level,
    budgetMs: 150,
    minThinkMs: 0,
    expectationBudgetMs: 20,
    speech: 'publish',
    recordingsDir: dir,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
    dashboard: null,
  });
  const memory: MemoryMessage[] = [];
  const decisions: DecisionMessage[] = [];
  node.bus.subscribe('memory', (m) => memory.push(m));
  node.bus.subscribe('decision', (m) => decisions.push(m));
  await playToEnd(node, 'level-test');
  return { path: (await node.close()).recording!, memory, decisions };
}

let beginner: Awaited<ReturnType<typeof session>>;
beforeAll(async () => {
  beginner = await session('level-beginner', 'beginner');
}, 120_000);

describe('the robot at level beginner', () => {
  it('recalls at each of its decisions with a choice and publishes what it forgot', () => {
    const searched = beginner.decisions.filter((d) => d.fallback !== 'forced');
    expect(beginner.memory.length).toBe(searched.length);
    expect(beginner.memory.length).toBeGreaterThan(8);
    expect(beginner.memory.map((m) => m.game)).toEqual([...beginner.memory.map((m) => m.game)].sort());
    expect(new Set(beginner.memory.map((m) => m.game))).toEqual(new Set([0, 1]));
    for (const m of beginner.memory) {
      expect(m.level).toBe('beginner');
      expect(m.threshold).toBeCloseTo(-1.5);
      // The cards of the tricks before the decision's, who played each, recalled or not, with activations.
      expect(m.played).toHaveLength(m.trick * 4);
      expect(m.seats).toHaveLength(m.played.length);
      expect(m.recalled).toHaveLength(m.played.length);
      expect(m.activations).toHaveLength(m.played.length);
      expect(new Set(m.played).size).toBe(m.played.length);
      expect(m.forgotten).toEqual(
        m.played.filter((_, i) => !m.recalled[i]).sort((a, b) => parseCard(a) - parseCard(b)),
      );
      for (const a of m.activations) expect(Number.isFinite(a)).toBe(true);
      for (const v of [...m.voids, ...m.forgotten_voids]) expect(v).toMatch(/^[123][SHDC]$/);
    }
    // A beginner forgets most played cards by the later tricks (83% at its last turn, docs/levels.md).
    const late = beginner.memory.filter((m) => m.trick >= 5);
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((m) => m.forgotten.length > 0)).toBe(true);
    const forgotten = beginner.memory.reduce((n, m) => n + m.forgotten.length, 0);
    const played = beginner.memory.reduce((n, m) => n + m.played.length, 0);
    expect(forgotten / played).toBeGreaterThan(0.4);
  });

  it("searches the level's worlds (at most 3 a decision) on the worker pool", () => {
    const searched = beginner.decisions.filter((d) => d.fallback === '');
    expect(searched.length).toBeGreaterThan(0);
    for (const d of searched) expect(d.worlds).toBeLessThanOrEqual(DEFAULT_LEVELS.levels.beginner.worlds!);
    // No inference at the beginner level.
    for (const d of searched) expect(d.inference_trust).toBeLessThanOrEqual(0);
  });

  it('names the level and its settings in the recording, and replays to exactly itself, memory included', async () => {
    const rec = recording.readRecording(beginner.path);
    expect(rec.session).toMatchObject({ level: 'beginner' });
    expect(JSON.parse(rec.session!.levelSettings!)).toMatchObject({
      secondsPerCard: 5,
      infer: 0,
      worlds: 3,
      memory: { threshold: -1.5 },
    });
    const recorded = rec.messages.filter((m) => m.topic.name === '/parceiro/memory').map((m) => m.message);
    expect(recorded).toEqual(JSON.parse(JSON.stringify(beginner.memory)));
    const r = await replay.replayRecording(rec);
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.groups.plays.matches).toBe(true);
    expect(r.compared['/parceiro/memory']).toBe(recorded.length);
    expect(r.settings.level?.name).toBe('beginner');
    expect(r.answerDifferences).toEqual([]);
  }, 120_000);

  it('a replay recalls with the recorded settings, not the config of the day: other settings make other messages', async () => {
    const rec = recording.readRecording(beginner.path);
    const changed = {
      ...rec,
      session: {
        ...rec.session!,
        levelSettings: JSON.stringify({
          ...JSON.parse(rec.session!.levelSettings!),
          memory: DEFAULT_LEVELS.levels.expert.memory,
        }),
      },
    };
    const r = await replay.replayRecording(changed);
    expect(r.groups.plays.matches).toBe(false);
    expect(r.groups.plays.firstDifference?.topic).toBe('/parceiro/memory');
  }, 120_000);
});

describe('the memory message', () => {
  it('is what the level memory recalled, deterministic under the seed', () => {
    const deal = dealCards(createRng(5, 0), 3);
    const messages: MemoryMessage[][] = [[], []];
    for (const run of [0, 1]) {
      const g = new Game(deal);
      const bus = { publish: (_t: 'memory', m: MemoryMessage) => void messages[run]!.push(m) } as never;
      const memory = new levelMemory.RobotMemory({ bus, level: 'beginner', levels: DEFAULT_LEVELS, seed: 77 });
      while (!g.isOver) {
        const view = new SeatView(g, g.toMove);
        const legal = view.legalCards();
        if (g.toMove === 0 && legal.length > 1) memory.recall(view.snapshot(), legal);
        g.play(legal[0]!);
      }
    }
    expect(messages[0]!.length).toBeGreaterThan(0);
    expect(messages[1]).toEqual(messages[0]);
    expect(messages[0]!.some((m) => m.forgotten.length > 0)).toBe(true);
  });
});

describe('the robot at level full', () => {
  it('publishes no memory (it forgets nothing) and names the level in its recording', async () => {
    const full = await session('level-full', 'full');
    expect(full.memory).toEqual([]);
    const rec = recording.readRecording(full.path);
    expect(rec.session?.level).toBe('full');
    expect(rec.session?.levelSettings).toBeUndefined();
    expect(rec.messages.some((m) => m.topic.name === '/parceiro/memory')).toBe(false);
  }, 120_000);
});

describe('config/node.yaml player.level', () => {
  it('is validated: an unknown level names the file, the line and the levels', () => {
    const text = readFileSync(new URL('../../config/node.yaml', import.meta.url), 'utf8');
    expect(text).toMatch(/^ {2}level: full$/m);
    const file = join(dir, 'node.yaml');
    writeFileSync(file, text.replace(/^ {2}level: full$/m, '  level: novice'));
    const line = text.split('\n').findIndex((l) => l === '  level: full') + 1;
    expect(() => settingsModule.loadNodeSettings(file)).toThrow(
      new RegExp(`node\\.yaml:${line}.*player\\.level.*beginner.*full`, 's'),
    );
    writeFileSync(file, text.replace(/^ {2}level: full\n/m, ''));
    expect(settingsModule.loadNodeSettings(file).player.level).toBeUndefined();
  });
});

// Speech in step with the game, heard from the bus as the people at the table would hear it: a whole
// session at a table that plays faster than the robot talks (a card every 0.7 s, lines of 1.5-4 s).
// No line may start once the game has moved past what it is about: a card's line once the next card
// is down, a trick's once the next trick has begun, a game's result once the next game is under way,
// and after the session's end nothing but the last game's result and the farewell. Lines that lost their moment are dropped and
// say so. Nothing here measures time: the invariants hold whatever the machine's speed.

import { describe, expect, it } from 'vitest';
import { RulePlayer } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import type { GameEventMessage, UtteranceMessage } from '../../robot/bus/index.js';
import { robot } from './replay-harness.js';

type Heard = { kind: 'event'; m: GameEventMessage } | { kind: 'line'; m: UtteranceMessage };

async function fastSession(seed: number, games: number): Promise<Heard[]> {
  const node = await robot.ParceiroNode.start({
    seed,
    table: { host: '127.0.0.1', port: 0, token: 'speech-timing' },
    games,
    sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed }) },
    minThinkMs: 50,
    expectationBudgetMs: 20,
    // Each line holds the voice for its planned duration, as a robot's own TTS would.
    speech: 'publish',
    recordingsDir: null,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
    dashboard: null,
  });
  const heard: Heard[] = [];
  node.bus.subscribe('gameEvents', (m) => void heard.push({ kind: 'event', m }));
  node.bus.subscribe('utterance', (m) => void heard.push({ kind: 'line', m }));
  const table = new SimulatedTable({ url: node.url, token: 'speech-timing', seed: seed + 1, thinkMs: 700 });
  try {
    await table.start();
    await node.finished();
    await node.quiet();
  } finally {
    table.close();
    await node.close();
  }
  return heard;
}

/** Why a line that started at position `at` of `heard` came too late, or null. */
function lateness(heard: Heard[], at: number, robotSeat = 0): string | null {
  const line = (heard[at] as { m: UtteranceMessage }).m;
  const before = heard.slice(0, at).flatMap((h) => (h.kind === 'event' ? [h.m] : []));
  const plays = before.filter((e) => e.type === 'play');
  const lastPlay = plays.at(-1);
  const last = (type: string): number => before.findLastIndex((e) => e.type === type);
  const playsAfter = (i: number): number => before.slice(i + 1).filter((e) => e.type === 'play').length;
  const c = line.category;
  // At the session's end the last game's result may still be said, then the farewell; nothing else.
  if (before.some((e) => e.type === 'session_end') && !c.startsWith('session.end') && !c.startsWith('game.end'))
    return 'after the session ended';
  if (c.startsWith('playing.') || c === 'play.self')
    return lastPlay?.seat === robotSeat ? null : `the robot's card line came after ${lastPlay?.card} was played`;
  if (c === 'play.partner')
    return lastPlay?.seat === (robotSeat + 2) % 4 ? null : `the partner's card line came after ${lastPlay?.card}`;
  if (c === 'play.opponent')
    return lastPlay && lastPlay.seat % 2 !== robotSeat % 2
      ? null
      : `an opponent's card line came after ${lastPlay?.card}`;
  if (c.startsWith('trick.end'))
    return playsAfter(last('trick')) === 0 ? null : 'a trick line came once the next trick had begun';
  if (c.startsWith('game.end'))
    return playsAfter(last('end')) === 0 ? null : "a game's result came once the next game was under way";
  if (c === 'session.start') return plays.length < 5 ? null : 'the greeting came after the first trick';
  return null;
}

describe('speech at a table faster than the voice', () => {
  it('never starts a line once the game has moved past it, and drops those lines, saying so', async () => {
    const heard = await fastSession(5, 2);
    const lines = heard.flatMap((h, i) => (h.kind === 'line' ? [{ i, m: h.m }] : []));
    const started = lines.filter((l) => l.m.phase === 'start');
    const late = started.flatMap((l) => {
      const why = lateness(heard, l.i);
      return why ? [`${l.m.category} "${l.m.text}": ${why}`] : [];
    });
    expect(late).toEqual([]);
    // The table was fast enough to overtake some lines, and slow enough to let the robot speak of its cards.
    expect(lines.filter((l) => l.m.phase === 'dropped' && l.m.reason === 'stale').length).toBeGreaterThan(0);
    expect(started.some((l) => l.m.category.startsWith('session.end'))).toBe(true);
    // Every line started ends, the farewell included: the session's end waits for it, and flushes nothing stale.
    expect(lines.filter((l) => l.m.phase === 'end').length).toBe(started.length);
  }, 180_000);
});

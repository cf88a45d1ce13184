// A large recording made cheaply: a real node, recorded, whose runtime is handed a flood of card
// events it refuses (no game has started), straight from here rather than over a socket, so it takes
// seconds: each refused event is recorded with its refusal, two messages an event, about 240 bytes
// each, as the table server recorded them before repeated refusals were summarized.

import { RulePlayer, parseCard } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import { ParceiroNode, createLogger, syncRobotPlayer } from '../../robot/index.js';

/**
 * Records session `id` in `dir`: a table's hello, then `events` refused card events; returns the file.
 * `surplus`: with each event, a prediction message the replay never produces (no game, no prediction),
 * as if another node had published it.
 */
export async function floodRecording(dir: string, id: string, events: number, surplus = false): Promise<string> {
  const node = await ParceiroNode.start({
    seed: 3,
    table: { host: '127.0.0.1', port: 0, token: 'flood' },
    games: 1,
    sessionId: id,
    sources: { player: syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 3 }) },
    expectationBudgetMs: 0,
    speech: 'log',
    recordingsDir: dir,
    logger: createLogger({ level: 'silent', pretty: false }),
    dashboard: null,
  });
  const table = { id: 'flood', name: 'flood', kind: 'simulated' as const, seats: [1, 2, 3] as Seat[] };
  node.runtime.onHello(table);
  for (let i = 1; i <= events; i++) {
    const v = node.runtime.onCardDetected({
      table,
      seq: i,
      zone: { area: 'play', seat: 1 },
      card: parseCard('AS'),
      fiducial: null,
    });
    if (v.ok) throw new Error('a card before any game was accepted');
    if (surplus)
      node.bus.publish('prediction', {
        game: 1,
        trick: 0,
        seat: 1,
        model: 'expert',
        phase: 'predicted',
        cards: ['AS'],
        probabilities: [1],
        possible: 10,
        played: '',
        probability: -1,
        rank: -1,
        surprise: -1,
      });
    // Lets the recorder write as it goes.
    if (i % 5000 === 0) await new Promise((r) => setImmediate(r));
  }
  return (await node.close()).recording!;
}

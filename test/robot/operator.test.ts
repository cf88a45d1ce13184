// The operator's controls, carried out by the node: pause and resume reach the session, a language
// change swaps the robot's lines, and wizard-of-oz lines and expressions are said and shown at once.
// They arrive on the bus, as the dashboard sends them. Waits on bus messages, never on time.

import { describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import type { BusEntry, TopicKey, TopicMessage } from '../../robot/bus/index.js';
import { RulePlayer } from '../../game/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;

/** Resolves with the first message on `key` that satisfies `ok`, counting those already seen. */
function next<K extends TopicKey>(
  node: Robot.ParceiroNode,
  seen: BusEntry[],
  key: K,
  name: string,
  ok: (m: TopicMessage<K>) => boolean,
): Promise<TopicMessage<K>> {
  const old = seen.find((e) => e.topic.name === name && ok(e.message as TopicMessage<K>));
  if (old) return Promise.resolve(old.message as TopicMessage<K>);
  return new Promise((resolve) => {
    // A latched topic delivers during subscribe, before `off` exists: unsubscribe after, then.
    let done = false;
    let off: (() => void) | null = null;
    off = node.bus.subscribe(key, (m) => {
      if (!done && ok(m)) {
        done = true;
        off?.();
        resolve(m);
      }
    });
    if (done) off();
  });
}

describe('operator controls on the node', () => {
  it('pauses and resumes the session, switches the language, and says and shows what the wizard asks', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 11,
      table: { host: '127.0.0.1', port: 0, token: 'operator-test-token' },
      games: 1,
      sessionId: 'operator-test',
      sources: { player: robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 11 }) },
      minThinkMs: 0,
      expectationBudgetMs: 0,
      speech: 'publish',
      recordingsDir: null,
      logger: robot.createLogger({ level: 'silent', pretty: false }),
    });
    const seen: BusEntry[] = [];
    node.bus.tap((e) => seen.push(e));
    try {
      expect(node.dashboard?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(node.dashboard?.token.length).toBeGreaterThanOrEqual(8);
      const robotConnection = seen.find((e) => e.topic.name === '/parceiro/connections');
      expect(robotConnection).toBeUndefined(); // published before this tap: it is latched, so ask for it
      const latched = await next(node, seen, 'connections', '/parceiro/connections', (m) => m.component === 'robot');
      expect(latched).toMatchObject({ component: 'robot', connected: true, kind: 'in-process' });

      node.bus.publish('sessionControl', { action: 'pause', by: 'test' });
      await next(node, seen, 'gameState', '/parceiro/game/state', (m) => m.status === 'paused');
      node.bus.publish('sessionControl', { action: 'resume', by: 'test' });
      await next(node, seen, 'gameState', '/parceiro/game/state', (m) => m.status !== 'paused');

      node.bus.publish('setLanguage', { language: 'en', by: 'test' });
      expect(await next(node, seen, 'language', '/parceiro/behaviours/language', (m) => m.language === 'en')).toEqual({
        language: 'en',
        by: 'test',
      });

      node.bus.publish('wizardSay', {
        text: 'Boa sorte, pessoal!',
        language: '',
        utterance_id: '',
        target: 'all',
        by: 'test',
      });
      const said = await next(node, seen, 'say', '/tts/say', (m) => m.text === 'Boa sorte, pessoal!');
      expect(said.language).toBe('en');
      const utterance = await next(
        node,
        seen,
        'utterance',
        '/parceiro/behaviours/utterance',
        (m) => m.text === 'Boa sorte, pessoal!' && m.phase === 'start',
      );
      expect(utterance.category).toBe('operator');

      node.bus.publish('wizardExpression', { expression: 'surprised', intensity: 0.8, by: 'test' });
      await next(node, seen, 'expression', '/robot_face/expression', (m) => m.expression === 'surprised');

      // Requests that make no sense change nothing and stop nothing.
      node.bus.publish('setLanguage', { language: 'fr', by: 'test' });
      node.bus.publish('wizardExpression', { expression: 'smug', intensity: 2, by: 'test' });
      node.bus.publish('wizardSay', { text: '  ', language: '', utterance_id: '', target: 'all', by: 'test' });
      expect(
        seen
          .filter((e) => e.topic.name === '/parceiro/behaviours/language')
          .map((e) => (e.message as { language: string }).language),
      ).toEqual(['en']);
    } finally {
      await node.close();
    }
  });
});

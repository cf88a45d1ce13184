// On ROS 2 a subscription of the node hears the node's own messages too: OwnEchoes tells them from
// another node's, by content at a publisher's first message and by its id after that.

import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../robot/bus/index.js';
import { OwnEchoes, echoKey } from '../../robot/bus/own-echoes.js';

const line = (text: string) => ({ text, language: 'pt', utterance_id: '', target: 'all', by: 'x' });
const ours = { publisherGid: [1, 2, 3] };
const theirs = { publisherGid: [9, 9, 9] };

describe('own echoes', () => {
  it('takes a message heard back for its own, and another for another node’s, by content then by id', () => {
    const e = new OwnEchoes();
    const t = TOPICS.wizardSay;
    // Before the node's publisher is known: by content.
    expect(e.isOwn(t, line('a'), theirs)).toBe(false);
    e.published(t, line('a'), true);
    expect(e.isOwn(t, line('a'), ours)).toBe(true);
    // Then by id alone: the same words from another publisher are another node's.
    e.published(t, line('b'), true);
    expect(e.isOwn(t, line('b'), theirs)).toBe(false);
    expect(e.isOwn(t, line('b'), ours)).toBe(true);
    expect(e.isOwn(t, line('zzz'), ours)).toBe(true);
    // Another topic has its own publisher, learned again.
    expect(e.isOwn(TOPICS.wizardExpression, { expression: 'happy', intensity: 1, by: 'x' }, ours)).toBe(false);
  });

  it('matches what the wire gives back: typed arrays, float32, 64-bit integers, fields in any order', () => {
    expect(echoKey({ b: Int8Array.from([1, 2]), a: Math.fround(0.7), n: 5n })).toBe(
      echoKey({ a: 0.7, n: 5, b: [1, 2] }),
    );
  });

  it('expects a latched topic’s last messages to be heard again by a subscription made later', () => {
    const e = new OwnEchoes();
    const t = TOPICS.language;
    e.published(t, { language: 'pt', by: 'start' }, false);
    e.subscribed(t);
    expect(e.isOwn(t, { language: 'pt', by: 'start' })).toBe(true);
    // Without an id, a message nothing of ours is waiting for is another node's.
    expect(e.isOwn(t, { language: 'en', by: 'ros2' })).toBe(false);
  });
});

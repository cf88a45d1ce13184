import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../robot/bus/index.js';
import { compareRuns } from '../../robot/offline/replay/compare.js';
import type { TimedMessage } from '../../robot/offline/replay/compare.js';

const say = (time: number, text: string): TimedMessage => ({
  topic: TOPICS.say,
  time,
  message: { text, language: 'pt', id: String(time) },
});
const input = (time: number, seq: number): TimedMessage => ({ topic: TOPICS.tableEvents, time, message: { seq } });
const face = (time: number, expression: string): TimedMessage => ({
  topic: TOPICS.expression,
  time,
  message: { expression },
});

describe('compareRuns', () => {
  it('matches identical outputs, ignoring the inputs fed to the replay', () => {
    const rec = [input(0, 1), say(10, 'Boa!'), face(12, 'happy'), say(20, 'Vamos!')];
    const rep = [say(10, 'Boa!'), face(12, 'happy'), say(20, 'Vamos!'), input(30, 9)];
    const c = compareRuns(rec, rep);
    expect(c).toEqual({
      matches: true,
      compared: { '/tts/say': 2, '/robot_face/expression': 1 },
      firstDifference: null,
    });
  });

  it('finds the earliest difference across topics, with what was expected and what came', () => {
    const rec = [say(10, 'Boa!'), face(12, 'happy'), say(20, 'Vamos!')];
    const rep = [say(10, 'Boa!'), face(12, 'sad'), say(20, 'Ai!')];
    const c = compareRuns(rec, rep);
    expect(c.matches).toBe(false);
    expect(c.firstDifference).toEqual({
      topic: '/robot_face/expression',
      index: 0,
      time: 12,
      expected: { expression: 'happy' },
      actual: { expression: 'sad' },
    });
  });

  it('a line recorded before lines to the opponents said their audience replays the same; a known one is compared', () => {
    const line = (audience: string): TimedMessage => ({
      topic: TOPICS.utterance,
      time: 10,
      message: { phase: 'start', text: 'Boa!', audience },
    });
    expect(compareRuns([line('')], [line('one')]).matches).toBe(true);
    expect(compareRuns([line('both')], [line('both')]).matches).toBe(true);
    expect(compareRuns([line('one')], [line('both')]).matches).toBe(false);
    expect(compareRuns([line('one')], [line('')]).matches).toBe(false);
  });

  it("leaves a line's queued announcement out: a recording made before lines were announced replays the same", () => {
    const line = (time: number, phase: string, text: string): TimedMessage => ({
      topic: TOPICS.utterance,
      time,
      message: { phase, text },
    });
    const rec = [line(10, 'start', 'Boa!'), line(12, 'end', 'Boa!')];
    const rep = [line(9, 'queued', 'Boa!'), line(10, 'start', 'Boa!'), line(12, 'end', 'Boa!')];
    expect(compareRuns(rec, rep)).toEqual({
      matches: true,
      compared: { '/parceiro/behaviours/utterance': 2 },
      firstDifference: null,
    });
    // What was said is still compared.
    expect(
      compareRuns(rec, [line(9, 'queued', 'Boa!'), line(10, 'start', 'Ai!'), line(12, 'end', 'Ai!')]).matches,
    ).toBe(false);
  });

  it('reports a message missing from the replay, or one too many', () => {
    expect(compareRuns([say(10, 'a'), say(20, 'b')], [say(10, 'a')]).firstDifference).toMatchObject({
      topic: '/tts/say',
      index: 1,
      time: 20,
      actual: null,
    });
    expect(compareRuns([say(10, 'a')], [say(10, 'a'), say(25, 'c')]).firstDifference).toMatchObject({
      index: 1,
      time: 25,
      expected: null,
    });
  });
});

// The "feels" panels (the virtual table's and the dashboard's) say what robot/web/feels.ts decides:
// the face leads, a feeling kept off the face is said to be kept, a face no feeling stands behind
// (the operator's) is named as a face. Its emotion-to-face table is config/postures.yaml's.

import { describe, expect, it } from 'vitest';
import { EMOTION_TYPES, defaultConfigDir, loadPostureLibrary } from '../../behaviours/index.js';
import { EMOTION_FACE, panelContradicts, panelFeeling } from '../../robot/web/index.js';

const felt = (type: string, intensity: number) => ({ type, intensity });

describe('the feels panel', () => {
  it('names the feeling the face shows, not a stronger one it contradicts', () => {
    const p = panelFeeling([felt('distress', 6), felt('hope', 3)], 'happy', 2);
    expect(p).toMatchObject({ kind: 'feels', emotion: { type: 'hope' }, face: 'happy' });
    expect(panelContradicts(p)).toBe(false);
  });

  it('says a feeling is kept off a calm face: "feels distress, keeps a calm face"', () => {
    expect(panelFeeling([felt('distress', 6), felt('joy', 2.5)], 'neutral', 2)).toMatchObject({
      kind: 'keeps',
      emotion: { type: 'distress' },
      face: 'neutral',
    });
    expect(panelFeeling([felt('distress', 1)], 'neutral', 2)).toEqual({ kind: 'calm' });
    expect(panelFeeling([], null, 2)).toEqual({ kind: 'calm' });
  });

  it("follows the operator's face: a face no feeling of its kind stands behind is named as a face", () => {
    expect(panelFeeling([felt('hope', 5)], 'angry', 2)).toEqual({ kind: 'shows', face: 'angry' });
    // A feeling of the face's kind, though not its own expression, is named (resentment: angry; reproach too).
    expect(panelFeeling([felt('hope', 5), felt('fear', 3)], 'sad', 2)).toMatchObject({
      kind: 'feels',
      emotion: { type: 'fear' },
    });
  });

  it('a panel naming the strongest feeling beside the face would contradict it', () => {
    expect(panelContradicts({ kind: 'feels', emotion: felt('distress', 6), face: 'happy' })).toBe(true);
    expect(panelContradicts({ kind: 'keeps', emotion: felt('distress', 6), face: 'neutral' })).toBe(false);
  });

  it("knows every emotion's face as config/postures.yaml maps it", () => {
    const lib = loadPostureLibrary(`${defaultConfigDir()}/postures.yaml`);
    for (const t of EMOTION_TYPES) expect(EMOTION_FACE[t], t).toBe(lib.emotions[t].expression);
  });
});

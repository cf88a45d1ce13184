// The "feels" panels (the virtual table's and the dashboard's) say what robot/web/feels.ts decides:
// the feeling felt most is the one named as felt, on both pages, and the first of the dashboard's
// list; a face that shows something else is said as a face beside it; a feeling kept off the face is
// said to be kept; a face no feeling stands behind (the operator's) is named as a face. Its
// emotion-to-face table is config/postures.yaml's.

import { describe, expect, it } from 'vitest';
import { EMOTION_TYPES, defaultConfigDir, loadPostureLibrary } from '../../behaviours/index.js';
import {
  EMOTION_FACE,
  PANEL_MIN,
  feltFirst,
  panelContradicts,
  panelFeeling,
  unitIntensity,
} from '../../robot/web/index.js';

const felt = (type: string, intensity: number) => ({ type, intensity });

describe('the feels panel', () => {
  it('names the feeling felt most; a face that shows another is said as a face beside it', () => {
    const p = panelFeeling([felt('distress', 6), felt('hope', 3)], 'happy', 2);
    expect(p).toEqual({ kind: 'mixed', emotion: felt('distress', 6), face: 'happy' });
    expect(panelContradicts(p)).toBe(false);
    expect(panelFeeling([felt('distress', 2.5), felt('hope', 3)], 'happy', 2)).toMatchObject({
      kind: 'feels',
      emotion: { type: 'hope' },
    });
  });

  // Playthrough 3, S2 04:39:55: a surprised face; the dashboard has every emotion (0..10), the table
  // the strongest five (0..1). The dashboard said "feels admiration" (3.1, its list topped by distress
  // 6.1, its mood line "strongest felt: distress"), the table "is surprised".
  it('says the same of one moment on the dashboard (every emotion) and the table (the strongest five)', () => {
    const all = [
      felt('resentment', 6.1),
      felt('distress', 6.1),
      felt('satisfaction', 5.1),
      felt('joy', 3.9),
      felt('gratitude', 3.1),
      felt('admiration', 3.1),
      felt('gratification', 2.7),
      felt('gloating', 2.2),
      felt('shame', 0.5),
    ];
    const dashboard = all.map((e) => ({ ...e, intensity: unitIntensity(e.intensity) }));
    // The table's order: by intensity, then its first five (robot/live/node/table-behaviour.ts).
    const table = [...dashboard].sort((a, b) => b.intensity - a.intensity).slice(0, 5);
    const onDashboard = panelFeeling(dashboard, 'surprised', PANEL_MIN);
    expect(onDashboard).toEqual({ kind: 'mixed', emotion: felt('distress', 0.61), face: 'surprised' });
    expect(panelFeeling(table, 'surprised', PANEL_MIN)).toEqual(onDashboard);
    // The list's first is the one named (equal ones: by name, whatever order each page got them in).
    expect(feltFirst(dashboard, 'surprised')[0]).toEqual(felt('distress', 0.61));
    expect(feltFirst([...table].reverse(), 'surprised')[0]).toEqual(felt('distress', 0.61));
  });

  // S1 04:26:43: "The robot feels distress." above a list topped by joy 4.3 / glee 4.3.
  it('never names a feeling as felt above a list topped by another without saying why', () => {
    const emotions = [felt('joy', 4.3), felt('gloating', 4.3), felt('distress', 3)];
    const p = panelFeeling(emotions, 'sad', 2);
    expect(p.kind).toBe('mixed');
    expect(p).toMatchObject({ emotion: feltFirst(emotions, 'sad')[0] });
    // Equal ones: the face's own first.
    expect(feltFirst([felt('joy', 4.3), felt('shame', 4.3)], 'sad')[0]!.type).toBe('shame');
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

  it("follows the operator's face: a face no feeling stands behind is named as a face", () => {
    expect(panelFeeling([felt('hope', 1)], 'angry', 2)).toEqual({ kind: 'shows', face: 'angry' });
    expect(panelFeeling([felt('hope', 5)], 'angry', 2)).toEqual({
      kind: 'mixed',
      emotion: felt('hope', 5),
      face: 'angry',
    });
    // The feeling felt most, of the face's kind though not its own expression, is named as shown.
    expect(panelFeeling([felt('fear', 5), felt('hope', 3)], 'sad', 2)).toMatchObject({
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

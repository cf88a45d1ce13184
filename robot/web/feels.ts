// What a "feels" panel says, from the face the robot shows and what it feels: one rule for the
// virtual table, the dashboard and the session report, so the two pages cannot name different
// feelings for one moment, nor a panel say "feels X" above a list topped by Y. The feeling named as
// felt is the one felt most (feltFirst, the dashboard's list order too); the face is said as the face.
// When they disagree the panel says both ("shows a happy face; most of all feels distress"): a panel that
// named the face's feeling alone said "feels admiration" above a list topped by distress, and the
// table, which gets the strongest five, said "is surprised" of the same moment. Where a display rule
// keeps a feeling off the face, the panel says so ("feels distress, keeps a calm face"); a face no
// feeling stands behind (the operator's, a line's own mark) is named as a face. Pure and
// browser-safe: the pages bundle it.

/** The face each emotion type shows: config/postures.yaml's defaults (a test keeps the two the same). */
export const EMOTION_FACE: Readonly<Record<string, string>> = {
  joy: 'happy',
  distress: 'sad',
  hope: 'happy',
  fear: 'scared',
  satisfaction: 'happy',
  relief: 'happy',
  disappointment: 'sad',
  'fears-confirmed': 'sad',
  'happy-for': 'happy',
  gloating: 'happy',
  resentment: 'angry',
  pity: 'sad',
  pride: 'happy',
  shame: 'sad',
  admiration: 'surprised',
  reproach: 'angry',
  gratification: 'happy',
  remorse: 'sad',
  gratitude: 'happy',
  anger: 'angry',
  love: 'happy',
  hate: 'disgusted',
};

/** Glad (1), sorry (-1) or neither (0), as behaviours/line-valence.ts judges a face. */
export function faceValence(expression: string | null | undefined): -1 | 0 | 1 {
  if (expression === 'happy') return 1;
  if (expression === 'sad' || expression === 'angry' || expression === 'scared' || expression === 'disgusted')
    return -1;
  return 0;
}

/** An emotion's valence, as the face it shows. */
export const emotionValence = (type: string): -1 | 0 | 1 => faceValence(EMOTION_FACE[type]);

export interface PanelEmotion {
  type: string;
  /** On the caller's scale (0..10 on the bus, 0..1 at a table): `min` is on the same one. */
  intensity: number;
  seat?: number | null;
}

export type PanelFeeling =
  | { kind: 'calm' }
  /** The face shows the feeling felt most (or one of its kind). */
  | { kind: 'feels'; emotion: PanelEmotion; face: string }
  /** Felt most, but kept off the face, which shows `face` (neutral: a calm face). */
  | { kind: 'keeps'; emotion: PanelEmotion; face: string }
  /**
   * The face shows one thing, the feeling felt most is another: both are said, the face as a face
   * ("shows a happy face; most of all feels distress"), not as a weaker feeling it may stand for,
   * which a table, getting the strongest five, may not have.
   */
  | { kind: 'mixed'; emotion: PanelEmotion; face: string }
  /** A face no feeling stands behind: the operator's, a line's own mark. */
  | { kind: 'shows'; face: string };

/** A feeling a page's panel names: 2 of 10, on a table's scale (unitIntensity). */
export const PANEL_MIN = 0.2;

/**
 * An intensity of the appraisal's scale (0..10) on a table's (0..1), rounded as a table gets it
 * (robot/live/node/table-behaviour.ts): the dashboard compares on it too, so that two feelings the
 * table sees as equal are equal on the dashboard, and both pages name the same one first.
 */
export const unitIntensity = (x: number): number => Math.round(Math.min(1, Math.max(0, x / 10)) * 1000) / 1000;

/**
 * The emotions, strongest first: the order both pages list and name them in. Equal ones: the one the
 * face shows first, then by name (not as given: the table gets them re-sorted, the dashboard as the
 * appraisal lists them). What a panel names as "felt most" is this order's first.
 */
export function feltFirst<E extends PanelEmotion>(emotions: readonly E[], face: string | null): E[] {
  const own = (e: PanelEmotion): number => (face !== null && EMOTION_FACE[e.type] === face ? 0 : 1);
  return emotions
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        b.e.intensity - a.e.intensity ||
        own(a.e) - own(b.e) ||
        (a.e.type < b.e.type ? -1 : a.e.type > b.e.type ? 1 : 0) ||
        a.i - b.i,
    )
    .map((x) => x.e);
}

/**
 * The panel for `face` (the expression on show; null: none yet, the rest face) and the emotions felt
 * now, in any order. Emotions under `min` count as not felt. One rule: the feeling felt most (feltFirst)
 * is the one named as felt; the face is said as the face, and when the two disagree both are said.
 */
export function panelFeeling(emotions: readonly PanelEmotion[], face: string | null, min: number): PanelFeeling {
  const felt = feltFirst(
    emotions.filter((e) => Number.isFinite(e.intensity) && e.intensity >= min),
    face,
  );
  const shown = face ?? 'neutral';
  const top = felt[0];
  if (!top) return shown === 'neutral' ? { kind: 'calm' } : { kind: 'shows', face: shown };
  if (shown === 'neutral') return { kind: 'keeps', emotion: top, face: shown };
  const v = faceValence(shown);
  if (EMOTION_FACE[top.type] === shown || (v !== 0 && emotionValence(top.type) === v))
    return { kind: 'feels', emotion: top, face: shown };
  return { kind: 'mixed', emotion: top, face: shown };
}

/** Whether a panel's words contradict the face: it names a glad feeling beside a sorry face, or the reverse. */
export function panelContradicts(p: PanelFeeling): boolean {
  if (p.kind !== 'feels') return false;
  const v = faceValence(p.face);
  return v !== 0 && emotionValence(p.emotion.type) === -v;
}

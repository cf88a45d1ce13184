// What a "feels" panel says, from the face the robot shows and what it feels: one rule for the
// virtual table, the dashboard and the session report, so the panel never names a feeling the face
// contradicts. The face leads: a panel that said "feels distress" beside a smile (the smile kept for a
// glad line, the distress from a later estimate) read as a robot that does not mean what it shows.
// Where a display rule keeps a feeling off the face, the panel says so ("feels distress, keeps a calm
// face"); a face no feeling of its kind stands behind (the operator's, a line's own mark) is named as
// a face. Pure and browser-safe: the pages bundle it.

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
  /** The face shows this feeling. */
  | { kind: 'feels'; emotion: PanelEmotion; face: string }
  /** Felt, but kept off the face, which shows `face` (neutral: a calm face). */
  | { kind: 'keeps'; emotion: PanelEmotion; face: string }
  /** A face no feeling of its kind stands behind: the operator's, a line's own mark. */
  | { kind: 'shows'; face: string };

/**
 * The panel for `face` (the expression on show; null: none yet, the rest face) and the emotions felt
 * now, strongest first or not. Emotions under `min` count as not felt.
 */
export function panelFeeling(emotions: readonly PanelEmotion[], face: string | null, min: number): PanelFeeling {
  const felt = emotions.filter((e) => Number.isFinite(e.intensity) && e.intensity >= min);
  const strongest = (list: readonly PanelEmotion[]): PanelEmotion | null =>
    list.reduce<PanelEmotion | null>((a, b) => (a === null || b.intensity > a.intensity ? b : a), null);
  const shown = face ?? 'neutral';
  if (shown !== 'neutral') {
    const same = strongest(felt.filter((e) => EMOTION_FACE[e.type] === shown));
    if (same) return { kind: 'feels', emotion: same, face: shown };
    const v = faceValence(shown);
    const kin = v === 0 ? null : strongest(felt.filter((e) => emotionValence(e.type) === v));
    return kin ? { kind: 'feels', emotion: kin, face: shown } : { kind: 'shows', face: shown };
  }
  const top = strongest(felt);
  return top ? { kind: 'keeps', emotion: top, face: shown } : { kind: 'calm' };
}

/** Whether a panel's words contradict the face: it names a glad feeling beside a sorry face, or the reverse. */
export function panelContradicts(p: PanelFeeling): boolean {
  if (p.kind !== 'feels') return false;
  const v = faceValence(p.face);
  return v !== 0 && emotionValence(p.emotion.type) === -v;
}

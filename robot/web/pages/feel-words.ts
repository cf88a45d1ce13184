// The "feels" panel in words, the same on the virtual table and the dashboard (robot/web/feels.ts
// decides what it says): the feeling felt most, shown on the face; a feeling kept off the face, said
// as such ("feels distress, keeps a calm face"); a face and a stronger feeling it does not show, both
// said ("shows a happy face; most of all feels distress"); a face no feeling stands behind; or calm.

import type { PanelFeeling } from '../feels.js';
import type { Language } from './words.js';
import { emotionWord } from './words.js';

const FACE_WORDS: Readonly<Record<string, readonly [en: string, pt: string]>> = {
  neutral: ['a calm face', 'um ar calmo'],
  happy: ['a happy face', 'uma cara alegre'],
  sad: ['a sad face', 'uma cara triste'],
  angry: ['an angry face', 'uma cara zangada'],
  surprised: ['a surprised face', 'uma cara de surpresa'],
  scared: ['a scared face', 'uma cara assustada'],
  disgusted: ['a disgusted face', 'uma cara de desagrado'],
};

export const faceWords = (face: string, lang: Language): string =>
  (FACE_WORDS[face] ?? [`a ${face} face`, `uma cara ${face}`])[lang === 'pt' ? 1 : 0];

/** What a face alone shows: "shows a happy face"; a start at the unexpected, as the state it is. */
function faceAlone(face: string, lang: Language): { verb: string; word: string } {
  const pt = lang === 'pt';
  if (face === 'surprised') return { verb: pt ? 'está' : 'is', word: pt ? 'surpreendido' : 'surprised' };
  return { verb: pt ? 'mostra' : 'shows', word: faceWords(face, lang) };
}

/**
 * The panel's sentence in parts: what comes first (the face, when it shows something else than the
 * feeling felt most), a verb, the word to stress, and what follows it.
 */
export function panelWords(
  p: PanelFeeling,
  lang: Language,
): { lead: string; verb: string; word: string; rest: string } {
  const pt = lang === 'pt';
  switch (p.kind) {
    case 'calm':
      return { lead: '', verb: pt ? 'está' : 'is', word: pt ? 'calmo' : 'calm', rest: '' };
    case 'feels':
      return { lead: '', verb: pt ? 'sente' : 'feels', word: emotionWord(p.emotion.type, lang), rest: '' };
    case 'keeps':
      return {
        lead: '',
        verb: pt ? 'sente' : 'feels',
        word: emotionWord(p.emotion.type, lang),
        rest: pt ? `, mas mantém ${faceWords(p.face, lang)}` : `, keeps ${faceWords(p.face, lang)}`,
      };
    case 'mixed': {
      const face = faceAlone(p.face, lang);
      return {
        lead: `${face.verb} ${face.word}; `,
        verb: pt ? 'sente sobretudo' : 'most of all feels',
        word: emotionWord(p.emotion.type, lang),
        rest: '',
      };
    }
    case 'shows':
      return { lead: '', ...faceAlone(p.face, lang), rest: '' };
  }
}

// The "feels" panel in words, the same on the virtual table and the dashboard (robot/web/feels.ts
// decides what it says): the feeling the face shows; a feeling kept off the face, said as such
// ("feels distress, keeps a calm face"); a face no feeling stands behind (the operator's); or calm.

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

/** The panel's sentence in parts: a verb, the word to stress, and what follows it. */
export function panelWords(p: PanelFeeling, lang: Language): { verb: string; word: string; rest: string } {
  const pt = lang === 'pt';
  switch (p.kind) {
    case 'calm':
      return { verb: pt ? 'está' : 'is', word: pt ? 'calmo' : 'calm', rest: '' };
    case 'feels':
      return { verb: pt ? 'sente' : 'feels', word: emotionWord(p.emotion.type, lang), rest: '' };
    case 'keeps':
      return {
        verb: pt ? 'sente' : 'feels',
        word: emotionWord(p.emotion.type, lang),
        rest: pt ? `, mas mantém ${faceWords(p.face, lang)}` : `, keeps ${faceWords(p.face, lang)}`,
      };
    case 'shows':
      // A start at the unexpected is no feeling of its own: said as the state it is.
      if (p.face === 'surprised')
        return { verb: pt ? 'está' : 'is', word: pt ? 'surpreendido' : 'surprised', rest: '' };
      return { verb: pt ? 'mostra' : 'shows', word: faceWords(p.face, lang), rest: '' };
  }
}

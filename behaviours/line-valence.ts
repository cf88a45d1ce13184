// Whether a line sounds glad or sorry: the face must not say the opposite while it is spoken (a sad
// face under "Boa! Mais 13 pontos", a smile just after "Essa doeu..."). People follow display rules
// of this kind; the emotion is still felt and tints the mood, only the face defers to the words.

import type { ExpressionName, PostureLibrary } from './posture-config.js';
import type { Utterance, UtteranceCategory, UtteranceEmotion } from './utterance-config.js';

/** -1 sorry, 0 neither, +1 glad. */
export type Valence = -1 | 0 | 1;

const EMOTION_VALENCE: Readonly<Record<UtteranceEmotion, Valence>> = {
  happy: 1,
  'happy-for': 1,
  gloating: 1,
  resentment: -1,
  'self-pity': -1,
  pity: -1,
};

/** The categories that are glad or sorry whatever their line: a trick or a game won or lost, and the openers (upbeat). */
function categoryValence(category: UtteranceCategory): Valence {
  if (category === 'session.start' || category === 'game.start') return 1;
  if (
    category === 'trick.end.ours' ||
    category === 'game.end.renounce.theirs' ||
    category === 'session.end.win' ||
    category.startsWith('game.end.win.')
  )
    return 1;
  if (
    category === 'trick.end.theirs' ||
    category === 'game.end.renounce.ours' ||
    category === 'session.end.loss' ||
    category.startsWith('game.end.loss.')
  )
    return -1;
  return 0;
}

/** An expression's valence as a sign, judged at its apex: surprise (0.2) and neutral count as neither. */
export function expressionValence(postures: PostureLibrary, expression: ExpressionName): Valence {
  const v = postures.expressions[expression].valence;
  return v >= 0.3 ? 1 : v <= -0.3 ? -1 : 0;
}

/** How a line sounds: its own expression if it has one, else its emotion, else its category's. */
export function lineValence(
  postures: PostureLibrary,
  line: Pick<Utterance, 'category' | 'emotions' | 'animation'>,
): Valence {
  if (line.animation) return expressionValence(postures, line.animation.expression);
  const first = line.emotions[0];
  if (first) return EMOTION_VALENCE[first];
  return categoryValence(line.category);
}

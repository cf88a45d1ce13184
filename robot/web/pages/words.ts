// Words and colours both pages share: the OCC emotions in people's words (pt and en) with one fixed
// colour each (so every dashboard and table shows resentment in the same colour), and seats named
// as people at the table name them (the partner, the opponent on the left), never by number alone,
// and cards in words ("the ace of hearts", "o ás de copas"), never by their ids.

export type Language = 'pt' | 'en';

/** The session's language as a page may receive it: anything but pt is English. */
export const languageOf = (s: string | null | undefined): Language => (s?.toLowerCase().startsWith('pt') ? 'pt' : 'en');

/** Fixed colours: positive emotions warm or green, negative ones cool, violet or red; mood in grey. */
export const EMOTION_COLOURS: Readonly<Record<string, string>> = {
  joy: '#f2b705',
  hope: '#8cc63f',
  satisfaction: '#2e9e44',
  relief: '#5fc2b0',
  'happy-for': '#f28e2b',
  gloating: '#b5651d',
  pride: '#d4a017',
  admiration: '#e377c2',
  gratification: '#c49c00',
  gratitude: '#ff9da7',
  love: '#e7298a',
  distress: '#4e79a7',
  fear: '#7b4fa0',
  disappointment: '#76889a',
  'fears-confirmed': '#2c3e75',
  resentment: '#8c2d04',
  pity: '#6baed6',
  shame: '#9c755f',
  reproach: '#d62728',
  remorse: '#5b5b8f',
  anger: '#b2182b',
  hate: '#3b0f0f',
  mood: '#333333',
};

/** A colour for any emotion type, known or not (an unknown one gets a grey, the same every time). */
export const emotionColour = (type: string): string => EMOTION_COLOURS[type] ?? '#8a8f98';

// Each a noun, so that it reads after "feels" / "sente" (the virtual table: "sente alegria pelo teu
// parceiro") and before "toward" (the dashboard: "resentment toward the opponent on the right").
const EMOTION_WORDS: Readonly<Record<string, readonly [en: string, pt: string]>> = {
  joy: ['joy', 'alegria'],
  distress: ['distress', 'tristeza'],
  hope: ['hope', 'esperança'],
  fear: ['fear', 'receio'],
  satisfaction: ['satisfaction', 'satisfação'],
  relief: ['relief', 'alívio'],
  disappointment: ['disappointment', 'desilusão'],
  'fears-confirmed': ['dismay', 'consternação'],
  'happy-for': ['gladness', 'contentamento'],
  gloating: ['glee', 'gozo'],
  resentment: ['resentment', 'ressentimento'],
  pity: ['pity', 'pena'],
  pride: ['pride', 'orgulho'],
  shame: ['shame', 'vergonha'],
  admiration: ['admiration', 'admiração'],
  reproach: ['reproach', 'reprovação'],
  gratification: ['gratification', 'gratificação'],
  remorse: ['remorse', 'remorso'],
  gratitude: ['gratitude', 'gratidão'],
  anger: ['anger', 'zanga'],
  love: ['liking', 'afeto'],
  hate: ['dislike', 'aversão'],
};

/** An emotion type in people's words ("fears-confirmed" -> "dismay"; an unknown one spelled out). */
export const emotionWord = (type: string, language: Language = 'en'): string => {
  const w = EMOTION_WORDS[type];
  return w ? w[language === 'pt' ? 1 : 0] : type.replaceAll('-', ' ');
};

/**
 * A seat as someone at `from` names it: the partner, the opponent on the right (the next to play,
 * since play goes counter-clockwise) or on the left. `from` itself is "self".
 */
export type Relation = 'self' | 'partner' | 'right' | 'left';
export const relationOf = (seat: number, from: number): Relation =>
  (['self', 'right', 'partner', 'left'] as const)[(seat - from + 4) & 3]!;

const RELATION_WORDS: Readonly<Record<Relation, readonly [en: string, pt: string]>> = {
  self: ['itself', 'ele próprio'],
  partner: ['the partner', 'o parceiro'],
  right: ['the opponent on the right', 'o adversário da direita'],
  left: ['the opponent on the left', 'o adversário da esquerda'],
};

/** How the robot (at `robotSeat`) names `seat`: "the partner", "the opponent on the left", ... */
export const seatWords = (seat: number, robotSeat: number, language: Language = 'en'): string =>
  seat < 0 ? '' : RELATION_WORDS[relationOf(seat, robotSeat)][language === 'pt' ? 1 : 0];

// ---- cards in words ------------------------------------------------------------------------------

const RANKS: Record<string, readonly [en: string, pt: string, ptArticle: 'o' | 'a']> = {
  '2': ['two', 'dois', 'o'],
  '3': ['three', 'três', 'o'],
  '4': ['four', 'quatro', 'o'],
  '5': ['five', 'cinco', 'o'],
  '6': ['six', 'seis', 'o'],
  Q: ['queen', 'dama', 'a'],
  J: ['jack', 'valete', 'o'],
  K: ['king', 'rei', 'o'],
  '7': ['seven', 'sete', 'o'],
  A: ['ace', 'ás', 'o'],
};
const SUITS: Record<string, readonly [en: string, pt: string]> = {
  S: ['spades', 'espadas'],
  H: ['hearts', 'copas'],
  D: ['diamonds', 'ouros'],
  C: ['clubs', 'paus'],
};

/** "the ace of hearts" / "o ás de copas" (AH); a card the page does not know is shown as it came. */
export function cardWords(card: string, lang: Language): string {
  const r = RANKS[card.slice(0, -1).toUpperCase()];
  const s = SUITS[card.slice(-1).toUpperCase()];
  if (!r || !s) return card;
  return lang === 'pt' ? `${r[2]} ${r[1]} de ${s[1]}` : `the ${r[0]} of ${s[0]}`;
}

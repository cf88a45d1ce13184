// Every word the virtual table shows, in pt and en (the session's language): labels, buttons,
// prompts the page composes from the state, cards in words, seats as the person at the page names
// them. The runtime's own prompt texts are never shown: the page says what the state says.

import type { Language } from './words.js';
import { cardWords, relationOf } from './words.js';

const W = {
  title: ['Sueca with Parceiro', 'Sueca com o Parceiro'],
  serverLabel: ['Table server', 'Servidor da mesa'],
  tokenLabel: ['Table token', 'Senha da mesa'],
  connect: ['Connect', 'Ligar'],
  newGame: ['New game', 'Nova partida'],
  why: ['Why that card?', 'Porquê essa carta?'],
  review: ['How did the game go?', 'Como correu o jogo?'],
  lastTrickShow: ['Last trick', 'Última vaza'],
  lastTrickHide: ['Hide last trick', 'Esconder a última vaza'],
  voiceOn: ['Robot voice: on', 'Voz do robô: ligada'],
  voiceOff: ['Robot voice: off', 'Voz do robô: desligada'],
  voiceNone: ['No voice in this browser', 'Sem voz neste navegador'],
  takeSeat: ['Take a seat', 'Escolhe um lugar'],
  trump: ['trump', 'trunfo'],
  robot: ['The robot', 'O robô'],
  robotName: ['EMYS, the robot', 'EMYS, o robô'],
  feels: ['feels', 'sente'],
  // After "feels" / "sente", like the emotions' words (words.ts): a noun in Portuguese.
  calm: ['calm', 'calma'],
  moodGood: ['in a good mood', 'bem-disposto'],
  moodBad: ['in a low mood', 'desanimado'],
  connecting: ['connecting…', 'a ligar…'],
  disconnected: ['disconnected', 'desligado'],
  noConnection: ['no connection', 'sem ligação'],
  refused: ['refused', 'recusado'],
  watching: ['watching', 'a assistir'],
  yourTurn: ['Your turn: tap a card to play it.', 'É a tua vez: toca numa carta para a jogares.'],
  robotThinks: ['The robot is thinking…', 'O robô está a pensar…'],
  paused: ['The game is paused.', 'O jogo está em pausa.'],
  pressNewGame: ['Press “New game” to deal.', 'Carrega em «Nova partida» para dar as cartas.'],
  chooseSeat: ['Choose a free seat to play.', 'Escolhe um lugar livre para jogar.'],
  allTaken: [
    'Every seat is taken: this page can watch the game.',
    'Todos os lugares estão ocupados: esta página pode assistir ao jogo.',
  ],
  serverSilent: ['The table server did not answer; try again.', 'O servidor da mesa não respondeu; tenta outra vez.'],
  refusedCard: ['That was not accepted.', 'Isso não foi aceite.'],
  won: ['won', 'ganhou'],
  points: ['Points', 'Pontos'],
  victories: ['Victories', 'Vitórias'],
  us: ['you', 'vocês'],
  them: ['them', 'eles'],
  teamA: ['Team A', 'Equipa A'],
  teamB: ['Team B', 'Equipa B'],
  gamePoints: ['This game', 'Esta partida'],
  cards: ['cards', 'cartas'],
  draw: ['A draw: 60 all.', 'Empate: 60 a 60.'],
  sessionOver: ['The session is over.', 'A sessão terminou.'],
  nextSession: ['“New game” starts the next session.', '«Nova partida» começa a sessão seguinte.'],
  askAfter: [
    'You can still ask the robot how the game went, or why it played its card.',
    'Ainda podes perguntar ao robô como correu o jogo, ou porque jogou a sua carta.',
  ],
  nextGame: ['Press “New game” for the next one.', 'Carrega em «Nova partida» para a seguinte.'],
  renounce: ['A renounce ended the game.', 'Uma renúncia acabou a partida.'],
  lastTrickNone: ['No trick has been played yet.', 'Ainda não se jogou nenhuma vaza.'],
  free: ['free', 'livre'],
  notConnected: ['not connected', 'sem ligação'],
  noRobot: ['No connection to the robot.', 'Sem ligação ao robô.'],
  lostRobot: [
    'Lost the connection to the robot (stopped, or the network failed): nothing can be played or asked until it is back.',
    'Perdeu-se a ligação ao robô (foi desligado, ou a rede falhou): nada se pode jogar nem perguntar até ele voltar.',
  ],
} as const satisfies Record<string, readonly [string, string]>;

export type WordKey = keyof typeof W;

/** A word or phrase of the page in `lang`. */
export const w = (key: WordKey, lang: Language): string => W[key][lang === 'pt' ? 1 : 0];

// ---- refusals in words ------------------------------------------------------------------------------

const REFUSALS: Readonly<Record<string, readonly [en: string, pt: string]>> = {
  'bad-token': ['The table token is not this session’s.', 'A senha da mesa não é a desta sessão.'],
  'wrong-version': [
    'This page speaks another version of the table protocol.',
    'Esta página fala outra versão do protocolo da mesa.',
  ],
  'too-many-attempts': [
    'Too many wrong tokens: wait a moment and try again.',
    'Demasiadas senhas erradas: espera um pouco e tenta outra vez.',
  ],
  'seat-taken': ['Someone else took that seat.', 'Outra pessoa ocupou esse lugar.'],
  'out-of-turn': ['It is not your turn.', 'Não é a tua vez.'],
  'not-in-hand': ['That card is not in your hand.', 'Essa carta não está na tua mão.'],
  'already-played': ['That card was already played.', 'Essa carta já foi jogada.'],
  paused: ['The game is paused.', 'O jogo está em pausa.'],
  'game-in-progress': ['A game is being played: finish it first.', 'Há uma partida a decorrer: acaba-a primeiro.'],
  'game-over': ['The game is over.', 'A partida acabou.'],
  'session-over': ['The session is over.', 'A sessão terminou.'],
  'no-game': ['No game has started.', 'Nenhuma partida começou.'],
  'display-only': [
    'This page only watches: take a seat to play.',
    'Esta página só assiste: ocupa um lugar para jogar.',
  ],
  'rate-limited': ['Too fast: try again.', 'Depressa demais: tenta outra vez.'],
};

/** A refusal in the person's words, by its code (the runtime's reason is in English, for the log). */
export const refusalWords = (code: string, lang: Language): string =>
  REFUSALS[code]?.[lang === 'pt' ? 1 : 0] ?? w('refusedCard', lang);

// ---- cards in words ------------------------------------------------------------------------------

// Cards in words are words.ts's (the dashboard names them too).
export { cardWords } from './words.js';

/** "The robot plays the ace of hearts." / "O robô joga o ás de copas." */
export const robotPlays = (card: string, lang: Language): string =>
  lang === 'pt' ? `O robô joga ${cardWords(card, lang)}.` : `The robot plays ${cardWords(card, lang)}.`;

// ---- seats as the person at the page names them ---------------------------------------------------

export interface View {
  /** The page's seat; null while it only watches. */
  mySeat: number | null;
  robotSeat: number;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Who sits at `seat`, from where the page sits: you, the robot, your partner, the opponent on your left... */
export function seatName(seat: number, v: View, lang: Language, options: { capital?: boolean } = {}): string {
  const pt = lang === 'pt';
  let s: string;
  if (seat === v.mySeat) s = pt ? 'tu' : 'you';
  else if (seat === v.robotSeat) s = pt ? 'o robô' : 'the robot';
  else if (v.mySeat === null) s = pt ? `o lugar ${seat}` : `seat ${seat}`;
  else {
    const r = relationOf(seat, v.mySeat);
    s =
      r === 'partner'
        ? pt
          ? 'o teu parceiro'
          : 'your partner'
        : r === 'right'
          ? pt
            ? 'o adversário à tua direita'
            : 'the opponent on your right'
          : pt
            ? 'o adversário à tua esquerda'
            : 'the opponent on your left';
  }
  return options.capital ? capital(s) : s;
}

/** A seat's name on its label, short enough for a phone: "Opponent (right)", "O teu parceiro". */
export function seatLabelName(seat: number, v: View, lang: Language): string {
  const pt = lang === 'pt';
  if (seat === v.mySeat) return pt ? 'Tu' : 'You';
  if (seat === v.robotSeat) return pt ? 'O robô' : 'The robot';
  if (v.mySeat === null) return pt ? `Lugar ${seat}` : `Seat ${seat}`;
  const r = relationOf(seat, v.mySeat);
  if (r === 'partner') return pt ? 'O teu parceiro' : 'Your partner';
  const side = r === 'right' ? (pt ? 'direita' : 'right') : pt ? 'esquerda' : 'left';
  return pt ? `Adversário (${side})` : `Opponent (${side})`;
}

/** A seat's role for the page: partner or opponent of the person (or, watching, of the robot). */
export function roleWords(seat: number, v: View, lang: Language): string {
  const me = v.mySeat ?? v.robotSeat;
  if (seat === me) return '';
  const partner = (seat & 1) === (me & 1);
  if (v.mySeat === null)
    return lang === 'pt'
      ? partner
        ? 'parceiro do robô'
        : 'adversário do robô'
      : partner
        ? "robot's partner"
        : "robot's opponent";
  return lang === 'pt' ? (partner ? 'parceiro' : 'adversário') : partner ? 'partner' : 'opponent';
}

/** Who holds a seat, by the kind of table (never the raw table name, which is in English). */
export function holderWords(kind: string | null, lang: Language): string {
  const pt = lang === 'pt';
  if (kind === 'virtual') return pt ? 'uma pessoa no navegador' : 'a person in a browser';
  if (kind === 'simulated') return pt ? 'jogador simulado' : 'simulated player';
  if (kind === 'touch') return pt ? 'mesa tátil' : 'touch table';
  return pt ? 'um jogador' : 'a player';
}

/** "Seat 2 (partner): take it" / "Lugar 2 (parceiro): ocupar". */
export const takeSeatWords = (seat: number, role: string, lang: Language): string =>
  lang === 'pt' ? `Ocupar o lugar ${seat} (${role})` : `Take seat ${seat} (${role})`;
export const takenSeatWords = (seat: number, who: string, lang: Language): string =>
  lang === 'pt' ? `Lugar ${seat}: ${who}` : `Seat ${seat}: ${who}`;
export const seatPill = (seat: number, lang: Language): string => (lang === 'pt' ? `lugar ${seat}` : `seat ${seat}`);

/** Whose a thing is, in English: "your", "the robot's", "your partner's", "your right-hand opponent's". */
function possessive(seat: number, v: View): string {
  if (seat === v.mySeat) return 'your';
  if (seat === v.robotSeat) return "the robot's";
  if (v.mySeat === null) return `seat ${seat}'s`;
  const r = relationOf(seat, v.mySeat);
  return r === 'partner'
    ? "your partner's"
    : r === 'right'
      ? "your right-hand opponent's"
      : "your left-hand opponent's";
}

/** "por" before a seat's name in Portuguese: "pelo teu parceiro", "pelo robô", "por ti". */
const byPt = (name: string): string =>
  name.startsWith('o ') ? `pelo ${name.slice(2)}` : `por ${name === 'tu' ? 'ti' : name}`;

/** "de" before a seat's name in Portuguese: "do teu parceiro", "do robô", "de ti"... */
const ofPt = (name: string): string =>
  name.startsWith('o ') ? `do ${name.slice(2)}` : `de ${name === 'tu' ? 'ti' : name}`;

/** "Your partner's turn." / "Vez do teu parceiro." */
export function turnOf(seat: number, v: View, lang: Language): string {
  if (lang === 'pt') return `Vez ${ofPt(seatName(seat, v, lang))}.`;
  return `${capital(possessive(seat, v))} turn.`;
}

/** "The robot's hand is being read: 4 of 10 cards." */
export const readingWords = (n: number, lang: Language): string =>
  lang === 'pt' ? `A ler a mão do robô: ${n} de 10 cartas.` : `Reading the robot's hand: ${n} of 10 cards.`;

/** "Trick won by your partner, 21 points." */
export function trickWords(winner: number, points: number, v: View, lang: Language): string {
  const name = seatName(winner, v, lang);
  if (lang === 'pt') return `Vaza ganha ${byPt(name)}: ${points} pontos.`;
  return `Trick won by ${name}: ${points} points.`;
}

/** What the robot looks at, in words: "looks at you", "olha para a carta do teu parceiro". */
export function gazeWords(target: string, seat: number | null, v: View, lang: Language): string {
  const pt = lang === 'pt';
  if (target === 'play-area') return pt ? 'olha para a mesa' : 'looks at the table';
  if (target === 'own-cards') return pt ? 'olha para as suas cartas' : 'looks at its cards';
  if (seat === null) return '';
  const name = seatName(seat, v, lang);
  if (target === 'seat') return pt ? `olha para ${name === 'tu' ? 'ti' : name}` : `looks at ${name}`;
  if (seat === v.robotSeat) return pt ? 'olha para a sua carta' : 'looks at its card';
  if (pt) return `olha para a carta ${name === 'tu' ? 'que jogaste' : ofPt(name)}`;
  return `looks at ${possessive(seat, v)} card`;
}

/**
 * Whom a line is said to, above the bubble, as the line means it (`audience`, from the library's
 * gaze mark): one opponent named as this page names seats ("A manilha de trunfo para ti?" "to the
 * opponent on your left"), both as "the opponents" ("Preparem-se, que hoje não vos damos
 * hipótese!"). A line whose audience is not known (an older node, a recording) to the opponents,
 * seen from the robot's side of the table, says "the opponents", as before.
 */
export function toWords(to: string, seat: number | null, v: View, lang: Language, audience?: 'one' | 'both'): string {
  const pt = lang === 'pt';
  const both = pt ? 'para os adversários:' : 'to the opponents:';
  if (to === 'opponent' && audience === 'both') return both;
  if (seat === null || seat < 0 || seat === v.robotSeat || to === 'all') return '';
  if (to === 'opponent' && audience === undefined && (v.mySeat === null || (v.mySeat & 1) === (v.robotSeat & 1)))
    return both;
  const name = seatName(seat, v, lang);
  if (pt) return name === 'tu' ? 'para ti:' : `para ${name}:`;
  return `to ${name}:`;
}

/** Whom an emotion is about: "about you" / "por ti". */
export function aboutWords(seat: number | null, v: View, lang: Language): string {
  if (seat === null || seat === v.robotSeat) return '';
  const name = seatName(seat, v, lang);
  return lang === 'pt' ? byPt(name) : `about ${name}`;
}

/**
 * The result of a game for the person: "You won: 2 victories." / "Ganharam: 2 vitórias." (A
 * watching page says which team.)
 */
export function resultWords(winner: 'A' | 'B' | 'draw', victories: number, v: View, lang: Language): string {
  if (winner === 'draw') return w('draw', lang);
  const pt = lang === 'pt';
  const team = winner === 'A' ? 0 : 1;
  const vic = pt
    ? `${victories} vitória${victories === 1 ? '' : 's'}`
    : `${victories} victor${victories === 1 ? 'y' : 'ies'}`;
  if (v.mySeat === null) {
    const robotWins = (v.robotSeat & 1) === team;
    return pt
      ? `${robotWins ? 'A equipa do robô ganhou' : 'Os adversários do robô ganharam'}: ${vic}.`
      : `${robotWins ? "The robot's team won" : "The robot's opponents won"}: ${vic}.`;
  }
  const weWin = (v.mySeat & 1) === team;
  return pt
    ? `${weWin ? 'Ganharam' : 'Perderam'}: ${weWin ? '' : 'os adversários levam '}${vic}.`
    : `${weWin ? 'You won' : 'You lost'}: ${weWin ? '' : 'the opponents get '}${vic}.`;
}

/** The two teams from the page's side: you (with your partner) first, or A and B while watching. */
export function teamNames(v: View, lang: Language): { mine: 0 | 1; names: [string, string] } {
  if (v.mySeat === null) return { mine: (v.robotSeat & 1) as 0 | 1, names: [w('teamA', lang), w('teamB', lang)] };
  const mine = (v.mySeat & 1) as 0 | 1;
  const names: [string, string] = ['', ''];
  names[mine] = w('us', lang);
  names[1 - mine] = w('them', lang);
  return { mine, names };
}

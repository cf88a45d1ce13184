// Wizard of Oz from the utterance library: the operator picks a line of the robot's own library
// (config/utterances/<language>.yaml) and the robot says it with its slots filled from the session, as
// the behaviours fill them: {partner} and {opponent} with the library's words (no names are known),
// {card}, {player}, {points}... from the game state and the last events. Pure and free of Node APIs:
// the server fills the line it publishes, the node fills one asked for by id alone, and the page
// previews it, all with these functions.

import { parseCard, pointsOf, suitOf } from '../../game/cards.js';
import type { LineWords } from '../../behaviours/utterance-text.js';
import { cardPhrase, rankPhrase, renderUtterance, suitPhrase } from '../../behaviours/utterance-text.js';
import type { GameEventMessage, GameStateMessage } from '../bus/messages.js';

type SlotValues = Partial<Record<string, string | number>>;

/** One line as the operator picks it: its id (`category#n`), category, target and text with slots. */
interface WizardLine {
  id: string;
  category: string;
  to: 'partner' | 'opponent' | 'all';
  text: string;
}

/** A language's lines and the words their slots are filled with (what a dashboard is sent). */
export interface WizardLibrary extends LineWords {
  lines: WizardLine[];
}

/** By language tag. */
export type WizardLibraries = Record<string, WizardLibrary>;

/** What the slots are filled from: the latched game state and the recent game events (oldest first). */
export interface SessionView {
  game: GameStateMessage | null;
  events: readonly GameEventMessage[];
}

/** The picker's copy of an UtteranceLibrary (behaviours/utterance-config.ts). */
export function wizardLibraryOf(library: LineWords & { lines: readonly WizardLine[] }): WizardLibrary {
  return {
    language: library.language,
    names: library.names,
    cards: library.cards,
    lines: library.lines.map((l) => ({ id: l.id, category: l.category, to: l.to, text: l.text })),
  };
}

export const findLine = (library: WizardLibrary | undefined, id: string): WizardLine | undefined =>
  library?.lines.find((l) => l.id === id);

/** The slot values for a line of `category` now. A slot with nothing to say is left out of the line. */
function wizardSlots(library: WizardLibrary, category: string, view: SessionView): SlotValues {
  const slots: SlotValues = { partner: library.names.partner, opponent: library.names.opponent };
  const g = view.game;
  if (!g) return slots;
  const robot = g.robot_seat;
  const us = robot & 1;
  const them = 1 - us;
  // The robot is "" when it is the player, as the behaviours say it.
  const name = (seat: number): string =>
    seat < 0 || seat === robot ? '' : (seat & 1) === us ? library.names.partner : library.names.opponent;
  // Only this game's events: from its deal on.
  const lastDeal = view.events.map((e) => e.type).lastIndexOf('deal');
  const events = lastDeal >= 0 ? view.events.slice(lastDeal) : [];
  const last = (type: string): GameEventMessage | undefined => events.findLast((e) => e.type === type);
  const card = (c: string): SlotValues => {
    const parsed = parseCard(c);
    return {
      card: cardPhrase(library, parsed),
      rank: rankPhrase(library, parsed),
      suit: suitPhrase(library, suitOf(parsed)),
      points: pointsOf(parsed),
    };
  };

  const is = (prefix: string): boolean => category === prefix || category.startsWith(`${prefix}.`);
  // People count games from 1: before the first deal the game spoken of is the first, and a
  // game.start line between games speaks of the next one (g.game counts the games begun so far).
  const upcoming = g.game === 0 || (is('game.start') && g.status === 'game_over');
  Object.assign(slots, {
    games: g.games,
    game: upcoming ? Math.min(g.game + 1, Math.max(g.games, 1)) : g.game,
    points: g.points[us] ?? 0,
    their_points: g.points[them] ?? 0,
    victories: g.victories[us] ?? 0,
    their_victories: g.victories[them] ?? 0,
    player: name(g.to_move),
  });
  if (g.trump_card) slots.trump = suitPhrase(library, suitOf(parseCard(g.trump_card)));
  const play = last('play');
  if (play?.card) Object.assign(slots, card(play.card), { player: name(play.seat) });

  if (is('trump') && g.trump_card) Object.assign(slots, card(g.trump_card), { player: name(g.dealer) });
  else if (is('trick.end')) {
    const trick = last('trick');
    if (trick) Object.assign(slots, { points: trick.points, player: name(trick.winner) });
  } else if (is('game.end')) {
    const end = last('end');
    if (end) Object.assign(slots, { points: end.final_points[us] ?? 0, their_points: end.final_points[them] ?? 0 });
    const renounce = last('renounce');
    if (renounce) slots.player = name(renounce.seat);
  } else if (is('next-player')) slots.player = name(g.to_move);
  else if (is('playing') && g.table.length > 0) {
    // The robot's own-play lines speak of the suit led, as the behaviours say them (planner.ts).
    slots.suit = suitPhrase(library, suitOf(parseCard(g.table[0]!)));
  } else if (is('shuffle') || is('cut') || is('deal')) slots.player = name(g.dealer);
  return slots;
}

/** The line as the robot would say it now. */
export const fillWizardLine = (library: WizardLibrary, line: WizardLine, view: SessionView): string =>
  renderUtterance(library, line, wizardSlots(library, line.category, view));

/**
 * The categories of behaviours/utterance-config.ts in people's words, for the picker and the speech
 * queue. (The trump.* lines are said at a deal whose turned-up trump card, the dealer's, is an ace,
 * seven or two; no longer than the longest name here, or the picker widens the dashboard's column.)
 */
export const CATEGORY_WORDS: Readonly<Record<string, string>> = {
  'session.start': 'Start of the session',
  'session.end.win': 'End of the session: won',
  'session.end.loss': 'End of the session: lost',
  'session.end.draw': 'End of the session: a draw',
  'game.start': 'Start of a game',
  'game.end.win.single': 'End of game: won with 1 victory',
  'game.end.win.double': 'End of game: won with 2 victories',
  'game.end.win.quadruple': 'End of game: won with 4 victories',
  'game.end.loss.single': 'End of game: lost by 1 victory',
  'game.end.loss.double': 'End of game: lost by 2 victories',
  'game.end.loss.quadruple': 'End of game: lost by 4 victories',
  'game.end.draw': 'End of game: a draw',
  'game.end.renounce.ours': 'End of game: our side renounced',
  'game.end.renounce.theirs': 'End of game: their side renounced',
  'trick.end.ours': 'A trick taken by our side',
  'trick.end.theirs': 'A trick taken by the opponents',
  'trick.end.zero': 'A trick worth no points',
  'cards.received': 'Its cards received',
  'play.self': 'Its own card',
  'play.partner': "The partner's card",
  'play.opponent': "An opponent's card",
  'play.surprise.partner': 'A card of the partner it did not expect',
  'play.surprise.opponent': 'A card of an opponent it did not expect',
  'playing.new-trick': 'It leads a trick',
  'playing.following': 'It follows suit',
  'playing.not-following': 'It cannot follow suit',
  'playing.cut': 'It trumps',
  'playing.forced': 'Its only legal card',
  shuffle: 'The shuffle',
  cut: 'The cut',
  deal: 'The deal',
  'next-player.partner': 'Nudging the partner to play',
  'next-player.opponent': 'Nudging an opponent to play',
  'trump.ace.self': 'Ace of trumps turned up by itself',
  'trump.ace.partner': 'Ace of trumps turned up by the partner',
  'trump.ace.opponent': 'Ace of trumps turned up by an opponent',
  'trump.seven.self': 'Seven of trumps turned up by itself',
  'trump.seven.partner': 'Seven of trumps turned up by the partner',
  'trump.seven.opponent': 'Seven of trumps turned up by an opponent',
  'trump.two.self': 'Two of trumps turned up by itself',
  'trump.two.partner': 'Two of trumps turned up by the partner',
  'trump.two.opponent': 'Two of trumps turned up by an opponent',
  operator: "The operator's words",
  'asked.review': "The game's review, asked at the table",
  'asked.why': 'Why it played its card, asked at the table',
};

/**
 * A line's category as a dashboard names it. Recordings made before the answers asked at a table had
 * categories of their own filed them as the operator's, with their ids (review#n, why#n) telling them apart.
 */
export const lineCategory = (category: string, id: string): string => {
  if (category !== 'operator') return category;
  if (/^review#\d+$/.test(id)) return 'asked.review';
  if (/^why#\d+$/.test(id)) return 'asked.why';
  return category;
};

/** A category in people's words ("game.end.win.quadruple" -> "End of game: won with 4 victories"); an unknown one spelled out. */
export const categoryWords = (category: string): string => {
  const known = CATEGORY_WORDS[category];
  if (known) return known;
  const spelled = category.replaceAll(/[._-]+/g, ' ').trim();
  return spelled.charAt(0).toUpperCase() + spelled.slice(1);
};

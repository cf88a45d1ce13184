// config/utterances/<language>.yaml: what the robot can say, by category, with the target of each line
// (partner, opponent, all), slots such as {partner} or {card}, and optional gaze and animation marks.
// The categories are those of the original Sueca robot (GAIPS).

import { z } from 'zod';
import { loadYamlConfig } from '../config/index.js';
import { EXPRESSIONS } from './posture-config.js';
import type { ExpressionName } from './posture-config.js';
import { namesNeeded } from './utterance-text.js';
import type { NameSlot } from './utterance-text.js';
import { REASON_KINDS, STRENGTH_CLASSES } from '../game/index.js';
import type { ReasonKind, StrengthClass } from '../game/index.js';

const NAMES = ['partner', 'opponent'] as const;
const GAME_END = [...NAMES, 'points', 'their_points', 'victories'] as const;
const CARD = [...NAMES, 'card', 'rank', 'suit', 'player'] as const;

/** Every category and the slots its lines may use. */
export const UTTERANCE_CATEGORIES = {
  'session.start': [...NAMES, 'games'],
  'session.end.win': [...NAMES, 'victories', 'their_victories'],
  'session.end.loss': [...NAMES, 'victories', 'their_victories'],
  'session.end.draw': [...NAMES, 'victories', 'their_victories'],
  'game.start': [...NAMES, 'game', 'games'],
  'game.end.win.single': GAME_END,
  'game.end.win.double': GAME_END,
  'game.end.win.quadruple': GAME_END,
  'game.end.loss.single': GAME_END,
  'game.end.loss.double': GAME_END,
  'game.end.loss.quadruple': GAME_END,
  'game.end.draw': GAME_END,
  'game.end.renounce.ours': [...GAME_END, 'player'],
  'game.end.renounce.theirs': [...GAME_END, 'player'],
  // The winner may be the robot itself, so only the opponents' tricks name their winner.
  'trick.end.ours': [...NAMES, 'points'],
  'trick.end.theirs': [...NAMES, 'points', 'player'],
  'trick.end.zero': NAMES,
  'cards.received': [...NAMES, 'trump'],
  'play.self': [...CARD, 'points'],
  'play.partner': [...CARD, 'points'],
  'play.opponent': [...CARD, 'points'],
  // Another seat's card the robot did not expect (its prediction gave it little chance).
  'play.surprise.partner': [...CARD, 'points'],
  'play.surprise.opponent': [...CARD, 'points'],
  'playing.new-trick': [...CARD, 'trump'],
  'playing.following': [...CARD, 'trump'],
  'playing.not-following': [...CARD, 'trump'],
  'playing.cut': [...CARD, 'trump'],
  'playing.forced': [...CARD, 'trump'],
  shuffle: [...NAMES, 'player'],
  cut: [...NAMES, 'player'],
  deal: [...NAMES, 'player'],
  'next-player.partner': [...NAMES, 'player'],
  'next-player.opponent': [...NAMES, 'player'],
  'trump.ace.self': CARD,
  'trump.ace.partner': CARD,
  'trump.ace.opponent': CARD,
  'trump.seven.self': CARD,
  'trump.seven.partner': CARD,
  'trump.seven.opponent': CARD,
  'trump.two.self': CARD,
  'trump.two.partner': CARD,
  'trump.two.opponent': CARD,
} as const satisfies Record<string, readonly string[]>;

export type UtteranceCategory = keyof typeof UTTERANCE_CATEGORIES;
export const CATEGORY_NAMES = Object.keys(UTTERANCE_CATEGORIES) as UtteranceCategory[];
export type SlotName = (typeof UTTERANCE_CATEGORIES)[UtteranceCategory][number];

/** The emotion subcategories of a play, as the original robot indexed its lines. */
export const UTTERANCE_EMOTIONS = ['happy', 'happy-for', 'gloating', 'resentment', 'self-pity', 'pity'] as const;
export type UtteranceEmotion = (typeof UTTERANCE_EMOTIONS)[number];

export const TARGETS = ['partner', 'opponent', 'all'] as const;
export type UtteranceTarget = (typeof TARGETS)[number];

/** Where to look while speaking: the addressee (default), someone else, the cards, or nowhere new. */
const GAZE_MARKS = ['addressee', 'partner', 'opponents', 'everyone', 'play-area', 'own-cards', 'none'] as const;
export type GazeMark = (typeof GAZE_MARKS)[number];

/**
 * When a line fits, beyond its category: each condition a line sets must hold (a line without
 * conditions fits whenever its category does). Each applies only to the categories where the planner
 * knows its answer (`CONDITION_CATEGORIES`); anywhere else it is refused at load.
 */
const LINE_CONDITIONS = {
  /** The session's first game, or a later one ("Bora lá, próximo jogo!"). */
  game: ['first', 'later'],
  /** A game won or lost by at most 20 card points (close) or by 40 or more (clear). */
  margin: ['close', 'clear'],
  /** At a game's end: another game of the session follows (game: "O próximo é nosso"), or this was its last (none). */
  next: ['game', 'none'],
  /**
   * The robot's team won or lost the game before this one ("Preparem-se para perder mais um!" only
   * after a won game); unknown in the first game and after a draw, so a line that sets it is not said then.
   */
  previous: ['won', 'lost'],
  /** The card played is worth 10 or more (an ace, a seven: rich) or nothing (poor). */
  card: ['rich', 'poor'],
  /**
   * The trick went to the robot's team (ours) or to the opponents (theirs); of a card, who holds the
   * trick so far ("Obrigadinho!" only of a card that went the robot's team's way).
   */
  taken: ['ours', 'theirs'],
  /**
   * The card holds the trick so far (winning: "Bem jogado", "Toma lá esta!") or another card beats it
   * (beaten: the robot's "Tenho de assistir" is a card it must follow suit with, not one that wins).
   */
  trick: ['winning', 'beaten'],
  /** Tricks 1 to 5 of the game (early: "ainda há muito jogo"), or 6 to 10 (late). */
  stage: ['early', 'late'],
  /** The robot's team has more card points in this game so far (ahead), or fewer (behind). */
  score: ['ahead', 'behind'],
} as const;
export type ConditionName = keyof typeof LINE_CONDITIONS;
export type LineConditions = { readonly [K in ConditionName]?: (typeof LINE_CONDITIONS)[K][number] };
const CONDITION_NAMES = Object.keys(LINE_CONDITIONS) as ConditionName[];

/** The categories each condition can be judged in, and how to say so in an error. */
const CONDITION_CATEGORIES: Readonly<
  Record<ConditionName, { applies: (c: UtteranceCategory) => boolean; where: string }>
> = {
  game: { applies: (c) => !c.startsWith('session.'), where: 'every category but session.*' },
  margin: {
    applies: (c) => c.startsWith('game.end.win.') || c.startsWith('game.end.loss.'),
    where: 'game.end.win.* and game.end.loss.*',
  },
  next: { applies: (c) => c.startsWith('game.end.'), where: 'game.end.*' },
  previous: {
    applies: (c) => c === 'game.start' || c.startsWith('game.end.'),
    where: 'game.start and game.end.*',
  },
  card: { applies: (c) => c.startsWith('play.') || c.startsWith('playing.'), where: 'play.* and playing.*' },
  taken: { applies: (c) => c.startsWith('trick.end.') || c.startsWith('play.'), where: 'trick.end.* and play.*' },
  trick: { applies: (c) => c.startsWith('play.') || c.startsWith('playing.'), where: 'play.* and playing.*' },
  stage: {
    applies: (c) => c.startsWith('trick.end.') || c.startsWith('play.') || c.startsWith('playing.'),
    where: 'trick.end.*, play.* and playing.*',
  },
  score: {
    applies: (c) => c.startsWith('trick.end.') || c.startsWith('play.') || c.startsWith('playing.'),
    where: 'trick.end.*, play.* and playing.*',
  },
};

export interface Utterance {
  /** `category#n`, n counting from 1 in the file: for logs and the dashboard. */
  id: string;
  category: UtteranceCategory;
  text: string;
  to: UtteranceTarget;
  /** Set on lines meant for one emotion subcategory; lines without are neutral. */
  emotions: readonly UtteranceEmotion[];
  gaze: GazeMark;
  /** An expression shown while the line is spoken, at `amount` 0..1. */
  animation: { expression: ExpressionName; amount: number } | null;
  /** When the line fits (`LINE_CONDITIONS`); empty: whenever its category does. */
  when: LineConditions;
  /** Name slots used other than as a call ("{player} não assistiu"): the line needs those names known. */
  needsNames: readonly NameSlot[];
}

export interface UtteranceLibrary {
  language: string;
  /** Said in place of an unknown name in a call; empty (the default): the call is left out. */
  names: { partner: string; opponent: string };
  cards: { ranks: Readonly<Record<string, string>>; suits: Readonly<Record<string, string>>; of: string };
  lines: readonly Utterance[];
  /** How the robot says why it played a card (game/explain): one sentence per reason kind; absent: it cannot say why in this language. */
  reasons?: ReasonWords;
  /** How the robot tells the end-of-game review (game/explain/review.ts); absent: it cannot tell it in this language. */
  review?: ReviewWords;
}

/**
 * The end-of-game review in words. Slots: intro {dealt} {dealt_points} {final} {final_points};
 * a moment {trick} {card} {better} {points} {turn} (and {who} for an opponent's); renounce {who} {card}.
 */
export interface ReviewWords {
  intro: string;
  /**
   * A moment of the robot's own, its partner's, an opponent's ({who}); told to the one who asked: the
   * partner's own (`you`), an opponent's own (`youOpponent`) and that opponent's partner's (`yourPartner`).
   */
  moment: Readonly<Record<ReviewVoice, string>>;
  /** Added as {turn} when the better card would also have changed the result. */
  turn: string;
  /** No moment worth telling: nobody changed the outcome, or only by a few points each time. */
  none: string;
  small: string;
  renounce: string;
  /** The renounce of the one who asked. */
  renounceYou: string;
  /**
   * The renouncer or an opponent as the robot names them, and as the listener sees them: the partner's
   * left and right, an opponent's partner.
   */
  who: Readonly<Record<ReviewWho, string>>;
  /** What a game was worth for the robot's team, by its signed victories. */
  outcome: Readonly<Record<ReviewOutcome, string>>;
  /** Asked before the review of the game just ended is ready; asked before any game ended. */
  pending: string;
  noGame: string;
  /** The game could not be reviewed (not every card was played, or the review failed). */
  unavailable: string;
}
const REVIEW_VOICES = ['self', 'partner', 'opponent', 'you', 'youOpponent', 'yourPartner'] as const;
type ReviewVoice = (typeof REVIEW_VOICES)[number];
const REVIEW_WHO = ['self', 'partner', 'left', 'right', 'yourLeft', 'yourRight', 'yourPartner'] as const;
type ReviewWho = (typeof REVIEW_WHO)[number];
const REVIEW_OUTCOMES = ['win4', 'win2', 'win1', 'draw', 'loss1', 'loss2', 'loss4'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];
/** The slots each review sentence may use. */
const REVIEW_SLOTS: Readonly<Record<string, readonly string[]>> = {
  intro: ['dealt', 'dealt_points', 'final', 'final_points'],
  'moment.self': ['trick', 'card', 'better', 'points', 'turn'],
  'moment.partner': ['trick', 'card', 'better', 'points', 'turn'],
  'moment.opponent': ['trick', 'who', 'card', 'better', 'points', 'turn'],
  'moment.you': ['trick', 'card', 'better', 'points', 'turn'],
  'moment.youOpponent': ['trick', 'card', 'better', 'points', 'turn'],
  'moment.yourPartner': ['trick', 'card', 'better', 'points', 'turn'],
  renounce: ['who', 'card', 'trick'],
  renounceYou: ['card', 'trick'],
};

/** The sentences of the reasons, and the words of confidence (after Yano and Onisawa's poker partner). */
interface ReasonWords {
  kinds: Readonly<Record<ReasonKind, string>>;
  /**
   * The same reasons said without what the others cannot know (a card still in the robot's hand, the
   * points it kept back): said during a game outside the advice mode.
   */
  discreet: Readonly<Record<ReasonKind, string>>;
  certainty: Readonly<Record<Certainty, string>>;
  /**
   * What decided in the search, in numbers, said in place of a vague reason (better odds, more points,
   * a close call): the chance to win the game ({chance} against {other_chance}) or the points ({gain});
   * `decided` after the game (it may name {other}), `decidedDiscreet` during it; `then` follows a
   * tactical reason. Each may use {card}.
   */
  decided: Readonly<Record<EdgeKind, string>>;
  decidedDiscreet: Readonly<Record<EdgeKind, string>>;
  then: Readonly<Record<EdgeKind, string>>;
  /**
   * Reasons said to the partner who asked, where `kinds` or `discreet` speak of the partner in the
   * third person ("o meu parceiro pode cortar" becomes "podes cortar"); a kind left out is said as usual.
   */
  toPartner?:
    | {
        kinds: Readonly<Partial<Record<ReasonKind, string | undefined>>>;
        discreet: Readonly<Partial<Record<ReasonKind, string | undefined>>>;
      }
    | undefined;
  /** Said when the card was the only legal one ({card}); when nothing was played yet this game; when the search found no reason ({card}). */
  forced: string;
  /**
   * Said of a forced card during the game, before its last trick: "the only card I could play" would
   * tell the table the robot held no other of the suit ({card}); default `unknown`'s words.
   */
  forcedDiscreet?: string | undefined;
  none: string;
  unknown: string;
  /** The training mode's suggestion to the partner: {card} the advice, {other} the card the partner would likely play, {certainty}. */
  advice: string;
  /** The training mode only: the robot's own hand in fuzzy words ({strength}; after Yano and Onisawa), and a warning that the opponents hold the ace of trumps ({card}). */
  hand: string;
  strength: Readonly<Record<StrengthClass, string>>;
  aceWithThem: string;
  /** The training mode: every trump left is in the team's hands, so the partner's side masters cannot be ruffed. */
  noTrumpsWithThem: string;
}
const EDGE_KINDS = ['win', 'points'] as const;
type EdgeKind = (typeof EDGE_KINDS)[number];
/** The slots of the search's edge in words; the discreet ones and `then` never name the other card. */
const EDGE_SLOTS = ['card', 'other', 'chance', 'other_chance', 'gain'] as const;
const DISCREET_EDGE_SLOTS = ['card', 'chance', 'other_chance', 'gain'] as const;
/** How sure a reason is, in words (after Yano and Onisawa): from the share of worlds that bear it out. */
const CERTAINTIES = ['certainly', 'probably', 'maybe'] as const;
export type Certainty = (typeof CERTAINTIES)[number];
/** The slots a reason's sentence may use. */
const REASON_SLOTS = ['card', 'other', 'points', 'suit', 'kept', 'certainty'] as const;
/** What a discreet reason may say: the card played, the suit it is about, how sure. */
const DISCREET_SLOTS = ['card', 'suit', 'certainty'] as const;

const text = z.string().trim().min(1, 'expected a non-empty text');

const lineSchema = z.strictObject({
  text,
  to: z.enum(TARGETS).default('all'),
  emotion: z
    .union([z.enum(UTTERANCE_EMOTIONS), z.array(z.enum(UTTERANCE_EMOTIONS)).min(1)], {
      error: `expected an emotion (${UTTERANCE_EMOTIONS.join(', ')}) or a list of them`,
    })
    .optional(),
  gaze: z.enum(GAZE_MARKS).default('addressee'),
  animation: z
    .union(
      [z.enum(EXPRESSIONS), z.strictObject({ expression: z.enum(EXPRESSIONS), amount: z.number().min(0).max(1) })],
      {
        error: `expected an expression (${EXPRESSIONS.join(', ')}) or { expression, amount 0..1 }`,
      },
    )
    .optional(),
  when: z
    .strictObject({
      game: z.enum(LINE_CONDITIONS.game).optional(),
      margin: z.enum(LINE_CONDITIONS.margin).optional(),
      next: z.enum(LINE_CONDITIONS.next).optional(),
      previous: z.enum(LINE_CONDITIONS.previous).optional(),
      card: z.enum(LINE_CONDITIONS.card).optional(),
      taken: z.enum(LINE_CONDITIONS.taken).optional(),
      trick: z.enum(LINE_CONDITIONS.trick).optional(),
      stage: z.enum(LINE_CONDITIONS.stage).optional(),
      score: z.enum(LINE_CONDITIONS.score).optional(),
    } satisfies Record<ConditionName, unknown>)
    .optional(),
});

const RANK_KEYS = ['2', '3', '4', '5', '6', 'Q', 'J', 'K', '7', 'A'] as const;
const SUIT_KEYS = ['S', 'H', 'D', 'C'] as const;
const keyed = <K extends string>(keys: readonly K[]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, text])) as Record<K, typeof text>);
/** Some of `keys`, none other. */
const partlyKeyed = <K extends string>(keys: readonly K[]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, text.optional()])) as Record<K, z.ZodOptional<typeof text>>);

const SLOT = /\{([^{}]*)\}/g;

export const utteranceFileSchema = z
  .strictObject({
    language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'expected a language tag such as pt or en'),
    // Optional: by default an unknown name is simply not said (the players' genders are unknown too).
    names: z
      .strictObject({ partner: z.string().trim(), opponent: z.string().trim() })
      .default({ partner: '', opponent: '' }),
    cards: z.strictObject({ ranks: keyed(RANK_KEYS), suits: keyed(SUIT_KEYS), of: z.string() }),
    lines: z.strictObject(
      Object.fromEntries(CATEGORY_NAMES.map((c) => [c, z.array(lineSchema).default([])])) as Record<
        UtteranceCategory,
        z.ZodDefault<z.ZodArray<typeof lineSchema>>
      >,
    ),
    reasons: z
      .strictObject({
        kinds: keyed(REASON_KINDS),
        discreet: keyed(REASON_KINDS),
        certainty: keyed(CERTAINTIES),
        decided: keyed(EDGE_KINDS),
        decidedDiscreet: keyed(EDGE_KINDS),
        then: keyed(EDGE_KINDS),
        toPartner: z.strictObject({ kinds: partlyKeyed(REASON_KINDS), discreet: partlyKeyed(REASON_KINDS) }).optional(),
        forced: text,
        forcedDiscreet: text.optional(),
        none: text,
        unknown: text,
        advice: text,
        hand: text,
        strength: keyed(STRENGTH_CLASSES),
        aceWithThem: text,
        noTrumpsWithThem: text,
      })
      .optional(),
    review: z
      .strictObject({
        intro: text,
        moment: keyed(REVIEW_VOICES),
        turn: text,
        none: text,
        small: text,
        renounce: text,
        renounceYou: text,
        who: keyed(REVIEW_WHO),
        outcome: keyed(REVIEW_OUTCOMES),
        pending: text,
        noGame: text,
        unavailable: text,
      })
      .optional(),
  })
  .superRefine((file, ctx) => {
    for (const category of CATEGORY_NAMES) {
      const allowed: readonly string[] = UTTERANCE_CATEGORIES[category];
      const seen = new Map<string, number>();
      file.lines[category].forEach((line, i) => {
        const path = ['lines', category, i, 'text'];
        const stripped = line.text.replace(SLOT, '');
        if (/[{}]/.test(stripped))
          ctx.addIssue({ code: 'custom', path, message: 'unbalanced { or } (slots are written {name})' });
        for (const m of line.text.matchAll(SLOT)) {
          if (!allowed.includes(m[1]!)) {
            ctx.addIssue({
              code: 'custom',
              path,
              message: `unknown slot {${m[1]}} for ${category}; it offers ${allowed.map((s) => `{${s}}`).join(', ')}`,
            });
          }
        }
        for (const k of CONDITION_NAMES) {
          if (line.when?.[k] !== undefined && !CONDITION_CATEGORIES[k].applies(category)) {
            ctx.addIssue({
              code: 'custom',
              path: ['lines', category, i, 'when', k],
              message: `${k} is not known for ${category}: it applies to ${CONDITION_CATEGORIES[k].where}`,
            });
          }
        }
        const key = normalise(line.text);
        const first = seen.get(key);
        if (first !== undefined)
          ctx.addIssue({ code: 'custom', path, message: `the same line as lines.${category}[${first}]` });
        else seen.set(key, i);
      });
    }
    const r = file.reasons;
    const checkReason = (sentence: string | undefined, path: (string | number)[], discreet: boolean): void => {
      for (const m of sentence?.matchAll(SLOT) ?? []) {
        if (discreet && !(DISCREET_SLOTS as readonly string[]).includes(m[1]!))
          ctx.addIssue({
            code: 'custom',
            path,
            message: `{${m[1]}} may reveal the robot's hand; a discreet reason offers ${DISCREET_SLOTS.map((r) => `{${r}}`).join(', ')}`,
          });
        else if (!discreet && !(REASON_SLOTS as readonly string[]).includes(m[1]!))
          ctx.addIssue({
            code: 'custom',
            path,
            message: `unknown slot {${m[1]}}; a reason offers ${REASON_SLOTS.map((r) => `{${r}}`).join(', ')}`,
          });
      }
    };
    for (const kind of r ? REASON_KINDS : []) {
      checkReason(r!.kinds[kind], ['reasons', 'kinds', kind], false);
      // A discreet reason names only what is public: the card played and how sure.
      checkReason(r!.discreet[kind], ['reasons', 'discreet', kind], true);
      checkReason(r!.toPartner?.kinds[kind], ['reasons', 'toPartner', 'kinds', kind], false);
      checkReason(r!.toPartner?.discreet[kind], ['reasons', 'toPartner', 'discreet', kind], true);
    }
  })
  .superRefine((file, ctx) => {
    if (!file.reasons) return;
    for (const [key, allowed] of [
      ['decided', EDGE_SLOTS],
      ['decidedDiscreet', DISCREET_EDGE_SLOTS],
      ['then', DISCREET_EDGE_SLOTS],
    ] as const) {
      for (const kind of EDGE_KINDS) {
        for (const m of file.reasons[key][kind].matchAll(SLOT)) {
          if (!(allowed as readonly string[]).includes(m[1]!))
            ctx.addIssue({
              code: 'custom',
              path: ['reasons', key, kind],
              message: `unknown slot {${m[1]}}; it offers ${allowed.map((a) => `{${a}}`).join(', ')}`,
            });
        }
      }
    }
  })
  .superRefine((file, ctx) => {
    if (!file.review) return;
    const r = file.review;
    const sentences: Record<string, string> = {
      intro: r.intro,
      'moment.self': r.moment.self,
      'moment.partner': r.moment.partner,
      'moment.opponent': r.moment.opponent,
      'moment.you': r.moment.you,
      'moment.youOpponent': r.moment.youOpponent,
      'moment.yourPartner': r.moment.yourPartner,
      renounce: r.renounce,
      renounceYou: r.renounceYou,
    };
    for (const [key, sentence] of Object.entries(sentences)) {
      const allowed = REVIEW_SLOTS[key]!;
      for (const m of sentence.matchAll(SLOT)) {
        if (!allowed.includes(m[1]!))
          ctx.addIssue({
            code: 'custom',
            path: ['review', ...key.split('.')],
            message: `unknown slot {${m[1]}}; it offers ${allowed.map((a) => `{${a}}`).join(', ')}`,
          });
      }
    }
  })
  .transform((file): UtteranceLibrary => ({
    language: file.language,
    names: file.names,
    cards: file.cards,
    lines: CATEGORY_NAMES.flatMap((category) =>
      file.lines[category].map((l, i): Utterance => ({
        id: `${category}#${i + 1}`,
        category,
        text: l.text,
        to: l.to,
        emotions: l.emotion === undefined ? [] : typeof l.emotion === 'string' ? [l.emotion] : l.emotion,
        gaze: l.gaze,
        animation:
          l.animation === undefined
            ? null
            : typeof l.animation === 'string'
              ? { expression: l.animation, amount: 0.6 }
              : l.animation,
        when: Object.fromEntries(Object.entries(l.when ?? {}).filter(([, v]) => v !== undefined)) as LineConditions,
        needsNames: namesNeeded(l.text),
      })),
    ),
    ...(file.reasons ? { reasons: file.reasons } : {}),
    ...(file.review ? { review: file.review } : {}),
  }));

/** Case, spacing and punctuation do not make two lines different. */
export const normalise = (s: string): string =>
  s
    .normalize('NFC')
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}{}]+/gu, ' ')
    .trim();

/** Reads config/utterances/<language>.yaml (or another file of that form). Throws `ConfigError`. */
export const loadUtteranceLibrary = (file: string): UtteranceLibrary => loadYamlConfig(file, utteranceFileSchema);

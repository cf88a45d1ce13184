// Narrates a session from what crosses the bus, as an observer of the node would see it: the deals,
// each trick with the robot's card and its thinking time, what the robot feels (when its strongest
// emotion changes), its face and what it says, each where it happened: a line spoken mid-trick
// comes after the cards already down and before the ones played after it. It also keeps the figures
// of the closing summary.

import type { UtteranceLibrary } from '../../behaviours/index.js';
import { loadBehaviourSetup, reviewSentences } from '../../behaviours/index.js';
import type { Seat } from '../../game/index.js';
import type {
  Bus,
  DecisionMessage,
  EmotionalStateMessage,
  GameEventMessage,
  GameReviewMessage,
  UtteranceMessage,
} from '../../robot/bus/index.js';
import { reviewOfMessage } from '../../robot/live/index.js';

export interface SessionFigures {
  games: number;
  victories: [number, number];
  /** Card points of each game, team A and team B. */
  points: [number, number][];
  /** Searched decisions' times (ms); forced cards are not counted. */
  decisionMs: number[];
  forced: number;
  utterances: number;
  expressions: number;
  emotions: Record<string, number>;
}

const SEAT_NAMES = ['robot', 'seat 1', 'seat 2', 'seat 3'];

export class Narrator {
  readonly figures: SessionFigures = {
    games: 0,
    victories: [0, 0],
    points: [],
    decisionMs: [],
    forced: 0,
    utterances: 0,
    expressions: 0,
    emotions: {},
  };
  #trick: string[] = [];
  #trickNo = 0;
  /** Cards of the trick already written (before something the robot felt, showed or said). */
  #shown = 0;
  #lastDecision: DecisionMessage | null = null;
  #lastFeeling = '';
  #lastFace = 'neutral';
  readonly #who: (seat: number) => string;

  constructor(
    bus: Bus,
    private readonly write: (line: string) => void,
    private readonly robotSeat = 0,
  ) {
    this.#who = (s) => (s === robotSeat ? 'robot' : (SEAT_NAMES[s] ?? `seat ${s}`));
    bus.subscribe('gameEvents', (m) => this.#event(m));
    bus.subscribe('decision', (m) => {
      this.#lastDecision = m;
      if (m.fallback === 'forced') this.figures.forced++;
      else this.figures.decisionMs.push(m.time_ms);
    });
    bus.subscribe('emotions', (m) => this.#emotions(m));
    bus.subscribe('expression', (m) => {
      if (m.expression === this.#lastFace) return;
      this.#lastFace = m.expression;
      this.figures.expressions++;
      this.#aside(`      [face: ${m.expression}]`);
    });
    bus.subscribe('utterance', (m) => this.#utterance(m));
    bus.subscribe('review', (m) => this.#review(m));
    // At a level of play below full: what the robot recalled of the played cards as it chose.
    bus.subscribe('memory', (m) => {
      if (m.played.length === 0) return;
      const voids = m.forgotten_voids.length
        ? `; and that ${m.forgotten_voids.map((v) => `${this.#who(Number(v[0]))} had no ${v.slice(1)}`).join(', ')}`
        : '';
      this.#aside(
        `      [memory (${m.level}): recalls ${m.played.length - m.forgotten.length} of the ${m.played.length} cards played${m.forgotten.length ? `; forgot ${m.forgotten.join(' ')}` : ''}${voids}]`,
      );
    });
  }

  /** The end-of-game review, in the narration's English, as the robot would tell it; it comes once worked out, maybe during the next game. */
  #review(m: GameReviewMessage): void {
    const review = reviewOfMessage(m);
    const sentences = review
      ? reviewSentences(
          (this.#english ??= loadBehaviourSetup({ language: 'en' }).utterances),
          review,
          this.robotSeat as Seat,
        )
      : [];
    this.#aside(
      `      [review of game ${m.game + 1}${sentences.length ? '' : `: ${m.status}${m.detail ? ` (${m.detail})` : ''}`}]`,
    );
    for (const s of sentences) this.#aside(`        ${s}`);
  }
  #english: UtteranceLibrary | undefined;

  #team(seat: number): string {
    return seat % 2 === 0 ? 'A' : 'B';
  }

  #event(m: GameEventMessage): void {
    switch (m.type) {
      case 'deal':
        this.write('');
        this.write(
          `Game ${m.game + 1}: ${this.#who(m.seat)} deals and turns up ${m.card}; ${this.#who(m.leader)} leads.`,
        );
        this.#trick = [];
        this.#shown = 0;
        return;
      case 'play': {
        let text = `${this.#who(m.seat)} ${m.card}`;
        const d = this.#lastDecision;
        if (m.seat === this.robotSeat && d && d.card === m.card) {
          const p = d.win_probability >= 0 ? `, wins ${Math.round(d.win_probability * 100)}%` : '';
          text += d.fallback === 'forced' ? ' (forced)' : ` (${(d.time_ms / 1000).toFixed(2)} s${p})`;
          this.#lastDecision = null;
        }
        this.#trickNo = m.trick;
        this.#trick.push(text);
        return;
      }
      case 'trick': {
        const rest = this.#trick.slice(this.#shown);
        this.write(
          `${this.#trickPrefix()}${rest.length ? `${rest.join(', ')} ` : ''}-> ${this.#who(m.winner)} (${this.#team(m.winner)}) takes ${m.points}`,
        );
        this.#trick = [];
        this.#shown = 0;
        return;
      }
      case 'renounce':
        this.write(`  renounce: ${this.#who(m.seat)} did not follow suit with ${m.card}`);
        return;
      case 'end': {
        const [a, b] = m.final_points as [number, number];
        this.figures.games++;
        this.figures.points.push([a, b]);
        this.figures.victories = [m.victories[0] ?? 0, m.victories[1] ?? 0];
        const verdict = m.winner_team === 'draw' ? 'a draw' : `team ${m.winner_team.toUpperCase()} wins`;
        this.write(`  game over: A ${a} - B ${b}, ${verdict}; victories A ${m.victories[0]} - B ${m.victories[1]}`);
        return;
      }
      case 'session_end':
        this.figures.victories = [m.victories[0] ?? 0, m.victories[1] ?? 0];
        return;
    }
  }

  #emotions(m: EmotionalStateMessage): void {
    const top = m.emotions[0];
    if (!top) return;
    this.figures.emotions[top.type] = (this.figures.emotions[top.type] ?? 0) + 1;
    const about =
      top.target >= 0
        ? ` about ${this.#who(top.target)}`
        : top.target_team
          ? ` about ${top.target_team === 'team' ? 'its team' : 'the opponents'}`
          : '';
    const key = `${top.type}${about}`;
    if (key === this.#lastFeeling || top.intensity < 1) return;
    this.#lastFeeling = key;
    const mood = m.mood === 0 ? '' : `, mood ${m.mood > 0 ? '+' : ''}${m.mood.toFixed(1)}`;
    this.#aside(`      [feels ${top.type} ${top.intensity.toFixed(1)}${about}${mood}]`);
  }

  #utterance(m: UtteranceMessage): void {
    if (m.phase !== 'start') return;
    this.figures.utterances++;
    const to =
      m.target === 'partner'
        ? ' to its partner'
        : m.target === 'opponent'
          ? ` to ${m.addressee >= 0 ? this.#who(m.addressee) : 'an opponent'}`
          : '';
    this.#aside(`      robot says${to}: "${m.text}"`);
  }

  /** The start of a trick's line, or the indent of its continuation. */
  #trickPrefix(): string {
    const head = `  trick ${String(this.#trickNo + 1).padStart(2)}: `;
    return this.#shown === 0 ? head : ' '.repeat(head.length);
  }

  /** Writes what the robot felt, showed or said after the cards of the trick played so far. */
  #aside(line: string): void {
    if (this.#trick.length > this.#shown) {
      this.write(`${this.#trickPrefix()}${this.#trick.slice(this.#shown).join(', ')},`);
      this.#shown = this.#trick.length;
    }
    this.write(line);
  }
}

/** The median and the largest of some times. */
export function medianAndMax(ms: readonly number[]): { p50: number; max: number } {
  if (ms.length === 0) return { p50: 0, max: 0 };
  const s = [...ms].sort((a, b) => a - b);
  return { p50: s[Math.floor((s.length - 1) / 2)]!, max: s[s.length - 1]! };
}

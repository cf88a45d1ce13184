// Small recordings for the report's tests, written through the project's Recorder: whole legal games
// (rule-based players on a seeded deal, so every card is known and which plays were forced is the
// engine's word, not the report's), the robot's reaction to each event as the node publishes it (one
// `emotions` message per event, in order, possibly after the next events), and faces, lines and
// language changes put where a test wants them.

import type { Card, Seat } from '../../game/index.js';
import {
  Game,
  PlayResult,
  RulePlayer,
  SeatView,
  createRng,
  dealCards,
  formatCard,
  pointsOf,
} from '../../game/index.js';
import { InProcessBus } from '../../robot/bus/index.js';
import type { GameEventMessage, UtteranceMessage } from '../../robot/bus/messages.js';
import type { TopicKey, TopicMessage } from '../../robot/bus/topics.js';
import { TOPICS } from '../../robot/bus/topics.js';
import { Recorder } from '../../robot/recording/index.js';
import type { SessionInfo } from '../../robot/recording/index.js';

export interface Emotion {
  type: string;
  intensity: number;
  target?: number;
  team?: string;
}

export interface EventContext {
  /** For a play: whether the engine had exactly one legal card for its seat. */
  forced: boolean;
  /** The event's index among the events the robot reacted to this session (an expectation's event_index). */
  index: number;
  script: SessionScript;
}

/** What the robot newly feels about an event (added to what it already feels), and its mood then. */
export type Reactor = (e: GameEventMessage, ctx: EventContext) => { felt?: Emotion[]; mood?: number } | void;

export interface PlayedGame {
  /** From 0, as the events count. */
  game: number;
  events: GameEventMessage[];
  /** Per play, in order: the engine's forced flag. */
  forced: boolean[];
  winnerTeam: 'a' | 'b' | 'draw';
}

const blank = (type: string, game: number, victories: [number, number]): GameEventMessage => ({
  type,
  game,
  seat: -1,
  card: '',
  trick: -1,
  leader: -1,
  cards: [],
  winner: -1,
  points: 0,
  final_points: [0, 0],
  winner_team: '',
  victories,
});

export class SessionScript {
  readonly messages: { key: TopicKey; time: number; message: unknown }[] = [];
  now = 1_700_000_000_000;
  victories: [number, number] = [0, 0];
  /** The robot's active emotions, as its next emotions message will list them. */
  feeling: Required<Emotion>[] = [];
  mood = 0;
  /** Events reacted to so far. */
  reacted = 0;

  constructor(
    readonly session: SessionInfo = {
      id: 'test',
      seed: '1',
      games: '1',
      robotSeat: '0',
      language: 'pt',
      character: 'warm',
    },
  ) {}

  tick(ms = 100): this {
    this.now += ms;
    return this;
  }

  emit<K extends TopicKey>(key: K, message: TopicMessage<K>): this {
    this.messages.push({ key, time: this.now, message });
    return this;
  }

  /** An emotions message: what is felt now, after `felt` is added; earlier emotions a little decayed. */
  react(felt: Emotion[] = [], mood = this.mood): this {
    this.feeling = this.feeling
      .map((e) => ({ ...e, intensity: Math.round(e.intensity * 0.95 * 1000) / 1000 }))
      .filter((e) => e.intensity >= 0.1);
    for (const f of felt) {
      const e = { type: f.type, intensity: f.intensity, target: f.target ?? -1, team: f.team ?? '' };
      const i = this.feeling.findIndex((x) => x.type === e.type && x.target === e.target && x.team === e.team);
      if (i >= 0) this.feeling[i] = e;
      else this.feeling.push(e);
    }
    this.mood = mood;
    const emotions = [...this.feeling].sort((a, b) => b.intensity - a.intensity);
    return this.emit('emotions', {
      emotions: emotions.map((e) => ({ type: e.type, intensity: e.intensity, target: e.target, target_team: e.team })),
      mood,
      strongest: emotions[0]?.type ?? '',
      at_ms: this.now,
    });
  }

  face(expression: string, valence = 0.3): this {
    return this.emit('expression', {
      header: { stamp: { sec: Math.floor(this.now / 1000), nanosec: 0 }, frame_id: '' },
      expression,
      valence,
      arousal: 0.2,
      confidence: 1,
    });
  }

  /**
   * A line: spoken (phase start, then end) unless `phase` says dropped; `during` runs `ms` into it,
   * and the line ends `ms` after that (at once without `during`).
   */
  line(
    u: Partial<UtteranceMessage> & { text: string },
    o: { during?: (script: SessionScript) => void; ms?: number } = {},
  ): this {
    const m: UtteranceMessage = {
      phase: 'start',
      id: 'card#robot',
      category: 'playing.following',
      language: 'pt',
      target: 'all',
      addressee: -1,
      audience: '',
      backend: 'log',
      reason: '',
      event: 'play',
      about_seat: -1,
      moment: -1,
      emotion: '',
      due_in_ms: -1,
      ...u,
    };
    this.emit('utterance', m);
    if (o.during) o.during(this.tick(o.ms ?? 500));
    if (o.during) this.tick(o.ms ?? 500);
    if (m.phase === 'start') this.emit('utterance', { ...m, phase: 'end' });
    return this;
  }

  /**
   * A whole legal game of rule-based players on the deal of `seed`, dealt by `dealer`, each event
   * `gapMs` after the last. The robot reacts to each event with `reactor`'s emotions; with `bunched`,
   * as the node often does, a trick's last card, the trick and the game's end are all published
   * before the reactions to them.
   */
  playGame(o: {
    game: number;
    seed: number;
    dealer: Seat;
    reactor?: Reactor;
    bunched?: boolean;
    gapMs?: number;
    afterEvent?: (e: GameEventMessage, ctx: EventContext) => void;
  }): PlayedGame {
    const gap = o.gapMs ?? 1000;
    const deal = dealCards(createRng(o.seed), o.dealer);
    const game = new Game(deal);
    const players = ([0, 1, 2, 3] as Seat[]).map((seat) => new RulePlayer({ seat, seed: o.seed * 4 + seat }));
    const events: GameEventMessage[] = [];
    const forcedFlags: boolean[] = [];
    let waiting: { e: GameEventMessage; forced: boolean }[] = [];
    const publish = (e: GameEventMessage, forced = false): void => {
      events.push(e);
      this.emit('gameEvents', e);
      waiting.push({ e, forced });
    };
    const reactAll = (): void => {
      for (const { e, forced } of waiting) {
        this.tick(2);
        const ctx = { forced, index: this.reacted++, script: this };
        const r = o.reactor?.(e, ctx) ?? {};
        this.react(r.felt ?? [], r.mood ?? this.mood);
        o.afterEvent?.(e, ctx);
      }
      waiting = [];
    };
    publish({
      ...blank('deal', o.game, this.victories),
      seat: o.dealer,
      card: formatCard(deal.trumpCard),
      leader: (o.dealer + 1) % 4,
    });
    reactAll();
    let cards: Card[] = [];
    while (!game.isOver) {
      this.tick(gap);
      const seat = game.toMove;
      const forced = game.legalCards().length === 1;
      const card = players[seat]!.choose(new SeatView(game, seat));
      const trick = game.trick;
      const leader = cards.length === 0 ? seat : game.leader;
      cards.push(card);
      const result = game.play(card);
      forcedFlags.push(forced);
      publish({ ...blank('play', o.game, this.victories), seat, card: formatCard(card), trick }, forced);
      if (!o.bunched) reactAll();
      if (result !== PlayResult.Continue) {
        publish({
          ...blank('trick', o.game, this.victories),
          trick,
          leader,
          cards: cards.map(formatCard),
          winner: game.trickWinner(trick),
          points: cards.reduce((a, c) => a + pointsOf(c), 0),
        });
        cards = [];
        if (!o.bunched) reactAll();
      }
      // Bunched: a trick's last card and the trick are reacted to together; the last trick's with the game's end.
      if (o.bunched && !game.isOver) reactAll();
    }
    const outcome = game.outcome!;
    if (outcome.winner === 'A') this.victories = [this.victories[0] + outcome.victories, this.victories[1]];
    if (outcome.winner === 'B') this.victories = [this.victories[0], this.victories[1] + outcome.victories];
    const winnerTeam = outcome.winner === 'draw' ? 'draw' : outcome.winner === 'A' ? 'a' : 'b';
    publish({
      ...blank('end', o.game, this.victories),
      final_points: [game.points(0), game.points(1)],
      winner_team: winnerTeam,
    });
    reactAll();
    return { game: o.game, events, forced: forcedFlags, winnerTeam };
  }

  sessionEnd(game: number): this {
    const [a, b] = this.victories;
    this.emit('gameEvents', {
      ...blank('session_end', game, this.victories),
      winner_team: a === b ? 'draw' : a > b ? 'a' : 'b',
    });
    return this.tick(2).react();
  }

  /** Writes the recording; `abandon` leaves it as a crash would (no summary), cut after `keep` messages. */
  async write(path: string, o: { keep?: number; abandon?: boolean } = {}): Promise<string> {
    let now = this.messages[0]?.time ?? this.now;
    const r = await Recorder.start({ path, bus: new InProcessBus(), clock: () => now, session: this.session });
    for (const m of this.messages.slice(0, o.keep ?? this.messages.length)) {
      now = m.time;
      r.record(TOPICS[m.key], m.message);
    }
    if (o.abandon) {
      await r.drain();
      r.abandon();
    } else await r.close();
    return path;
  }
}

/** The first seed from `from` whose game (rule-based players, dealt by `dealer`) team `winner` wins. */
export function seedWhere(dealer: Seat, winner: 'A' | 'B', from = 1): number {
  for (let seed = from; seed < from + 500; seed++) {
    const game = new Game(dealCards(createRng(seed), dealer));
    const players = ([0, 1, 2, 3] as Seat[]).map((seat) => new RulePlayer({ seat, seed: seed * 4 + seat }));
    while (!game.isOver) game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
    if (game.outcome!.winner === winner) return seed;
  }
  throw new Error(`no seed found where team ${winner} wins`);
}

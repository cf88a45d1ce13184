// Lines that fit what just happened, and to whom: each situation people met at the table where a line
// did not fit (a taunt after losing, a sorry line about a card that went the robot's way, a nudge to
// someone who had just played, "I have to follow" of a card that wins, a remark about an opponent's
// card said looking at the partner, "we" said looking at an opponent), reproduced through
// planBehaviour, and the rules behind them checked across both libraries.

import { describe, expect, it } from 'vitest';
import type { Card, GameEvent, Seat } from '../../game/index.js';
import { createRng, parseCard, suitOf, teamOf, winningIndex } from '../../game/index.js';
import type {
  BehaviourCommand,
  BehaviourEvent,
  BehaviourSetup,
  BehaviourState,
  EmotionInput,
  Toggles,
  Utterance,
} from '../../behaviours/index.js';
import {
  ConfigError,
  describeGazeTarget,
  initialBehaviourState,
  lineValence,
  loadBehaviourSettings,
  planBehaviour,
} from '../../behaviours/index.js';
import { configCopy, configText, sessionEvents, shippedSetup } from './helpers.js';

const pt = shippedSetup();
const en = shippedSetup('en');
const ALL_ON: Toggles = {
  speech: true,
  postures: true,
  gaze: true,
  partnerSpeech: true,
  opponentSpeech: true,
  expressiveness: 1,
};
/** Every line the moment allows is wanted, with no cooldown. */
const chatty = (base: BehaviourSetup): BehaviourSetup => ({
  ...base,
  settings: {
    ...base.settings,
    selection: { ...base.settings.selection, probability: { default: 1, byCategory: [] }, cooldownMs: 0 },
  },
});

const card = (s: string): Card => parseCard(s);
const playOf = (seat: Seat, c: string, trick = 0): GameEvent => ({ type: 'play', seat, card: card(c), trick });
const reappraise = (event: GameEvent): BehaviourEvent => ({ type: 'reappraisal', of: event.type, event });

interface Step {
  event: BehaviourEvent;
  emotions?: EmotionInput[];
}
interface Said {
  text: string;
  id: string;
  atMs: number;
  endMs: number;
  addressee: Seat | null;
  /** Where the head is while the line is said (the look before it, then every look during it). */
  looks: string[];
}

/** Plans the steps, 10 s apart, and returns what the last one said, with the head's looks meanwhile. */
function lastSaid(s: BehaviourSetup, steps: readonly Step[], seed: number): Said[] {
  const rng = createRng(seed);
  let state: BehaviourState = initialBehaviourState(0);
  let commands: readonly BehaviourCommand[] = [];
  let gazes: { atMs: number; target: string }[] = [];
  steps.forEach((step, i) => {
    const r = planBehaviour(s, {
      event: step.event,
      emotions: { emotions: step.emotions ?? [], mood: 0 },
      toggles: ALL_ON,
      state,
      rng,
      nowMs: i * 10_000,
    });
    state = r.state;
    commands = r.plan.commands;
    // A plan replaces the looks still waiting.
    gazes = [
      ...gazes.filter((g) => g.atMs < i * 10_000),
      ...commands.flatMap((c) =>
        c.kind === 'gaze' ? [{ atMs: c.atMs, target: describeGazeTarget(c.gaze.target) }] : [],
      ),
    ];
  });
  return commands.flatMap((c) => {
    if (c.kind !== 'speech') return [];
    const start = c.atMs;
    const end = c.atMs + c.utterance.estimatedMs;
    const before = gazes.filter((g) => g.atMs <= start).pop();
    const during = gazes.filter((g) => g.atMs > start && g.atMs < end);
    return [
      {
        text: c.utterance.text,
        id: c.utterance.id,
        atMs: start,
        endMs: end,
        addressee: c.utterance.addressee,
        looks: [...(before ? [before.target] : []), ...during.map((g) => g.target)],
      },
    ];
  });
}
const overSeeds = (s: BehaviourSetup, steps: readonly Step[], seeds = 80): Said[] =>
  Array.from({ length: seeds }, (_, seed) => lastSaid(s, steps, seed)).flat();
const textsOf = (said: Said[]): Set<string> => new Set(said.map((l) => l.text));

const start = (games = 3): Step[] => [
  { event: { type: 'session-start', robotSeat: 0, games } },
  { event: { type: 'game-start', game: 1, dealer: 3 } },
  { event: { type: 'deal', seat: 0, dealer: 3, trumpCard: card('2H'), hand: [] } },
];
const endOf = (winner: 'A' | 'B', points: [number, number]): Step => ({
  event: { type: 'end', points, outcome: { winner, victories: 1 }, renounce: null },
});

describe('a line that presumes the last game', () => {
  for (const [setup, taunt] of [
    [pt, 'Preparem-se para perder mais um!'],
    [en, 'Ready to lose another one?'],
  ] as const) {
    it(`'${taunt}' only after the robot's team won the game before`, () => {
      const second = (winner: 'A' | 'B'): Step[] => [
        ...start(),
        endOf(winner, winner === 'A' ? [70, 50] : [40, 80]),
        { event: { type: 'game-start', game: 2, dealer: 0 } },
      ];
      expect(textsOf(overSeeds(chatty(setup), second('B')))).not.toContain(taunt);
      expect(textsOf(overSeeds(chatty(setup), second('A')))).toContain(taunt);
      // Nor at the first game, of which nothing came before.
      expect(textsOf(overSeeds(chatty(setup), start().slice(0, 2)))).not.toContain(taunt);
    });
  }

  it("'Mais um jogo para nós' only when the game before was won too", () => {
    const more = 'Mais um jogo para nós. Assim é que é!';
    const ended = (first: 'A' | 'B'): Step[] => [
      ...start(),
      endOf(first, first === 'A' ? [70, 50] : [40, 80]),
      { event: { type: 'game-start', game: 2, dealer: 0 } },
      endOf('A', [75, 45]),
    ];
    expect(textsOf(overSeeds(chatty(pt), ended('B')))).not.toContain(more);
    expect(textsOf(overSeeds(chatty(pt), ended('A')))).toContain(more);
  });
});

describe('a glad or sorry line said under a face an earlier plan holds', () => {
  it('the face that contradicts it goes calm as the line begins (a taunt at the deal under a fright)', () => {
    let checked = 0;
    for (let seed = 0; seed < 300 && checked < 5; seed++) {
      const rng = createRng(seed);
      let state: BehaviourState = initialBehaviourState(0);
      /** Every posture still to be made: a plan with a posture replaces those waiting from the ones before. */
      let postures: { atMs: number; expression: string; valence: number }[] = [];
      const said: { atMs: number; id: string; text: string }[] = [];
      const plan = (event: BehaviourEvent, nowMs: number, emotions: EmotionInput[] = []) => {
        const r = planBehaviour(chatty(pt), {
          event,
          emotions: { emotions, mood: 0 },
          toggles: ALL_ON,
          state,
          rng,
          nowMs,
        });
        state = r.state;
        const mine = r.plan.commands.flatMap((c) =>
          c.kind === 'posture' ? [{ atMs: c.atMs, expression: c.posture.expression, valence: c.posture.valence }] : [],
        );
        if (mine.length > 0) postures = [...postures.filter((p) => p.atMs <= nowMs), ...mine];
        for (const c of r.plan.commands)
          if (c.kind === 'speech') said.push({ atMs: c.atMs, id: c.utterance.id, text: c.utterance.text });
      };
      plan({ type: 'session-start', robotSeat: 0, games: 3 }, 0);
      plan({ type: 'game-start', game: 1, dealer: 3 }, 10_000);
      plan({ type: 'end', points: [70, 50], outcome: { winner: 'A', victories: 1 }, renounce: null }, 20_000, [
        { type: 'joy', intensity: 6 },
      ]);
      // A fright shown (the hand, say), and while it is held the next game's opener: the taunt.
      plan({ type: 'play', seat: 1, card: card('AS'), trick: 0 }, 40_000, [
        { type: 'fear', intensity: 9 },
        { type: 'distress', intensity: 8 },
      ]);
      const frightened = postures.find((p) => p.atMs >= 40_000 && p.valence <= -0.3);
      if (!frightened) continue;
      const before = said.length;
      plan({ type: 'game-start', game: 2, dealer: 0 }, frightened.atMs + 500);
      const line = said[before];
      if (!line) continue;
      const valence = lineValence(pt.postures, lineById(pt, line.id));
      if (valence === 0) continue;
      checked++;
      const shown = postures.filter((p) => p.atMs <= line.atMs).pop()!;
      expect(
        Math.sign(Math.round(shown.valence * 10)),
        `"${line.text}" said under a ${shown.expression} face`,
      ).not.toBe(-valence);
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe("a glad or sorry line about another seat's card agrees with who holds the trick", () => {
  const fear: EmotionInput[] = [
    { type: 'fear', intensity: 6 },
    { type: 'distress', intensity: 5 },
  ];
  // Seat 1 leads the two of spades, the partner (2) puts its king on it, and seat 3's jack falls under it.
  const lead: Step[] = [...start(), { event: playOf(1, '2S') }, { event: playOf(2, 'KS') }];

  for (const late of [false, true]) {
    it(`no 'Essa não estava nos meus planos' of an opponent's jack under the partner's king${late ? ', reappraised' : ''}`, () => {
      const jack = playOf(3, 'JS');
      const steps: Step[] = late
        ? [...lead, { event: jack }, { event: reappraise(jack), emotions: fear }]
        : [...lead, { event: jack, emotions: fear }];
      const said = overSeeds(chatty(pt), steps);
      expect(textsOf(said)).not.toContain('Essa não estava nos meus planos.');
      for (const l of said) expect(lineValence(pt.postures, lineById(pt, l.id)), l.text).not.toBe(-1);
      // A trump on the partner's king is bad news: then it fits.
      const ruff = playOf(3, '3H');
      const ruffed: Step[] = late
        ? [...lead, { event: ruff }, { event: reappraise(ruff), emotions: fear }]
        : [...lead, { event: ruff, emotions: fear }];
      expect(textsOf(overSeeds(chatty(pt), ruffed, 160))).toContain('Essa não estava nos meus planos.');
    });
  }

  it("no glad line about the partner's card that the opponents' card beats", () => {
    const joy: EmotionInput[] = [{ type: 'joy', intensity: 6 }];
    // Seat 1 leads the ace of spades, the partner throws its four under it.
    for (const setup of [pt, en]) {
      const said = overSeeds(chatty(setup), [
        ...start(),
        { event: playOf(1, 'AS') },
        { event: playOf(2, '4S'), emotions: joy },
      ]);
      for (const l of said) expect(lineValence(setup.postures, lineById(setup, l.id)), l.text).not.toBe(1);
      expect(textsOf(said)).not.toContain('Que grande jogada!');
    }
  });
});

describe('over whole games, every line of both libraries', () => {
  it("about another seat's card: glad only while the robot's team holds the trick, sorry only while the opponents do", () => {
    const FEELINGS = [
      'joy',
      'distress',
      'fear',
      'hope',
      'gloating',
      'resentment',
      'pity',
      'happy-for',
      'admiration',
    ] as const;
    let checked = 0;
    for (const setup of [pt, en]) {
      for (let seed = 1; seed <= 12; seed++) {
        const rng = createRng(seed, 7);
        const feel = createRng(seed, 8);
        let state: BehaviourState = initialBehaviourState(0);
        let trump: number | null = null;
        sessionEvents(seed).forEach((event, i) => {
          const seat = event.type === 'play' ? event.seat : null;
          const emotions: EmotionInput[] =
            seat === null
              ? []
              : [
                  { type: FEELINGS[feel.int(FEELINGS.length)]!, intensity: 3 + feel.int(7) },
                  { type: FEELINGS[feel.int(FEELINGS.length)]!, intensity: 3 + feel.int(7), target: seat },
                ];
          const r = planBehaviour(chatty(setup), {
            event,
            emotions: { emotions, mood: 0 },
            toggles: ALL_ON,
            state,
            rng,
            nowMs: i * 10_000,
          });
          state = r.state;
          if (event.type === 'deal') trump = suitOf(event.trumpCard);
          if (event.type !== 'play' || event.seat === 0) return;
          const trick = state.trick!;
          const winner = (trick.leader + winningIndex(trick.cards, trump as never)) % 4;
          const ours = teamOf(winner as Seat) === teamOf(0);
          for (const c of r.plan.commands) {
            if (c.kind !== 'speech' || c.utterance.about.seat !== event.seat) continue;
            const v = lineValence(setup.postures, lineById(setup, c.utterance.id));
            checked++;
            expect(v, `${c.utterance.text} (${ours ? 'ours' : 'theirs'})`).not.toBe(ours ? -1 : 1);
          }
        });
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('nudges', () => {
  const nudges = (s: BehaviourSetup, steps: Step[]) =>
    overSeeds(s, steps).filter((l) => lineById(s, l.id).category.startsWith('next-player.'));

  it("never to the partner who just trumped and took the trick, and now leads ('Vá, mostra o que vales')", () => {
    const trick: Step[] = [
      ...start(),
      { event: playOf(1, 'AS') },
      { event: playOf(2, '2H') },
      { event: playOf(3, '3S') },
      { event: playOf(0, '4S') },
      {
        event: { type: 'trick', trick: 0, leader: 1, cards: ['AS', '2H', '3S', '4S'].map(card), winner: 2, points: 11 },
        emotions: [{ type: 'joy', intensity: 6 }],
      },
    ];
    expect(nudges(chatty(pt), [...trick, { event: { type: 'turn', seat: 2 } }])).toEqual([]);
    // Another seat's turn after a card, or the leader's after the deal: nudged if they hesitate.
    expect(nudges(chatty(pt), [...start(), { event: { type: 'turn', seat: 1 } }]).length).toBeGreaterThan(0);
    expect(
      nudges(chatty(pt), [...start(), { event: playOf(1, 'AS') }, { event: { type: 'turn', seat: 2 } }]).length,
    ).toBeGreaterThan(0);
  });

  it('only after a pause long for a person: at least 10 s, as shipped 25 s', () => {
    const after = pt.settings.selection.nudgeAfterMs;
    expect(after).toBeGreaterThanOrEqual(10_000);
    const said = nudges(chatty(pt), [...start(), { event: playOf(1, 'AS') }, { event: { type: 'turn', seat: 2 } }]);
    for (const l of said) expect(l.atMs - 40_000).toBe(after);
  });

  it('a nudge sooner than 10 s is refused with the file and line', () => {
    const dir = configCopy({
      'behaviours.yaml': configText('behaviours.yaml').replace('nudgeAfterMs: 25000', 'nudgeAfterMs: 4000'),
    });
    const file = `${dir}/behaviours.yaml`;
    let error: unknown = null;
    try {
      loadBehaviourSettings(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const [p] = (error as ConfigError).problems;
    const line =
      configText('behaviours.yaml')
        .split('\n')
        .findIndex((l) => l.includes('nudgeAfterMs: 25000')) + 1;
    expect(p).toMatchObject({ line });
    expect(p).toMatchObject({ key: 'selection.nudgeAfterMs' });
    expect(String((error as Error).message)).toMatch(/10000/);
  });
});

describe("the robot's own card", () => {
  for (const [setup, follow] of [
    [pt, 'Tenho de assistir.'],
    [en, 'I have to follow.'],
  ] as const) {
    it(`'${follow}' only of a card that follows without taking the trick`, () => {
      const trick = (mine: string): Step[] => [
        ...start(),
        { event: playOf(1, 'KS') },
        { event: playOf(2, '4S') },
        { event: playOf(3, '5S') },
        { event: playOf(0, mine) },
      ];
      expect(textsOf(overSeeds(chatty(setup), trick('AS')))).not.toContain(follow);
      expect(textsOf(overSeeds(chatty(setup), trick('2S')))).toContain(follow);
    });
  }
});

describe("the robot's card given to the partner", () => {
  it("'Esta é para ti!' only of a card under the partner's, not of one that takes the trick itself", () => {
    const glad: EmotionInput[] = [{ type: 'joy', intensity: 7 }];
    const trick = (partner: string, mine: string): Step[] => [
      ...start(),
      { event: playOf(1, '2S') },
      { event: playOf(2, partner) },
      { event: playOf(3, '3S') },
      { event: playOf(0, mine), emotions: glad },
    ];
    const forYou = 'Esta é para ti!';
    expect(textsOf(overSeeds(chatty(pt), trick('4S', 'AS')))).not.toContain(forYou);
    expect(textsOf(overSeeds(chatty(pt), trick('AS', '7S')))).toContain(forYou);
  });
});

describe('where the head turns while a line is said', () => {
  it("'Hum, isso não nos ajuda nada' of an opponent's card looks at that card, never at the partner", () => {
    const distress: EmotionInput[] = [{ type: 'distress', intensity: 6 }];
    for (const setup of [pt, en]) {
      for (const seat of [1, 3] as const) {
        const said = overSeeds(chatty(setup), [...start(), { event: playOf(seat, 'AS'), emotions: distress }]);
        expect(said.length).toBeGreaterThan(0);
        for (const l of said.filter((x) => x.addressee === null)) {
          expect(l.looks, l.text).not.toContain('seat:2');
          if (lineById(setup, l.id).gaze === 'addressee') expect(l.looks, l.text).toEqual([`card:${seat}`]);
        }
      }
    }
    const sorry = overSeeds(chatty(pt), [...start(), { event: playOf(1, 'AS'), emotions: distress }]);
    expect(textsOf(sorry)).toContain('Hum, isso não nos ajuda nada.');
  });

  it("'We need to be sharper' after the opponents' trick looks at the partner, not at an opponent", () => {
    const theirs: Step = {
      event: { type: 'trick', trick: 2, leader: 1, cards: ['AS', '2S', '3S', '4S'].map(card), winner: 1, points: 11 },
      emotions: [{ type: 'distress', intensity: 6 }],
    };
    for (const [setup, we] of [
      [en, 'We need to be sharper.'],
      [pt, 'Temos de ter mais atenção.'],
    ] as const) {
      const said = overSeeds(chatty(setup), [...start(), theirs]).filter((l) => l.text === we);
      expect(said.length).toBeGreaterThan(0);
      for (const l of said) expect(new Set(l.looks)).toEqual(new Set(['seat:2']));
    }
  });

  it('a later event does not turn the head away from whom a line is still said to', () => {
    // The taunt at a game's start, to the opponents; the deal comes 1 s later, as it does at the table,
    // and looks at the turned-up card and the robot's own cards.
    const taunt = 'Preparem-se para perder mais um!';
    let checked = 0;
    for (let seed = 0; seed < 200 && checked < 5; seed++) {
      const rng = createRng(seed);
      let state: BehaviourState = initialBehaviourState(0);
      const plan = (event: BehaviourEvent, nowMs: number) => {
        const r = planBehaviour(chatty(pt), {
          event,
          emotions: { emotions: [], mood: 0 },
          toggles: ALL_ON,
          state,
          rng,
          nowMs,
        });
        state = r.state;
        return r.plan.commands;
      };
      plan({ type: 'session-start', robotSeat: 0, games: 3 }, 0);
      plan({ type: 'game-start', game: 1, dealer: 3 }, 10_000);
      plan({ type: 'end', points: [70, 50], outcome: { winner: 'A', victories: 1 }, renounce: null }, 20_000);
      const start = plan({ type: 'game-start', game: 2, dealer: 0 }, 30_000);
      const line = start.find((c) => c.kind === 'speech' && c.utterance.text === taunt);
      if (!line || line.kind !== 'speech') continue;
      checked++;
      const end = line.atMs + line.utterance.estimatedMs;
      const deal = plan({ type: 'deal', seat: 0, dealer: 0, trumpCard: card('2H'), hand: [] }, 31_000);
      const looks = deal.flatMap((c) => (c.kind === 'gaze' ? [c] : []));
      // Until the line ends, only its own looks at the opponents (planned again: the deal's plan
      // replaces the looks still waiting); the deal's looks after it.
      const during = looks.filter((g) => g.atMs < end).map((g) => describeGazeTarget(g.gaze.target));
      for (const target of during) expect(['seat:1', 'seat:3']).toContain(target);
      expect(looks.filter((g) => g.atMs >= end).length).toBeGreaterThan(0);
    }
    expect(checked).toBe(5);
  });

  it("a game's last line keeps its look when the session's end is planned before it begins", () => {
    let checked = 0;
    for (let seed = 0; seed < 60; seed++) {
      const rng = createRng(seed);
      let state: BehaviourState = initialBehaviourState(0);
      const plan = (event: BehaviourEvent, nowMs: number) => {
        const r = planBehaviour(chatty(pt), {
          event,
          emotions: { emotions: [], mood: 0 },
          toggles: ALL_ON,
          state,
          rng,
          nowMs,
        });
        state = r.state;
        return r.plan.commands;
      };
      plan({ type: 'session-start', robotSeat: 0, games: 1 }, 0);
      plan({ type: 'game-start', game: 1, dealer: 3 }, 10_000);
      const end = plan(
        { type: 'end', points: [95, 25], outcome: { winner: 'A', victories: 2 }, renounce: null },
        20_000,
      );
      const line = end.find((c) => c.kind === 'speech');
      if (!line || line.kind !== 'speech') continue;
      const own = end.filter(
        (c) => c.kind === 'gaze' && c.atMs >= line.atMs && c.atMs < line.atMs + line.utterance.estimatedMs,
      );
      if (own.length === 0) continue;
      checked++;
      // The session's end, 3 ms later: its plan replaces the looks still waiting.
      const after = plan({ type: 'session-end', victories: [2, 0] }, 20_003);
      const looks = after.flatMap((c) => (c.kind === 'gaze' ? [c] : []));
      const during = looks.filter((g) => g.atMs >= line.atMs && g.atMs < line.atMs + line.utterance.estimatedMs);
      expect(
        during.map((g) => describeGazeTarget(g.gaze.target)),
        line.utterance.text,
      ).toEqual(own.map((g) => (g.kind === 'gaze' ? describeGazeTarget(g.gaze.target) : '')));
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('every line to the partner is said looking at the partner, and to an opponent at the opponents', () => {
    for (const setup of [pt, en]) {
      for (const l of setup.utterances.lines) {
        if (l.to === 'partner') expect(['addressee', 'partner'], `${l.id} ${l.text}`).toContain(l.gaze);
        if (l.to === 'opponent') expect(['addressee', 'opponents'], `${l.id} ${l.text}`).toContain(l.gaze);
      }
    }
  });

  it('pt and en look at the same place for the same kind of line', () => {
    const marks = (s: BehaviourSetup) =>
      s.utterances.lines.map((l) => JSON.stringify([l.category, l.to, [...l.emotions].sort(), l.when, l.gaze])).sort();
    expect(marks(en)).toEqual(marks(pt));
  });
});

const lineById = (s: BehaviourSetup, id: string): Utterance => s.utterances.lines.find((l) => l.id === id)!;

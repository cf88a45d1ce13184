// What the robot says about the game, scenario by scenario, through planBehaviour (and the scheduler
// where timing decides): lines about the other players' cards chosen by what it feels toward them,
// reappraisals that may speak, comments not silenced by what is always said or by its own card named,
// nudges only for a hesitating player, lines said only to whom they may be said, and lines that fit
// the moment (the game, the margin, the card, who took the trick, names, genders, feelings).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card, GameEvent, Seat } from '../../game/index.js';
import { createRng, parseCard, partnerOf, pointsOf } from '../../game/index.js';
import type {
  BehaviourEvent,
  BehaviourSetup,
  BehaviourState,
  EmotionInput,
  PlannedUtterance,
  Toggles,
  Utterance,
  UtteranceLibrary,
} from '../../behaviours/index.js';
import {
  BehaviourScheduler,
  ConfigError,
  SimulatedClock,
  TOPICS,
  ToggleBoard,
  initialBehaviourState,
  momentOf,
  parseYamlConfig,
  planBehaviour,
  rememberSaid,
  utteranceFileSchema,
} from '../../behaviours/index.js';
import { FakeSpeech, RecordingPublisher, configText, sessionEvents, shippedSetup } from './helpers.js';

const setup = shippedSetup();
const en = shippedSetup('en');
const ALL_ON: Toggles = {
  speech: true,
  postures: true,
  gaze: true,
  partnerSpeech: true,
  opponentSpeech: true,
  expressiveness: 1,
};
const tuned = (
  patch: Partial<BehaviourSetup['settings']['selection']>,
  base: BehaviourSetup = setup,
): BehaviourSetup => ({
  ...base,
  settings: { ...base.settings, selection: { ...base.settings.selection, ...patch } },
});
/** Every line the moment allows is wanted (the cooldown stays as shipped). */
const EAGER = tuned({ probability: { default: 1, byCategory: [] } });
/** ...and no cooldown either. */
const CHATTY = tuned({ probability: { default: 1, byCategory: [] }, cooldownMs: 0 });

const card = (s: string): Card => parseCard(s);
const lineOf = (lib: UtteranceLibrary, id: string): Utterance => lib.lines.find((l) => l.id === id)!;

interface Step {
  event: BehaviourEvent;
  /** When it happens (ms); default: 10 s after the step before. */
  at?: number;
  emotions?: EmotionInput[];
}

interface Played {
  event: BehaviourEvent;
  lines: (PlannedUtterance & { atMs: number })[];
  state: BehaviourState;
  moment: number;
  atMs: number;
}

/** Plans the steps in order from `state`; returns each step's plan. */
function play(
  s: BehaviourSetup,
  steps: readonly Step[],
  o: { seed?: number; state?: BehaviourState; toggles?: Toggles } = {},
): Played[] {
  const rng = createRng(o.seed ?? 1);
  let state = o.state ?? initialBehaviourState(0);
  let at = 0;
  return steps.map((step, i) => {
    at = step.at ?? (i === 0 ? 0 : at + 10_000);
    const r = planBehaviour(s, {
      event: step.event,
      emotions: { emotions: step.emotions ?? [], mood: 0 },
      toggles: o.toggles ?? ALL_ON,
      state,
      rng,
      nowMs: at,
    });
    state = r.state;
    const lines = r.plan.commands.flatMap((c) => (c.kind === 'speech' ? [{ ...c.utterance, atMs: c.atMs }] : []));
    return { event: step.event, lines, state, moment: r.plan.moment!, atMs: at };
  });
}

const START: Step[] = [
  { event: { type: 'session-start', robotSeat: 0, games: 5 } },
  { event: { type: 'game-start', game: 1, dealer: 3 } },
  { event: { type: 'deal', seat: 0, dealer: 3, trumpCard: card('2H'), hand: [] } },
];
const playOf = (seat: Seat, c: string, trick = 0): GameEvent => ({ type: 'play', seat, card: card(c), trick });
const reappraise = (event: GameEvent): BehaviourEvent => ({ type: 'reappraisal', of: event.type, event });

/** The lines said at the last step over many seeds. */
function lastLines(s: BehaviourSetup, steps: readonly Step[], seeds = 40, state?: BehaviourState) {
  return Array.from(
    { length: seeds },
    (_, seed) => play(s, steps, { seed, ...(state ? { state } : {}) }).at(-1)!.lines,
  ).flat();
}

describe("the other players' cards", () => {
  const ace = playOf(2, 'AS');
  const before: Step[] = [...START, { event: playOf(1, 'KS') }, { event: ace }];

  it("waits for the estimate of the partner's card, then says what it feels about it: 'Boa!', not 'Vamos lá ver'", () => {
    const runs = Array.from({ length: 40 }, (_, seed) =>
      play(
        EAGER,
        [
          ...before,
          {
            event: reappraise(ace),
            at: 30_200,
            emotions: [
              { type: 'joy', intensity: 4 },
              { type: 'admiration', intensity: 5, target: 2 },
            ],
          },
        ],
        { seed },
      ),
    );
    for (const r of runs) {
      // Nothing at the card itself: the robot does not know yet what it thinks of it.
      expect(r.at(-2)!.lines).toEqual([]);
      const [said] = r.at(-1)!.lines;
      expect(said!.category).toBe('play.partner');
      expect(lineOf(setup.utterances, said!.id).emotions).toContain('happy-for');
      expect([2, null]).toContain(said!.addressee);
      const moment = r.at(-2)!.moment;
      expect(said!.about).toEqual({ event: 'play', seat: 2, moment, emotion: 'happy-for' });
      expect(said!.until).toBe(moment + 1);
      expect(said!.text).not.toBe('Vamos lá ver no que isto dá.');
    }
    expect(new Set(runs.map((r) => r.at(-1)!.lines[0]!.text))).toContain('Boa!');
  });

  it('speaks of a reappraised card only while it is the last card, and only once', () => {
    const joy: EmotionInput[] = [{ type: 'joy', intensity: 6 }];
    // The next card is down: the moment has passed.
    expect(
      lastLines(EAGER, [...before, { event: playOf(3, '2S') }, { event: reappraise(ace), emotions: joy }]),
    ).toEqual([]);
    // Said at its reappraisal, not again at a second one.
    const twice = (seed: number) =>
      play(
        EAGER,
        [
          ...before,
          { event: reappraise(ace), emotions: joy },
          { event: reappraise(ace), emotions: [{ type: 'admiration', intensity: 8, target: 2 }] },
        ],
        { seed },
      );
    for (let seed = 0; seed < 20; seed++) {
      const r = twice(seed);
      expect(r.at(-2)!.lines).toHaveLength(1);
      expect(r.at(-1)!.lines).toEqual([]);
    }
    // Felt at once (a line planned at the card), nothing more at its reappraisal.
    const felt: Step[] = [
      ...START,
      { event: playOf(1, 'KS') },
      { event: ace, emotions: joy },
      { event: reappraise(ace), emotions: joy },
    ];
    for (let seed = 0; seed < 20; seed++) {
      const r = play(EAGER, felt, { seed });
      expect(r.at(-2)!.lines).toHaveLength(1);
      expect(r.at(-1)!.lines).toEqual([]);
    }
  });

  it("speaks of the robot's own reappraised card only if no line named it, its own or one the caller added", () => {
    const own = playOf(0, 'AD');
    const steps: Step[] = [...START, { event: playOf(3, 'KD') }, { event: own }];
    const quiet = tuned({ probability: { default: 1, byCategory: [['playing', 0]] } });
    // Nothing said at the card: its reappraisal speaks from play.self.
    const said = lastLines(quiet, [...steps, { event: reappraise(own), emotions: [{ type: 'joy', intensity: 7 }] }]);
    expect(said.length).toBeGreaterThan(30);
    for (const l of said) expect(l.category).toBe('play.self');
    // The node named the card after the plan (robot/live/node/card-line.ts): nothing more about it.
    for (let seed = 0; seed < 20; seed++) {
      const r = play(quiet, steps, { seed });
      const named = {
        ...r.at(-1)!.state,
        speech: rememberSaid(r.at(-1)!.state.speech, { id: 'card#robot' }, 30_600, 31_800),
      };
      expect(
        play(quiet, [{ event: reappraise(own), at: 30_200, emotions: [{ type: 'joy', intensity: 7 }] }], {
          seed,
          state: named,
        })[0]!.lines,
      ).toEqual([]);
    }
  });

  it('the feeling toward the player picks the line, else the joy or distress the card brought', () => {
    const about = (emotions: EmotionInput[], event: GameEvent = ace) =>
      lastLines(EAGER, [...START, { event: playOf(1, 'KS') }, { event, emotions }]);
    const labels = (lines: PlannedUtterance[]) => new Set(lines.map((l) => l.about.emotion));
    // A sorry line is said of a partner's card the opponents' king beats, not of its ace that takes the lead.
    const under = playOf(2, '3S');
    // Pity for the partner outweighs a stronger joy that has no one as its target.
    expect(
      labels(
        about(
          [
            { type: 'joy', intensity: 8 },
            { type: 'pity', intensity: 3, target: 2 },
          ],
          under,
        ),
      ),
    ).toEqual(new Set(['pity']));
    expect(labels(about([{ type: 'joy', intensity: 6 }]))).toEqual(new Set(['happy']));
    expect(labels(about([{ type: 'distress', intensity: 6 }], under))).toEqual(new Set(['self-pity']));
    // Toward the team counts for the partner; toward the opponents for an opponent.
    expect(labels(about([{ type: 'pride', intensity: 5, target: 'team' }]))).toEqual(new Set(['happy']));
    const opponent = playOf(3, 'AS');
    const resentful = lastLines(EAGER, [
      ...START,
      { event: playOf(1, 'KS') },
      { event: playOf(2, '3S') },
      {
        event: opponent,
        emotions: [
          { type: 'joy', intensity: 9 },
          { type: 'resentment', intensity: 4, target: 'opponents' },
        ],
      },
    ]);
    expect(labels(resentful)).toEqual(new Set(['resentment']));
    for (const l of resentful) expect([3, null]).toContain(l.addressee);
    // Too weak a feeling toward the player: the card's own joy decides.
    expect(
      labels(
        about(
          [
            { type: 'distress', intensity: 5 },
            { type: 'admiration', intensity: 1, target: 2 },
          ],
          under,
        ),
      ),
    ).toEqual(new Set(['self-pity']));
  });

  it('tricks have lines for the joy and the distress they bring', () => {
    const trick = (winner: Seat, points: number, emotions: EmotionInput[]) =>
      lastLines(EAGER, [
        ...START,
        {
          event: {
            type: 'trick',
            trick: 0,
            leader: 1,
            cards: [card('KS'), card('7S'), card('2S'), card('AS')],
            winner,
            points,
          },
          emotions,
        },
      ]);
    const ours = trick(2, 25, [{ type: 'joy', intensity: 6 }]);
    expect(ours.every((l) => l.category === 'trick.end.ours' && l.about.emotion === 'happy')).toBe(true);
    const theirs = trick(1, 25, [{ type: 'distress', intensity: 6 }]);
    expect(theirs.every((l) => l.category === 'trick.end.theirs' && l.about.emotion === 'self-pity')).toBe(true);
  });
});

describe('what is always said, and the cooldown', () => {
  it("the trump line follows the game's start line, and lasts through the first trick", () => {
    for (let seed = 0; seed < 20; seed++) {
      const r = play(
        setup,
        [
          { event: { type: 'session-start', robotSeat: 0, games: 5 } },
          { event: { type: 'game-start', game: 1, dealer: 2 } },
          { event: { type: 'deal', seat: 0, dealer: 2, trumpCard: card('AH'), hand: [] }, at: 10_000 },
        ],
        { seed },
      );
      const [start] = r[1]!.lines;
      const [trump] = r[2]!.lines;
      expect(start!.category).toBe('game.start');
      expect(trump!.category).toBe('trump.ace.partner');
      expect(trump!.atMs).toBeGreaterThanOrEqual(start!.atMs + start!.estimatedMs);
      expect(trump!.until).toBe(momentOf(1, 4));
    }
  });

  it("the robot's card named, or a line always said, does not silence the next comment; a comment does", () => {
    const own = playOf(0, 'AS', 0);
    const trick: GameEvent = {
      type: 'trick',
      trick: 0,
      leader: 1,
      cards: [card('KS'), card('7S'), card('2S'), card('AS')],
      winner: 0,
      points: 25,
    };
    const joy: EmotionInput[] = [{ type: 'joy', intensity: 6 }];
    const steps: Step[] = [
      ...START,
      { event: playOf(1, 'KS'), at: 40_000 },
      { event: playOf(2, '7S'), at: 41_000 },
      { event: playOf(3, '2S'), at: 42_000 },
      { event: own, at: 43_000 },
    ];
    for (let seed = 0; seed < 20; seed++) {
      const r = play(tuned({ probability: { default: 1, byCategory: [['playing', 0]] } }), steps, { seed });
      // The node names the robot's card after the plan; 1.5 s later the trick it wins gets its comment.
      const named = {
        ...r.at(-1)!.state,
        speech: rememberSaid(r.at(-1)!.state.speech, { id: 'card#robot' }, 43_600, 44_800),
      };
      const [line] = play(EAGER, [{ event: trick, at: 44_500, emotions: joy }], { seed, state: named })[0]!.lines;
      expect(line!.category).toBe('trick.end.ours');
      expect(line!.atMs).toBeGreaterThanOrEqual(44_800 + setup.settings.selection.gapMs);
      // A comment 3 s before (about the opponent's card) does hold it back.
      const commented = play(EAGER, [{ event: reappraise(steps[5]!.event as GameEvent), at: 42_100, emotions: joy }], {
        seed,
        state: r.at(-2)!.state,
      });
      expect(commented[0]!.lines).toHaveLength(1);
      const after = play(
        EAGER,
        [
          { event: own, at: 43_000 },
          { event: trick, at: 44_500, emotions: joy },
        ],
        { seed, state: commented[0]!.state },
      );
      expect(after[1]!.lines).toEqual([]);
    }
  });
});

describe('nudging a player who hesitates', () => {
  function rig() {
    const clock = new SimulatedClock(0);
    const publisher = new RecordingPublisher(() => clock.now());
    const toggles = new ToggleBoard(setup.settings.toggles, () => clock.now());
    const scheduler = new BehaviourScheduler({
      publisher,
      speech: new FakeSpeech(clock, 0),
      clock,
      toggles,
      postures: setup.postures,
      table: setup.table,
    });
    return { clock, publisher, scheduler };
  }
  const turn: BehaviourEvent = { type: 'turn', seat: 2 };
  const nudgeAfter = setup.settings.selection.nudgeAfterMs;

  it('plans the next-player line after nudgeAfterMs, stale once the card is down', () => {
    for (let seed = 0; seed < 20; seed++) {
      const r = play(EAGER, [...START, { event: turn, at: 40_000 }], { seed });
      const [nudge] = r.at(-1)!.lines;
      expect(nudge!.category).toBe('next-player.partner');
      expect(nudge!.atMs).toBe(40_000 + nudgeAfter);
      expect(nudge!.addressee).toBe(2);
      expect(nudge!.until).toBe(r.at(-1)!.moment + 1);
    }
  });

  it("moves the head nowhere: the card's plan before it looks at the card, then at the seat to move", () => {
    let state = initialBehaviourState(0);
    const rng = createRng(5);
    const at = (event: BehaviourEvent, nowMs: number) => {
      const r = planBehaviour(EAGER, {
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
    for (const [i, step] of START.entries()) at(step.event, i * 1000);
    const card = at(playOf(1, 'KS'), 40_000);
    expect(card.filter((c) => c.kind === 'gaze')).toHaveLength(2);
    const nudge = at(turn, 40_000);
    expect(nudge.filter((c) => c.kind === 'gaze')).toEqual([]);
  });

  it('is said when the player is still thinking, dropped when they played, and never delays the lines before it', async () => {
    for (const hesitates of [true, false]) {
      const { clock, publisher, scheduler } = rig();
      // Each plan goes to the scheduler at its own time, as robot/ hands them over.
      const feed = async (p: Played): Promise<void> => {
        await clock.advance(p.atMs - clock.now());
        scheduler.run({
          event: p.event.type,
          atMs: p.atMs,
          moment: p.moment,
          commands: p.lines.map((u) => ({ kind: 'speech' as const, atMs: u.atMs, utterance: u })),
        });
      };
      const card = playOf(1, 'KS');
      const r = play(EAGER, [...START, { event: card, at: 40_000 }, { event: turn, at: 40_000 }], { seed: 3 });
      for (const p of r) await feed(p);
      // The opponent's card, reappraised 200 ms later, gets its line at once, not after the nudge.
      const [next] = play(EAGER, [{ event: reappraise(card), at: 40_200, emotions: [{ type: 'joy', intensity: 6 }] }], {
        seed: 3,
        state: r.at(-1)!.state,
      });
      expect(next!.lines).toHaveLength(1);
      expect(next!.lines[0]!.atMs + next!.lines[0]!.estimatedMs).toBeLessThan(40_000 + nudgeAfter);
      await feed(next!);
      if (!hesitates)
        await feed(play(EAGER, [{ event: playOf(2, '3S'), at: 43_000 }], { seed: 3, state: next!.state })[0]!);
      await clock.advance(40_000 + nudgeAfter + 20_000 - clock.now());
      // The lines as said or dropped (each was announced as queued first).
      const said = publisher.on(TOPICS.utterance).filter((m) => m.phase !== 'queued');
      const nudges = said.filter((m) => m.category === 'next-player.partner');
      expect(nudges.map((m) => m.phase)).toEqual(hesitates ? ['start', 'end'] : ['dropped']);
      if (hesitates) expect(nudges[0]!.atMs).toBe(40_000 + nudgeAfter);
      else expect(nudges[0]!.reason).toBe('stale');
      expect(said.filter((m) => m.category === 'play.opponent').map((m) => m.phase)).toEqual(['start', 'end']);
      scheduler.dispose();
    }
  });
});

describe('whom a line about another seat is said to', () => {
  const targets = fc.constantFrom<EmotionInput['target']>(undefined, 0, 1, 2, 3, 'team', 'opponents');
  const feeling: fc.Arbitrary<EmotionInput> = fc
    .record({
      type: fc.constantFrom<EmotionInput['type']>(
        'joy',
        'distress',
        'happy-for',
        'pity',
        'gloating',
        'resentment',
        'admiration',
        'reproach',
        'pride',
        'shame',
        'anger',
        'gratitude',
      ),
      intensity: fc.double({ min: 0, max: 10, noNaN: true }),
      target: targets,
    })
    .map(({ target, ...e }) => (target === undefined ? e : { ...e, target }));

  it('about the partner: the partner or everyone; about an opponent: that opponent or everyone; never the other opponent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.constantFrom<Seat>(0, 1, 2, 3),
        fc.array(fc.array(feeling, { maxLength: 3 }), { minLength: 200, maxLength: 200 }),
        fc.boolean(),
        (seed, robot, feelings, named) => {
          const events = sessionEvents(seed, robot).flatMap((e): BehaviourEvent[] => {
            if (e.type === 'session-start')
              return [
                {
                  type: e.type,
                  robotSeat: e.robotSeat,
                  games: e.games,
                  ...(named ? { names: ['Ana', 'Rita', 'João', 'Zé'] } : {}),
                },
              ];
            return e.type === 'play' || e.type === 'trick' ? [e, reappraise(e)] : [e];
          });
          const r = play(
            CHATTY,
            events.map((event, i) => ({ event, at: i * 1500, emotions: feelings[i % feelings.length]! })),
            { seed },
          );
          let lines = 0;
          for (const p of r) {
            for (const l of p.lines) {
              const seat = l.about.seat;
              if ((l.about.event !== 'play' && l.about.event !== 'trick') || seat === null || seat === robot) continue;
              lines++;
              if (seat === partnerOf(robot)) expect([null, seat], l.text).toContain(l.addressee);
              else expect([null, seat], l.text).toContain(l.addressee);
              // Nor looked at both opponents when one opponent's card is the subject.
              const line = lineOf(setup.utterances, l.id);
              if (l.about.event === 'play')
                expect(line.to === 'opponent' && line.gaze === 'opponents', l.text).toBe(false);
            }
          }
          expect(lines).toBeGreaterThan(0);
        },
      ),
      { numRuns: 30 },
    );
  });

  // Playthrough 3: "A manilha de trunfo para ti? Hum..." showed as "to the opponents", and "Preparem-se,
  // que hoje não vos damos hipótese!" as "to the opponent on the left": the message says which it is.
  it('a line to the opponents says whether it speaks to one (its addressee) or to both', () => {
    const audiences = new Set<string>();
    for (let seed = 0; seed < 12; seed++)
      for (const p of play(
        CHATTY,
        sessionEvents(seed).map((event) => ({ event, emotions: [{ type: 'joy', intensity: 6 }] })),
        { seed },
      ))
        for (const l of p.lines) {
          const line = lineOf(setup.utterances, l.id);
          if (line.to !== 'opponent') expect(l.audience, l.text).toBeUndefined();
          else {
            expect(l.audience, l.text).toBe(line.gaze === 'opponents' ? 'both' : 'one');
            expect(l.addressee, l.text).not.toBeNull();
            audiences.add(l.audience!);
          }
        }
    expect([...audiences].sort()).toEqual(['both', 'one']);
  });

  it("about the robot's own trick, an opponent is spoken to only about the points they lost in it", () => {
    const trick = (cards: string[]): GameEvent => ({
      type: 'trick',
      trick: 0,
      leader: 1,
      cards: cards.map(card),
      winner: 0,
      points: cards.reduce((n, c) => n + pointsOf(card(c)), 0),
    });
    const gloat: EmotionInput[] = [{ type: 'gloating', intensity: 7, target: 'opponents' }];
    // Seat 1 lost the seven, seat 3 nothing: said to seat 1, and nothing to both of them.
    const lines = lastLines(EAGER, [...START, { event: trick(['7S', '2S', '3S', 'AS']), emotions: gloat }], 60);
    const toOpponent = lines.filter((l) => l.to === 'opponent');
    expect(toOpponent.length).toBeGreaterThan(0);
    for (const l of toOpponent) {
      expect(l.addressee).toBe(1);
      expect(lineOf(setup.utterances, l.id).gaze).not.toBe('opponents');
    }
    // Neither opponent lost a point: no line to an opponent.
    for (const l of lastLines(EAGER, [...START, { event: trick(['2S', 'KS', '3S', 'AS']), emotions: gloat }], 60))
      expect(l.to).not.toBe('opponent');
  });

  it("a zero-point trick: 'they can keep it' only when the opponents took it", () => {
    const zero = (winner: Seat): Step => ({
      event: {
        type: 'trick',
        trick: 0,
        leader: 1,
        cards: [card('2S'), card('3S'), card('4S'), card('5S')],
        winner,
        points: 0,
      },
    });
    const texts = (winner: Seat) => lastLines(EAGER, [...START, zero(winner)], 80).map((l) => l.text);
    for (const t of [...texts(0), ...texts(2)]) expect(t).not.toMatch(/Podem ficar com essa|podes levar/);
    expect(texts(1).some((t) => /Podem ficar com essa|podes levar/.test(t))).toBe(true);
    for (const t of [...texts(1), ...texts(3)]) expect(t).not.toMatch(/É nossa, mas/);
  });
});

describe('lines that fit the moment', () => {
  const texts = (s: BehaviourSetup, steps: Step[], seeds = 60) => new Set(lastLines(s, steps, seeds).map((l) => l.id));
  const ids = (lib: UtteranceLibrary, f: (l: Utterance) => boolean) => new Set(lib.lines.filter(f).map((l) => l.id));

  it('a later game is never spoken of at the first, nor the first at a later one', () => {
    const first = texts(EAGER, [
      { event: { type: 'session-start', robotSeat: 0, games: 5 } },
      { event: { type: 'game-start', game: 1, dealer: 3 } },
    ]);
    const second = texts(EAGER, [
      { event: { type: 'session-start', robotSeat: 0, games: 5 } },
      { event: { type: 'game-start', game: 2, dealer: 0 } },
    ]);
    for (const id of first)
      expect(lineOf(setup.utterances, id).when.game, lineOf(setup.utterances, id).text).not.toBe('later');
    for (const id of second) expect(lineOf(setup.utterances, id).when.game).not.toBe('first');
    expect([...first].map((id) => lineOf(setup.utterances, id).text)).not.toContain('Bora lá, próximo jogo!');
    expect([...first].map((id) => lineOf(setup.utterances, id).text)).not.toContain('Preparem-se para perder mais um!');
  });

  it("'foi por pouco' only for a close game", () => {
    const end = (points: readonly [number, number], winner: 'A' | 'B'): Step[] => [
      ...START,
      { event: { type: 'end', points: [points[0], points[1]], outcome: { winner, victories: 1 }, renounce: null } },
    ];
    const close = ids(setup.utterances, (l) => l.when.margin === 'close');
    for (const [points, winner] of [
      [[79, 41], 'A'],
      [[42, 78], 'B'],
    ] as const) {
      const said = texts(EAGER, end(points, winner));
      for (const id of said) expect(close.has(id), lineOf(setup.utterances, id).text).toBe(false);
    }
    const tight = [...texts(EAGER, end([62, 58], 'A'))].map((id) => lineOf(setup.utterances, id).text);
    expect(tight).toContain('Foi por pouco, mas foi nosso.');
    expect([...texts(EAGER, end([42, 78], 'B'))].map((id) => lineOf(setup.utterances, id).text)).not.toContain(
      'Foi por pouco. Para a próxima não nos escapam.',
    );
  });

  it("'Ora toma: o cinco de copas!' is never said of a worthless card", () => {
    const proud: EmotionInput[] = [{ type: 'pride', intensity: 8, target: 0 }];
    const poor = texts(EAGER, [...START, { event: playOf(0, '5H'), emotions: proud }], 80);
    const rich = texts(EAGER, [...START, { event: playOf(0, 'AH'), emotions: proud }], 80);
    const oraToma = lineOf(setup.utterances, 'play.self#5');
    expect(oraToma.text).toBe('Ora toma: {card}!');
    expect(poor.has(oraToma.id)).toBe(false);
    expect(rich.has(oraToma.id)).toBe(true);
  });

  it("'Obrigadinho!' only of an opponent's card that went our way, 'Bem jogado' only of one that holds the trick, also when the estimate comes late", () => {
    const gloating: EmotionInput[] = [
      { type: 'gloating', intensity: 7, target: 3 },
      { type: 'joy', intensity: 5 },
    ];
    const resentful: EmotionInput[] = [
      { type: 'resentment', intensity: 7, target: 3 },
      { type: 'distress', intensity: 5 },
    ];
    const ours = new Set(
      setup.utterances.lines
        .filter((l) => l.category === 'play.opponent' && l.when.taken === 'ours')
        .map((l) => l.text),
    );
    const theirs = new Set(
      setup.utterances.lines
        .filter((l) => l.category === 'play.opponent' && (l.when.taken === 'theirs' || l.when.trick === 'winning'))
        .map((l) => l.text),
    );
    const winning = new Set(
      setup.utterances.lines
        .filter((l) => l.category === 'play.opponent' && l.when.trick === 'winning')
        .map((l) => l.text),
    );
    expect(ours).toContain('Isto é que é dar pontos de bandeja!');
    expect(winning).toContain('Bem jogado, {opponent}... infelizmente.');
    // Seat 1 leads the king of spades, the partner (2) its ace, seat 3 (an opponent) plays after them.
    const lead: Step[] = [...START, { event: playOf(1, 'KS') }, { event: playOf(2, 'AS') }];
    const said = (last: GameEvent, emotions: EmotionInput[], late = false) =>
      lastLines(
        EAGER,
        [
          ...lead,
          late ? { event: last } : { event: last, emotions },
          ...(late ? [{ event: reappraise(last), at: 30_200, emotions }] : []),
        ],
        80,
      ).map((l) => l.text);
    for (const late of [false, true]) {
      // The 7S under the partner's ace: the trick is ours. A trump (2H ruffs): the opponents hold it.
      const under = said(playOf(3, '7S'), gloating, late);
      const ruff = said(playOf(3, '2H'), gloating, late);
      expect(
        under.some((t) => ours.has(t)),
        `late ${late}`,
      ).toBe(true);
      expect(
        ruff.filter((t) => ours.has(t)),
        `late ${late}`,
      ).toEqual([]);
      expect(
        said(playOf(3, '7S'), resentful, late).filter((t) => theirs.has(t)),
        `late ${late}`,
      ).toEqual([]);
      expect(
        said(playOf(3, '2H'), resentful, late).some((t) => theirs.has(t)),
        `late ${late}`,
      ).toBe(true);
    }
    const discard = [
      ...START,
      { event: playOf(1, 'KS') },
      { event: playOf(2, '2S') },
      { event: playOf(3, '3C'), emotions: [{ type: 'resentment', intensity: 7, target: 3 } as EmotionInput] },
    ];
    // Seat 3 throws a club under its partner's king: its team holds the trick, the card does not.
    expect(lastLines(EAGER, discard, 80).filter((l) => winning.has(l.text))).toEqual([]);
  });

  it("the robot's own card: 'Toma lá esta!' only when it holds the trick, 'Desculpa lá' only when the opponents do", () => {
    const glad: EmotionInput[] = [{ type: 'joy', intensity: 7 }];
    const sorry: EmotionInput[] = [{ type: 'distress', intensity: 7 }];
    const text = (t: string) => setup.utterances.lines.find((l) => l.category === 'play.self' && l.text === t)!.text;
    const takeThat = text('Toma lá esta!');
    const apology = text('Não me saiu bem, {partner}. Desculpa lá.').replace(', {partner}', '');
    // Seat 1 leads the king of spades; the robot (seat 0) plays last.
    const trick = (partner: string, right: string, mine: string, emotions: EmotionInput[]) =>
      lastLines(
        EAGER,
        [
          ...START,
          { event: playOf(1, 'KS') },
          { event: playOf(2, partner) },
          { event: playOf(3, right) },
          { event: playOf(0, mine), emotions },
        ],
        80,
      ).map((l) => l.text);
    // Its ace takes the trick; its two goes under the opponent's trump (hearts).
    expect(trick('4S', '5S', 'AS', glad)).toContain(takeThat);
    expect(trick('4S', '2H', '2S', glad)).not.toContain(takeThat);
    // Its two under the partner's ace: the trick is ours, nothing to be sorry for; under the trump it is.
    expect(trick('AS', '5S', '2S', sorry)).not.toContain(apology);
    expect(trick('4S', '2H', '2S', sorry)).toContain(apology);
  });

  it("'O próximo é nosso' only when another game of the session follows", () => {
    const consoled = (game: number, games: number) =>
      lastLines(
        EAGER,
        [
          { event: { type: 'session-start', robotSeat: 0, games } },
          { event: { type: 'game-start', game, dealer: 3 } },
          {
            event: { type: 'end', points: [40, 80], outcome: { winner: 'B', victories: 1 }, renounce: null },
            emotions: [
              { type: 'pity', intensity: 7, target: 2 },
              { type: 'distress', intensity: 5 },
            ],
          },
        ],
        80,
      ).map((l) => l.text);
    const next = 'Não faz mal. O próximo é nosso.';
    expect(consoled(1, 3)).toContain(next);
    expect(consoled(3, 3)).not.toContain(next);
  });

  it("'ainda há muito jogo' early only; 'lá se vai a nossa vantagem' only when ahead", () => {
    const theirs = (trick: number): Step => ({
      event: {
        type: 'trick',
        trick,
        leader: 1,
        cards: [card('AS'), card('2S'), card('3S'), card('4S')],
        winner: 1,
        points: 11,
      },
      emotions: [{ type: 'distress', intensity: 6 }],
    });
    const late = [...texts(EAGER, [...START, theirs(8)])].map((id) => lineOf(setup.utterances, id).text);
    expect(late).not.toContain('Não faz mal, ainda há muito jogo.');
    expect([...texts(EAGER, [...START, theirs(1)])].map((id) => lineOf(setup.utterances, id).text)).toContain(
      'Não faz mal, ainda há muito jogo.',
    );
    const level = [
      ...texts(EAGER, [...START, { event: playOf(1, 'AS'), emotions: [{ type: 'distress', intensity: 6 }] }]),
    ].map((id) => lineOf(setup.utterances, id).text);
    expect(level).not.toContain('Lá se vai a nossa vantagem.');
  });

  it('reads well without names, and never says a line that needs one nobody gave', () => {
    const renounce = (names?: (string | null)[]): Step[] => [
      { event: { type: 'session-start', robotSeat: 0, games: 5, ...(names ? { names } : {}) } },
      { event: { type: 'game-start', game: 1, dealer: 3 } },
      {
        event: {
          type: 'end',
          points: [30, 10],
          outcome: { winner: 'A', victories: 4 },
          renounce: { seat: 1, trick: 3, card: card('2S') },
        },
      },
    ];
    const nameless = lastLines(EAGER, renounce(), 80).map((l) => l.text);
    expect(nameless.length).toBe(80);
    for (const t of nameless) expect(t).not.toMatch(/não assistiu|amigo|parceiro/);
    expect(nameless).toContain('Ah, apanhei-te! Tinhas desse naipe e não jogaste.');
    const named = lastLines(EAGER, renounce([null, 'Rita', 'João', 'Zé']), 80).map((l) => l.text);
    expect(named).toContain('Renúncia! Rita não assistiu ao naipe. O jogo é nosso!');
    // A whole session without names: no word standing in for a name.
    const r = play(
      CHATTY,
      sessionEvents(4).map((event) => ({ event, emotions: [{ type: 'joy', intensity: 5 }] })),
      { seed: 4 },
    );
    for (const l of r.flatMap((p) => p.lines)) expect(l.text).not.toMatch(/\b(parceiro|amigo)\b/i);
  });

  it('a consoling line needs a consoling feeling: never to a partner the robot reproaches', () => {
    const renounced = (emotions: EmotionInput[]): Step[] => [
      ...START,
      {
        event: {
          type: 'end',
          points: [40, 20],
          outcome: { winner: 'B', victories: 4 },
          renounce: { seat: 2, trick: 3, card: card('2S') },
        },
        emotions,
      },
    ];
    const reproach = lastLines(
      EAGER,
      renounced([
        { type: 'reproach', intensity: 6.7, target: 2 },
        { type: 'distress', intensity: 4 },
      ]),
      80,
    );
    for (const l of reproach) {
      expect(l.text).not.toMatch(/Não te preocupes/);
      expect(l.about.emotion).not.toBe('pity');
    }
    const pity = lastLines(EAGER, renounced([{ type: 'pity', intensity: 5, target: 2 }]), 80).map((l) => l.text);
    expect(pity).toContain('Não te preocupes. Uma renúncia acontece a qualquer um.');
  });

  it("a line's emotion never contradicts the robot's strongest feeling toward whom it is said to", () => {
    const friendly = new Set(['happy-for', 'pity', 'admiration', 'gratitude', 'love']);
    const hostile = new Set(['gloating', 'resentment', 'reproach', 'anger', 'hate']);
    const stance = (t: string): string | null => (friendly.has(t) ? 'friendly' : hostile.has(t) ? 'hostile' : null);
    const about = (seat: Seat, target: EmotionInput['target']): boolean =>
      target === seat ||
      (target === 'team' && (seat === 0 || seat === 2)) ||
      (target === 'opponents' && (seat === 1 || seat === 3));
    let judged = 0;
    for (let seed = 0; seed < 30; seed++) {
      const rng = createRng(seed, 5);
      const kinds = [
        'pity',
        'reproach',
        'happy-for',
        'gloating',
        'resentment',
        'admiration',
        'joy',
        'distress',
      ] as const;
      const feel = (): EmotionInput[] =>
        Array.from({ length: 3 }, () => ({
          type: kinds[rng.int(kinds.length)]!,
          intensity: 2 + rng.next() * 8,
          target: ([0, 1, 2, 3, 'team', 'opponents'] as const)[rng.int(6)]!,
        }));
      const events = sessionEvents(seed).flatMap((e): BehaviourEvent[] =>
        e.type === 'play' ? [e, reappraise(e)] : [e],
      );
      const steps = events.map((event) => ({ event, emotions: feel() }));
      play(CHATTY, steps, { seed }).forEach((p, i) => {
        for (const l of p.lines) {
          if (l.about.emotion === null || l.addressee === null) continue;
          const toward = steps[i]!.emotions.filter(
            (e) => about(l.addressee!, e.target) && e.intensity >= setup.settings.selection.emotionThreshold,
          ).sort((a, b) => b.intensity - a.intensity)[0];
          const mine = stance(
            l.about.emotion === 'happy-for' || l.about.emotion === 'pity'
              ? 'pity'
              : l.about.emotion === 'gloating' || l.about.emotion === 'resentment'
                ? 'gloating'
                : 'joy',
          );
          if (!toward || mine === null) continue;
          judged++;
          const theirs = stance(toward.type);
          if (theirs !== null)
            expect(theirs, `${l.text} (${l.about.emotion}) to seat ${l.addressee} felt ${toward.type}`).toBe(mine);
        }
      });
    }
    expect(judged).toBeGreaterThan(20);
  });
});

describe('the libraries', () => {
  const signature = (l: Utterance): string => JSON.stringify([l.category, l.to, [...l.emotions].sort(), l.when]);
  const tally = (lib: UtteranceLibrary) => {
    const m = new Map<string, number>();
    for (const l of lib.lines) m.set(signature(l), (m.get(signature(l)) ?? 0) + 1);
    return m;
  };

  it('pt and en give every category the same kinds of lines: targets, emotions and conditions', () => {
    expect(tally(en.utterances)).toEqual(tally(setup.utterances));
  });

  it('refuse a condition a category cannot judge, or an unknown one, with file, line and key', () => {
    const text = configText('utterances/pt.yaml');
    const problems = (t: string) => {
      try {
        parseYamlConfig(t, 'config/utterances/pt.yaml', utteranceFileSchema);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems;
      }
      throw new Error('the file was accepted');
    };
    const needle = '{ to: all, emotion: happy, text: "Esta é nossa!" }';
    const bad = text.replace(needle, '{ to: all, emotion: happy, when: { margin: close }, text: "Esta é nossa!" }');
    const [p] = problems(bad);
    expect(p).toMatchObject({
      file: 'config/utterances/pt.yaml',
      line: bad.slice(0, bad.indexOf('when: { margin: close }, text: "Esta é nossa!"')).split('\n').length,
      key: 'lines.trick.end.ours[2].when.margin',
    });
    expect(p!.reason).toBe('margin is not known for trick.end.ours: it applies to game.end.win.* and game.end.loss.*');
    expect(
      problems(text.replace(needle, '{ to: all, emotion: happy, when: { game: second }, text: "Esta é nossa!" }'))[0],
    ).toMatchObject({
      key: 'lines.trick.end.ours[2].when.game',
      reason: 'expected one of "first", "later", got "second"',
    });
    expect(
      problems(text.replace(needle, '{ to: all, emotion: happy, when: { weather: sunny }, text: "Esta é nossa!" }'))[0],
    ).toMatchObject({ key: 'lines.trick.end.ours[2].when.weather', reason: 'unknown key "weather"' });
  });
});

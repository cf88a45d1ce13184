// The behaviour planner: deterministic under a seed and replayable from its plain-data state; honours
// the toggles; follows the game with its gaze; never plans two lines at once; returns to neutral
// within the configured 0-6 s; picks the categories of the original robot.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Beliefs, Card, Seat } from '../../game/index.js';
import { createRng, nextSeat, parseCard, partnerOf } from '../../game/index.js';
import type {
  BehaviourCommand,
  BehaviourEvent,
  BehaviourSetup,
  BehaviourState,
  EmotionInput,
  PlanInput,
  Toggles,
} from '../../behaviours/index.js';
import {
  EXPRESSION_JOINTS,
  expressionValence,
  gameEndOf,
  initialBehaviourState,
  lineValence,
  momentOf,
  planBehaviour,
  sessionEndOf,
} from '../../behaviours/index.js';
import { emotionArb, sessionEvents, shippedSetup } from './helpers.js';

const setup = shippedSetup();
const ALL_ON: Toggles = {
  speech: true,
  postures: true,
  gaze: true,
  partnerSpeech: true,
  opponentSpeech: true,
  expressiveness: 1,
};

/** The shipped setup with some selection settings changed (e.g. always speak, no cooldown). */
function tuned(patch: Partial<BehaviourSetup['settings']['selection']>, base: BehaviourSetup = setup): BehaviourSetup {
  return { ...base, settings: { ...base.settings, selection: { ...base.settings.selection, ...patch } } };
}
const CHATTY = tuned({ probability: { default: 1, byCategory: [] }, cooldownMs: 0 });
/** The shipped setup with no hold and no display rule of the card: every event's face shows. */
const UNHELD: BehaviourSetup = {
  ...setup,
  postures: {
    ...setup.postures,
    hold: { ...setup.postures.hold, minMs: 0, reappraisalMin: 0 },
    display: { richTrickPoints: 0 },
  },
};

interface Run {
  plans: { event: BehaviourEvent; commands: readonly BehaviourCommand[]; moment: number; atMs: number }[];
  state: BehaviourState;
}

/** Plans a stream of events, one every `stepMs`, with emotions drawn from `emotionSeed`. */
function run(
  s: BehaviourSetup,
  events: readonly BehaviourEvent[],
  opts: {
    seed: number;
    toggles?: Toggles;
    emotions?: (i: number) => EmotionInput[];
    stepMs?: number;
    state?: BehaviourState;
    startMs?: number;
    beliefs?: (e: BehaviourEvent) => Beliefs | null;
  },
): Run {
  const rng = createRng(opts.seed);
  let state = opts.state ?? initialBehaviourState(0);
  const plans: Run['plans'] = [];
  events.forEach((event, i) => {
    const input: PlanInput = {
      event,
      emotions: { emotions: opts.emotions?.(i) ?? [], mood: 0 },
      beliefs: opts.beliefs?.(event) ?? null,
      toggles: opts.toggles ?? ALL_ON,
      state,
      rng,
      nowMs: (opts.startMs ?? 0) + i * (opts.stepMs ?? 1500),
    };
    const r = planBehaviour(s, input);
    state = r.state;
    plans.push({ event, commands: r.plan.commands, moment: r.plan.moment!, atMs: input.nowMs });
  });
  return { plans, state };
}

const emotionsFrom = (seed: number) => {
  const rng = createRng(seed, 99);
  return (): EmotionInput[] =>
    rng.next() < 0.6
      ? [
          {
            type: (
              [
                'joy',
                'distress',
                'gloating',
                'resentment',
                'pity',
                'happy-for',
                'pride',
                'shame',
                'fear',
                'admiration',
              ] as const
            )[rng.int(10)]!,
            intensity: rng.next() * 10,
          },
        ]
      : [];
};

const all = (r: Run): BehaviourCommand[] => r.plans.flatMap((p) => [...p.commands]);
const speeches = (r: Run) => all(r).flatMap((c) => (c.kind === 'speech' ? [c] : []));
/**
 * The lines a run would say: the scheduler drops a line the game overtakes before it starts (a card's
 * line once the next card is down, a nudge once its player has played).
 */
const liveLines = (r: Run) =>
  r.plans.flatMap((p) =>
    p.commands.flatMap((c) =>
      c.kind === 'speech' &&
      !r.plans.some((q) => q.atMs < c.atMs && c.utterance.until !== null && q.moment >= c.utterance.until)
        ? [c]
        : [],
    ),
  );

/** Glad (1) or sorry (-1) a planned line sounds. */
const valenceOf = (s: BehaviourSetup, id: string): number => {
  const line = s.utterances.lines.find((l) => l.id === id);
  return line ? lineValence(s.postures, line) : 0;
};
/**
 * A line of `lines` said while a face of `expression` shows from `atMs` (until it has moved and the
 * shortest wait before rest is over) that sounds the opposite.
 */
function contradicting(
  s: BehaviourSetup,
  lines: readonly Extract<BehaviourCommand, { kind: 'speech' }>[],
  expression: Parameters<typeof expressionValence>[1],
  atMs: number,
  durationMs: number,
) {
  const v = expressionValence(s.postures, expression);
  const shownUntil = atMs + durationMs + s.postures.timing.neutralDelayMs[0];
  return lines.find(
    (l) =>
      v !== 0 && valenceOf(s, l.utterance.id) === -v && l.atMs < shownUntil && l.atMs + l.utterance.estimatedMs > atMs,
  );
}

describe('determinism', () => {
  it('the same events, emotions and seed give the same plans; the plans are in time order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer(),
        fc.constantFrom<Seat>(0, 1, 2, 3),
        (gameSeed, seed, robot) => {
          const events = sessionEvents(gameSeed, robot);
          const a = run(setup, events, { seed, emotions: emotionsFrom(seed) });
          const b = run(setup, events, { seed, emotions: emotionsFrom(seed) });
          expect(b).toEqual(a);
          for (const p of a.plans) {
            for (let i = 1; i < p.commands.length; i++)
              expect(p.commands[i]!.atMs).toBeGreaterThanOrEqual(p.commands[i - 1]!.atMs);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('replays exactly from a recorded state: the state is plain data', () => {
    const events = sessionEvents(42);
    const whole = run(setup, events, { seed: 5, emotions: emotionsFrom(5) });
    const half = 30;
    const first = run(setup, events.slice(0, half), { seed: 5, emotions: emotionsFrom(5) });
    const recorded = JSON.parse(JSON.stringify(first.state)) as BehaviourState;
    // Continue with a fresh generator advanced as far as the first half took it.
    const rng = createRng(5);
    const em = emotionsFrom(5);
    let state = initialBehaviourState(0);
    for (let i = 0; i < half; i++)
      state = planBehaviour(setup, {
        event: events[i]!,
        emotions: { emotions: em(), mood: 0 },
        toggles: ALL_ON,
        state,
        rng,
        nowMs: i * 1500,
      }).state;
    expect(state).toEqual(first.state);
    for (let i = half; i < events.length; i++) {
      const r = planBehaviour(setup, {
        event: events[i]!,
        emotions: { emotions: em(), mood: 0 },
        toggles: ALL_ON,
        state: i === half ? recorded : state,
        rng,
        nowMs: i * 1500,
      });
      state = r.state;
      expect(r.plan.commands).toEqual(whole.plans[i]!.commands);
    }
  });

  it('a different seed gives a different session', () => {
    const events = sessionEvents(7);
    const texts = (seed: number) => speeches(run(CHATTY, events, { seed })).map((s) => s.utterance.text);
    expect(texts(1)).not.toEqual(texts(2));
  });
});

describe('toggles', () => {
  const togglesArb = fc.record({
    speech: fc.boolean(),
    postures: fc.boolean(),
    gaze: fc.boolean(),
    partnerSpeech: fc.boolean(),
    opponentSpeech: fc.boolean(),
    expressiveness: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it('a behaviour switched off is never planned; targets switched off are never spoken to', () => {
    fc.assert(
      fc.property(
        togglesArb,
        fc.integer({ min: 0, max: 1000 }),
        fc.array(emotionArb, { maxLength: 3 }),
        (toggles, seed, emotions) => {
          const r = run(CHATTY, sessionEvents(seed), { seed, toggles, emotions: () => emotions });
          const cmds = all(r);
          if (!toggles.speech) expect(cmds.filter((c) => c.kind === 'speech')).toEqual([]);
          if (!toggles.gaze) expect(cmds.filter((c) => c.kind === 'gaze')).toEqual([]);
          if (!toggles.postures) expect(cmds.filter((c) => c.kind === 'posture')).toEqual([]);
          for (const s of speeches(r)) {
            if (!toggles.partnerSpeech) expect(s.utterance.to).not.toBe('partner');
            if (!toggles.opponentSpeech) expect(s.utterance.to).not.toBe('opponent');
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('expressiveness scales the face, and at 0 no emotion shows or picks an emotional line', () => {
    const events = sessionEvents(3);
    const strong = () => [{ type: 'joy' as const, intensity: 10 }];
    const amounts = (expressiveness: number) =>
      all(run(CHATTY, events, { seed: 1, toggles: { ...ALL_ON, expressiveness }, emotions: strong })).flatMap((c) =>
        c.kind === 'posture' && c.cause === 'joy' ? [c.posture.amount] : [],
      );
    expect(amounts(1).every((a) => a === 1)).toBe(true);
    expect(amounts(0.5).every((a) => a === 0.5)).toBe(true);
    expect(amounts(0)).toEqual([]);
    const zero = run(CHATTY, events, { seed: 1, toggles: { ...ALL_ON, expressiveness: 0 }, emotions: strong });
    for (const s of speeches(zero))
      expect(setup.utterances.lines.find((l) => l.id === s.utterance.id)!.emotions).toEqual([]);
  });
});

describe('the moment each line is about', () => {
  it('every event moves the session forward, and each line is worth saying only until the game has moved past it', () => {
    for (const seed of [1, 2, 3]) {
      const events = sessionEvents(seed);
      const rng = createRng(seed);
      let state = initialBehaviourState(0);
      let plays = 0;
      let last = -1;
      const seen = new Set<string>();
      for (const [i, event] of events.entries()) {
        const r = planBehaviour(CHATTY, {
          event,
          emotions: { emotions: [], mood: 0 },
          toggles: ALL_ON,
          state,
          rng,
          nowMs: i * 60_000,
        });
        state = r.state;
        if (event.type === 'play') plays++;
        const moment = r.plan.moment!;
        expect(moment).toBeGreaterThanOrEqual(last);
        last = moment;
        // A game's cards, its end and the session's end, in that order.
        if (event.type === 'play') expect(moment).toBe(momentOf(1, plays));
        if (event.type === 'end') expect(moment).toBe(gameEndOf(1));
        if (event.type === 'session-end') expect(moment).toBe(sessionEndOf(1));
        for (const c of r.plan.commands) {
          if (c.kind !== 'speech') continue;
          const { until, category } = c.utterance;
          seen.add(event.type);
          if (event.type === 'play' || event.type === 'trick' || event.type === 'turn')
            expect(until, `${category} after ${event.type}`).toBe(moment + 1);
          else if (event.type === 'end') expect(until, category).toBe(momentOf(2, 1));
          else if (event.type === 'session-end') expect(until, category).toBeNull();
          else if (event.type === 'session-start') expect(until, category).toBe(momentOf(1, 5));
          // The cards received and the trump card, through the first trick (they follow the game's start line).
          else if (event.type === 'deal') expect(until, category).toBe(momentOf(1, 4));
          else expect(until, `${category} after ${event.type}`).toBe(momentOf(1, 1));
        }
      }
      // The chatty library spoke after cards, tricks, the end and the session's end.
      for (const t of ['play', 'trick', 'end', 'session-end']) expect(seen, `seed ${seed}`).toContain(t);
    }
  });
});

describe('speech', () => {
  it('never plans two lines at once, across a whole session, however chatty', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 100, max: 3000 }), (seed, stepMs) => {
        const r = run(CHATTY, sessionEvents(seed), { seed, stepMs, emotions: emotionsFrom(seed) });
        const lines = liveLines(r).sort((a, b) => a.atMs - b.atMs);
        for (let i = 1; i < lines.length; i++) {
          const prev = lines[i - 1]!;
          expect(lines[i]!.atMs).toBeGreaterThanOrEqual(
            prev.atMs + prev.utterance.estimatedMs + CHATTY.settings.selection.gapMs,
          );
        }
      }),
      { numRuns: 40 },
    );
  });

  it('keeps quiet during the cooldown except for what is always said, and at probability 0', () => {
    const events = sessionEvents(11);
    const quiet = tuned({ probability: { default: 0, byCategory: [] } });
    const said = speeches(run(quiet, events, { seed: 3 })).map((s) => s.utterance.category);
    expect(said.length).toBeGreaterThan(0);
    for (const c of said) expect(c.startsWith('session.') || c.startsWith('game.')).toBe(true);
    const cooling = tuned({ probability: { default: 1, byCategory: [] }, cooldownMs: 10_000, always: [] });
    const starts = liveLines(run(cooling, events, { seed: 3, stepMs: 1000 })).map((s) => s.atMs);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(10_000);
  });

  it('fills slots and speaks to the right seat', () => {
    const r = run(CHATTY, sessionEvents(5), { seed: 9 });
    const addressedToActor = ['shuffle', 'cut', 'deal', 'next-player.partner', 'next-player.opponent'];
    for (const s of speeches(r)) {
      expect(s.utterance.text).not.toMatch(/[{}]/);
      if (s.utterance.to === 'partner') expect(s.utterance.addressee).toBe(partnerOf(0));
      if (s.utterance.to === 'opponent') expect([1, 3]).toContain(s.utterance.addressee);
      // A line for the table is said to nobody in particular, unless the moment is someone's (your turn).
      if (s.utterance.to === 'all' && !addressedToActor.includes(s.utterance.category))
        expect(s.utterance.addressee).toBeNull();
    }
    // Names given at the session start are used: seat 2 (the partner) is João.
    expect(speeches(r).some((s) => s.utterance.text.includes('João'))).toBe(true);
  });

  it('looks at whom it speaks to', () => {
    const r = run(CHATTY, sessionEvents(8), { seed: 4 });
    for (const p of r.plans) {
      // A nudge moves the head nowhere: the card before it already turned it to the seat to move.
      if (p.event.type === 'turn') continue;
      for (const s of p.commands.filter((c) => c.kind === 'speech')) {
        const line = setup.utterances.lines.find((l) => l.id === s.utterance.id)!;
        if (line.gaze !== 'addressee' || s.utterance.addressee === null) continue;
        const look = p.commands.find((c) => c.kind === 'gaze' && c.atMs === s.atMs);
        expect(look?.kind === 'gaze' && look.gaze.target).toEqual({ kind: 'seat', seat: s.utterance.addressee });
      }
    }
  });
});

describe('scripted moments', () => {
  const card = (s: string): Card => parseCard(s);
  const say = (events: BehaviourEvent[], opts: Partial<Parameters<typeof run>[2]> = {}) =>
    speeches(run(CHATTY, events, { seed: 1, stepMs: 10_000, ...opts })).map((s) => s.utterance.category);
  const start: BehaviourEvent[] = [
    { type: 'session-start', robotSeat: 0, games: 5 },
    { type: 'game-start', game: 1, dealer: 3 },
  ];

  it('the trump card turned: an ace by the partner, a two by an opponent, a seven by the robot', () => {
    expect(say([...start, { type: 'deal', seat: 0, dealer: 2, trumpCard: card('AH'), hand: [] }]).at(-1)).toBe(
      'trump.ace.partner',
    );
    expect(say([...start, { type: 'deal', seat: 0, dealer: 1, trumpCard: card('2C'), hand: [] }]).at(-1)).toBe(
      'trump.two.opponent',
    );
    expect(say([...start, { type: 'deal', seat: 0, dealer: 0, trumpCard: card('7S'), hand: [] }]).at(-1)).toBe(
      'trump.seven.self',
    );
    expect(say([...start, { type: 'deal', seat: 0, dealer: 0, trumpCard: card('KS'), hand: [] }]).at(-1)).toBe(
      'cards.received',
    );
  });

  it("the robot's own plays: leading, following, cutting, not following, forced", () => {
    const deal: BehaviourEvent = { type: 'deal', seat: 0, dealer: 3, trumpCard: card('2H'), hand: [] };
    const lead = [...start, deal, { type: 'play', seat: 0, card: card('AS'), trick: 0 } as BehaviourEvent];
    expect(say(lead).at(-1)).toBe('playing.new-trick');
    const after = (c: string, trick = 0): BehaviourEvent[] => [
      ...start,
      deal,
      { type: 'play', seat: 3, card: card('KD'), trick },
      { type: 'play', seat: 0, card: card(c), trick },
    ];
    expect(say(after('AD')).at(-1)).toBe('playing.following');
    expect(say(after('3H')).at(-1)).toBe('playing.cut');
    expect(say(after('4C')).at(-1)).toBe('playing.not-following');
    const forced: Beliefs = {
      moves: [],
      worlds: 0,
      nodes: 0,
      timeMs: 0,
      winProbability: NaN,
      exactFromTrick: 0,
      fallback: 'forced',
    };
    const forcedPlay = { beliefs: (e: BehaviourEvent) => (e.type === 'play' && e.seat === 0 ? forced : null) };
    // "Só tinha esta" would tell the table the robot held no other card: only of the last trick's card.
    expect(say(after('4C', 9), forcedPlay).at(-1)).toBe('playing.forced');
    expect(say(after('4C'), forcedPlay).at(-1)).toBe('playing.not-following');
    // With an emotion that has lines of its own, the robot speaks from play.self.
    const proud = say(after('AD'), { emotions: (i) => (i === 4 ? [{ type: 'pride', intensity: 9 }] : []) }).at(-1);
    expect(proud).toBe('play.self');
  });

  it("the robot's lines about not following name the suit led, not its card's", () => {
    const deal: BehaviourEvent = { type: 'deal', seat: 0, dealer: 3, trumpCard: card('2H'), hand: [] };
    const events: BehaviourEvent[] = [
      ...start,
      deal,
      { type: 'play', seat: 3, card: card('KD'), trick: 0 },
      { type: 'play', seat: 0, card: card('4C'), trick: 0 },
    ];
    const texts = Array.from({ length: 40 }, (_, seed) =>
      speeches(run(CHATTY, events, { seed, stepMs: 10_000 })).at(-1)!,
    )
      .filter((s) => s.utterance.category === 'playing.not-following')
      .map((s) => s.utterance.text);
    // "Não tenho {suit}", "Nada de {suit}", "Fiquei sem {suit}": diamonds (ouros) were led.
    const aboutSuit = texts.filter((t) => /(Não tenho|Nada de|Fiquei sem) (espadas|copas|ouros|paus)/.test(t));
    expect(aboutSuit.length).toBeGreaterThan(0);
    for (const t of aboutSuit) expect(t).toMatch(/(Não tenho|Nada de|Fiquei sem) ouros/);
  });

  it('plays by partner and opponents pick the emotion subcategory', () => {
    const deal: BehaviourEvent = { type: 'deal', seat: 0, dealer: 3, trumpCard: card('2H'), hand: [] };
    const events: BehaviourEvent[] = [...start, deal, { type: 'play', seat: 1, card: card('AH'), trick: 0 }];
    const r = run(CHATTY, events, {
      seed: 2,
      stepMs: 10_000,
      emotions: (i) => (i === 3 ? [{ type: 'resentment', intensity: 8, target: 1 }] : []),
    });
    const s = speeches(r).at(-1)!;
    expect(s.utterance.category).toBe('play.opponent');
    expect(setup.utterances.lines.find((l) => l.id === s.utterance.id)!.emotions).toContain('resentment');
  });

  it('game ends: single, double and quadruple wins and losses, draws and renounces', () => {
    const end = (
      points: [number, number],
      winner: 'A' | 'B' | 'draw',
      victories: number,
      renounce: Seat | null = null,
    ): BehaviourEvent => ({
      type: 'end',
      points,
      outcome: { winner, victories },
      renounce: renounce === null ? null : { seat: renounce, trick: 3, card: card('2S') },
    });
    expect(say([...start, end([70, 50], 'A', 1)]).at(-1)).toBe('game.end.win.single');
    expect(say([...start, end([95, 25], 'A', 2)]).at(-1)).toBe('game.end.win.double');
    expect(say([...start, end([0, 120], 'B', 4)]).at(-1)).toBe('game.end.loss.quadruple');
    expect(say([...start, end([60, 60], 'draw', 0)]).at(-1)).toBe('game.end.draw');
    expect(say([...start, end([30, 10], 'A', 4, 1)]).at(-1)).toBe('game.end.renounce.theirs');
    expect(say([...start, end([30, 10], 'B', 4, 2)]).at(-1)).toBe('game.end.renounce.ours');
    expect(say([...start, { type: 'session-end', victories: [3, 5] }]).at(-1)).toBe('session.end.loss');
  });

  it('shuffle, cut, deal and next player speak only to that player (or the table)', () => {
    const lastPlanLines = (event: BehaviourEvent, seed: number) =>
      run(CHATTY, [...start, event], { seed, stepMs: 10_000 })
        .plans.at(-1)!
        .commands.filter((c) => c.kind === 'speech');
    let spoken = 0;
    for (const seat of [1, 2, 3] as Seat[]) {
      for (const type of ['shuffling', 'cutting', 'dealing', 'turn'] as const) {
        for (let seed = 0; seed < 10; seed++) {
          for (const s of lastPlanLines({ type, seat }, seed)) {
            spoken++;
            expect(s.utterance.addressee).toBe(seat);
          }
        }
      }
    }
    expect(spoken).toBeGreaterThan(100);
    // The robot does not ask itself to shuffle, nor tell itself to play.
    for (const type of ['shuffling', 'cutting', 'dealing', 'turn'] as const)
      expect(lastPlanLines({ type, seat: 0 }, 1)).toEqual([]);
    // With speech to opponents off, an opponent is not told it is their turn, even by a line for everyone.
    const quietToOpponents = (seat: Seat, seed: number) =>
      run(CHATTY, [...start, { type: 'turn', seat }], {
        seed,
        stepMs: 10_000,
        toggles: { ...ALL_ON, opponentSpeech: false },
      })
        .plans.at(-1)!
        .commands.filter((c) => c.kind === 'speech');
    for (let seed = 0; seed < 20; seed++) {
      expect(quietToOpponents(1, seed)).toEqual([]);
      expect(quietToOpponents(3, seed)).toEqual([]);
    }
    expect(
      Array.from({ length: 20 }, (_, seed) => quietToOpponents(2, seed).length).reduce((a, b) => a + b),
    ).toBeGreaterThan(10);
  });
});

describe('postures and gaze in plans', () => {
  it('shows the strongest emotion within the limits and returns to neutral 0-6 s after the expression', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.array(emotionArb, { minLength: 1, maxLength: 4 }),
        (seed, emotions) => {
          // Each event's face: no hold (tested on its own below).
          const r = run(UNHELD, sessionEvents(seed).slice(0, 20), { seed, emotions: () => emotions });
          const strongest = [...emotions].sort((a, b) => b.intensity - a.intensity)[0]!;
          for (const p of r.plans) {
            const postures = p.commands.filter((c) => c.kind === 'posture');
            for (const c of postures) {
              for (const j of EXPRESSION_JOINTS) {
                expect(c.posture.joints[j]).toBeGreaterThanOrEqual(setup.postures.limits[j].min);
                expect(c.posture.joints[j]).toBeLessThanOrEqual(setup.postures.limits[j].max);
              }
            }
            const shown = postures.filter((c) => c.cause !== 'rest' && c.cause !== 'animation');
            const expression = setup.postures.emotions[strongest.type].expression;
            const planned = r.plans
              .filter((q) => q.atMs <= p.atMs)
              .flatMap((q) => q.commands.flatMap((c) => (c.kind === 'speech' ? [c] : [])));
            // Put off or left out only while a line says the opposite (line-valence.ts), or when it
            // contradicts a trick with points as it is taken.
            const reactionAt = p.atMs + setup.settings.postures.reactionMs;
            // The last trick or card so far: a trick with points and no card since stands.
            const last = r.plans
              .slice(0, r.plans.indexOf(p) + 1)
              .map((q) => q.event)
              .filter((e) => e.type === 'trick' || e.type === 'play')
              .at(-1);
            const againstTrick =
              last?.type === 'trick' &&
              last.points > 0 &&
              expressionValence(setup.postures, expression) === (last.winner % 2 === 0 ? -1 : 1);
            // The same face still on (put off after a line, it reaches past this event) is not shown again.
            const same = r.plans
              .slice(0, r.plans.indexOf(p))
              .flatMap((q) => q.commands)
              .some(
                (c) =>
                  c.kind === 'posture' &&
                  c.cause !== 'rest' &&
                  c.posture.expression === expression &&
                  c.atMs + c.posture.durationMs > reactionAt,
              );
            const withheld =
              same ||
              againstTrick ||
              contradicting(setup, planned, expression, reactionAt, setup.postures.timing.moveMs);
            if (strongest.intensity >= setup.settings.postures.threshold) {
              expect(shown).toHaveLength(withheld ? shown.length : 1);
              expect(shown.length).toBeLessThanOrEqual(1);
              // The strongest emotion (any of them, on a tie) is the one shown, with its expression, at once unless put off.
              for (const face of shown) {
                expect(emotions.some((e) => e.type === face.cause && e.intensity === strongest.intensity)).toBe(true);
                expect(face.posture.expression).toBe(
                  setup.postures.emotions[face.cause as typeof strongest.type].expression,
                );
                if (!withheld) expect(face.atMs).toBe(reactionAt);
              }
            } else {
              expect(shown).toEqual([]);
            }
            const rests = postures.filter((c) => c.cause === 'rest');
            // A plan with the calm face alone puts it in place of an earlier face put off that would
            // now start under a contrary line (or contradict the table): no face of its own to follow.
            if (postures.length > 0 && shown.length + postures.filter((c) => c.cause === 'animation').length > 0) {
              const ends = postures.filter((c) => c.cause !== 'rest').map((c) => c.atMs + c.posture.durationMs);
              const lastEnd = Math.max(...ends);
              // Before the faces, a calm face only as a line begins (a held face it contradicts goes calm).
              const starts = new Set(planned.map((c) => c.atMs));
              for (const early of rests.filter((c) => c.atMs < lastEnd)) expect(starts.has(early.atMs)).toBe(true);
              const after = rests.filter((c) => c.atMs >= lastEnd);
              expect(after).toHaveLength(1);
              // Animations are held for their line, so only emotion-only plans are bounded by 6 s.
              if (postures.every((c) => c.cause !== 'animation'))
                expect(after[0]!.atMs - lastEnd).toBeLessThanOrEqual(6000);
              expect(after[0]!.posture.expression).toBe('neutral');
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('never shows a glad face while a sorry line is said, or the reverse, across whole chatty sessions', () => {
    let faces = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 300, max: 3000 }), (seed, stepMs) => {
        const r = run(CHATTY, sessionEvents(seed), { seed, stepMs, emotions: emotionsFrom(seed) });
        const live = liveLines(r);
        r.plans.forEach((p, i) => {
          // The lines planned so far that were said: a later event's line may bring its own face.
          const said = live.filter((l) => r.plans.findIndex((q) => q.commands.includes(l)) <= i);
          for (const c of p.commands) {
            if (c.kind !== 'posture' || c.cause === 'rest' || c.cause === 'animation' || c.cause === 'surprise')
              continue;
            faces++;
            const against = contradicting(CHATTY, said, c.posture.expression, c.atMs, c.posture.durationMs);
            expect(
              against,
              `${c.posture.expression} face at ${c.atMs} ms under "${against?.utterance.text}"`,
            ).toBeUndefined();
          }
        });
      }),
      { numRuns: 30 },
    );
    expect(faces).toBeGreaterThan(100);
  });

  it('a reappraisal that turns glad while a sorry line about a trick lost is said shows no smile, a new glad event smiles after the line', () => {
    const events = sessionEvents(3);
    const at = events.findIndex((e) => e.type === 'trick' && e.winner % 2 === 1 && e.points >= 10);
    const trick = events[at]! as Extract<BehaviourEvent, { type: 'trick' }>;
    const before = run(CHATTY, events.slice(0, at), { seed: 3 });
    const t = at * 1500 + 10_000; // the voice free again
    const sorry = planBehaviour(CHATTY, {
      event: trick,
      emotions: { emotions: [{ type: 'distress', intensity: 6 }], mood: 0 },
      toggles: ALL_ON,
      state: before.state,
      rng: createRng(5),
      nowMs: t,
    });
    const line = sorry.plan.commands.find((c) => c.kind === 'speech');
    expect(line, 'a line about the trick lost').toBeDefined();
    expect(valenceOf(CHATTY, line!.utterance.id)).toBe(-1);
    const hope = (nowMs: number) =>
      planBehaviour(CHATTY, {
        event: { type: 'reappraisal', of: 'trick', event: trick },
        emotions: { emotions: [{ type: 'hope', intensity: 8 }], mood: 0 },
        toggles: ALL_ON,
        state: sorry.state,
        rng: createRng(6),
        nowMs,
      }).plan.commands;
    const smile = (cs: readonly BehaviourCommand[]) => cs.find((c) => c.kind === 'posture' && c.cause === 'hope');
    // 150 ms after the trick the estimate comes back better, as the line is about to be said.
    expect(smile(hope(t + 150))).toBeUndefined();
    // A new event glad enough to smile at (clearly stronger than the sad face held), while the line
    // is being said: the smile waits for its end.
    const next = planBehaviour(CHATTY, {
      event: { type: 'play', seat: nextSeat(trick.winner), card: parseCard('2D'), trick: trick.trick + 1 },
      emotions: { emotions: [{ type: 'joy', intensity: 9.5 }], mood: 0 },
      toggles: ALL_ON,
      state: sorry.state,
      rng: createRng(7),
      nowMs: line!.atMs + 200,
    });
    const later = next.plan.commands.find((c) => c.kind === 'posture' && c.cause === 'joy');
    expect(later?.atMs).toBeGreaterThanOrEqual(line!.atMs + line!.utterance.estimatedMs);
  });

  it('no face contradicts a trick with points until the next card, as it is taken or reappraised or its last card is: no smile at one lost, no fright at one won', () => {
    const events = sessionEvents(3);
    const lost = events.findIndex((e) => e.type === 'trick' && e.winner % 2 === 1 && e.points >= 10);
    const won = events.findIndex((e) => e.type === 'trick' && e.winner % 2 === 0 && e.points >= 10);
    const faceAt = (at: number, emotion: EmotionInput, reappraised: boolean | 'its last card') => {
      const trick = events[at]! as Extract<BehaviourEvent, { type: 'trick' }>;
      const card = events
        .slice(0, at)
        .filter((e): e is Extract<BehaviourEvent, { type: 'play' }> => e.type === 'play')
        .at(-1)!;
      // A reappraisal comes once the trick has been taken.
      const before = run(setup, events.slice(0, reappraised ? at + 1 : at), {
        seed: 3,
        toggles: { ...ALL_ON, speech: false },
      });
      const event: BehaviourEvent =
        reappraised === 'its last card'
          ? { type: 'reappraisal', of: 'play', event: card }
          : reappraised
            ? { type: 'reappraisal', of: 'trick', event: trick }
            : trick;
      const plan = planBehaviour(setup, {
        event,
        emotions: { emotions: [emotion], mood: 0 },
        toggles: { ...ALL_ON, speech: false },
        state: before.state,
        rng: createRng(4),
        nowMs: at * 1500 + 10_000,
      }).plan;
      return plan.commands.flatMap((c) =>
        c.kind === 'posture' && c.cause === emotion.type ? [c.posture.expression] : [],
      )[0];
    };
    for (const reappraised of [false, true, 'its last card'] as const) {
      expect(faceAt(lost, { type: 'hope', intensity: 8 }, reappraised)).toBeUndefined();
      expect(faceAt(lost, { type: 'distress', intensity: 8 }, reappraised)).toBe('sad');
      expect(faceAt(won, { type: 'fear', intensity: 8 }, reappraised)).toBeUndefined();
      expect(faceAt(won, { type: 'joy', intensity: 8 }, reappraised)).toBe('happy');
    }
  });

  it('a face is held its time, then the wait before neutral spreads over neutralDelayMs', () => {
    const waits: number[] = [];
    const { minMs } = setup.postures.hold;
    const [lo, hi] = setup.postures.timing.neutralDelayMs;
    for (let seed = 0; seed < 200; seed++) {
      const r = run(setup, [{ type: 'turn', seat: 1 }], { seed, emotions: () => [{ type: 'joy', intensity: 8 }] });
      const [face, rest] = r.plans[0]!.commands.flatMap((c) => (c.kind === 'posture' ? [c] : []));
      expect(face!.cause).toBe('joy');
      waits.push(rest!.atMs - (face!.atMs + minMs));
    }
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(lo);
    expect(Math.max(...waits)).toBeLessThanOrEqual(hi);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan((hi - lo) * 0.7);
  });

  it('gaze follows the game: the player to move, the card just played, the trick winner', () => {
    const quiet = tuned({ probability: { default: 0, byCategory: [] }, always: [] });
    const firstLook = (event: BehaviourEvent) => {
      const c = run(quiet, [{ type: 'session-start', robotSeat: 0, games: 1 }, event], {
        seed: 1,
      }).plans[1]!.commands.find((c) => c.kind === 'gaze');
      return c?.kind === 'gaze' ? c.gaze.target : null;
    };
    // A turn comes right after the card or trick that gave it, whose plan looks at the seat to move.
    expect(firstLook({ type: 'turn', seat: 3 })).toBeNull();
    expect(firstLook({ type: 'play', seat: 1, card: parseCard('AS'), trick: 0 })).toEqual({ kind: 'card', seat: 1 });
    expect(firstLook({ type: 'trick', trick: 0, leader: 1, cards: [], winner: 3, points: 10 })).toEqual({
      kind: 'seat',
      seat: 3,
    });
    // After the card, the head moves on to the next player.
    const play = run(
      quiet,
      [
        { type: 'session-start', robotSeat: 0, games: 1 },
        { type: 'play', seat: 1, card: parseCard('AS'), trick: 0 },
      ],
      { seed: 1 },
    ).plans[1]!.commands;
    expect(play.filter((c) => c.kind === 'gaze').map((c) => c.kind === 'gaze' && c.gaze.target)).toEqual([
      { kind: 'card', seat: 1 },
      { kind: 'seat', seat: nextSeat(1) },
    ]);
  });
});

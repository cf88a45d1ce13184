// Surprise: a card another seat plays that the robot's prediction gave little chance is
// unexpected. Scenarios through the appraisal (the API and `parceiro appraise`), then the plan the
// behaviours make of it: the surprised face and, sometimes, a word, which differs for the partner and
// for an opponent; an expected card brings neither.

import { describe, expect, it } from 'vitest';
import type { ScenarioOutcome } from '../../appraisal/index.js';
import { eventEnv, surpriseOf } from '../../appraisal/index.js';
import type {
  BehaviourCommand,
  BehaviourEvent,
  BehaviourSetup,
  BehaviourState,
  EmotionalStateInput,
} from '../../behaviours/index.js';
import { initialBehaviourState, planBehaviour } from '../../behaviours/index.js';
import { createRng, parseCard } from '../../game/index.js';
import { shippedSetup } from '../behaviours/helpers.js';
import { apiRun, character, cliRun, find, last } from './helpers.js';

/** The shipped setup, always speaking and with no cooldown: what is said is then up to the surprise alone. */
function chatty(language = 'pt'): BehaviourSetup {
  const s = shippedSetup(language);
  return {
    ...s,
    settings: {
      ...s.settings,
      selection: { ...s.settings.selection, probability: { default: 1, byCategory: [] }, cooldownMs: 0 },
    },
  };
}

/** A scenario's events planned one after another, each with what its appraisal raised and its surprise. */
function plan(
  setup: BehaviourSetup,
  outcomes: readonly ScenarioOutcome[],
  seed = 1,
): { event: BehaviourEvent; commands: readonly BehaviourCommand[] }[] {
  const rng = createRng(seed);
  let state: BehaviourState = initialBehaviourState(0);
  const plans: { event: BehaviourEvent; commands: readonly BehaviourCommand[] }[] = [];
  let now = 0;
  for (const events of [
    [
      { type: 'session-start', robotSeat: 0, games: 1 } as BehaviourEvent,
      { type: 'game-start', game: 1, dealer: 3 } as BehaviourEvent,
    ],
  ]) {
    for (const event of events) {
      const r = planBehaviour(setup, {
        event,
        emotions: { emotions: [], mood: 0 },
        toggles: setup.settings.toggles,
        state,
        rng,
        nowMs: now,
      });
      state = r.state;
    }
  }
  for (const o of outcomes) {
    if (!o.step.perception || !o.result) continue;
    now = o.step.atMs + 60_000;
    const felt = new Set(o.result.felt.map((f) => `${f.type}/${String(f.target)}`));
    const emotions: EmotionalStateInput = {
      emotions: o.report.emotions.filter((e) => felt.has(`${e.type}/${String(e.target)}`)),
      mood: o.report.mood,
      ...(o.result.frame.surprise > 0 ? { surprise: o.result.frame.surprise } : {}),
    };
    const event = o.step.perception.event as BehaviourEvent;
    const r = planBehaviour(setup, { event, emotions, toggles: setup.settings.toggles, state, rng, nowMs: now });
    state = r.state;
    plans.push({ event, commands: r.plan.commands });
  }
  return plans;
}

const lastPlay = (plans: ReturnType<typeof plan>) => plans.filter((p) => p.event.type === 'play').at(-1)!;
const surprisedFace = (commands: readonly BehaviourCommand[]) =>
  commands.find((c) => c.kind === 'posture' && c.cause === 'surprise');
const lines = (commands: readonly BehaviourCommand[]) =>
  commands.flatMap((c) => (c.kind === 'speech' ? [c.utterance] : []));

describe('surprise in the appraisal', () => {
  it("is the perception's surprise times the character's surpriseGain, at most 1; 0 when none is given", () => {
    const warm = character('warm');
    expect(warm.surpriseGain).toBe(1);
    expect(surpriseOf(warm, 0.95)).toBe(0.95);
    expect(surpriseOf(warm, undefined)).toBe(0);
    expect(surpriseOf({ ...warm, surpriseGain: 2 }, 0.8)).toBe(1);
    expect(surpriseOf({ ...warm, surpriseGain: 0 }, 0.95)).toBe(0);
  });

  it('a rule may read it: `surprise` is a name of play events', () => {
    const env = eventEnv(
      { type: 'play', seat: 2, card: parseCard('AH'), trick: 0 },
      apiRun('surprise-partner', 'warm').at(-1)!.result!.state.game,
      { expectedPoints: 60, winProbability: 0.5 },
      { expectedPoints: 60, winProbability: 0.5 },
      false,
      1,
      0.7,
    );
    expect(env.surprise).toBe(0.7);
  });

  for (const preset of ['neutral', 'competitive', 'warm']) {
    it(`${preset}: a very unlikely partner card is appraised as unexpected, and what it makes felt is stronger than for the card expected`, () => {
      const surprised = last(apiRun('surprise-partner', preset));
      const expected = last(apiRun('expected-partner', preset));
      expect(surprised.result!.frame.surprise).toBe(0.95);
      expect(expected.result!.frame.surprise).toBe(0);
      // The same change of expectation: joy at it, stronger when it was not expected (OCC's unexpectedness).
      const joy = (o: ScenarioOutcome) => find(o.report, 'joy', null)?.intensity ?? 0;
      expect(joy(expected)).toBeGreaterThan(0);
      expect(joy(surprised)).toBeGreaterThan(joy(expected));
      // Prospects are not the event's: hope is the same either way.
      expect(find(surprised.report, 'hope')?.intensity).toBeCloseTo(find(expected.report, 'hope')?.intensity ?? 0, 9);
    });
  }

  it('the CLI reports it as an appraisal variable', async () => {
    const lines = await cliRun('surprise-partner', 'warm');
    expect(lines.at(-1)!.variables.surprise).toBe(0.95);
    expect(lines.at(-2)!.variables.surprise).toBe(0.1);
    const plain = await cliRun('expected-partner', 'warm');
    expect(plain.at(-1)!.variables.surprise).toBeUndefined();
  });
});

describe('surprise in what the robot shows', () => {
  it('a very unlikely partner card: the surprised face, and a surprised line to the partner or the table', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const p = lastPlay(plan(chatty(), apiRun('surprise-partner', 'warm'), seed));
      const face = surprisedFace(p.commands);
      expect(face).toBeDefined();
      expect(face!.kind === 'posture' && face!.posture.expression).toBe('surprised');
      const said = lines(p.commands);
      expect(said.map((u) => u.category)).toEqual(['play.surprise.partner']);
      expect(['partner', 'all']).toContain(said[0]!.to);
    }
  });

  it('the card expected: no surprised face and no surprised line', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const plans = plan(chatty(), apiRun('expected-partner', 'warm'), seed);
      for (const p of plans) {
        expect(surprisedFace(p.commands)).toBeUndefined();
        expect(lines(p.commands).filter((u) => u.category.startsWith('play.surprise'))).toEqual([]);
      }
    }
  });

  it('a mildly unlikely card (surprise 0.1) shows nothing of it', () => {
    const plans = plan(chatty(), apiRun('surprise-partner', 'warm'));
    const opponent = plans.find((p) => p.event.type === 'play' && p.event.seat === 1)!;
    expect(surprisedFace(opponent.commands)).toBeUndefined();
    expect(lines(opponent.commands)).toEqual([]);
  });

  it("partner and opponent differ: the opponent gets its own lines, to it or to the table, never the partner's", () => {
    const setup = chatty();
    const partnerTexts = new Set(
      setup.utterances.lines.filter((l) => l.category === 'play.surprise.partner').map((l) => l.text),
    );
    const opponentTexts = new Set(
      setup.utterances.lines.filter((l) => l.category === 'play.surprise.opponent').map((l) => l.text),
    );
    expect([...partnerTexts].filter((t) => opponentTexts.has(t))).toEqual([]);
    const said = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const p = lastPlay(plan(setup, apiRun('surprise-opponent', 'warm'), seed));
      expect(surprisedFace(p.commands)).toBeDefined();
      const [line, ...more] = lines(p.commands);
      expect(more).toEqual([]);
      expect(line!.category).toBe('play.surprise.opponent');
      expect(['opponent', 'all']).toContain(line!.to);
      if (line!.to === 'opponent') expect(line!.addressee).toBe(1);
      said.add(line!.category);
    }
    // The same surprise from the partner is said to the partner's side.
    const partner = lines(lastPlay(plan(setup, apiRun('surprise-partner', 'warm'))).commands)[0]!;
    expect(partner.category).toBe('play.surprise.partner');
    expect(partner.addressee === null || partner.addressee === 2).toBe(true);
  });

  it('with the shipped chances it is said sometimes, not always; the face shows every time', () => {
    let spoken = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const p = lastPlay(plan(shippedSetup(), apiRun('surprise-partner', 'warm'), seed));
      expect(surprisedFace(p.commands)).toBeDefined();
      if (lines(p.commands).some((u) => u.category === 'play.surprise.partner')) spoken++;
    }
    expect(spoken).toBeGreaterThan(0);
    expect(spoken).toBeLessThan(40);
  });

  it('an estimate that comes before the surprised face has shown keeps it, and shows its own face after it', () => {
    const setup = shippedSetup();
    const rng = createRng(3);
    let state: BehaviourState = initialBehaviourState(0);
    const step = (event: BehaviourEvent, emotions: EmotionalStateInput, nowMs: number) => {
      const r = planBehaviour(setup, { event, emotions, toggles: setup.settings.toggles, state, rng, nowMs });
      state = r.state;
      return r.plan.commands;
    };
    step({ type: 'session-start', robotSeat: 0, games: 1 }, { emotions: [], mood: 0 }, 0);
    step({ type: 'game-start', game: 1, dealer: 3 }, { emotions: [], mood: 0 }, 0);
    step({ type: 'deal', seat: 0, dealer: 3, trumpCard: parseCard('5H'), hand: [] }, { emotions: [], mood: 0 }, 1000);
    const play = { type: 'play', seat: 2, card: parseCard('AH'), trick: 0 } as const;
    const first = step(play, { emotions: [], mood: 0, surprise: 0.95 }, 10_000);
    const face = surprisedFace(first)!;
    expect(face.atMs).toBe(10_000 + setup.settings.postures.reactionMs);
    // The estimate comes 50 ms later with joy: the surprise is planned again at its time, the joy after it.
    const later = step(
      { type: 'reappraisal', of: 'play', event: play },
      { emotions: [{ type: 'joy', intensity: 6 }], mood: 0 },
      10_050,
    );
    expect(surprisedFace(later)?.atMs).toBe(face.atMs);
    const joy = later.find((c) => c.kind === 'posture' && c.cause === 'joy')!;
    expect(joy.atMs).toBeGreaterThanOrEqual(face.atMs + (face.kind === 'posture' ? face.posture.durationMs : 0));
    // Once it has shown, a later event's face is not held back.
    const after = step(
      { type: 'reappraisal', of: 'play', event: play },
      { emotions: [{ type: 'joy', intensity: 6 }], mood: 0 },
      20_000,
    );
    expect(surprisedFace(after)).toBeUndefined();
    expect(after.find((c) => c.kind === 'posture' && c.cause === 'joy')!.atMs).toBe(
      20_000 + setup.settings.postures.reactionMs,
    );
  });

  it('English has its own lines for both', () => {
    const en = chatty('en');
    const p = lastPlay(plan(en, apiRun('surprise-opponent', 'warm')));
    expect(lines(p.commands)[0]!.language).toBe('en');
    expect(lines(p.commands)[0]!.category).toBe('play.surprise.opponent');
  });
});

// The robot reacts to each event at once and lets the quick estimates catch up: through the node with
// a simulated table and a fake estimator that takes its time. The reaction to an event (its emotions
// and behaviour commands) is on the bus before that event's estimate comes back; one estimate runs at
// a time, of the newest position, and a position overtaken while waiting is never estimated; an
// estimate that comes back after the next deal or the game's end is not taken; and where
// each estimate took effect is recorded, so the session replays to exactly itself. Nothing here
// measures time: the tests wait for the session's end.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Expectation } from '../../appraisal/index.js';
import type { Decision, HandAssessment, InfoSet, Player, PlayerFactory, Seat } from '../../game/index.js';
import { Game, HandAssessor, RulePlayer, createRng, dealCards, infoSetOf, parseCard } from '../../game/index.js';
import type * as Robot from '../../robot/index.js';
import type {
  BusEntry,
  DecisionMessage,
  ExpectationMessage,
  GameEventMessage,
  GameStateMessage,
} from '../../robot/bus/index.js';
import type { ExpectationSource, RobotPlayer } from '../../robot/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const replay = (await import(
  new URL('../../dist/robot/offline/replay/index.js', import.meta.url).href
)) as typeof import('../../robot/offline/replay/index.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-estimates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REACTED = new Set(['deal', 'play', 'trick', 'end']);
const BEHAVIOUR = new Set([
  '/robot_face/expression',
  '/emys/joint_trajectory',
  '/look_at',
  '/parceiro/behaviours/utterance',
  '/tts/say',
]);

/** An estimator that answers when `answer` says so, counting what it was asked and how many at once. */
class FakeEstimator implements ExpectationSource {
  readonly asked: number[] = [];
  running = 0;
  maxRunning = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(private readonly answer: (event: number, done: () => void) => void) {}
  estimate(_info: InfoSet, event: number): Promise<Expectation | undefined> {
    this.asked.push(event);
    this.maxRunning = Math.max(this.maxRunning, ++this.running);
    return new Promise((resolve) => {
      const done = (): void => {
        this.running--;
        // Good and bad news by turns, so the appraisal has something to feel, each far beyond its noise.
        resolve(
          event % 2
            ? { expectedPoints: 30, winProbability: 0.2, pointsSe: 2, winSe: 0.04 }
            : { expectedPoints: 90, winProbability: 0.85, pointsSe: 2, winSe: 0.04 },
        );
      };
      this.#waiting.push(done);
      this.answer(event, done);
    });
  }
  /** Answers every question still waiting. */
  releaseAll(): void {
    for (const done of this.#waiting.splice(0)) done();
  }
}

/** The rule-based player reporting beliefs, as a searching player does (its plays are estimated all the same). */
const searching: PlayerFactory = (o): Player => {
  const p = new RulePlayer(o);
  return {
    kind: 'searching',
    choose: (view) => p.choose(view),
    decide: (view): Decision => {
      const card = p.choose(view);
      return {
        card,
        beliefs: {
          moves: [{ card, mean: 62, sd: 5, winProbability: 0.55 }],
          worlds: 20,
          nodes: 100,
          timeMs: 1,
          winProbability: 0.55,
          exactFromTrick: 9,
          inference: { trust: 0.5, candidates: 2048, effective: 851.6 },
        },
      };
    },
  };
};

async function session(
  id: string,
  estimator: FakeEstimator,
  player: RobotPlayer,
  tableThinkMs = 0,
  watch?: (node: Robot.ParceiroNode, e: BusEntry) => void,
  handModel?: { searchWeight: number } | null,
): Promise<{ seen: BusEntry[]; node: Robot.ParceiroNode; path: string }> {
  const node = await robot.ParceiroNode.start({
    ...(handModel === undefined ? {} : { handModel }),
    seed: 17,
    table: { host: '127.0.0.1', port: 0, token: 'estimates' },
    games: 1,
    sessionId: id,
    sources: { player, estimator },
    expectationBudgetMs: 40,
    minThinkMs: 0,
    speech: 'publish',
    recordingsDir: dir,
    dashboard: null,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
  });
  const seen: BusEntry[] = [];
  // Once the session is over, whatever is still out comes back: as soon as the robot has reacted to
  // the end (its first behaviour command after it), so the test does not race the reaction's timers
  // on a loaded machine; a robot that waited for its estimates to react gets them after 20 s instead,
  // and fails the checks below (2 s was raced by a reaction under load, with browser tests beside it).
  let ended = false;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    estimator.releaseAll();
  };
  node.bus.tap((e) => {
    seen.push(e);
    watch?.(node, e);
    if (ended && BEHAVIOUR.has(e.topic.name)) queueMicrotask(release);
  });
  node.bus.subscribe('gameEvents', (m) => {
    if (m.type !== 'session_end') return;
    ended = true;
    setTimeout(release, 20_000).unref();
  });
  await robot.playToTheEnd(
    node,
    new SimulatedTable({ url: node.url, token: 'estimates', seed: 5, thinkMs: tableThinkMs }),
  );
  return { seen, node, path: (await node.close()).recording! };
}

/** The game events the reactions took, by index, with where each is on the bus. */
const eventsOf = (seen: BusEntry[]) =>
  seen
    .map((e, at) => ({ at, m: e.message as { type: string; seat: number } }))
    .filter((x) => seen[x.at]!.topic.name === '/parceiro/game/events' && REACTED.has(x.m.type));

describe("the robot's reactions and its estimates", () => {
  it('reacts to every event at once while the only estimate it asked for is still out', async () => {
    // Nothing comes back until the session is over.
    const estimator = new FakeEstimator(() => {});
    // The table's players take a moment, as people do: a table that answers within the same
    // millisecond lets each card's reaction replace the last before its first command is due.
    const { seen, node } = await session(
      'held',
      estimator,
      robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 17 }),
      20,
    );
    const events = eventsOf(seen);
    expect(events).toHaveLength(1 + 40 + 10 + 1);
    const firstEstimate = seen.findIndex((e) => e.topic.name === '/parceiro/expectation');
    // Every event's emotions (the deal's with the hand model's look at the robot's hand), and the
    // session's end, were published before any estimate came back.
    expect(seen.slice(0, firstEstimate).filter((e) => e.topic.name === '/parceiro/emotions')).toHaveLength(
      events.length + 1,
    );
    // And the robot looked and moved all along: behaviour commands during the tricks, and after the
    // game's end. Not during every trick: at 20 ms a card a trick lasts 80 ms, and on a machine at load
    // 10 the node can be descheduled for that long, so a trick's events arrive together and each
    // reaction is overtaken by the next before its first command (as it should be). A robot that waited
    // for its estimates would move in none of them.
    const bounds = [0, ...events.filter((e) => e.m.type === 'trick').map((e) => e.at), firstEstimate];
    const moved = bounds.slice(1).map((to, k) => seen.slice(bounds[k], to).some((e) => BEHAVIOUR.has(e.topic.name)));
    expect(moved.filter(Boolean).length).toBeGreaterThanOrEqual(moved.length - 3);
    expect(moved.at(-1)).toBe(true);
    // One estimate, the deal's, ran all along: every later position waiting for it was overtaken by the next.
    expect(estimator.asked).toEqual([0]);
    // (The last card ends the game: there is nothing left to estimate after it.)
    expect(node.reactions.stats).toMatchObject({
      events: events.length,
      estimates: 1,
      estimatesSkipped: 39,
      estimatesApplied: 0,
      estimatesOvertaken: 1,
    });
    // It came back after the game had ended: recorded, with where, and not taken.
    const m = seen[firstEstimate]!.message as ExpectationMessage;
    expect(m).toMatchObject({ status: 'ok', event_index: 0, at_event: events.length - 1, applied: false });
  });

  it('estimates the newest position, one at a time, takes each as it comes back, and replays to exactly itself', async () => {
    // Some answers come at once, the others after the table has moved on.
    let n = 0;
    const estimator = new FakeEstimator((_event, done) =>
      n++ % 3 === 0 ? queueMicrotask(done) : setTimeout(done, 15),
    );
    // The table's players take 30 ms, twice an estimate's longest: the estimate running when the robot
    // plays has come back before the next card, so the robot's own play is then the newest position
    // and is estimated (with no pause, whether it ever was depended on the machine's load).
    const { seen, path } = await session(
      'slow',
      estimator,
      robot.syncRobotPlayer(searching, { seat: 0, seed: 17 }),
      30,
    );
    const events = eventsOf(seen);
    const estimates = seen
      .map((e, at) => ({ at, m: e.message as ExpectationMessage }))
      .filter((x) => seen[x.at]!.topic.name === '/parceiro/expectation');
    expect(estimator.maxRunning).toBe(1);
    expect(estimates.map((x) => x.m.event_index)).toEqual(estimator.asked);
    // Newest first: the positions asked for only go forward; every play's, the robot's own searched
    // plays included (one estimator for every change of expectation, so they are on one scale).
    for (let i = 1; i < estimator.asked.length; i++)
      expect(estimator.asked[i]).toBeGreaterThan(estimator.asked[i - 1]!);
    for (const i of estimator.asked) {
      const e = events[i]!.m;
      expect(e.type === 'deal' || e.type === 'play', `event ${i}: ${e.type}`).toBe(true);
    }
    const searchedPlays = estimator.asked.filter((i) => events[i]!.m.type === 'play' && events[i]!.m.seat === 0);
    expect(searchedPlays.length).toBeGreaterThan(0);
    // The game's end and a deal put an end to estimates of what came before them.
    const overtakes = (i: number): boolean => events[i]!.m.type === 'end' || events[i]!.m.type === 'deal';
    for (const { at, m } of estimates) {
      expect(m.at_event).toBeGreaterThanOrEqual(m.event_index);
      // The event's own reaction was on the bus before its estimate came back.
      const own = seen.slice(events[m.event_index]!.at, at);
      expect(own.some((e) => e.topic.name === '/parceiro/emotions')).toBe(true);
      const overtaken = Array.from({ length: m.at_event - m.event_index }, (_, k) => m.event_index + 1 + k).some(
        overtakes,
      );
      expect(m.applied, `estimate of event ${m.event_index}, back after event ${m.at_event}`).toBe(!overtaken);
      // A taken estimate is a new appraisal at once.
      if (m.applied) expect(seen[at + 1]!.topic.name).toBe('/parceiro/emotions');
    }
    expect(estimates.some((x) => x.m.applied)).toBe(true);
    // Asked for, or skipped for a newer position: every deal and every card.
    const wanted = events.filter((e) => e.m.type === 'deal' || e.m.type === 'play').length;
    expect(estimator.asked.length).toBeLessThanOrEqual(wanted);
    // The searched decisions say how their worlds were weighed (and the replay below gets them back).
    const decisions = seen
      .filter((e) => e.topic.name === '/parceiro/decision')
      .map((e) => e.message as DecisionMessage)
      .filter((m) => m.fallback !== 'forced');
    expect(decisions.length).toBeGreaterThan(0);
    for (const m of decisions)
      expect(m).toMatchObject({
        inference_trust: 0.5,
        inference_candidates: 2048,
        inference_effective: expect.closeTo(851.6, 3),
      });

    const r = await replay.replayRecording(recording.readRecording(path));
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.answerDifferences).toEqual([]);
    expect(r.fed.estimates).toBe(estimates.length);
    expect(r.compared['/parceiro/expectation']).toBe(estimates.length);
  });

  it("looks at its hand at the deal before any estimate (the hand model), and combines the deal's estimate with that look", async () => {
    const assessor = new HandAssessor();
    {
      const searchWeight = 0.25;
      // The deal's estimate (event 0: 90 points, 85%) comes back once the robot has reacted to the deal.
      const estimator = new FakeEstimator((event, done) => (event === 0 ? queueMicrotask(done) : undefined));
      const held: { topic: string; expectation: Expectation; model: HandAssessment | null }[] = [];
      let hand: string[] = [];
      const { seen } = await session(
        `model-${searchWeight}`,
        estimator,
        robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 17 }),
        20,
        (node, e) => {
          if (e.topic.name === '/parceiro/game/state' && hand.length === 0)
            hand = (e.message as GameStateMessage).robot_hand;
          if (e.topic.name === '/parceiro/emotions' || e.topic.name === '/parceiro/expectation')
            held.push({
              topic: e.topic.name,
              expectation: { ...node.reactions.expectation },
              model: node.reactions.handAssessment,
            });
        },
        { searchWeight },
      );
      estimator.releaseAll();
      const deal = seen.map((e) => e.message as GameEventMessage).find((m) => m.type === 'deal')!;
      expect(hand).toHaveLength(10);
      const model = assessor.assess(
        hand.map((c) => parseCard(c)),
        0,
        deal.seat as Seat,
        parseCard(deal.card),
      );
      // Before the deal's estimate came back, the robot already expected what its hand says.
      const firstEstimate = held.findIndex((h) => h.topic === '/parceiro/expectation');
      expect(firstEstimate).toBeGreaterThan(0);
      expect(
        held
          .slice(0, firstEstimate)
          .some(
            (h) =>
              h.expectation.expectedPoints === model.expectedPoints &&
              h.expectation.winProbability === model.winProbability,
          ),
      ).toBe(true);
      expect(held[firstEstimate - 1]!.model).toEqual(model);
      // Then the deal's estimate, weighed with the model as configured.
      const after = held[firstEstimate + 1]!;
      expect(after.topic).toBe('/parceiro/emotions');
      expect(after.expectation.expectedPoints).toBeCloseTo(
        searchWeight * 90 + (1 - searchWeight) * model.expectedPoints,
        9,
      );
      expect(after.expectation.winProbability).toBeCloseTo(
        searchWeight * 0.85 + (1 - searchWeight) * model.winProbability,
        9,
      );
      // The model is no estimate from samples: only the estimate's share of the noise is left.
      expect(after.expectation.pointsSe).toBeCloseTo(searchWeight * 2, 9);
      expect(after.expectation.winSe).toBeCloseTo(searchWeight * 0.04, 9);
      // The bus and the recording carry the estimate's own noise.
      const message = seen.find((e) => e.topic.name === '/parceiro/expectation')!.message as ExpectationMessage;
      expect([message.points_se, message.win_se]).toEqual([2, 0.04]);
    }
  });

  it('without the hand model, the deal is an even game until its estimate comes back, and the estimate is taken as it is', async () => {
    const estimator = new FakeEstimator((event, done) => (event === 0 ? queueMicrotask(done) : undefined));
    const held: { topic: string; expectation: Expectation }[] = [];
    await session(
      'no-model',
      estimator,
      robot.syncRobotPlayer((o) => new RulePlayer(o), { seat: 0, seed: 17 }),
      20,
      (node, e) => {
        if (e.topic.name === '/parceiro/emotions' || e.topic.name === '/parceiro/expectation')
          held.push({ topic: e.topic.name, expectation: { ...node.reactions.expectation } });
      },
      null,
    );
    estimator.releaseAll();
    const firstEstimate = held.findIndex((h) => h.topic === '/parceiro/expectation');
    expect(held[firstEstimate - 1]!.expectation).toEqual({ expectedPoints: 60, winProbability: 0.5 });
    expect(held[firstEstimate + 1]!.expectation).toEqual({
      expectedPoints: 90,
      winProbability: 0.85,
      pointsSe: 2,
      winSe: 0.04,
    });
  });
});

describe("an estimate's noise", () => {
  it('is the standard error of each mean over the worlds; a share of 0 or 1 still has one', () => {
    // Three worlds of 50, 70 and 90 points, two of them won.
    const e = robot.estimateOf({ worlds: 3, points: 210, pointsSq: 50 * 50 + 70 * 70 + 90 * 90, wins: 2 });
    expect(e.expectedPoints).toBe(70);
    expect(e.pointsSe).toBeCloseTo(20 / Math.sqrt(3), 9);
    expect(e.winSe).toBeCloseTo(Math.sqrt(((2 / 3) * (1 / 3)) / 3), 9);
    const allWon = robot.estimateOf({ worlds: 99, points: 99 * 80, pointsSq: 99 * 6400, wins: 99 });
    expect(allWon.winProbability).toBe(1);
    expect(allWon.pointsSe).toBe(0);
    expect(allWon.winSe).toBeCloseTo(Math.sqrt((0.01 * 0.99) / 99), 9);
  });

  it("comes with the estimator's estimates of a real position", async () => {
    const deal = dealCards(createRng(8), 1);
    const game = new Game(deal);
    const estimator = new robot.ExpectationEstimator({ budgetMs: 60_000, maxWorlds: 60, exactTricks: 4, seed: 3 });
    try {
      const e = (await estimator.estimate(infoSetOf(game, 0, deal.hands[0]!), 0))!;
      // 60 worlds: a spread of final points of some 10-30 points makes an error of 1-4 points.
      expect(e.pointsSe).toBeGreaterThan(0.5);
      expect(e.pointsSe).toBeLessThan(5);
      const p = Math.min(Math.max(e.winProbability, 1 / 61), 60 / 61);
      expect(e.winSe).toBeCloseTo(Math.sqrt((p * (1 - p)) / 60), 9);
    } finally {
      await estimator.close();
    }
  });
});

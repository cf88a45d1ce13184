// Replaying recorded sessions through the same node: a session replays to exactly itself, an altered
// output is found and named, a recording cut short replays as far as it goes and says what it could
// not, and the recorded answers report questions asked out of place. Nothing here measures time: the
// live session is waited on to its end, and the replay runs on its own clock.

import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FITTED_MODEL, Game, SeatView, createRng, dealCards, parseCard } from '../../game/index.js';
import type { InfoSet } from '../../game/index.js';
import { recordSession, recording, replay, rewrite, robot } from './replay-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let path = '';
beforeAll(async () => {
  path = await recordSession(dir, 'replay-1');
}, 60_000);

/** A copy of the recording as it was before `fields` were added to `topic`'s messages. */
async function recordedBefore(
  name: string,
  topic: string,
  fields: string[],
): Promise<ReturnType<typeof recording.readRecording>> {
  const old = join(dir, name);
  await rewrite(path, old, (m) =>
    m.topic.name === topic
      ? Object.fromEntries(Object.entries(m.message as object).filter(([k]) => !fields.includes(k)))
      : m.message,
  );
  return recording.readRecording(old);
}

describe('replaying a recording', () => {
  it('replays a session to exactly what was recorded, with the decisions and estimates taken from it', async () => {
    const rec = recording.readRecording(path);
    expect(rec.problems).toEqual([]);
    const r = await replay.replayRecording(rec);
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
    expect(r.groups.plays.matches && r.groups.emotions.matches && r.groups.behaviours.matches).toBe(true);
    expect(r.answerDifferences).toEqual([]);
    // Everything the runtime produced was compared: plays, emotions, behaviours, speech.
    for (const t of [
      '/parceiro/game/events',
      '/parceiro/emotions',
      '/robot_face/expression',
      '/look_at',
      '/emys/joint_trajectory',
      '/parceiro/behaviours/utterance',
      '/tts/say',
    ]) {
      expect(r.compared[t], t).toBeGreaterThan(0);
    }
    expect(r.compared['/parceiro/game/events']).toBe(
      rec.messages.filter((m) => m.topic.name === '/parceiro/game/events').length,
    );
    // The table's hello is recorded, so the replay knows its seats.
    expect(r.fed.tableEvents).toBe(rec.messages.filter((m) => m.topic.name === '/parceiro/table/events').length);
    expect(r.notes.join('\n')).not.toMatch(/no hello was recorded/);
    expect(r.fed.decisions + r.fed.forcedDecisions).toBe(10);
    expect(r.fed.estimates).toBeGreaterThan(0);
    expect(r.notes[0]).toMatch(/searched decisions and \d+ quick estimates are time-bound, so they are not recomputed/);
    expect(r.complete).toBe(true);
    expect(r.notReplayed).toEqual([]);
    expect(r.settings).toMatchObject({
      seed: 21,
      games: 1,
      robotSeat: 0,
      speech: 'publish',
      minThinkMs: 50,
      expectationBudgetMs: 20,
    });
    // Each estimate names the event it was for and the event after which it came back, in order.
    const estimates = rec.messages
      .filter((m) => m.topic.name === '/parceiro/expectation')
      .map((m) => m.message as { event_index: number; at_event: number; applied: boolean });
    expect(estimates.length).toBe(r.fed.estimates);
    for (const [i, m] of estimates.entries()) {
      expect(m.event_index).toBeGreaterThan(i === 0 ? -1 : estimates[i - 1]!.event_index);
      expect(m.at_event).toBeGreaterThanOrEqual(m.event_index);
    }
  });

  it('replays a recording made before estimates said where they took effect, and says why its emotions may differ', async () => {
    const rec = await recordedBefore('old-estimates.mcap', '/parceiro/expectation', [
      'event_index',
      'at_event',
      'applied',
    ]);
    // Read with the fields at their documented defaults, not skipped as damaged.
    expect(rec.problems).toEqual([]);
    const estimates = rec.messages.filter((m) => m.topic.name === '/parceiro/expectation');
    expect(estimates.length).toBeGreaterThan(0);
    expect(estimates.every((m) => (m.message as { event_index: number }).event_index === -1)).toBe(true);
    const r = await replay.replayRecording(rec);
    expect(r.notes.join('\n')).toMatch(
      /estimates do not say which event each was for or where it took effect .* answered in order, but the robot now reacts at once/,
    );
    // The plays do not depend on the estimates; the estimates themselves now say where they took effect.
    expect(r.groups.plays.matches).toBe(true);
    expect(r.groups.emotions.matches).toBe(false);
    expect(r.groups.emotions.firstDifference!.topic).toMatch(/^\/parceiro\/(expectation|emotions)$/);
  });

  it("runs with the hand model the recording's session ran with: none before it was recorded, a note when it was fitted on other games", () => {
    const settings = (handModel: string | undefined) => {
      const notes: string[] = [];
      const session = { id: 's', seed: '3', ...(handModel === undefined ? {} : { handModel }) };
      return {
        ...replay.replaySettings({ path: 'x.mcap', session }, notes, { spoken: undefined, estimates: 0 }),
        notes,
      };
    };
    // The live session recorded the model it used (config/node.yaml turns it on), and replayed to exactly itself above.
    const recorded = recording.readRecording(path).session!.handModel!;
    expect(JSON.parse(recorded)).toEqual({ searchWeight: 0.25, fittedOn: FITTED_MODEL.fittedOn });
    expect(settings(recorded)).toMatchObject({
      handModel: { searchWeight: 0.25 },
      notes: [expect.stringMatching(/does not give games/)],
    });
    expect(settings(undefined).handModel).toBeNull();
    expect(settings('off').handModel).toBeNull();
    const other = settings(JSON.stringify({ searchWeight: 0.5, fittedOn: 'older games' }));
    expect(other.handModel).toEqual({ searchWeight: 0.5 });
    expect(other.notes.join('\n')).toMatch(
      /hand model was fitted on other games \(older games\): the robot's hope and fear at the deals may differ/,
    );
    const broken = settings('{"searchWeight": 7}');
    expect(broken.handModel).toBeNull();
    expect(broken.notes.join('\n')).toMatch(/hand model setting is unreadable/);
  });

  it('replays a recording made before decisions said how their worlds were weighed', async () => {
    const decisions = (r: ReturnType<typeof recording.readRecording>) =>
      r.messages
        .filter((m) => m.topic.name === '/parceiro/decision')
        .map(
          (m) => m.message as { inference_trust: number; inference_candidates: number; inference_effective: number },
        );
    expect(decisions(recording.readRecording(path)).length).toBeGreaterThan(0);
    const rec = await recordedBefore('old-decisions.mcap', '/parceiro/decision', [
      'inference_trust',
      'inference_candidates',
      'inference_effective',
    ]);
    // Read with the fields at their documented defaults (worlds drawn uniformly), not skipped as damaged.
    expect(rec.problems).toEqual([]);
    expect(decisions(rec).length).toBe(decisions(recording.readRecording(path)).length);
    expect(
      decisions(rec).every(
        (m) => m.inference_trust === -1 && m.inference_candidates === 0 && m.inference_effective === -1,
      ),
    ).toBe(true);
    const r = await replay.replayRecording(rec);
    expect(r.answerDifferences).toEqual([]);
    expect(r.groups.plays.matches).toBe(true);
  });

  it('reports an altered output message as the first difference, naming topic, index, time and fields', async () => {
    const rec = recording.readRecording(path);
    const looks = rec.messages.map((m, i) => [m, i] as const).filter(([m]) => m.topic.name === '/look_at');
    const [target, at] = looks[3]!;
    const altered = join(dir, 'altered.mcap');
    await rewrite(path, altered, (m, i) =>
      i === at ? { ...(m.message as object), point: { x: 9, y: 9, z: 9 } } : m.message,
    );
    const r = await replay.replayRecording(recording.readRecording(altered));
    expect(r.matches).toBe(false);
    expect(r.firstDifference).toMatchObject({
      topic: '/look_at',
      index: 3,
      time: target.time,
      expected: { point: { x: 9, y: 9, z: 9 } },
    });
    expect(r.firstDifference!.text).toMatch(/^point: expected \{"x":9,"y":9,"z":9\}, got \{"x":/);
    expect(r.firstDifference!.context).toMatch(/^game 1, trick \d+$/);
    expect(r.groups.behaviours.firstDifference).toMatchObject({ topic: '/look_at', index: 3 });
    expect(r.groups.plays.matches && r.groups.emotions.matches).toBe(true);
  });

  it('replays a recording cut short as far as it goes, and accounts for the rest', async () => {
    const cut = join(dir, 'cut.mcap');
    const bytes = readFileSync(path);
    await rewrite(path, cut, (m) => m.message);
    truncateSync(cut, Math.floor(bytes.length * 0.5));
    const rec = recording.readRecording(cut);
    expect(rec.complete).toBe(false);
    const r = await replay.replayRecording(rec);
    expect(r.complete).toBe(false);
    expect(r.matches).toBe(true);
    expect(r.problems.at(-1)).toMatch(/^cut short after \d+ messages/);
    expect(r.notReplayed).toHaveLength(1);
    expect(r.notReplayed[0]).toMatch(
      /^the recording stops [\d.]+ s in \(game 1, (trick \d+|game over)\): the rest of the session was not recorded, so it was not replayed or compared$/,
    );
    const full = recording.readRecording(path).messages.filter((m) => m.topic.name === '/parceiro/table/events').length;
    expect(r.fed.tableEvents).toBeGreaterThan(0);
    expect(r.fed.tableEvents).toBeLessThan(full);
  });

  it('replays at the recorded speed with realtime, to the same result', async () => {
    const cut = join(dir, 'short.mcap');
    await rewrite(path, cut, (m) => m.message);
    truncateSync(cut, Math.floor(readFileSync(cut).length * 0.15));
    const rec = recording.readRecording(cut);
    const span = rec.messages.at(-1)!.time - rec.messages[0]!.time;
    const r = await replay.replayRecording(rec, { mode: 'realtime' });
    expect(r.mode).toBe('realtime');
    expect(r.matches).toBe(true);
    // It cannot be faster than the session was (a lower bound only: a busy machine is slower).
    expect(r.seconds * 1000).toBeGreaterThanOrEqual(span - 1);
  });
});

describe('the recorded answers', () => {
  const deal = dealCards(createRng(3, 0), 0);
  const view = (game: Game): SeatView => new SeatView(game, 0);

  it('answer with the recorded card and beliefs, and name a question asked at another position', async () => {
    const p = new replay.RecordedRobotPlayer();
    p.newGame(0);
    const game = new Game(deal);
    while (game.toMove !== 0) game.play(new SeatView(game, game.toMove).legalCards()[0]!, game.toMove);
    const card = view(game).legalCards()[0]!;
    const asked = p.decide(view(game));
    const m = {
      seat: 0,
      card: '',
      moves: [],
      worlds: 3,
      nodes: 10,
      time_ms: 5,
      win_probability: 0.5,
      exact_from_trick: 1,
      fallback: '',
      explanation: '',
      inference_trust: -1,
      inference_candidates: 0,
      inference_effective: -1,
      objective: '',
      points_from: '',
      move_victories: [],
      reason_kind: '',
      reason_other: '',
      reason_support: -1,
      reason_points: -1,
      reason_suit: '',
      reason_kept: '',
    };
    const beliefs = replay.decisionOf({ ...m, card: robot.decisionMessage(0, { card }).card });
    p.release({ seat: 0, game: 0, trick: 4, decision: beliefs, forced: false, time: 0 });
    expect(await asked).toEqual(beliefs);
    expect(p.differences).toEqual([
      'the runtime asked for a decision at game 1, trick 1, seat 0, the recording has the next one at game 1, trick 5, seat 0',
    ]);
    // Asked for one the recording does not have: the first legal card, reported.
    const again = p.decide(view(game));
    p.finish();
    expect((await again).card).toBe(card);
    expect(p.differences[1]).toMatch(/the recording has no decision for it; it played/);
    expect(parseCard(robot.decisionMessage(0, beliefs).card)).toBe(card);
  });

  it('answer an estimate with the recorded one, and name one asked for another event', async () => {
    const e = new replay.RecordedEstimator();
    const info = null as unknown as InfoSet; // not read: the answer is the recorded one
    const first = e.estimate(info, 3);
    e.release({
      status: 'ok',
      expected_points: 70,
      win_probability: 0.7,
      detail: '',
      event_index: 3,
      at_event: 5,
      applied: true,
      choice: 0.25,
      points_se: 1.5,
      win_se: 0.03,
    });
    // The estimate's noise comes back too: the appraisal's noise band reads it.
    expect(await first).toEqual({ expectedPoints: 70, winProbability: 0.7, choice: 0.25, pointsSe: 1.5, winSe: 0.03 });
    const second = e.estimate(info, 8);
    e.release({
      status: 'none',
      expected_points: -1,
      win_probability: -1,
      detail: '',
      event_index: 9,
      at_event: 9,
      applied: false,
      choice: -1,
      points_se: -1,
      win_se: -1,
    });
    expect(await second).toBeUndefined();
    expect(e.differences).toEqual([
      'the reactions asked for an estimate after event 8, the recording has the next one for event 9',
    ]);
    const third = e.estimate(info, 12);
    e.finish();
    await expect(third).rejects.toThrow(/the recording has no estimate/);
    expect(e.differences[1]).toBe('the reactions asked for an estimate after event 12 the recording does not have');
  });

  it('turn a recorded decision message back into the same message', () => {
    const m = {
      seat: 0,
      card: 'AS',
      moves: [
        { card: 'AS', mean: 70.5, sd: 3, win_probability: 0.8 },
        { card: '2S', mean: 40, sd: 1, win_probability: -1 },
      ],
      worlds: 80,
      nodes: 1234,
      time_ms: 812.5,
      win_probability: -1,
      exact_from_trick: 3,
      fallback: 'rule',
      explanation: '',
      inference_trust: -1,
      inference_candidates: 0,
      inference_effective: -1,
      objective: '',
      points_from: '',
      move_victories: [],
      reason_kind: '',
      reason_other: '',
      reason_support: -1,
      reason_points: -1,
      reason_suit: '',
      reason_kept: '',
    };
    expect(robot.decisionMessage(0, replay.decisionOf(m))).toEqual(m);
    // A decision valued by victory classes says so, and keeps each card's expected victories.
    const classes = { ...m, objective: 'victories', points_from: 'bounds', move_victories: [0.75, -0.5] };
    expect(robot.decisionMessage(0, replay.decisionOf(classes))).toEqual(classes);
    expect(replay.decisionOf(classes).beliefs).toMatchObject({
      objective: 'victories',
      points: 'bounds',
      moves: [{ victories: 0.75 }, { victories: -0.5 }],
    });
    const weighed = {
      ...m,
      fallback: '',
      inference_trust: 0.5,
      inference_candidates: 2048,
      inference_effective: 851.6,
    };
    expect(replay.decisionOf(weighed).beliefs?.inference).toEqual({ trust: 0.5, candidates: 2048, effective: 851.6 });
    expect(robot.decisionMessage(0, replay.decisionOf(weighed))).toEqual(weighed);
    // A decision that says why its card: the reason comes back whole, and goes out as it came in.
    const why = {
      ...m,
      fallback: '',
      reason_kind: 'keeps-master-trump',
      reason_other: '2S',
      reason_support: 1,
      reason_points: -1,
      reason_suit: 'H',
      reason_kept: '2S',
    };
    expect(replay.decisionOf(why).beliefs?.reason).toEqual({
      kind: 'keeps-master-trump',
      card: parseCard('AS'),
      other: parseCard('2S'),
      support: 1,
      suit: 1,
      kept: parseCard('2S'),
    });
    expect(robot.decisionMessage(0, replay.decisionOf(why))).toEqual(why);
    const none = {
      ...m,
      moves: [],
      worlds: 0,
      nodes: 0,
      time_ms: 0,
      exact_from_trick: -1,
      fallback: '',
      explanation: 'the player reports no beliefs',
    };
    expect(robot.decisionMessage(0, replay.decisionOf(none))).toEqual(none);
  });
});

// The robot's social behaviour through the whole node (table server, session, reactions, appraisal,
// planner, bus), not through the appraiser alone: what the people at the table would meet. A scripted
// estimator makes the appraisal's news exact where a scenario needs it; nothing here measures time.

import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../appraisal/index.js';
import type { Card, InfoSet } from '../../game/index.js';
import { RulePlayer, parseCard, pointsOf, winningIndex } from '../../game/index.js';
import type * as Robot from '../../robot/index.js';
import type {
  BusEntry,
  EmotionalStateMessage,
  ExpectationMessage,
  GameEventMessage,
  UtteranceMessage,
} from '../../robot/bus/index.js';
import type { ExpectationSource, PlayToJudge } from '../../robot/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const { onlyLegal } = (await import(
  new URL('../../dist/robot/live/node/expectation-worker.js', import.meta.url).href
)) as typeof import('../../robot/live/node/expectation-worker.js');

type Answer = (
  event: number,
  play: PlayToJudge | undefined,
  info?: InfoSet,
) => (Expectation & { choice?: number }) | undefined;

/** Answers at once, as the scenario says. */
class ScriptedEstimator implements ExpectationSource {
  constructor(private readonly answer: Answer) {}
  estimate(info: InfoSet, event: number, play?: PlayToJudge): Promise<(Expectation & { choice?: number }) | undefined> {
    return Promise.resolve(this.answer(event, play, info));
  }
}

/**
 * The sessions are independent (each its own node, port and table) and mostly wait for the robot's
 * last lines: every describe runs concurrently, its sessions beside the others'. Only a backstop.
 */
const SESSION_MS = 300_000;

const EVEN: Expectation = { expectedPoints: 60, winProbability: 0.5 };

interface Run {
  seen: BusEntry[];
  on: <T>(topic: string) => { at: number; m: T }[];
}

async function session(o: {
  seed: number;
  games: number;
  character: string;
  estimator?: ExpectationSource;
  physical?: { tableSeed: number; renounce: boolean };
  thinkMs?: number;
}): Promise<Run & { renouncer: number | null }> {
  const node = await robot.ParceiroNode.start({
    seed: o.seed,
    table: { host: '127.0.0.1', port: 0, token: 'social' },
    games: o.games,
    sessionId: `social-${o.seed}`,
    character: o.character,
    sources: {
      player: robot.syncRobotPlayer((p) => new RulePlayer(p), { seat: 0, seed: o.seed }),
      estimator: o.estimator ?? new ScriptedEstimator(() => EVEN),
    },
    expectationBudgetMs: 20,
    minThinkMs: 0,
    speech: 'publish',
    recordingsDir: null,
    dashboard: null,
    logger: robot.createLogger({ level: 'silent', pretty: false }),
  });
  const seen: BusEntry[] = [];
  node.bus.tap((e) => seen.push(e));
  const table = new SimulatedTable({
    url: node.url,
    token: 'social',
    seed: o.physical?.tableSeed ?? 5,
    physicalDeal: o.physical !== undefined,
    betweenGamesMs: 0,
    thinkMs: o.thinkMs ?? 0,
  });
  const renounce = o.physical?.renounce ? table.inject('renounce') : null;
  let renouncer: number | null = null;
  try {
    await table.start();
    if (renounce) renouncer = (await renounce).seat;
    await node.finished();
    await node.quiet();
  } finally {
    table.close();
    await node.close();
  }
  const on = <T>(topic: string) =>
    seen.map((e, at) => ({ at, m: e.message as T })).filter((x) => seen[x.at]!.topic.name === topic);
  return { seen, on, renouncer };
}

/** The emotions the robot published right after bus position `at` (after an estimate: its reappraisal). */
const emotionsAfter = (r: Run, at: number): EmotionalStateMessage =>
  r.on<EmotionalStateMessage>('/parceiro/emotions').find((x) => x.at > at)!.m;

const REACTED = new Set(['deal', 'play', 'trick', 'end']);
/**
 * The emotions of the reaction to the game event at bus position `at`: the reactions publish one
 * emotions message per event, in order, then the session end's (and a reappraisal's right after its
 * estimate); counted from the end, since the session start's may come before the test listens.
 * (Reactions run a little behind the events: a trick and the game's end are both published before
 * either is reacted to, so the next emotions message is not always the event's.)
 */
const toward = (m: EmotionalStateMessage, type: string, seat: number): number =>
  m.emotions.find((e) => e.type === type && e.target === seat)?.intensity ?? 0;

function reactionTo(r: Run, at: number): EmotionalStateMessage {
  const later = r
    .on<GameEventMessage>('/parceiro/game/events')
    .filter((x) => x.at > at && REACTED.has(x.m.type)).length;
  const reappraisal = (k: number): boolean =>
    r.seen[k - 1]?.topic.name === '/parceiro/expectation' && (r.seen[k - 1]!.message as ExpectationMessage).applied;
  const reactions = r.on<EmotionalStateMessage>('/parceiro/emotions').filter((x) => !reappraisal(x.at));
  return reactions[reactions.length - 2 - later]!.m;
}

describe.concurrent('blame only for a choice (competitive robot)', { timeout: SESSION_MS }, () => {
  // The partner's first ace or seven given away (under another seat's winning card: one that takes
  // the lead is good news for its side, whatever the estimate) is bad news (a drop of 30 expected
  // points); only `choice` differs.
  const givenAway = (info: InfoSet, card: Card): boolean => {
    const trick = info.table.length > 0 ? info.table : info.plays.slice(-4);
    const at = trick.indexOf(card);
    return at >= 0 && winningIndex(trick, info.trump) !== at;
  };
  const run = (choice: number) => {
    let judged: number | null = null;
    const estimator = new ScriptedEstimator((event, play, info) => {
      if (play?.seat === 2 && pointsOf(play.card) >= 10 && judged === null && info && givenAway(info, play.card)) {
        judged = event;
        return { expectedPoints: 30, winProbability: 0.2, choice };
      }
      return judged === null ? EVEN : { expectedPoints: 30, winProbability: 0.2 };
    });
    return { estimator, judged: () => judged };
  };
  const reproachAtThePartnersCard = async (choice: number): Promise<number> => {
    const { estimator, judged } = run(choice);
    const r = await session({ seed: 9, games: 1, character: 'competitive', estimator });
    expect(judged()).not.toBeNull();
    const taken = r.on<ExpectationMessage>('/parceiro/expectation').find((x) => x.m.event_index === judged())!;
    expect(taken.m).toMatchObject({ applied: true, choice: expect.closeTo(choice, 5) });
    const m = emotionsAfter(r, taken.at);
    return Math.max(toward(m, 'reproach', 2), toward(m, 'anger', 2));
  };

  it('reproaches the partner for an ace or seven it chose to give away', async () => {
    expect(await reproachAtThePartnersCard(1)).toBeGreaterThan(3);
  });

  it('does not reproach the partner for its only legal card', async () => {
    expect(await reproachAtThePartnersCard(0)).toBe(0);
  });
});

describe.concurrent('a renounce is appraised toward the renouncer', { timeout: SESSION_MS }, () => {
  for (const character of ['competitive', 'warm'] as const) {
    it(`${character}: reproach or gloating at the one who renounced, no shame of its own`, async () => {
      const r = await session({ seed: 33, games: 1, character, physical: { tableSeed: 31, renounce: true } });
      expect(r.renouncer).not.toBeNull();
      const seat = r.renouncer!;
      const end = r.on<GameEventMessage>('/parceiro/game/events').find((x) => x.m.type === 'end')!;
      const m = reactionTo(r, end.at);
      const partner = seat === 2;
      if (character === 'competitive') expect(toward(m, 'reproach', seat)).toBeGreaterThan(3);
      else expect(toward(m, partner ? 'pity' : 'gloating', seat)).toBeGreaterThan(1);
      // The robot does not blame itself for a game its partner lost by a renounce.
      for (const type of ['shame', 'remorse'])
        expect(
          m.emotions.filter((e) => e.type === type && (e.target === 0 || e.target_team !== '')).map((e) => e.intensity),
        ).toEqual([]);
    });
  }
});

describe.concurrent('the face and the mood follow the score', { timeout: SESSION_MS }, () => {
  it('after each lost game the robot shows no happy face until the next game starts, and its mood drops at the loss', async () => {
    const r = await session({
      seed: 1,
      games: 3,
      character: 'warm',
      estimator: new ScriptedEstimator(() => undefined),
    });
    const events = r.on<GameEventMessage>('/parceiro/game/events');
    const ends = events.filter((x) => x.m.type === 'end');
    expect(ends).toHaveLength(3);
    const lost = ends.filter((x) => x.m.winner_team === 'b');
    expect(lost.length).toBeGreaterThan(0);
    for (const end of lost) {
      const next = events.find((x) => x.at > end.at && x.m.type === 'play')?.at ?? r.seen.length;
      const faces = r.on<{ expression: string }>('/robot_face/expression').filter((x) => x.at > end.at && x.at < next);
      expect(faces.map((x) => x.m.expression)).not.toContain('happy');
      const before = reactionTo(r, end.at - 1).mood;
      expect(reactionTo(r, end.at).mood).toBeLessThan(before);
    }
  });
});

describe.concurrent('what the robot says about the others, and to whom', { timeout: SESSION_MS }, () => {
  it("speaks of the others' cards and tricks, and says each line about a seat to that seat or to everyone", async () => {
    // Every card of the partner's is good news, every opponent's bad news, by turns from an even game.
    let points = 60;
    const estimator = new ScriptedEstimator((_event, play) => {
      if (play?.seat === 2) points = Math.min(110, points + 12);
      else if (play && play.seat !== 0) points = Math.max(10, points - 6);
      return { expectedPoints: points, winProbability: points / 120, choice: 1 };
    });
    // The players take 700 ms a card, so the robot has time to speak before the next is down.
    const r = await session({ seed: 12, games: 1, character: 'warm', estimator, thinkMs: 700 });
    // The lines it planned (phase queued): which of them get said before the game moves past them
    // depends on the machine's speed (a loaded one said none about the others once), what it chose
    // to say does not.
    const planned = r
      .on<UtteranceMessage>('/parceiro/behaviours/utterance')
      .filter((x) => x.m.phase === 'queued')
      .map((x) => x.m);
    const aboutOthers = planned.filter((u) => (u.event === 'play' || u.event === 'trick') && u.about_seat > 0);
    expect(aboutOthers.length).toBeGreaterThan(0);
    for (const u of planned) {
      if ((u.event !== 'play' && u.event !== 'trick') || u.about_seat < 0 || u.about_seat === 0) continue;
      expect([u.about_seat, -1], `${u.category} "${u.text}" about seat ${u.about_seat}`).toContain(u.addressee);
    }
    // The robot does not only name its own cards.
    const own = planned.filter((u) => u.category.startsWith('playing.') || u.category === 'play.self').length;
    expect(own / planned.length).toBeLessThan(0.4);
  });
});

describe("the estimate's judgement of a choice", () => {
  const cards = (s: string) => s.split(' ').filter(Boolean).map(parseCard);
  it('a card of the suit led is forced when no other card of that suit is left, any other card only when it was the last', () => {
    expect(onlyLegal({ card: parseCard('AH'), led: 1 }, cards('2S 3D'))).toBe(true);
    expect(onlyLegal({ card: parseCard('AH'), led: 1 }, cards('2H 3D'))).toBe(false);
    // Not following: the player had none of the suit led, so any card was legal.
    expect(onlyLegal({ card: parseCard('AS'), led: 1 }, cards('2S'))).toBe(false);
    expect(onlyLegal({ card: parseCard('AS'), led: 1 }, [])).toBe(true);
    // A lead: forced only as the last card.
    expect(onlyLegal({ card: parseCard('AS'), led: null }, cards('2D'))).toBe(false);
    expect(onlyLegal({ card: parseCard('AS'), led: null }, [])).toBe(true);
  });
});

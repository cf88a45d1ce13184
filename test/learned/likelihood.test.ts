// Worlds weighed by a policy network (game/learned/likelihood.ts): the weight of a world is the product,
// over the other seats' plays, of the network's probability of the card (from that seat's information
// set in the world) mixed with a uniformly random legal card; the player spec `timed:model=FILE.onnx`
// weighs its worlds so, in this thread and in a tournament's workers, and a bad file is one line.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Card, Seat } from '../../game/index.js';
import {
  DECISION_FEATURES,
  Game,
  LearnedPlayLikelihood,
  MlpPolicyNet,
  PlayerSpecError,
  RulePlayer,
  SeatView,
  createDealSampler,
  createRng,
  dealCards,
  encodeInfoSet,
  infoSetOf,
  playerFactory,
  registerPolicyNet,
} from '../../game/index.js';
import { installModelLoader } from '../../robot/learned/index.js';
import { runCli } from '../launch/run-cli.js';

const MODEL = join(import.meta.dirname, '../../models/policy-timed-100ms-seed2311.onnx');
const net = MlpPolicyNet.fromOnnx(MODEL, readFileSync(MODEL));

/** A game advanced by rule players for `plays` cards. */
function ruleGame(seed: number, plays: number): Game {
  const game = new Game(dealCards(createRng(seed), (seed & 3) as Seat));
  const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed * 4 + s }));
  while (game.plays < plays && !game.isOver) game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
  return game;
}

describe('worlds weighed by a policy network', () => {
  it("weighs a world by the product of the network's mixed probabilities of the other seats' plays, replayed in that world", () => {
    const x = new Float32Array(DECISION_FEATURES);
    const p = new Float32Array(40);
    let checked = 0;
    for (let i = 0; i < 12; i++) {
      const game = ruleGame(500 + i, 3 + 3 * i);
      const seat = game.toMove;
      const info = new SeatView(game, seat).snapshot();
      for (const trust of [0.5, 1]) {
        const likelihood = new LearnedPlayLikelihood(info, trust, net);
        const sampler = createDealSampler(info);
        const rng = createRng(i);
        for (let k = 0; k < 4; k++) {
          const hands = sampler.sample(rng, [[], [], [], []]);
          // The reference: replay the world's game from its deal and encode each decision whole.
          const playedBy: Card[][] = [[], [], [], []];
          const open = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
          for (const c of info.plays) {
            playedBy[open.toMove]!.push(c);
            open.play(c);
          }
          const replay = new Game({
            dealer: info.dealer,
            trumpCard: info.trumpCard,
            hands: hands.map((h, s) => [...h, ...playedBy[s]!]),
          });
          let product = 1;
          for (const c of info.plays) {
            const s = replay.toMove;
            if (s !== seat) {
              const legal = new SeatView(replay, s).legalCards().length;
              encodeInfoSet(infoSetOf(replay, s, replay.hand(s)), x);
              net.forward(x, 1, p);
              product *= legal === 1 ? 1 : trust * p[c]! + (1 - trust) / legal;
            }
            replay.play(c);
          }
          expect(likelihood.weight(hands)).toBeCloseTo(product, 10);
          checked++;
        }
      }
      // Its count: the plays of the other seats (the seat's own plays say nothing of the world).
      const own = new Game({ dealer: info.dealer, trumpCard: info.trumpCard, hands: null });
      let others = 0;
      for (const c of info.plays) {
        if (own.toMove !== seat) others++;
        own.play(c);
      }
      expect(new LearnedPlayLikelihood(info, 0.5, net).count).toBe(others);
    }
    expect(checked).toBe(12 * 2 * 4);
  });

  it('is what `timed:model=FILE.onnx` weighs its worlds by; with infer=0, or a model that cannot be read, the spec is refused in words', () => {
    installModelLoader();
    // The network under a name, counting its forward passes.
    let passes = 0;
    registerPolicyNet('counting.onnx', {
      name: 'counting',
      forward: (x, batch, out) => void ((passes += batch), net.forward(x, batch, out)),
    });
    const game = ruleGame(42, 14);
    const seat = game.toMove;
    const decide = (spec: string) => {
      let clock = 0;
      return playerFactory(spec)({ seat, seed: 3, clock: () => (clock += 1) }).decide!(new SeatView(game, seat));
    };
    const d = decide('timed:budget=100000:n=40:infer=50:model=counting.onnx');
    expect(d.beliefs?.inference?.trust).toBe(0.5);
    expect(d.beliefs?.inference?.candidates).toBeGreaterThan(0);
    expect(passes).toBeGreaterThan(d.beliefs!.inference!.candidates);
    // Without model= the rule odds weigh the worlds: no pass of the network.
    passes = 0;
    decide('timed:budget=100000:n=40:infer=50');
    expect(passes).toBe(0);
    expect(() => playerFactory(`timed:infer=0:model=${MODEL}`)).toThrow(/infer=0 weighs none/);
    expect(() => playerFactory('timed:infer=50:model=/nowhere/people.onnx')).toThrow(PlayerSpecError);
    expect(() => playerFactory('timed:infer=50:model=/nowhere/people.onnx')).toThrow(/people\.onnx: no such file/);
  });

  it("plays whole games in a tournament's worker threads; a missing model is one line and exit code 2", async () => {
    const ok = await runCli(
      [
        'tournament',
        '--team-a',
        `timed:model=${MODEL},rule`,
        '--team-b',
        'rule,rule',
        '--games',
        '2',
        '--budget',
        '30',
        '--workers',
        '2',
        '--json',
        '--no-progress',
      ],
      process.cwd(),
    );
    expect(ok.code, ok.err).toBe(0);
    expect((JSON.parse(ok.out) as { games: number }).games).toBe(2);
    const bad = await runCli(
      ['tournament', '--team-a', 'timed:model=/nowhere/people.onnx,rule', '--games', '2', '--no-progress'],
      process.cwd(),
    );
    expect(bad.code).toBe(2);
    expect(bad.err.trimEnd().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/people\.onnx: no such file/);
  });
});

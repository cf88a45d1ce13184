// A learned model of how people play, end to end: recordings whose people's seats (a virtual table) are
// scripted players who deviate from the rule player in a known way (they always play their highest
// card) -> `parceiro dataset` (people's seats only) -> `parceiro train` (small, seeded) -> the learned
// model predicts those seats, from the robot's view, better than the rule model: top-1 and
// log-likelihood, scored by the predictors' own scorer (game/predict/evaluate.ts); and the robot's
// worlds weighed by the learned model hold the people's true cards more often than worlds weighed by
// the rule odds.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Card, ObservedGame } from '../../game/index.js';
import {
  Game,
  LearnedPlayLikelihood,
  MlpPolicyNet,
  PlayLikelihood,
  PredictionScorer,
  SeatView,
  WeightedWorlds,
  createDealSampler,
  createPredictor,
  createRng,
} from '../../game/index.js';
import { runCli } from '../launch/run-cli.js';
import { PEOPLE, recordScripted, scriptedGame } from './scripted.js';
import { requireTorch } from './torch.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-human-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a human-play model from recordings', () => {
  requireTorch();

  it('train refuses a dataset cut short or not a dataset in one line, exit code 2', async () => {
    const data = join(dir, 'three.bin');
    expect((await runCli(['dataset', '--games', '3', '--seed', '1', '--out', data], dir)).code).toBe(0);
    const whole = readFileSync(data);
    const cases: [string, Buffer][] = [
      ['cut.bin', whole.subarray(0, whole.length - 3)],
      ['array.bin', Buffer.from('[1,2]\n')],
    ];
    for (const [name, bytes] of cases) {
      writeFileSync(join(dir, name), bytes);
      const r = await runCli(['train', '--data', join(dir, name), '--out', join(dir, `${name}.onnx`)], dir);
      expect(r.code, `${name}: ${r.err}`).toBe(2);
      expect(r.err.trimEnd().split('\n'), name).toHaveLength(1);
      expect(r.err).toMatch(new RegExp(`^train_policy: error: .*${name}: `));
    }
  });

  it("recovers the people's known deviation better than the rule model", async () => {
    const train = join(dir, 'train.mcap');
    await recordScripted(train, 23, 0, 121, 17); // 120 whole games and one cut short
    const data = join(dir, 'people.bin');
    const exported = await runCli(['dataset', '--recording', train, '--out', data, '--json'], dir);
    expect(exported.code, exported.err).toBe(0);
    const report = JSON.parse(exported.out) as {
      rows: number;
      games: number;
      who: Record<string, number>;
      notes: string[];
    };
    // Only the people's seats (the virtual table's), ten cards each in every whole game.
    expect(report.who).toEqual({ person: 120 * PEOPLE.length * 10 });
    expect(report.notes.join(' ')).toMatch(/1 recorded game\(s\) were not whole/);

    const model = join(dir, 'people.onnx');
    const trained = await runCli(
      ['train', '--data', data, '--out', model, '--seed', '7', '--hidden', '32', '--epochs', '12', '--batch', '64'],
      dir,
    );
    expect(trained.code, trained.err).toBe(0);
    const sidecar = JSON.parse(readFileSync(join(dir, 'people.json'), 'utf8')) as {
      seed: number;
      featuresVersion: number;
      heldOut: { top1: number };
    };
    expect(sidecar.seed).toBe(7);
    expect(sidecar.featuresVersion).toBe(1);

    // New games of the same people, seen from the robot's seat (0).
    const net = MlpPolicyNet.fromOnnx(model, readFileSync(model));
    const scorer = new PredictionScorer([
      createPredictor({ kind: 'rule', seed: 5 }),
      createPredictor({ kind: 'learned', seed: 5, net, worlds: 32 }),
    ]);
    for (let g = 500; g < 512; g++) {
      const { dealer, trumpCard, hands, plays } = scriptedGame(23, g);
      const who = [0, 1, 2, 3].map((s): string =>
        s === 0 ? 'robot' : PEOPLE.includes(s as 1 | 3) ? 'person' : 'bot',
      ) as unknown as ObservedGame['who'];
      scorer.add({ dealer, trumpCard, observer: 0, observerHand: hands[0]!, plays, who });
    }
    const person = scorer.summary().find((w) => w.who === 'person')!;
    const [rule, learned] = person.models;
    expect(person.decisions).toBeGreaterThan(150);
    expect(learned!.top1).toBeGreaterThan(rule!.top1);
    expect(learned!.meanLogLikelihood).toBeGreaterThan(rule!.meanLogLikelihood);
    // Card by card, the learned model's gain over the rule model is above 0 with 95% confidence.
    expect(learned!.gainCi95[0]).toBeGreaterThan(0);

    // The robot's worlds weighed by the people's model (timed:model=FILE.onnx, the node's
    // player.inferenceModelFile) hold the people's true cards more often than worlds weighed by the rule odds.
    const hits = { rule: 0, learned: 0 };
    for (let g = 500; g < 512; g++) {
      const { dealer, trumpCard, hands, plays } = scriptedGame(23, g);
      for (const n of [9, 17, 25]) {
        const game = new Game({ dealer, trumpCard, hands });
        for (const c of plays.slice(0, n)) game.play(c);
        const info = new SeatView(game, 0).snapshot();
        const truth = PEOPLE.map((s) => new Set(game.hand(s)));
        for (const [name, likelihood] of [
          ['rule', new PlayLikelihood(info, 0.5)],
          ['learned', new LearnedPlayLikelihood(info, 0.5, net)],
        ] as const) {
          const worlds = new WeightedWorlds(createDealSampler(info), likelihood, createRng(g * 100 + n), 512);
          const rng = createRng(g * 7 + n);
          const w: Card[][] = [[], [], [], []];
          for (let k = 0; k < 100; k++) {
            worlds.next(rng, w);
            PEOPLE.forEach((s, i) => (hits[name] += w[s]!.filter((c) => truth[i]!.has(c)).length));
          }
        }
      }
    }
    expect(hits.learned, JSON.stringify(hits)).toBeGreaterThan(hits.rule * 1.05);
  }, 300_000);
});

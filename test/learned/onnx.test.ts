// The shipped policy network (models/): it loads in onnxruntime-node, and onnxruntime, the TypeScript
// forward pass of game/learned/mlp.ts and torch's own outputs (kept in the sidecar by train_policy.py)
// agree, for one decision and for a batch of worlds. The imitation player made from it plays only legal
// cards in whole games, in this thread and in a tournament's worker threads, and through onnxruntime-node
// in a tournament (runtime=onnx), choosing the very cards the TypeScript pass chooses.

import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Card, Player, Seat } from '../../game/index.js';
import {
  DECISION_FEATURES,
  Game,
  MlpPolicyNet,
  ModelFormatError,
  RulePlayer,
  SeatView,
  WorldBuilder,
  createDealSampler,
  createPredictor,
  createRng,
  dealCards,
  encodeInfoSet,
  playerFactory,
} from '../../game/index.js';
import { ModelFileError, installModelLoader } from '../../robot/learned/index.js';
import { OnnxPolicy } from '../../robot/learned/onnx.js';
import { runCli } from '../launch/run-cli.js';

const MODEL = join(import.meta.dirname, '../../models/policy-timed-100ms-seed2311.onnx');
const SIDECAR = MODEL.replace(/\.onnx$/, '.json');
const dir = mkdtempSync(join(tmpdir(), 'parceiro-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Sidecar {
  featuresVersion: number;
  featureCount: number;
  layers: number[];
  seed: number;
  reference: { features: [number, number][]; probs: number[] }[];
}

const sidecar = JSON.parse(readFileSync(SIDECAR, 'utf8')) as Sidecar;

/** `n` encoded decisions of seeded rule games, and a batch: one decision in 64 worlds of its seat's view. */
function decisions(n: number): { singles: Float32Array; batch: Float32Array } {
  const singles = new Float32Array(n * DECISION_FEATURES);
  const batch = new Float32Array(64 * DECISION_FEATURES);
  let k = 0;
  for (let g = 0; k < n; g++) {
    const game = new Game(dealCards(createRng(41, g), (g & 3) as Seat));
    const players = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }));
    while (!game.isOver && k < n) {
      const view = new SeatView(game, game.toMove);
      encodeInfoSet(view.snapshot(), singles, k * DECISION_FEATURES);
      if (k === 5) {
        // The robot's question of a search: its opponent's decision in worlds of its own view.
        const info = view.snapshot();
        const sampler = createDealSampler(info);
        const builder = new WorldBuilder(info);
        const rng = createRng(9);
        for (let w = 0; w < 64; w++)
          encodeInfoSet(
            new SeatView(builder.game(sampler.sample(rng)), game.toMove).snapshot(),
            batch,
            w * DECISION_FEATURES,
          );
      }
      k++;
      game.play(players[game.toMove]!.choose(view));
    }
  }
  return { singles, batch };
}

describe('the shipped policy network', () => {
  it('is of this encoding, and runs in onnxruntime-node as torch ran it', async () => {
    expect(sidecar.featuresVersion).toBe(1);
    expect(sidecar.layers[0]).toBe(DECISION_FEATURES);
    const ort = await OnnxPolicy.load(MODEL);
    const net = MlpPolicyNet.fromOnnx(MODEL, readFileSync(MODEL));
    const n = sidecar.reference.length;
    expect(n).toBeGreaterThan(0);
    const x = new Float32Array(n * DECISION_FEATURES);
    sidecar.reference.forEach((r, k) => {
      for (const [i, v] of r.features) x[k * DECISION_FEATURES + i] = v;
    });
    const fromOrt = await ort.forward(x, n);
    const fromTs = new Float32Array(n * 40);
    net.forward(x, n, fromTs);
    sidecar.reference.forEach((r, k) =>
      r.probs.forEach((p, c) => {
        expect(Math.abs(fromOrt[k * 40 + c]! - p)).toBeLessThan(1e-5);
        expect(Math.abs(fromTs[k * 40 + c]! - p)).toBeLessThan(1e-5);
      }),
    );
    await ort.close();
  });

  it('gives the same probabilities in onnxruntime and in TypeScript, batch 1 and a batch of 64 worlds; 0 for illegal cards', async () => {
    const ort = await OnnxPolicy.load(MODEL);
    const net = MlpPolicyNet.fromOnnx(MODEL, readFileSync(MODEL));
    const { singles, batch } = decisions(40);
    for (const [x, n] of [
      [singles, 40],
      [batch, 64],
    ] as const) {
      const a = await ort.forward(x, n);
      const b = new Float32Array(n * 40);
      net.forward(x, n, b);
      for (let k = 0; k < n; k++) {
        let sum = 0;
        for (let c = 0; c < 40; c++) {
          expect(Math.abs(a[k * 40 + c]! - b[k * 40 + c]!)).toBeLessThan(1e-5);
          if (!x[k * DECISION_FEATURES + 40 + c]) expect(b[k * 40 + c]).toBe(0);
          sum += b[k * 40 + c]!;
        }
        expect(sum).toBeCloseTo(1, 5);
      }
      // One at a time gives what the batch gave.
      const one = await ort.forward(x.slice(0, DECISION_FEATURES), 1);
      for (let c = 0; c < 40; c++) expect(Math.abs(one[c]! - a[c]!)).toBeLessThan(1e-6);
    }
    await ort.close();
  });

  it('refuses what is not a policy model, naming the file', async () => {
    const junk = join(dir, 'junk.onnx');
    writeFileSync(junk, 'not a model at all');
    expect(() => MlpPolicyNet.fromOnnx(junk, readFileSync(junk))).toThrow(ModelFormatError);
    await expect(OnnxPolicy.load(junk)).rejects.toThrow(ModelFileError);
    await expect(OnnxPolicy.load(join(dir, 'none.onnx'))).rejects.toThrow(/none.onnx: no such file/);
  });
});

describe('the imitation player', () => {
  it('plays only legal cards, whole games to the end', () => {
    installModelLoader();
    const imitation = playerFactory(`imitation:model=${MODEL}`);
    for (let g = 0; g < 12; g++) {
      const game = new Game(dealCards(createRng(12, g), (g & 3) as Seat));
      const players: Player[] = [0, 1, 2, 3].map((s) =>
        s % 2 === g % 2 ? imitation({ seat: s as Seat, seed: s }) : new RulePlayer({ seat: s as Seat, seed: s }),
      );
      while (!game.isOver) {
        const view = new SeatView(game, game.toMove);
        const card: Card = players[game.toMove]!.choose(view);
        expect(game.legalCards()).toContain(card);
        game.play(card);
      }
      expect(game.status).toBe('complete');
    }
  });

  it.each(['policy', 'prior'])(
    'inside the timed search (%s=FILE: the rollouts, the root), plays legal cards only, the same from the same seed',
    (use) => {
      installModelLoader();
      // A world cap far below the budget: the search stops on worlds, not on the clock, so it repeats.
      const timed = playerFactory(`timed:n=4:budget=600000:${use}=${MODEL}${use === 'prior' ? ':bias=50' : ''}`);
      const play = (): Card[] => {
        const game = new Game(dealCards(createRng(13, 0), 1));
        const players: Player[] = [0, 1, 2, 3].map((s) =>
          s % 2 ? new RulePlayer({ seat: s as Seat, seed: s }) : timed({ seat: s as Seat, seed: s, clock: () => 0 }),
        );
        const cards: Card[] = [];
        while (!game.isOver) {
          const card = players[game.toMove]!.choose(new SeatView(game, game.toMove));
          expect(game.legalCards()).toContain(card);
          cards.push(card);
          game.play(card);
        }
        expect(game.status).toBe('complete');
        return cards;
      };
      expect(play()).toEqual(play());
      expect(() => playerFactory(`timed:${use}=`)).toThrow(new RegExp(`${use}=FILE.onnx`));
      expect(() => playerFactory('timed:bias=20')).toThrow(/name it with prior=FILE.onnx/);
    },
  );

  it('plays in a tournament, its worker threads reading the model themselves', async () => {
    const r = await runCli(
      [
        'tournament',
        '--team-a',
        `imitation:model=${MODEL},rule`,
        '--team-b',
        'rule,random',
        '--games',
        '4',
        '--workers',
        '2',
        '--json',
      ],
      dir,
    );
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as {
      games: number;
      teamA: { players: string[]; renounces: number };
      faults?: unknown;
    };
    expect(report.games).toBe(4);
    expect(report.teamA.players[0]).toMatch(/^imitation:model=/);
    expect(report.teamA.renounces).toBe(0);
  });

  it('plays in a tournament through onnxruntime-node (runtime=onnx) the very cards the TypeScript pass plays', async () => {
    const onnx = `imitation:model=${MODEL}:runtime=onnx`;
    const ts = `imitation:model=${MODEL}`;
    const records = join(dir, 'onnx-vs-ts.jsonl');
    const r = await runCli(
      [
        'tournament',
        '--team-a',
        `${onnx},${onnx}`,
        '--team-b',
        `${ts},${ts}`,
        '--games',
        '8',
        '--workers',
        '2',
        '--records',
        records,
        '--json',
        '--no-progress',
      ],
      dir,
    );
    expect(r.code, r.err).toBe(0);
    const games = readFileSync(records, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; board: number; pass: number; seats: string[]; plays: string[] })
      .filter((g) => g.type === 'game');
    expect(games).toHaveLength(8);
    expect(games.some((g) => g.seats.includes(onnx))).toBe(true);
    // Each deal is played twice with the teams' seats swapped: the same cards both times, so the two runtimes chose alike.
    for (let b = 0; b < 4; b++) {
      const [first, second] = [0, 1].map((pass) => games.find((g) => g.board === b && g.pass === pass)!);
      expect(second!.plays).toEqual(first!.plays);
    }
    // Elsewhere it cannot answer at once: said in words.
    expect(() => playerFactory(onnx)).toThrow(
      /runtime=onnx runs the network in onnxruntime-node.*only parceiro tournament/,
    );
    // A missing file is one line, exit code 2.
    const bad = await runCli(
      ['tournament', '--team-a', 'imitation:model=/nowhere/m.onnx:runtime=onnx,rule', '--games', '2', '--no-progress'],
      dir,
    );
    expect(bad.code).toBe(2);
    expect(bad.err.trimEnd().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/m\.onnx: no such file/);
  });

  it("predicts another seat's card in two steps (the live node's onnxruntime batch) exactly as in one (the TypeScript pass)", async () => {
    const ort = await OnnxPolicy.load(MODEL);
    const net = MlpPolicyNet.fromOnnx(MODEL, readFileSync(MODEL));
    const predictor = createPredictor({ kind: 'learned', seed: 7, net });
    let batched = 0;
    for (let g = 0; g < 2; g++) {
      const game = new Game(dealCards(createRng(43, g), (g & 3) as Seat));
      const players = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }));
      while (!game.isOver) {
        if (game.toMove !== 0) {
          const info = new SeatView(game, 0).snapshot();
          const once = predictor.predict(info, game.toMove);
          const pending = predictor.begin(info, game.toMove);
          if ('done' in pending) expect(pending.done).toEqual(once);
          else {
            batched++;
            // The TypeScript pass on the same batch: the very same numbers.
            const ts = new Float32Array(pending.batch * 40);
            net.forward(pending.features, pending.batch, ts);
            expect(pending.finish(ts)).toEqual(once);
            // onnxruntime on it: the same to float precision.
            const fromOrt = pending.finish(await ort.forward(pending.features, pending.batch));
            expect(fromOrt.cards).toEqual(once.cards);
            fromOrt.probabilities.forEach((p, i) => expect(Math.abs(p - once.probabilities[i]!)).toBeLessThan(1e-5));
          }
        }
        game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
      }
    }
    expect(batched).toBeGreaterThan(30);
    await ort.close();
  });
});

// Inference latency of a policy network: onnxruntime-node (one thread) and the forward pass
// of game/learned/mlp.ts, for one decision and for a batch of worlds (the decision of one seat in N
// deals of the unseen cards, as a search or a predictor asks). Medians of repeated runs, on real
// decisions of seeded games. Timings for comparing runs on one machine (the machines are shared).
//
//   npx tsc -p tsconfig.build.json && node dist/test/bench/policy-latency.js models/policy-timed-100ms-seed2311.onnx [--batch 64] [--runs 2000]

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Player, Seat } from '../../game/index.js';
import {
  DECISION_FEATURES,
  Game,
  MlpPolicyNet,
  RulePlayer,
  SeatView,
  WorldBuilder,
  createDealSampler,
  createRng,
  dealCards,
  encodeInfoSet,
} from '../../game/index.js';
import { OnnxPolicy } from '../../robot/learned/onnx.js';

const args = process.argv.slice(2);
const model = args.find((a) => a.endsWith('.onnx'));
if (!model) {
  console.error('usage: policy-latency MODEL.onnx [--batch N] [--runs N]');
  process.exit(2);
}
const opt = (name: string, d: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const batch = opt('--batch', 64);
const runs = opt('--runs', 2000);

// Decisions of seeded rule games; for the batch, worlds of the deciding seat's opponents drawn from its view.
const singles: Float32Array[] = [];
const batches: Float32Array[] = [];
const rng = createRng(2311);
for (let g = 0; singles.length < 200; g++) {
  const game = new Game(dealCards(createRng(2311, g), (g & 3) as Seat));
  const players: Player[] = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s }));
  while (!game.isOver) {
    const seat = game.toMove;
    const view = new SeatView(game, seat);
    const info = view.snapshot();
    singles.push(encodeInfoSet(info));
    if (batches.length < 50 && game.plays % 4 === 1) {
      // The next seat's decision in `batch` worlds of this seat's view (as a search asks about an opponent).
      const x = new Float32Array(batch * DECISION_FEATURES);
      const sampler = createDealSampler(info);
      const builder = new WorldBuilder(info);
      const next = game.clone();
      const card = players[seat]!.choose(view);
      for (let k = 0; k < batch; k++) {
        const w = builder.game(sampler.sample(rng));
        w.play(card);
        encodeInfoSet(new SeatView(w, w.toMove).snapshot(), x, k * DECISION_FEATURES);
      }
      batches.push(x);
      next.play(card);
    }
    game.play(players[seat]!.choose(view));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const us = (ms: number): string => `${(ms * 1000).toFixed(1)} us`;

const net = MlpPolicyNet.fromOnnx(model, readFileSync(model));
const ort = await OnnxPolicy.load(model);
const out1 = new Float32Array(40);
const outB = new Float32Array(40 * batch);

// Warm up both.
for (let i = 0; i < 200; i++) {
  net.forward(singles[i % singles.length]!, 1, out1);
  await ort.forward(singles[i % singles.length]!, 1);
}

const t1: number[] = [];
const o1: number[] = [];
const tb: number[] = [];
const ob: number[] = [];
for (let i = 0; i < runs; i++) {
  const x = singles[i % singles.length]!;
  let t = performance.now();
  net.forward(x, 1, out1);
  t1.push(performance.now() - t);
  t = performance.now();
  await ort.forward(x, 1);
  o1.push(performance.now() - t);
  if (i % 4 === 0) {
    const xb = batches[(i >> 2) % batches.length]!;
    t = performance.now();
    net.forward(xb, batch, outB);
    tb.push(performance.now() - t);
    t = performance.now();
    await ort.forward(xb, batch);
    ob.push(performance.now() - t);
  }
}
await ort.close();
const layers = net.layers
  .map((l) => l.inputs)
  .concat(40)
  .join('-');
console.log(
  JSON.stringify(
    {
      model,
      layers,
      runs,
      batch,
      onnxruntime: { batch1: us(median(o1)), [`batch${batch}`]: us(median(ob)), perWorld: us(median(ob) / batch) },
      typescript: { batch1: us(median(t1)), [`batch${batch}`]: us(median(tb)), perWorld: us(median(tb) / batch) },
    },
    null,
    1,
  ),
);

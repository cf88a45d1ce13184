// Does a policy network's order of the root moves save the solver work (Baier et al.
// bias search with a player model's probabilities)? The bench's 20 full deals (seed 4242,
// test/bench/solver.ts), the leader's cards valued two ways from an empty table: the victory class of
// each (classesAfter: the first card's bounds guess the next one's, and a card of the same power may be
// settled from a sibling) and one win test each (testAfter, the mover's team reaching 61). The cards
// are taken in the solver's order, in the network's (most probable first) and in the reverse. Nodes are
// exact: no timing here.
//
//   npx tsc -p tsconfig.build.json && node dist/test/bench/policy-order.js models/policy-timed-100ms-seed2311.onnx

import { readFileSync } from 'node:fs';
import type { Card } from '../../game/index.js';
import {
  DECISION_FEATURES,
  Game,
  MlpPolicyNet,
  Solver,
  createRng,
  dealCards,
  encodeInfoSet,
  infoSetOf,
} from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import { benchDeal } from './solver.js';

const model = process.argv[2];
if (!model?.endsWith('.onnx')) {
  console.error('usage: policy-order MODEL.onnx');
  process.exit(2);
}
const net = MlpPolicyNet.fromOnnx(model, readFileSync(model));
const solver = new Solver({ ttBits: 20 });
const x = new Float32Array(DECISION_FEATURES);
const p = new Float32Array(40);
const median = (a: number[]): number => {
  const s = [...a].sort((u, v) => u - v);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const orders = {
  solver: (cards: Card[]) => cards,
  policy: (cards: Card[]) => cards.sort((a, b) => p[b]! - p[a]!),
  reverse: (cards: Card[]) => cards.sort((a, b) => p[a]! - p[b]!),
};
const out: Record<string, { classesMedian: number; classesTotal: number; winMedian: number; winTotal: number }> = {};
for (const [name, order] of Object.entries(orders)) {
  const classes: number[] = [];
  const win: number[] = [];
  for (let i = 0; i < 20; i++) {
    const position = benchDeal(i);
    const game = new Game(dealCards(createRng(4242, i), (i & 3) as Seat));
    const seat = position.leader;
    encodeInfoSet(infoSetOf(game, seat, game.hand(seat)), x);
    net.forward(x, 1, p);
    solver.load(position);
    const cards = order(solver.legalCards(seat).slice());
    const bounds = new Int32Array(2 * cards.length);
    solver.clearTable();
    solver.load(position);
    let n0 = solver.nodes;
    solver.classesAfter(seat, cards, 0, bounds);
    classes.push(solver.nodes - n0);
    solver.clearTable();
    solver.load(position);
    n0 = solver.nodes;
    for (const c of cards) solver.testAfter(seat, c, 0, 61);
    win.push(solver.nodes - n0);
  }
  out[name] = {
    classesMedian: median(classes),
    classesTotal: classes.reduce((a, b) => a + b, 0),
    winMedian: median(win),
    winTotal: win.reduce((a, b) => a + b, 0),
  };
}
console.log(JSON.stringify({ model, deals: 20, seed: 4242, orders: out }, null, 1));

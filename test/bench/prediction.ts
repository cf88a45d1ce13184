// Fits the predictors' parameters (game/predict/fitted.ts) by maximum likelihood on simulated games.
//
//   node dist/test/bench/prediction.js fit [--games 20] [--seed 2201] [--players rule,expert,hybrid,timed:budget=50] [--budget 50] [--json]
//
// Plays `games` seeded games of four players of each kind listed, and at every decision of theirs
// (forced ones excepted) asks each model, with the deciding seat's TRUE hand (this fits the policy
// P(card | hand, public), not the observer's marginal over hands), how likely the card played was.
// Then a grid search over each model's temperature and mix maximizes the mean log-likelihood of the
// pooled decisions; per-kind optima are reported too. Copy the pooled optimum into fitted.ts.
// Seeds 2201.. are kept for fitting; the evaluation (`parceiro predict-eval`) uses others.

import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  DEFAULT_TOM1,
  ExpertSoftmaxPolicy,
  Game,
  GameSeatWorld,
  SeatView,
  Tom1Policy,
  createRng,
  dealCards,
  deriveSeed,
  playerFactory,
  ruleProbability,
} from '../../game/index.js';
import type { Card, Player, Seat } from '../../game/index.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    games: { type: 'string', default: '20' },
    seed: { type: 'string', default: '2201' },
    players: { type: 'string', default: 'rule,expert,hybrid,timed:budget=50' },
    budget: { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
    'tom1-worlds': { type: 'string' },
    'tom1-horizon': { type: 'string' },
    'tom1-candidates': { type: 'string' },
  },
});
const fail = (msg: string): never => {
  process.stderr.write(`prediction: ${msg}\n`);
  process.exit(2);
};
const int = (name: string, v: string | undefined): number => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fail(`--${name} expects a whole number, got "${v}"`);
};
if (positionals[0] !== 'fit')
  fail('usage: prediction.js fit [--games N] [--seed S] [--players a,b,...] [--budget MS] [--json]');
const games = int('games', values.games);
const seed = int('seed', values.seed);
const budget = int('budget', values.budget);
const kinds = values.players!.split(',').filter(Boolean);
for (const k of kinds) {
  try {
    playerFactory(k);
  } catch (e) {
    fail((e as Error).message);
  }
}

/** One decision: per model, the values the softmax is taken over (or the rule odds) and the index of the card played. */
interface Row {
  kind: string;
  legal: number;
  played: number;
  rule: number[];
  expert: number[];
  tom1: number[];
}

const clock = (): number => performance.now();
const expertScores = new ExpertSoftmaxPolicy(1, 1);
const tom1Settings = {
  ...DEFAULT_TOM1,
  ...(values['tom1-worlds'] ? { worlds: int('tom1-worlds', values['tom1-worlds']) } : {}),
  ...(values['tom1-horizon'] ? { horizon: int('tom1-horizon', values['tom1-horizon']) } : {}),
  ...(values['tom1-candidates'] ? { candidates: int('tom1-candidates', values['tom1-candidates']) } : {}),
};
const tom1 = new Tom1Policy({ ...tom1Settings, temperature: 1, expertTemperature: Infinity, mix: 1, seed });
const world = new GameSeatWorld();
const rows: Row[] = [];
const t0 = performance.now();
let tom1Ms = 0;
for (const kind of kinds) {
  for (let g = 0; g < games; g++) {
    const deal = dealCards(createRng(seed, g), (g & 3) as Seat);
    const players: Player[] = [0, 1, 2, 3].map((s) =>
      playerFactory(kind)({ seat: s as Seat, seed: deriveSeed(seed, g, s), clock, budgetMs: budget }),
    );
    const game = new Game(deal);
    while (!game.isOver) {
      const seat = game.toMove;
      const card = players[seat]!.choose(new SeatView(game, seat));
      const cards: Card[] = [];
      const scores = new Float64Array(10);
      const n = expertScores.scoresIn(game, seat, cards, scores);
      if (n > 1) {
        const w = world.at(game);
        const rule = cards.map((c) => ruleProbability(w.hand, 0, w.played, 0, w.trump, w.led, w.winning, c));
        const tCards: Card[] = [];
        const tValues = new Float64Array(10);
        const t1 = performance.now();
        tom1.cardValues(game, seat, tCards, tValues);
        tom1Ms += performance.now() - t1;
        // The two models list the legal cards in their own orders: read tom1's by card.
        const byCard = new Map(tCards.map((c, i) => [c, tValues[i]!]));
        rows.push({
          kind,
          legal: n,
          played: cards.indexOf(card),
          rule,
          expert: [...scores.subarray(0, n)],
          tom1: cards.map((c) => byCard.get(c)!),
        });
      }
      game.play(card);
    }
  }
}

/** Mean log-likelihood of the rows under a softmax of `key` at temperature t, mixed with uniform at `mix`. */
function softmaxLL(sel: Row[], key: 'expert' | 'tom1', t: number, mix: number): number {
  let ll = 0;
  for (const r of sel) {
    const v = r[key];
    const max = Math.max(...v);
    let sum = 0;
    for (const x of v) sum += Math.exp((x - max) / t);
    const p = (mix * Math.exp((v[r.played]! - max) / t)) / sum + (1 - mix) / r.legal;
    ll += Math.log(p);
  }
  return ll / sel.length;
}
function ruleLL(sel: Row[], mix: number): number {
  let ll = 0;
  for (const r of sel) ll += Math.log(mix * r.rule[r.played]! + (1 - mix) / r.legal);
  return ll / sel.length;
}

const TEMPS = [0.05, 0.1, 0.15, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32];
const MIXES = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99];
const round = (v: number, d = 4): number => Number(v.toFixed(d));
function fit(sel: Row[]): Record<string, unknown> {
  // tom1: the rollout values and the expert's scores in one exponent, both temperatures on the grid.
  let tom1: { temperature: number; expertTemperature: number; mix: number; meanLogLikelihood: number } = {
    temperature: 0,
    expertTemperature: 0,
    mix: 0,
    meanLogLikelihood: -Infinity,
  };
  for (const t of TEMPS)
    for (const te of [...TEMPS, Infinity]) {
      const combined = sel.map((r) => ({
        ...r,
        tom1: r.tom1.map((v, i) => v + (Number.isFinite(te) ? (r.expert[i]! * t) / te : 0)),
      }));
      for (const m of MIXES) {
        const ll = softmaxLL(combined, 'tom1', t, m);
        if (ll > tom1.meanLogLikelihood)
          tom1 = { temperature: t, expertTemperature: te, mix: m, meanLogLikelihood: round(ll) };
      }
    }
  const best = (key: 'expert' | 'tom1'): { temperature: number; mix: number; meanLogLikelihood: number } => {
    let b = { temperature: 0, mix: 0, meanLogLikelihood: -Infinity };
    for (const t of TEMPS)
      for (const m of MIXES) {
        const ll = softmaxLL(sel, key, t, m);
        if (ll > b.meanLogLikelihood) b = { temperature: t, mix: m, meanLogLikelihood: round(ll) };
      }
    return b;
  };
  let rule = { mix: 0, meanLogLikelihood: -Infinity };
  for (const m of MIXES) {
    const ll = ruleLL(sel, m);
    if (ll > rule.meanLogLikelihood) rule = { mix: m, meanLogLikelihood: round(ll) };
  }
  const uniform = sel.reduce((s, r) => s - Math.log(r.legal), 0) / sel.length;
  return {
    decisions: sel.length,
    uniform: round(uniform),
    rule,
    expert: best('expert'),
    tom1Rollouts: best('tom1'),
    tom1,
  };
}

const result = {
  games,
  seed,
  players: kinds,
  budgetMs: budget,
  tom1: tom1Settings,
  tom1MsPerDecision: round(tom1Ms / rows.length, 3),
  seconds: round((performance.now() - t0) / 1000, 1),
  pooled: fit(rows),
  byKind: Object.fromEntries(kinds.map((k) => [k, fit(rows.filter((r) => r.kind === k))])),
};
process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);

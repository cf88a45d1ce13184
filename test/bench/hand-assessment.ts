// The hand assessment at the deal (game/assessment, after Marincic et al.'s Tarok bidding): fits its
// model to simulated games and measures it against the search's estimate and against game outcomes.
//
//   node dist/test/bench/hand-assessment.js fit [--deals 4000] [--worlds 8] [--seed 404] [--out FILE]
//     Deals `deals` hands to each seat; for each hand, `worlds` deals of the other 30 cards (the
//     dealer keeps the turned-up card) are played out by four `expert` players; the model is fitted
//     to the hand's mean points (least squares) and its share of wins (logistic), and written to
//     game/assessment/fitted-model.ts (then `npm run build`).
//   node dist/test/bench/hand-assessment.js evaluate [--deals 300] [--seed 405] [--search 200] [--search-ms 150] [--json]
//     On other deals: the model against the search's 150 ms estimate (the robot's expectation worker)
//     for `search` hands, and against the outcome of each deal played out by four `expert` players:
//     correlation, Brier score, calibration by tenths, the combination with the search (Marincic et
//     al.'s weight) for ks 0..1, and the model's cost in microseconds.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  DECK,
  ExpertPlayer,
  FEATURE_COUNT,
  Game,
  HAND_FEATURES,
  HandAssessor,
  combineEstimates,
  createRng,
  dealCards,
  deriveSeed,
  handFeatures,
  infoSetOf,
  playGame,
  shuffleInPlace,
  teamOf,
} from '../../game/index.js';
import type { Card, Deal, HandAssessment, HandModel, Seat } from '../../game/index.js';
import estimateWorker from '../../robot/live/node/expectation-worker.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    deals: { type: 'string' },
    worlds: { type: 'string', default: '8' },
    seed: { type: 'string' },
    search: { type: 'string', default: '200' },
    'search-ms': { type: 'string', default: '150' },
    json: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const mode = positionals[0];
const int = (name: string, v: string | undefined, fallback: number): number => {
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`hand-assessment: --${name} expects a whole number, got "${v}"\n`);
    process.exit(2);
  }
  return n;
};

/** The deal of hand set `i`: dealt by seat i mod 4, as the solver bench deals. */
const dealOf = (seed: number, i: number): Deal => dealCards(createRng(seed, i), (i & 3) as Seat);

const experts = (seed: number): ExpertPlayer[] =>
  [0, 1, 2, 3].map((s) => new ExpertPlayer({ seat: s as Seat, seed: deriveSeed(seed, s) }));

/** `seat`'s team's points when four experts play `deal` out. */
const playOut = (deal: Deal, seat: Seat, seed: number): number => playGame(deal, experts(seed)).points(teamOf(seat));

/** Deals of the other 30 cards around `seat`'s hand (the dealer keeps the turned-up card), played out. */
function simulate(deal: Deal, seat: Seat, worlds: number, seed: number): { points: number; wins: number } {
  const hand = deal.hands[seat]!;
  const rest = DECK.filter((c) => !hand.includes(c) && (seat === deal.dealer || c !== deal.trumpCard));
  const rng = createRng(seed);
  let points = 0;
  let wins = 0;
  for (let w = 0; w < worlds; w++) {
    shuffleInPlace(rest, rng);
    const hands: Card[][] = [[], [], [], []];
    hands[seat] = [...hand];
    if (seat !== deal.dealer) hands[deal.dealer]!.push(deal.trumpCard);
    let k = 0;
    for (let s = 0; s < 4; s++) while (s !== seat && hands[s]!.length < 10) hands[s]!.push(rest[k++]!);
    const p = playOut({ dealer: deal.dealer, trumpCard: deal.trumpCard, hands }, seat, deriveSeed(seed, w));
    points += p;
    if (p > 60) wins++;
  }
  return { points: points / worlds, wins: wins / worlds };
}

// ---- fitting: ridge least squares and logistic regression by Newton steps ------------------------

/** Solves the d x d system A x = b (A symmetric positive definite) by Cholesky. */
function solve(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j]!;
      for (let k = 0; k < j; k++) s -= l[i * d + k]! * l[j * d + k]!;
      l[i * d + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / l[j * d + j]!;
    }
  }
  const y = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * d + k]! * y[k]!;
    y[i] = s / l[i * d + i]!;
  }
  const x = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < d; k++) s -= l[k * d + i]! * x[k]!;
    x[i] = s / l[i * d + i]!;
  }
  return x;
}

/** Rows of [1, features...]: weighted normal equations X'WX + ridge, X'(r). */
function normal(
  rows: Float64Array[],
  weight: (i: number) => number,
  residual: (i: number) => number,
  d: number,
  ridge: number,
): { a: Float64Array; b: Float64Array } {
  const a = new Float64Array(d * d);
  const b = new Float64Array(d);
  rows.forEach((x, i) => {
    const w = weight(i);
    const r = residual(i);
    for (let j = 0; j < d; j++) {
      b[j]! += x[j]! * r;
      for (let k = 0; k <= j; k++) a[j * d + k]! += w * x[j]! * x[k]!;
    }
  });
  for (let j = 0; j < d; j++) {
    for (let k = 0; k < j; k++) a[k * d + j] = a[j * d + k]!;
    if (j > 0) a[j * d + j]! += ridge;
  }
  return { a, b };
}

function fitLinear(rows: Float64Array[], y: number[], d: number, ridge: number): Float64Array {
  const { a, b } = normal(
    rows,
    () => 1,
    (i) => y[i]!,
    d,
    ridge,
  );
  return solve(a, b, d);
}

/** Logistic regression on fractional targets (the share of worlds won), by Newton's method. */
function fitLogistic(rows: Float64Array[], y: number[], d: number, ridge: number): Float64Array {
  let w = new Float64Array(d);
  const p = new Float64Array(rows.length);
  for (let iter = 0; iter < 30; iter++) {
    rows.forEach((x, i) => {
      let z = 0;
      for (let j = 0; j < d; j++) z += w[j]! * x[j]!;
      p[i] = 1 / (1 + Math.exp(-z));
    });
    const { a, b } = normal(
      rows,
      (i) => Math.max(1e-6, p[i]! * (1 - p[i]!)),
      (i) => y[i]! - p[i]!,
      d,
      ridge,
    );
    for (let j = 1; j < d; j++) b[j]! -= ridge * w[j]!;
    const step = solve(a, b, d);
    let size = 0;
    w = w.map((v, j) => {
      size = Math.max(size, Math.abs(step[j]!));
      return v + step[j]!;
    });
    if (size < 1e-9) break;
  }
  return w;
}

const round = (v: number, digits = 4): number => Number(v.toFixed(digits));

function fit(): void {
  const deals = int('deals', values.deals, 4000);
  const worlds = int('worlds', values.worlds, 8);
  const seed = int('seed', values.seed, 404);
  const rows: Float64Array[] = [];
  const points: number[] = [];
  const wins: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < deals; i++) {
    const deal = dealOf(seed, i);
    for (let s = 0; s < 4; s++) {
      const seat = s as Seat;
      const x = new Float64Array(FEATURE_COUNT + 1);
      x[0] = 1;
      x.set(handFeatures(deal.hands[seat]!, seat, deal.dealer, deal.trumpCard), 1);
      const r = simulate(deal, seat, worlds, deriveSeed(seed, i, s));
      rows.push(x);
      points.push(r.points);
      wins.push(r.wins);
    }
    if ((i + 1) % 500 === 0) process.stderr.write(`hand-assessment: ${i + 1} of ${deals} deals simulated\n`);
  }
  const d = FEATURE_COUNT + 1;
  const lin = fitLinear(rows, points, d, 1e-3 * rows.length);
  const log = fitLogistic(rows, wins, d, 1e-3 * rows.length);
  const model: HandModel = {
    features: HAND_FEATURES,
    points: { intercept: round(lin[0]!), weights: [...lin.slice(1)].map((v) => round(v)) },
    win: { intercept: round(log[0]!), weights: [...log.slice(1)].map((v) => round(v)) },
    fittedOn: `node dist/test/bench/hand-assessment.js fit --deals ${deals} --worlds ${worlds} --seed ${seed}: ${rows.length} hands, each with ${worlds} deals of the other cards played out by four expert players`,
  };
  const file = values.out ?? join(import.meta.dirname, '../../../game/assessment/fitted-model.ts');
  const weights = (w: readonly number[]): string => `[${w.join(', ')}]`;
  writeFileSync(
    file,
    `// Written by \`node dist/test/bench/hand-assessment.js fit\` (do not edit): the hand assessment's model.
// Weights in the order of HAND_FEATURES: ${HAND_FEATURES.join(', ')}.
import type { HandModel } from './features.js';
import { HAND_FEATURES } from './features.js';

export const FITTED_MODEL: HandModel = {
  features: HAND_FEATURES,
  points: { intercept: ${model.points.intercept}, weights: ${weights(model.points.weights)} },
  win: { intercept: ${model.win.intercept}, weights: ${weights(model.win.weights)} },
  fittedOn: ${JSON.stringify(model.fittedOn)},
};
`,
  );
  const table = HAND_FEATURES.map(
    (f, j) =>
      `  ${f.padEnd(24)} points ${model.points.weights[j]!.toFixed(2).padStart(7)}   win (log-odds) ${model.win.weights[j]!.toFixed(3).padStart(7)}`,
  );
  process.stdout.write(
    `fitted on ${rows.length} hands in ${((performance.now() - t0) / 1000).toFixed(1)} s; intercepts: points ${model.points.intercept}, win ${model.win.intercept}\n${table.join('\n')}\nwritten to ${file}\n`,
  );
}

// ---- evaluation ------------------------------------------------------------------------------

function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}
const brier = (p: readonly number[], won: readonly number[]): number =>
  p.reduce((s, v, i) => s + (v - won[i]!) ** 2, 0) / p.length;
const rmse = (a: readonly number[], b: readonly number[]): number =>
  Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]!) ** 2, 0) / a.length);

/** Predicted win probability by tenths against the share of games won. */
function calibration(
  p: readonly number[],
  won: readonly number[],
): { bin: string; hands: number; predicted: number; won: number }[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({
    bin: `${i * 10}-${i * 10 + 10}%`,
    hands: 0,
    predicted: 0,
    won: 0,
  }));
  p.forEach((v, i) => {
    const b = bins[Math.min(9, Math.floor(v * 10))]!;
    b.hands++;
    b.predicted += v;
    b.won += won[i]!;
  });
  return bins
    .filter((b) => b.hands > 0)
    .map((b) => ({ ...b, predicted: round(b.predicted / b.hands, 3), won: round(b.won / b.hands, 3) }));
}

function evaluate(): void {
  const deals = int('deals', values.deals, 300);
  const seed = int('seed', values.seed, 405);
  const searchHands = int('search', values.search, 200);
  const searchMs = int('search-ms', values['search-ms'], 150);
  const assessor = new HandAssessor();
  const model: HandAssessment[] = [];
  const outcome: number[] = [];
  const simulated: number[] = [];
  const search: HandAssessment[] = [];
  const hands: { deal: Deal; seat: Seat }[] = [];
  for (let i = 0; i < deals; i++) {
    const deal = dealOf(seed, i);
    const played = playGame(deal, experts(deriveSeed(seed, i)));
    for (let s = 0; s < 4; s++) {
      const seat = s as Seat;
      hands.push({ deal, seat });
      model.push(assessor.assess(deal.hands[seat]!, seat, deal.dealer, deal.trumpCard));
      outcome.push(played.points(teamOf(seat)));
      simulated.push(simulate(deal, seat, 32, deriveSeed(seed, i, s, 1)).points);
    }
  }
  // The search's estimate, as the robot makes it at the deal: the expectation worker within its budget.
  const clock = (): number => performance.timeOrigin + performance.now();
  const step = Math.max(1, Math.floor(hands.length / Math.max(1, searchHands)));
  const searched: number[] = [];
  for (let i = 0; i < hands.length && searched.length < searchHands; i += step) {
    const { deal, seat } = hands[i]!;
    const info = infoSetOf(
      new Game({ dealer: deal.dealer, trumpCard: deal.trumpCard, hands: null }),
      seat,
      deal.hands[seat]!,
    );
    const sums = estimateWorker({
      info,
      deadline: clock() + searchMs,
      maxWorlds: 10_000,
      exactTricks: 5,
      seed: deriveSeed(seed, i, 0xe5),
      trust: 0,
    });
    if (sums.worlds === 0) continue;
    searched.push(i);
    search.push({ expectedPoints: sums.points / sums.worlds, winProbability: sums.wins / sums.worlds });
  }
  // The model's cost: many assessments of the same hands.
  const reps = 200_000;
  const t0 = performance.now();
  let sink = 0;
  for (let r = 0; r < reps; r++) {
    const { deal, seat } = hands[r % hands.length]!;
    sink += assessor.assess(deal.hands[seat]!, seat, deal.dealer, deal.trumpCard).expectedPoints;
  }
  const microseconds = ((performance.now() - t0) * 1000) / reps;
  const won = outcome.map((p) => (p > 60 ? 1 : 0));
  const sub = <T>(xs: readonly T[]): T[] => searched.map((i) => xs[i]!);
  const mp = model.map((m) => m.expectedPoints);
  const mw = model.map((m) => m.winProbability);
  const combined = [0, 0.25, 0.5, 0.75, 1].map((ks) => {
    const c = sub(model).map((m, j) => combineEstimates(m, search[j]!, ks));
    return {
      ks,
      pointsCorrelation: round(
        pearson(
          c.map((x) => x.expectedPoints),
          sub(outcome),
        ),
        3,
      ),
      brier: round(
        brier(
          c.map((x) => x.winProbability),
          sub(won),
        ),
        4,
      ),
    };
  });
  const report = {
    hands: hands.length,
    seed,
    model: {
      fittedOn: assessor.model.fittedOn,
      microsecondsPerHand: round(microseconds, 3),
      vsSimulated32: { pointsCorrelation: round(pearson(mp, simulated), 3), pointsRmse: round(rmse(mp, simulated), 2) },
      vsOutcome: {
        pointsCorrelation: round(pearson(mp, outcome), 3),
        pointsRmse: round(rmse(mp, outcome), 2),
        brier: round(brier(mw, won), 4),
        calibration: calibration(mw, won),
      },
    },
    search: {
      hands: search.length,
      budgetMs: searchMs,
      agreement: {
        pointsCorrelation: round(
          pearson(
            sub(mp),
            search.map((s) => s.expectedPoints),
          ),
          3,
        ),
        winCorrelation: round(
          pearson(
            sub(mw),
            search.map((s) => s.winProbability),
          ),
          3,
        ),
        pointsMeanAbsDifference: round(
          sub(mp).reduce((s, v, j) => s + Math.abs(v - search[j]!.expectedPoints), 0) / search.length,
          2,
        ),
      },
      vsOutcome: {
        pointsCorrelation: round(
          pearson(
            search.map((s) => s.expectedPoints),
            sub(outcome),
          ),
          3,
        ),
        brier: round(
          brier(
            search.map((s) => s.winProbability),
            sub(won),
          ),
          4,
        ),
      },
      modelOnTheseHands: {
        pointsCorrelation: round(pearson(sub(mp), sub(outcome)), 3),
        brier: round(brier(sub(mw), sub(won)), 4),
      },
    },
    combined,
    sink: sink > 0,
  };
  if (values.json) return void process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const r = report;
  process.stdout.write(
    [
      `${r.hands} hands (${deals} deals, seed ${seed}); model: ${r.model.fittedOn}`,
      `cost: ${r.model.microsecondsPerHand} µs a hand (the search's estimate: ${searchMs} ms)`,
      `model vs 32 simulated deals of the same hand: r = ${r.model.vsSimulated32.pointsCorrelation}, RMSE ${r.model.vsSimulated32.pointsRmse} points`,
      `model vs the game's outcome: points r = ${r.model.vsOutcome.pointsCorrelation}, RMSE ${r.model.vsOutcome.pointsRmse}; Brier ${r.model.vsOutcome.brier}`,
      `model vs the search's ${searchMs} ms estimate (${r.search.hands} hands): points r = ${r.search.agreement.pointsCorrelation}, win r = ${r.search.agreement.winCorrelation}, mean |difference| ${r.search.agreement.pointsMeanAbsDifference} points`,
      `search vs the game's outcome: points r = ${r.search.vsOutcome.pointsCorrelation}, Brier ${r.search.vsOutcome.brier} (the model on these hands: r = ${r.search.modelOnTheseHands.pointsCorrelation}, Brier ${r.search.modelOnTheseHands.brier})`,
      `combined, ks x search + (1 - ks) x model, vs the outcome: ${r.combined.map((c) => `ks ${c.ks}: r ${c.pointsCorrelation}, Brier ${c.brier}`).join('; ')}`,
      'calibration (model, by predicted win probability): ' +
        r.model.vsOutcome.calibration
          .map((b) => `${b.bin}: ${b.hands} hands, predicted ${b.predicted}, won ${b.won}`)
          .join('; '),
    ].join('\n') + '\n',
  );
}

if (mode === 'fit') fit();
else if (mode === 'evaluate') evaluate();
else {
  process.stderr.write(
    'usage: hand-assessment.js fit|evaluate [--deals N] [--seed N] [--worlds N] [--search N] [--search-ms MS] [--json]\n',
  );
  process.exit(2);
}
